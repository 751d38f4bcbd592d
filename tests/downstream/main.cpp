// A downstream user's first kernel: fill a field with collapse3 and check it on the host.
#include <loopnest/loopnest.hpp>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = 8, nvar = 3;
  Kokkos::View<double****, Kokkos::LayoutLeft> q("q", n, n, n, nvar);
  loopnest::for_each_cell_var<loopnest::collapse3>(
      Kokkos::DefaultExecutionSpace(), loopnest::box<3>{{0, 0, 0}, {n, n, n}}, nvar,
      KOKKOS_LAMBDA(int i, int j, int k, int v) {
        q(i, j, k, v) = i + 10 * j + 100 * k + 1000 * v;
      });
  const auto h        = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  const double expect = 7 + 10 * 6 + 100 * 5 + 1000 * 2;
  std::printf("q(7,6,5,2) = %g\n", h(7, 6, 5, 2));
  return h(7, 6, 5, 2) == expect ? 0 : 1;
}
