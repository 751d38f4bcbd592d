#include <loopnest/box.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
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

TEST(box, extents_past_int_are_refused_not_wrapped) {
  // INT_MAX - INT_MIN wraps to -1 in int.
  expect_mentions(error_of([] {
                    loopnest::box<3>{{INT_MIN, 0, 0}, {INT_MAX, 1, 1}};
                  }),
                  "upper[0] - lower[0] = 4294967295 exceeds 2^31 - 1");
  expect_mentions(error_of([] {
                    loopnest::box<2>{{0, -1}, {1, INT_MAX}};
                  }),
                  "upper[1] - lower[1] = 2147483648 exceeds 2^31 - 1");
  const loopnest::box<2> widest{{-1, 0}, {INT_MAX - 1, 1}};
  EXPECT_EQ(widest.extent(0), INT_MAX);
}

TEST(box, sizes_past_int64_are_refused_not_wrapped) {
  expect_mentions(error_of([] {
                    loopnest::box<3>{{0, 0, 0}, {INT_MAX, INT_MAX, 3}};
                  }),
                  "the box holds more than 2^63 - 1 cells");
  const loopnest::box<3> largest{{0, 0, 0}, {INT_MAX, INT_MAX, 2}};
  EXPECT_EQ(largest.size(), std::int64_t{INT_MAX} * INT_MAX * 2);
  EXPECT_FALSE(largest.empty());
  const loopnest::box<3> empty_but_wide{{0, 0, 0}, {INT_MAX, 0, INT_MAX}};
  EXPECT_TRUE(empty_but_wide.empty());
}

}  // namespace
