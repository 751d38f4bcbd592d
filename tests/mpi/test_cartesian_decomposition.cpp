// loopnest::cartesian_decomposition on the ranks of the test's mpirun (1, 2 or 4).
#include "mpi_checks.hpp"

#include <loopnest/mpi/cartesian_decomposition.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <numeric>
#include <stdexcept>
#include <vector>

namespace {

using loopnest::cartesian_decomposition;
using loopnest_test::expect_same_error_on_every_rank;
using loopnest_test::world_rank;
using loopnest_test::world_size;

// MFC's split: n / p cells per rank, one more for the first n % p ranks; the blocks tile the
// axis in rank-coordinate order.
TEST(cartesian_decomposition, blocks_tile_every_axis_unevenly) {
  const cartesian_decomposition d(MPI_COMM_WORLD, {7, 5, 3}, {world_size(), 1, 1});
  EXPECT_EQ(d.dims(), 3);
  EXPECT_EQ(d.rank(), world_rank());
  EXPECT_EQ(d.coord(0), world_rank());
  int next = 0;
  for (int c = 0; c < d.ranks(0); ++c) {
    EXPECT_EQ(d.block_offset(0, c), next);
    const int expected = 7 / world_size() + (c < 7 % world_size() ? 1 : 0);
    EXPECT_EQ(d.block_extent(0, c), expected);
    next += d.block_extent(0, c);
  }
  EXPECT_EQ(next, 7);
  EXPECT_EQ(d.local_extent(1), 5);
  EXPECT_EQ(d.local_extent(2), 3);
  // The extents of all ranks' blocks sum to the global box.
  long cells = static_cast<long>(d.local_extent(0)) * d.local_extent(1) * d.local_extent(2);
  long total = 0;
  MPI_Allreduce(&cells, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, 7L * 5 * 3);
}

TEST(cartesian_decomposition, neighbours_wrap_only_on_periodic_axes) {
  const int p = world_size();
  const cartesian_decomposition open(MPI_COMM_WORLD, {8}, {p}, {false});
  const cartesian_decomposition wrap(MPI_COMM_WORLD, {8}, {p}, {true});
  const int r = world_rank();
  EXPECT_EQ(open.neighbour(0, 0), r == 0 ? MPI_PROC_NULL : r - 1);
  EXPECT_EQ(open.neighbour(0, 1), r == p - 1 ? MPI_PROC_NULL : r + 1);
  EXPECT_EQ(wrap.neighbour(0, 0), (r + p - 1) % p);
  EXPECT_EQ(wrap.neighbour(0, 1), (r + 1) % p);
}

TEST(cartesian_decomposition, dims_create_chooses_the_zero_entries) {
  const cartesian_decomposition d(MPI_COMM_WORLD, {12, 12});
  EXPECT_EQ(d.ranks(0) * d.ranks(1), world_size());
  const cartesian_decomposition fixed(MPI_COMM_WORLD, {12, 12}, {1, 0});
  EXPECT_EQ(fixed.ranks(0), 1);
  EXPECT_EQ(fixed.ranks(1), world_size());
}

TEST(cartesian_decomposition, refuses_ranks_that_do_not_factor_the_communicator) {
  const int p = world_size();
  expect_same_error_on_every_rank<std::invalid_argument>(
      [p] {
        cartesian_decomposition(MPI_COMM_WORLD, {16, 16}, {p + 1, 1});
      },
      "loopnest::cartesian_decomposition: ranks " + std::to_string(p + 1) +
          "x1 do not factor the " + std::to_string(p) + " ranks of the communicator");
  expect_same_error_on_every_rank<std::invalid_argument>(
      [] {
        cartesian_decomposition(MPI_COMM_WORLD, {16, 16}, {3, 0});
      },
      "ranks 3x? do not factor");
}

TEST(cartesian_decomposition, refuses_more_ranks_than_cells) {
  const int p = world_size();
  if (p == 1) {
    return;  // one rank always has a cell
  }
  expect_same_error_on_every_rank<std::invalid_argument>(
      [p] {
        cartesian_decomposition(MPI_COMM_WORLD, {p, p - 1}, {1, p});
      },
      std::to_string(p) + " ranks along axis 1 for " + std::to_string(p - 1) +
          " cells leave a rank without cells");
}

TEST(cartesian_decomposition, refuses_bad_extents_and_lists) {
  expect_same_error_on_every_rank<std::invalid_argument>(
      [] { cartesian_decomposition(MPI_COMM_WORLD, {}); }, "0 global extents given");
  expect_same_error_on_every_rank<std::invalid_argument>(
      [] {
        cartesian_decomposition(MPI_COMM_WORLD, {4, 0});
      },
      "global[1] = 0");
  expect_same_error_on_every_rank<std::invalid_argument>(
      [] {
        cartesian_decomposition(MPI_COMM_WORLD, {4, 4}, {0, 0}, {true});
      },
      "periodic has 1 entries for 2 axes");
}

// A caller that passes each rank different extents gets the same error everywhere, not a
// mismatched MPI_Cart_create.
TEST(cartesian_decomposition, refuses_arguments_that_differ_across_ranks) {
  if (world_size() == 1) {
    return;  // one rank cannot disagree with itself
  }
  expect_same_error_on_every_rank<std::invalid_argument>(
      [] {
        cartesian_decomposition(MPI_COMM_WORLD, {8 + world_rank(), 8});
      },
      "the global extents, ranks or periodic axes differ across ranks");
}

}  // namespace
