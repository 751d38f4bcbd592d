// loopnest::distributed_diffusion_solver on the ranks of the test's mpirun (1, 2 or 4): the
// gathered field after N steps is bit-identical to the single-rank solver's, for every
// decomposition, with and without overlap, in FP32 and FP64.
#include "mpi_checks.hpp"

#include <loopnest/diffusion.hpp>
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/diffusion.hpp>

#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using loopnest::cartesian_decomposition;
using loopnest::halo_transport;
using loopnest_test::expect_same_error_on_every_rank;
using loopnest_test::world_rank;
using loopnest_test::world_size;

using exec_space = Kokkos::DefaultExecutionSpace;

template <class T>
std::vector<T> random_field(int nx, int ny, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<T> u(T(0), T(1));
  std::vector<T> f(static_cast<std::size_t>(nx) * ny);
  for (auto& x : f) {
    x = u(rng);
  }
  return f;
}

template <class T>
void check_against_one_rank(int nx, int ny, const std::vector<int>& ranks, halo_transport t,
                            bool overlap, int steps, bool random) {
  const cartesian_decomposition d(MPI_COMM_WORLD, {nx, ny}, ranks);
  loopnest::distributed_diffusion_solver<T> solver(exec_space(), d, t, overlap);
  loopnest::diffusion_solver<T, loopnest::fastest_diffusion_variant> one(exec_space(), nx, ny);
  // The same random field on every rank: the seed is the same.
  const auto start = random ? random_field<T>(nx, ny, 1234U + static_cast<unsigned>(nx))
                            : loopnest::diffusion_initial_condition<T>(nx, ny);
  solver.set_field(start);
  one.set_field(start);
  // Poison what the first step must overwrite (every global interior cell of this rank's block):
  // a cell a step leaves unwritten shows.
  const auto next = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), solver.next());
  for (int j = 0; j < d.local_extent(1); ++j) {
    for (int i = 0; i < d.local_extent(0); ++i) {
      const int gi = d.offset(0) + i, gj = d.offset(1) + j;
      if (gi > 0 && gi < nx - 1 && gj > 0 && gj < ny - 1) {
        next(i + 1, j + 1) = T(-1e30);
      }
    }
  }
  Kokkos::deep_copy(solver.next(), next);
  solver.advance(steps);
  one.advance(steps);
  const auto gathered = solver.gather();
  bool same           = true;
  std::string where   = "grid " + std::to_string(nx) + "x" + std::to_string(ny) + ", ranks " +
                      std::to_string(d.ranks(0)) + "x" + std::to_string(d.ranks(1)) + ", " +
                      name(t) + (overlap ? ", overlap" : "") + (random ? ", random" : "");
  if (world_rank() == 0) {
    const auto want = one.field();
    same            = gathered.size() == want.size() &&
           std::memcmp(gathered.data(), want.data(), want.size() * sizeof(T)) == 0;
  } else {
    EXPECT_TRUE(gathered.empty());
  }
  int verdict = same ? 1 : 0;
  MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
  EXPECT_EQ(verdict, 1) << where << ": the gathered field differs from one rank's";
}

template <class T>
void check_decompositions() {
  const int p = world_size();
  // Every transport this build and MPI library can run.
  std::vector<halo_transport> transports;
  for (const auto t : loopnest::halo_transports) {
    if (loopnest::halo_transport_available<exec_space>(t, MPI_COMM_WORLD)) {
      transports.push_back(t);
    }
  }
  for (const auto& ranks : std::vector<std::vector<int>>{{0, 0}, {p, 1}, {1, p}}) {
    for (const bool overlap : {true, false}) {
      check_against_one_rank<T>(33, 21, ranks, transports.front(), overlap, 40, false);
      check_against_one_rank<T>(10, 7, ranks, transports.back(), overlap, 9, true);
    }
  }
  // Blocks of one or two cells along an axis: the inner part is empty, every cell reads a ghost.
  check_against_one_rank<T>(2 * p + 1, 5, {p, 1}, transports.back(), true, 6, true);
}

TEST(distributed_diffusion, bit_identical_to_one_rank_fp64) {
  check_decompositions<double>();
}
TEST(distributed_diffusion, bit_identical_to_one_rank_fp32) {
  check_decompositions<float>();
}

TEST(distributed_diffusion, refuses_a_periodic_decomposition) {
  const cartesian_decomposition d(MPI_COMM_WORLD, {16, 16}, {}, {true, false});
  expect_same_error_on_every_rank<std::invalid_argument>(
      [&] { loopnest::distributed_diffusion_solver<double> s(exec_space(), d); },
      "loopnest::distributed_diffusion_solver: a periodic axis in the decomposition");
}

TEST(distributed_diffusion, refuses_an_unstable_alpha) {
  const cartesian_decomposition d(MPI_COMM_WORLD, {16, 16});
  expect_same_error_on_every_rank<std::invalid_argument>(
      [&] {
        loopnest::distributed_diffusion_solver<double> s(exec_space(), d, halo_transport::mpi_host,
                                                         true, 0.3);
      },
      "alpha = 0.300000 is outside [0, 0.25]");
}

}  // namespace
