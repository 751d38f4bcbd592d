#include <loopnest/detail/tiles.hpp>
#include <loopnest/tile.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

TEST(tile, default_tile_lets_loopnest_choose) {
  const loopnest::tile t;
  EXPECT_TRUE(t.is_default());
  EXPECT_EQ(t.rank(), 0);
  EXPECT_EQ(t.to_string(), "default");
}

TEST(tile, explicit_sizes_keep_their_order) {
  const loopnest::tile t{32, 8, 1, 2};
  EXPECT_FALSE(t.is_default());
  ASSERT_EQ(t.rank(), 4);
  EXPECT_EQ(t[0], 32);
  EXPECT_EQ(t[1], 8);
  EXPECT_EQ(t[3], 2);
  EXPECT_EQ(t.to_string(), "32x8x1x2");
}

TEST(tile, more_than_four_sizes_are_refused) {
  EXPECT_THROW((loopnest::tile{1, 2, 3, 4, 5}), std::invalid_argument);
}

// The GPU tile rule, checked on any machine: every tile fits the block (its product within the
// thread budget, each size within its extent) and, with 3 or 4 policy indices, puts at most
// MaxLast points along the last one (CUDA's block z limit; Kokkos skips cells past it).
template <int N, class Traits>
void check_gpu_tiles(const std::vector<std::vector<int>>& extents, int max_threads) {
  for (const auto& e : extents) {
    int extent[N];
    int t[N];
    std::string name;
    for (int d = 0; d < N; ++d) {
      extent[d] = e[static_cast<std::size_t>(d)];
      name += std::to_string(extent[d]) + " ";
    }
    Traits::pick(extent, t, max_threads);
    SCOPED_TRACE("extents " + name + "max_threads " + std::to_string(max_threads));
    long points = 1;
    for (int d = 0; d < N; ++d) {
      EXPECT_GE(t[d], 1);
      EXPECT_LE(t[d], extent[d] > 0 ? extent[d] : 1);
      points *= t[d];
    }
    EXPECT_LE(points, max_threads < 256 ? max_threads : 256);
    if (N >= 3) {
      EXPECT_LE(t[N - 1], Traits::max_last_extent);
    }
  }
}

TEST(tile, gpu_tiles_fit_the_block_and_its_z_dimension) {
  using cuda_like = loopnest::Impl::gpu_tile_traits<256, 256, 64>;
  for (const int max_threads : {32, 256, 512}) {
    check_gpu_tiles<3, cuda_like>(
        {{1, 1, 400}, {3, 1, 400}, {2, 1, 300}, {1, 3, 500}, {201, 201, 201}, {7, 1, 5}, {0, 1, 9}},
        max_threads);
    check_gpu_tiles<4, cuda_like>(
        {{1, 1, 1, 100}, {1, 1, 400, 8}, {203, 201, 201, 8}, {2, 2, 2, 70}}, max_threads);
    check_gpu_tiles<2, cuda_like>({{1, 400}, {201, 201}}, max_threads);
  }
}

// The filled tile (fill_tile), checked by what it promises for units of several sizes: it fits
// the kernel's block, never puts fewer cells on a unit than the tile it was given, replaces that
// tile only for more than a warp more cells, and no tile of one to three pieces of a row (as many
// more as a long row needs) over any number of rows beats it by more than a warp.
TEST(tile, filled_tiles_put_the_most_cells_on_a_unit) {
  using loopnest::Impl::unit_occupancy;
  const std::vector<unit_occupancy> units = {{32, 32, 32, 512},
                                             {32, 24, 32, 256},
                                             {32, 64, 32, 1024},
                                             {32, 40, 32, 256},
                                             {64, 16, 8, 384}};
  for (const auto& u : units) {
    for (const int e0 : {1, 7, 32, 100, 101, 200, 201, 202, 256, 600, 1500}) {
      for (const int e1 : {1, 3, 201}) {
        int given[3] = {e0 < 256 ? e0 : 256, 1, 1};
        int t[3]     = {given[0], given[1], given[2]};
        loopnest::Impl::fill_tile(e0, e1, u, t);
        SCOPED_TRACE("unit of " + std::to_string(u.warps) + " warps, block of at most " +
                     std::to_string(u.block_threads) + ", rows " + std::to_string(e0) + " x " +
                     std::to_string(e1) + ": tile " + std::to_string(t[0]) + "x" +
                     std::to_string(t[1]) + "x" + std::to_string(t[2]));
        const double before = loopnest::Impl::resident_cells(e0, u, given);
        const double after  = loopnest::Impl::resident_cells(e0, u, t);
        EXPECT_GE(after, before);
        const bool kept = t[0] == given[0] && t[1] == given[1] && t[2] == given[2];
        if (!kept) {
          EXPECT_GT(after, before + u.warp);
          EXPECT_LE(t[0] * t[1] * t[2], u.block_threads);
          EXPECT_LE(t[0], e0);
          EXPECT_LE(t[1], e1);
        }
        const int least = (e0 + u.block_threads - 1) / u.block_threads;
        for (int pieces = least; pieces < least + 3 && pieces <= e0; ++pieces) {
          for (int r = 1; r <= e1; ++r) {
            const int other[3] = {(e0 + pieces - 1) / pieces, r, 1};
            EXPECT_LE(loopnest::Impl::resident_cells(e0, u, other), after + u.warp)
                << "pieces " << pieces << ", rows " << r;
          }
        }
      }
    }
  }
}

// The case the rule was made for: a WENO kernel at 64 registers, whose SM holds 32 warps, over
// rows of 201 cells. One row a block leaves four blocks of seven warps (804 cells); halves of
// rows over five rows make two blocks of 16 warps (1010 cells).
TEST(tile, a_long_body_fills_the_unit_with_halves_of_rows) {
  const loopnest::Impl::unit_occupancy u{32, 32, 32, 512};
  int t[3] = {201, 1, 1};
  loopnest::Impl::fill_tile(201, 201, u, t);
  EXPECT_EQ(t[0], 101);
  EXPECT_EQ(t[1], 5);
  EXPECT_EQ(t[2], 1);
}

// A unit that holds no block of the kernel (nothing known) leaves the tile as it was.
TEST(tile, an_unknown_unit_leaves_the_tile_alone) {
  int t[3] = {201, 1, 1};
  loopnest::Impl::fill_tile(201, 201, loopnest::Impl::unit_occupancy{}, t);
  EXPECT_EQ(t[0], 201);
  EXPECT_EQ(t[1], 1);
  EXPECT_EQ(t[2], 1);
}

}  // namespace
