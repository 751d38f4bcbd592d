#include <loopnest/box.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "test_errors.hpp"

namespace {

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

TEST(box, bounds_extents_and_size) {
  const loopnest::box<3> b{{-4, 0, 2}, {5, 1, 9}};
  EXPECT_EQ(b.lower(0), -4);
  EXPECT_EQ(b.upper(0), 5);
  EXPECT_EQ(b.extent(0), 9);
  EXPECT_EQ(b.extent(1), 1);
  EXPECT_EQ(b.extent(2), 7);
  EXPECT_EQ(b.size(), 63);
  EXPECT_FALSE(b.empty());
}

TEST(box, empty_box_is_allowed) {
  const loopnest::box<2> b{{3, -2}, {3, 8}};
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0);
}

TEST(box, inverted_box_names_the_dimension_and_values) {
  expect_mentions(error_of([] {
                    loopnest::box<3>{{0, 5, 0}, {4, 3, 4}};
                  }),
                  "upper[1] = 3 is below lower[1] = 5");
}

TEST(box, bound_lists_of_the_wrong_length_are_a_rank_mismatch) {
  expect_mentions(error_of([] {
                    loopnest::box<3>{{0, 0}, {4, 4, 4}};
                  }),
                  "lower has 2 bounds but the box has rank 3");
  expect_mentions(error_of([] {
                    loopnest::box<2>{{0, 0}, {4, 4, 4}};
                  }),
                  "upper has 3 bounds but the box has rank 2");
}

}  // namespace
