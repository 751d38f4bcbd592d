#include <loopnest/packed_fields.hpp>

#include <gtest/gtest.h>

#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

template <class ExecutionSpace>
class packed_fields : public ::testing::Test {};
TYPED_TEST_SUITE(packed_fields, loopnest_test::execution_spaces);

TYPED_TEST(packed_fields, storage_puts_the_chosen_axis_first_and_the_variable_last) {
  using packed =
      loopnest::packed_fields<double, Kokkos::LayoutLeft, typename TypeParam::memory_space>;
  const packed xyz("xyz", 7, {10, 6, 4}, 2);
  const packed yxz(TypeParam(), "yxz", 7, {10, 6, 4}, 2, loopnest::axis_order::yxz);
  const packed zyx(TypeParam(), "zyx", 7, {10, 6, 4}, 2, loopnest::axis_order::zyx);
  const int x = 14, y = 10, z = 8;
  EXPECT_EQ(xyz.view().extent(0), x);
  EXPECT_EQ(xyz.view().extent(1), y);
  EXPECT_EQ(xyz.view().extent(2), z);
  EXPECT_EQ(yxz.view().extent(0), y);
  EXPECT_EQ(yxz.view().extent(1), x);
  EXPECT_EQ(yxz.view().extent(2), z);
  EXPECT_EQ(zyx.view().extent(0), z);
  EXPECT_EQ(zyx.view().extent(1), y);
  EXPECT_EQ(zyx.view().extent(2), x);
  for (const auto* p : {&xyz, &yxz, &zyx}) {
    EXPECT_EQ(p->view().extent(3), 7u) << loopnest::name(p->order());
  }
  EXPECT_EQ(yxz.storage_dim(0), 1);
  EXPECT_EQ(zyx.storage_dim(0), 2);
  EXPECT_EQ(zyx.storage_dim(2), 0);
}

TYPED_TEST(packed_fields, bad_shapes_name_the_packed_buffer) {
  using packed =
      loopnest::packed_fields<float, Kokkos::LayoutRight, typename TypeParam::memory_space>;
  loopnest_test::expect_mentions(loopnest_test::error_of([] {
                                   packed("p", 2, {4, 0}, 1);
                                 }),
                                 "loopnest::packed_fields: interior[1] = 0");
}

}  // namespace
