// A downstream user's halo exchange through loopnest::mpi: a periodic 1D field set split over the
// ranks; after the exchange each rank's lower ghost holds the last cell of the rank below.
#include <loopnest/field_set.hpp>
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/halo_exchange.hpp>

#include <mpi.h>

#include <cstdio>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int failed = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const loopnest::cartesian_decomposition d(MPI_COMM_WORLD, {16}, {}, {true});
    using fields = loopnest::field_set<double>;
    const fields f("f", 1, {d.local_extent(0)}, 1);
    auto h = Kokkos::create_mirror_view(f.field(0));
    for (int i = 0; i < d.local_extent(0); ++i) {
      h(i + 1, 0, 0) = d.offset(0) + i;  // the global index of each cell
    }
    Kokkos::deep_copy(f.field(0), h);
    loopnest::halo_exchange<loopnest::collapse3, fields>(Kokkos::DefaultExecutionSpace(), d, f)
        .exchange(f);
    Kokkos::deep_copy(h, f.field(0));
    const double below = (d.offset(0) + 15) % 16;
    std::printf("rank %d: ghost below = %g (expected %g)\n", d.rank(), h(0, 0, 0), below);
    failed = h(0, 0, 0) == below ? 0 : 1;
  }
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
