#include <loopnest/for_each.hpp>
#include <loopnest/schedule.hpp>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "test_spaces.hpp"

namespace {

TEST(schedule, aliases_default_to_contiguous_layout_left) {
  static_assert(std::is_same<loopnest::collapse3::mapping, loopnest::contiguous>::value);
  static_assert(std::is_same<loopnest::collapse3::layout, Kokkos::LayoutLeft>::value);
  using s = loopnest::with_layout_t<loopnest::with_mapping_t<loopnest::flat, loopnest::strided>,
                                    Kokkos::LayoutRight>;
  static_assert(s::kind == loopnest::schedule_kind::flat);
  static_assert(std::is_same<s::mapping, loopnest::strided>::value);
  static_assert(std::is_same<s::layout, Kokkos::LayoutRight>::value);
  static_assert(loopnest::is_schedule_v<s>);
  static_assert(!loopnest::is_schedule_v<int>);
  EXPECT_EQ(std::string(loopnest::name(loopnest::collapse4::kind)), "collapse4");
  EXPECT_EQ(std::string(loopnest::name(loopnest::kokkos_default::kind)), "kokkos_default");
  EXPECT_EQ(std::string(loopnest::name(loopnest::strided{})), "strided");
}

// Launch bounds are a property the other aliases keep. These are checked at compile time: a
// violation fails the build of this test.
namespace launch_bounds_properties {
static_assert(std::is_same<loopnest::collapse3::bounds, loopnest::default_bounds>::value);
using b = loopnest::with_launch_bounds_t<loopnest::collapse3, 256, 4>;
static_assert(b::kind == loopnest::schedule_kind::collapse3);
static_assert(std::is_same<b::bounds, loopnest::launch_bounds<256, 4>>::value);
static_assert(b::bounds::max_threads == 256 && b::bounds::min_blocks_per_sm == 4);
using moved =
    loopnest::with_mapping_t<loopnest::with_layout_t<b, Kokkos::LayoutRight>, loopnest::strided>;
static_assert(std::is_same<moved::bounds, b::bounds>::value);
static_assert(std::is_same<moved::layout, Kokkos::LayoutRight>::value);
static_assert(loopnest::is_schedule_v<moved>);

// A kernel's own bounds replace default_bounds only: the caller's bounds stay, and
// kokkos_default keeps Kokkos' own launch parameters.
using kernel_bounds = loopnest::launch_bounds<128, 8>;
static_assert(std::is_same<loopnest::Impl::or_bounds_t<loopnest::flat, kernel_bounds>::bounds,
                           kernel_bounds>::value);
static_assert(std::is_same<loopnest::Impl::or_bounds_t<b, kernel_bounds>, b>::value);
static_assert(std::is_same<loopnest::Impl::or_bounds_t<loopnest::kokkos_default, kernel_bounds>,
                           loopnest::kokkos_default>::value);

// Bounds for a kernel's variable loop leave collapse4's one-variable work items alone.
using var_loop = loopnest::Impl::var_loop_bounds<kernel_bounds>;
using loopnest::schedule_kind;
static_assert(std::is_same<loopnest::Impl::bounds_for_t<schedule_kind::collapse3, var_loop>,
                           kernel_bounds>::value);
static_assert(std::is_same<loopnest::Impl::bounds_for_t<schedule_kind::flat, var_loop>,
                           kernel_bounds>::value);
static_assert(std::is_same<loopnest::Impl::bounds_for_t<schedule_kind::collapse4, var_loop>,
                           loopnest::default_bounds>::value);
static_assert(std::is_same<loopnest::Impl::bounds_for_t<schedule_kind::collapse4, kernel_bounds>,
                           kernel_bounds>::value);
}  // namespace launch_bounds_properties

// contiguous puts the stride-1 index first.
namespace mapping_order {
using left_contiguous  = loopnest::collapse3;
using right_contiguous = loopnest::with_layout_t<left_contiguous, Kokkos::LayoutRight>;
using left_strided     = loopnest::with_mapping_t<left_contiguous, loopnest::strided>;
using right_strided    = loopnest::with_mapping_t<right_contiguous, loopnest::strided>;
static_assert(!loopnest::Impl::reverse_v<left_contiguous>);
static_assert(loopnest::Impl::reverse_v<right_contiguous>);
static_assert(loopnest::Impl::reverse_v<left_strided>);
static_assert(!loopnest::Impl::reverse_v<right_strided>);
}  // namespace mapping_order

template <class ExecutionSpace>
class automatic_rule : public ::testing::Test {};
TYPED_TEST_SUITE(automatic_rule, loopnest_test::execution_spaces);

// The rule's behaviour, not its constant: collapse3 once a box can give every resident thread
// a cell (and well before), collapse4 for a box of a few cells on a device that keeps thousands
// of threads resident, collapse3 always on a backend of one thread, and one switch point.
TYPED_TEST(automatic_rule, collapse4_only_for_boxes_too_small_to_fill_the_device) {
  const TypeParam exec;
  using loopnest::schedule_kind;
  const std::int64_t threads = loopnest::Impl::concurrency(exec);
  EXPECT_EQ(loopnest::automatic_choice(exec, threads), schedule_kind::collapse3);
  EXPECT_EQ(loopnest::automatic_choice(exec, threads / 4), schedule_kind::collapse3);
  if (threads >= 1024) {
    EXPECT_EQ(loopnest::automatic_choice(exec, 8), schedule_kind::collapse4);
  }
  if (threads == 1) {
    EXPECT_EQ(loopnest::automatic_choice(exec, 1), schedule_kind::collapse3);
  }
  const std::int64_t below = loopnest::automatic_collapse4_below(exec);
  EXPECT_EQ(loopnest::automatic_choice(exec, below), schedule_kind::collapse3);
  if (below > 0) {
    EXPECT_EQ(loopnest::automatic_choice(exec, below - 1), schedule_kind::collapse4);
  }
}

// A body under launch bounds of its own runs flat wherever collapse3 would run, and collapse4
// where the box is too small, whichever bounds; the mapping and layout change nothing.
TYPED_TEST(automatic_rule, flat_for_a_body_under_launch_bounds_of_its_own) {
  const TypeParam exec;
  using loopnest::schedule_kind;
  using wide  = loopnest::with_launch_bounds_t<loopnest::automatic, 256, 4>;
  using small = loopnest::with_launch_bounds_t<
      loopnest::with_layout_t<loopnest::automatic, Kokkos::LayoutRight>, 1024, 1>;
  const std::int64_t threads = loopnest::Impl::concurrency(exec);
  const std::int64_t below   = loopnest::automatic_collapse4_below(exec);
  for (const std::int64_t cells : {threads, below, 4 * below + 3}) {
    EXPECT_EQ(loopnest::automatic_choice<wide>(exec, cells), schedule_kind::flat) << cells;
    EXPECT_EQ(loopnest::automatic_choice<small>(exec, cells), schedule_kind::flat) << cells;
    EXPECT_EQ(loopnest::automatic_choice<loopnest::automatic>(exec, cells),
              schedule_kind::collapse3)
        << cells;
  }
  if (below > 0) {
    EXPECT_EQ(loopnest::automatic_choice<wide>(exec, below - 1), schedule_kind::collapse4);
  }
}

// A library kernel's bounds for its variable loop (flux_difference's, which keep loads in flight)
// say nothing of a long body: automatic runs it as under default_bounds, collapse3 wherever the
// box fills the device.
TYPED_TEST(automatic_rule, collapse3_for_a_kernel_s_own_variable_loop_bounds) {
  const TypeParam exec;
  using loopnest::schedule_kind;
  using kernel =
      loopnest::Impl::or_bounds_t<loopnest::automatic,
                                  loopnest::Impl::var_loop_bounds<loopnest::launch_bounds<256, 4>>>;
  static_assert(!std::is_same<kernel::bounds, loopnest::default_bounds>::value);
  static_assert(!loopnest::Impl::automatic_may_run_flat_v<kernel>);
  const std::int64_t below = loopnest::automatic_collapse4_below(exec);
  for (const std::int64_t cells : {below, 4 * below + 3}) {
    EXPECT_EQ(loopnest::automatic_choice<kernel>(exec, cells), schedule_kind::collapse3) << cells;
  }
  if (below > 0) {
    EXPECT_EQ(loopnest::automatic_choice<kernel>(exec, below - 1), schedule_kind::collapse4);
  }
}

}  // namespace
