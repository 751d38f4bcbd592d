// loopnest::distributed_reduce_cell and distributed_reduce_cell_var on the ranks of the test's
// mpirun (1, 2 or 4): a sum, a sum over variables, a max and a Kokkos::MinLoc over random 3D and
// 2D fields split along i, j and k at tile boundaries, the same bits on every rank as
// loopnest::reduce_cell over the whole field on one rank, and the errors every rank must see
// alike.
#include "mpi_checks.hpp"

#include <loopnest/box.hpp>
#include <loopnest/mpi/reduce.hpp>
#include <loopnest/reduce.hpp>
#include <loopnest/schedule.hpp>

#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

using loopnest_test::expect_same_error_on_every_rank;
using loopnest_test::world_rank;
using loopnest_test::world_size;

using exec_space = Kokkos::DefaultExecutionSpace;
using field3     = Kokkos::View<double****, Kokkos::LayoutLeft, exec_space>;  // (i, j, k, v)
using field2     = Kokkos::View<double**, Kokkos::LayoutLeft, exec_space>;    // (i, j)
using min_loc    = Kokkos::MinLoc<double, long>;

const loopnest::box<3> global3{{-3, 2, -1}, {8, 39, 20}};  // 11 x 37 x 21: tiles cut j and k
const loopnest::box<2> global2{{1, -5}, {8, 95}};          // 7 x 100: tiles cut j
constexpr int nvar = 3;

// A seed drawn on rank 0 and shared, so that every run draws fresh fields and every rank the same.
unsigned shared_seed() {
  unsigned seed = world_rank() == 0 ? std::random_device{}() : 0U;
  MPI_Bcast(&seed, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  return seed;
}

// Values from 1e-8 to 1e8 of both signs, so that every order of a sum rounds differently; cells
// outside `keep` (box corners lower and upper, cell indices) are NaN, so that a rank that reduced
// a cell of another rank's block gives NaN, not the single-rank bits.
template <class View>
View random_field(View q, unsigned seed, const int* lower, const int* keep_lower,
                  const int* keep_upper, int rank) {
  auto host = Kokkos::create_mirror_view(q);
  std::mt19937_64 draw(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-8, 8);
  for (std::size_t n = 0; n < host.span(); ++n) {
    std::size_t rest = n;
    bool kept        = true;
    for (int d = 0; d < rank; ++d) {
      const int cell = lower[d] + static_cast<int>(rest % host.extent(d));
      rest /= host.extent(d);
      kept = kept && cell >= keep_lower[d] && cell < keep_upper[d];
    }
    const double x = mantissa(draw) * std::pow(10.0, exponent(draw));
    host.data()[n] = kept ? x : std::nan("");
  }
  Kokkos::deep_copy(q, host);
  return q;
}

field3 field_3d(unsigned seed, const loopnest::box<3>& keep) {
  const int lower[3] = {global3.lower(0), global3.lower(1), global3.lower(2)};
  const int kl[3]    = {keep.lower(0), keep.lower(1), keep.lower(2)};
  const int ku[3]    = {keep.upper(0), keep.upper(1), keep.upper(2)};
  return random_field(field3("q", global3.extent(0), global3.extent(1), global3.extent(2), nvar),
                      seed, lower, kl, ku, 3);
}

field2 field_2d(unsigned seed, const loopnest::box<2>& keep) {
  const int lower[2] = {global2.lower(0), global2.lower(1)};
  const int kl[2]    = {keep.lower(0), keep.lower(1)};
  const int ku[2]    = {keep.upper(0), keep.upper(1)};
  return random_field(field2("q", global2.extent(0), global2.extent(1)), seed, lower, kl, ku, 2);
}

// [lower, lower + extent) cut into `pieces` at multiples of `along` from lower: piece c.
std::pair<int, int> cut(int lower, int extent, int pieces, int along, int c) {
  const int tiles = (extent + along - 1) / along;
  const auto edge = [&](int n) { return std::min(extent, along * (tiles * n / pieces)); };
  return {lower + edge(c), lower + edge(c + 1)};
}

// A rank's block: 3D along j (and k on 4 ranks) at the 8-cell tiles, 2D along j (and i on 4
// ranks) at the 32-cell tiles.
loopnest::box<3> block_3d(int rank) {
  const int pk = world_size() > 2 && world_size() % 2 == 0 ? 2 : 1, pj = world_size() / pk;
  const auto j = cut(global3.lower(1), global3.extent(1), pj, 8, rank % pj);
  const auto k = cut(global3.lower(2), global3.extent(2), pk, 8, rank / pj);
  return {{global3.lower(0), j.first, k.first}, {global3.upper(0), j.second, k.second}};
}

loopnest::box<2> block_2d() {
  const int pi = world_size() > 2 && world_size() % 2 == 0 ? 2 : 1, pj = world_size() / pi;
  const auto i = cut(global2.lower(0), global2.extent(0), pi, 1, world_rank() % pi);
  const auto j = cut(global2.lower(1), global2.extent(1), pj, 32, world_rank() / pi);
  return {{i.first, j.first}, {i.second, j.second}};
}

// The four reductions, by one call each: the distributed ones when `global` is given, else the
// single-rank ones over b.
struct results {
  double sum = std::nan(""), sum_var = std::nan(""), max = std::nan("");
  min_loc::value_type min{};
};

void reduce_3d(const field3& q, const loopnest::box<3>& b, const loopnest::box<3>* global,
               results& r) {
  const int i0 = global3.lower(0), j0 = global3.lower(1), k0 = global3.lower(2);
  const auto at = KOKKOS_LAMBDA(int i, int j, int k, int v) {
    return q(i - i0, j - j0, k - k0, v);
  };
  const auto sum = KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
    acc += at(i, j, k, 0);
  };
  const auto sum_var = KOKKOS_LAMBDA(int i, int j, int k, int v, double& acc) {
    acc += at(i, j, k, v);
  };
  const auto max = KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
    acc = acc > at(i, j, k, 1) ? acc : at(i, j, k, 1);
  };
  const auto min = KOKKOS_LAMBDA(int i, int j, int k, min_loc::value_type& acc) {
    const double x = at(i, j, k, 2);
    if (x < acc.val) {
      acc.val = x;
      acc.loc = (i - i0) + 100L * ((j - j0) + 100L * (k - k0));
    }
  };
  using loopnest::collapse3;
  if (global == nullptr) {
    loopnest::reduce_cell<collapse3>(exec_space(), b, sum, Kokkos::Sum<double>(r.sum));
    loopnest::reduce_cell_var<collapse3>(exec_space(), b, nvar, sum_var,
                                         Kokkos::Sum<double>(r.sum_var));
    loopnest::reduce_cell<collapse3>(exec_space(), b, max, Kokkos::Max<double>(r.max));
    loopnest::reduce_cell<collapse3>(exec_space(), b, min, min_loc(r.min));
  } else {
    MPI_Comm comm = MPI_COMM_WORLD;
    loopnest::distributed_reduce_cell<collapse3>(exec_space(), comm, *global, b, sum,
                                                 Kokkos::Sum<double>(r.sum));
    loopnest::distributed_reduce_cell_var<loopnest::flat>(exec_space(), comm, *global, b, nvar,
                                                          sum_var, Kokkos::Sum<double>(r.sum_var));
    loopnest::distributed_reduce_cell<collapse3>(exec_space(), comm, *global, b, max,
                                                 Kokkos::Max<double>(r.max));
    loopnest::distributed_reduce_cell<collapse3>(exec_space(), comm, *global, b, min,
                                                 min_loc(r.min));
  }
}

void reduce_2d(const field2& q, const loopnest::box<2>& b, const loopnest::box<2>* global,
               results& r) {
  const int i0 = global2.lower(0), j0 = global2.lower(1);
  const auto sum = KOKKOS_LAMBDA(int i, int j, double& acc) {
    acc += q(i - i0, j - j0);
  };
  const auto max = KOKKOS_LAMBDA(int i, int j, double& acc) {
    acc = acc > q(i - i0, j - j0) ? acc : q(i - i0, j - j0);
  };
  const auto min = KOKKOS_LAMBDA(int i, int j, min_loc::value_type& acc) {
    if (q(i - i0, j - j0) < acc.val) {
      acc.val = q(i - i0, j - j0);
      acc.loc = (i - i0) + 1000L * (j - j0);
    }
  };
  using loopnest::collapse3;
  if (global == nullptr) {
    loopnest::reduce_cell<collapse3>(exec_space(), b, sum, Kokkos::Sum<double>(r.sum));
    loopnest::reduce_cell<collapse3>(exec_space(), b, max, Kokkos::Max<double>(r.max));
    loopnest::reduce_cell<collapse3>(exec_space(), b, min, min_loc(r.min));
  } else {
    MPI_Comm comm = MPI_COMM_WORLD;
    loopnest::distributed_reduce_cell<loopnest::flat>(exec_space(), comm, *global, b, sum,
                                                      Kokkos::Sum<double>(r.sum));
    loopnest::distributed_reduce_cell<collapse3>(exec_space(), comm, *global, b, max,
                                                 Kokkos::Max<double>(r.max));
    loopnest::distributed_reduce_cell<collapse3>(exec_space(), comm, *global, b, min,
                                                 min_loc(r.min));
  }
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

void expect_same_results(const results& got, const results& one_rank, bool per_variable) {
  EXPECT_TRUE(same_bits(got.sum, one_rank.sum)) << got.sum << " vs " << one_rank.sum;
  if (per_variable) {
    EXPECT_TRUE(same_bits(got.sum_var, one_rank.sum_var))
        << got.sum_var << " vs " << one_rank.sum_var;
  }
  EXPECT_TRUE(same_bits(got.max, one_rank.max)) << got.max << " vs " << one_rank.max;
  EXPECT_TRUE(same_bits(got.min.val, one_rank.min.val))
      << got.min.val << " vs " << one_rank.min.val;
  EXPECT_EQ(got.min.loc, one_rank.min.loc);
}

TEST(distributed_reduce, a_3d_split_along_j_and_k_gives_the_single_rank_bits_on_every_rank) {
  const unsigned seed = shared_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", rank " + std::to_string(world_rank()));
  const loopnest::box<3> block = block_3d(world_rank());
  results one_rank, got;
  reduce_3d(field_3d(seed, global3), global3, nullptr, one_rank);
  reduce_3d(field_3d(seed, block), block, &global3, got);
  expect_same_results(got, one_rank, true);
  EXPECT_TRUE(loopnest_test::same_on_every_rank(static_cast<long>(got.min.loc)));
}

TEST(distributed_reduce, a_2d_split_along_i_and_j_gives_the_single_rank_bits_on_every_rank) {
  const unsigned seed = shared_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", rank " + std::to_string(world_rank()));
  const loopnest::box<2> block = block_2d();
  results one_rank, got;
  reduce_2d(field_2d(seed, global2), global2, nullptr, one_rank);
  reduce_2d(field_2d(seed, block), block, &global2, got);
  expect_same_results(got, one_rank, false);
}

// A sum over `block` of a field of ones, for the error cases.
void sum_ones(const loopnest::box<3>& global, const loopnest::box<3>& block, int variables) {
  double total = 0.0;
  loopnest::distributed_reduce_cell_var<loopnest::collapse3>(
      exec_space(), MPI_COMM_WORLD, global, block, variables,
      KOKKOS_LAMBDA(int, int, int, int, double& acc) { acc += 1.0; }, Kokkos::Sum<double>(total));
}

TEST(distributed_reduce, bad_blocks_are_refused_alike_on_every_rank) {
  const int rank = world_rank(), size = world_size();
  const loopnest::box<3> block = block_3d(world_rank());
  const auto refused = [&](const loopnest::box<3>& global, const loopnest::box<3>& b, int variables,
                           const std::string& expected) {
    expect_same_error_on_every_rank<std::invalid_argument>([&] { sum_ones(global, b, variables); },
                                                           expected);
  };
  refused(global3, block, 0, "loopnest::distributed_reduce_cell_var: nvar = 0 must be at least 1");
  const loopnest::box<3> outside{{-3, 2, -1}, {8, 39, 21}};
  refused(global3, rank == 0 ? outside : block, 1,
          "rank 0's block [-3, 8) x [2, 39) x [-1, 21) (global box [-3, 8) x [2, 39) x [-1, 20)) "
          "is outside the global box");
  // The last rank's block ends 3 cells short along j: 3 is no multiple of 8 and not the end.
  const loopnest::box<3> end = block_3d(size - 1);
  const loopnest::box<3> short_end{{end.lower(0), end.lower(1), end.lower(2)},
                                   {end.upper(0), end.upper(1) - 3, end.upper(2)}};
  refused(global3, rank == size - 1 ? short_end : block, 1,
          "rank " + std::to_string(size - 1) + "'s block " + loopnest::Impl::box_text(short_end) +
              " (global box [-3, 8) x [2, 39) x [-1, 20)) does not start and end along j at a "
              "multiple of the tile extent 8");
  // Every rank's block the global box but one i shorter: they overlap (or, alone, leave a
  // layer of cells uncovered).
  const loopnest::box<3> shrunk{{-3, 2, -1}, {7, 39, 20}};
  refused(global3, shrunk, 1,
          size > 1 ? "the blocks of rank 0 [-3, 7) x [2, 39) x [-1, 20) and rank 1's block "
                     "[-3, 7) x [2, 39) x [-1, 20) (global box [-3, 8) x [2, 39) x [-1, 20)) "
                     "overlap"
                   : "the blocks cover " + std::to_string(shrunk.size()) + " of the " +
                         std::to_string(global3.size()) + " cells of the global box");
  if (size > 1) {
    const loopnest::box<3> other{{-3, 2, -1}, {8, 39, 20 + rank}};
    refused(other, block, 1, "nvar or the global box differ across ranks");
  }
}

}  // namespace
