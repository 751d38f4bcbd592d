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

}  // namespace
