#include <loopnest/tile.hpp>

#include <gtest/gtest.h>

#include <stdexcept>

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

}  // namespace
