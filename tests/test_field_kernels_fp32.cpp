// The field kernels in FP32 against the host loops (field_kernel_checks.hpp), in a translation
// unit of its own so that it compiles beside test_field_kernels.cpp.
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include "field_kernel_checks.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::all_kernel_schedules;
using loopnest_test::check_all_kernels;

template <class ExecutionSpace>
class field_kernels_fp32 : public ::testing::Test {};
TYPED_TEST_SUITE(field_kernels_fp32, loopnest_test::execution_spaces);

TYPED_TEST(field_kernels_fp32, match_the_host_loop_bit_for_bit) {
  check_all_kernels<float, Kokkos::LayoutLeft>(TypeParam(),
                                               static_cast<all_kernel_schedules*>(nullptr));
  check_all_kernels<float, Kokkos::LayoutRight>(TypeParam(),
                                                static_cast<all_kernel_schedules*>(nullptr));
}

}  // namespace
