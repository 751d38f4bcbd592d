// Bit-identical results of for_each_cell_var and for_each_cell under every schedule, mapping and
// layout against a host loop (for_each_checks.hpp), in a translation unit of its own so that it
// compiles beside test_for_each.cpp.
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "for_each_checks.hpp"
#include "schedules.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::bit_identical;
using loopnest_test::bit_identical_cells;
using loopnest_test::bounded_schedules;
using loopnest_test::schedules_for_layout;
using loopnest_test::strip_schedules;

constexpr int nvar = 3;

template <class ExecutionSpace>
class for_each_bits : public ::testing::Test {};
TYPED_TEST_SUITE(for_each_bits, loopnest_test::execution_spaces);

// ----------------------------------------------------------------------------------------
// Bit-identical results (for_each_checks.hpp): boxes stored from 1, a ghost layer at 0.

template <class T, class ExecutionSpace, class... Schedules>
void bit_identical_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  // A fixed seed, printed on failure, so that a failure reproduces.
  const unsigned seed = 1009;
  SCOPED_TRACE("seed " + std::to_string(seed));
  (bit_identical<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {38, 10, 6}}, nvar, seed), ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {2, 34, 3}}, nvar, seed + 1), ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<2>{{1, 1}, {46, 14}}, nvar, seed + 2), ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<2>{{1, 1}, {9, 2}}, nvar, seed + 3), ...);
}

TYPED_TEST(for_each_bits, every_schedule_gives_the_host_loop_bits_fp64) {
  const TypeParam exec;
  bit_identical_all<double>(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<double>(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  bit_identical_all<double>(exec, static_cast<bounded_schedules<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<double>(exec, static_cast<strip_schedules<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<double>(exec, static_cast<strip_schedules<Kokkos::LayoutRight>*>(nullptr));
}

TYPED_TEST(for_each_bits, every_schedule_gives_the_host_loop_bits_fp32) {
  const TypeParam exec;
  bit_identical_all<float>(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<float>(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  bit_identical_all<float>(exec, static_cast<bounded_schedules<Kokkos::LayoutRight>*>(nullptr));
  bit_identical_all<float>(exec, static_cast<strip_schedules<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<float>(exec, static_cast<strip_schedules<Kokkos::LayoutRight>*>(nullptr));
}

// A variable range [first, last): the variables below first keep their poison, the others get
// the host loop's bits, under every schedule, mapping and layout, fresh random inputs each.
template <class T, class ExecutionSpace, class... Schedules>
void bit_identical_range_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  const unsigned seed = 5003;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const loopnest::var_range vars{2, 7};
  (bit_identical<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {38, 10, 6}}, vars, seed), ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {2, 34, 3}},
                               loopnest::var_range{1, 2}, seed + 1),
   ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<2>{{1, 1}, {46, 14}}, vars, seed + 2), ...);
}

TYPED_TEST(for_each_bits, every_schedule_over_a_variable_range_gives_the_host_loop_bits) {
  const TypeParam exec;
  using left  = schedules_for_layout<Kokkos::LayoutLeft>;
  using right = schedules_for_layout<Kokkos::LayoutRight>;
  bit_identical_range_all<double>(exec, static_cast<left*>(nullptr));
  bit_identical_range_all<double>(exec, static_cast<right*>(nullptr));
  bit_identical_range_all<float>(exec, static_cast<left*>(nullptr));
  bit_identical_range_all<double>(exec, static_cast<strip_schedules<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_range_all<float>(exec, static_cast<strip_schedules<Kokkos::LayoutRight>*>(nullptr));
  bit_identical_range_all<double>(exec,
                                  static_cast<bounded_schedules<Kokkos::LayoutRight>*>(nullptr));
}

// for_each_cell computes the same values: every schedule, mapping and layout, 2D and 3D.
template <class T, class ExecutionSpace, class... Schedules>
void bit_identical_cells_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  const unsigned seed = 3001;
  SCOPED_TRACE("seed " + std::to_string(seed));
  (bit_identical_cells<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {38, 10, 6}}, 2, seed), ...);
  (bit_identical_cells<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {2, 34, 3}}, 1, seed + 1),
   ...);
  (bit_identical_cells<Schedules, T>(exec, loopnest::box<2>{{1, 1}, {46, 14}}, 3, seed + 2), ...);
  (bit_identical_cells<Schedules, T>(exec, loopnest::box<2>{{1, 1}, {9, 2}}, 1, seed + 3), ...);
}

TYPED_TEST(for_each_bits, every_schedule_of_a_cell_loop_gives_the_host_loop_bits) {
  const TypeParam exec;
  using left  = schedules_for_layout<Kokkos::LayoutLeft>;
  using right = schedules_for_layout<Kokkos::LayoutRight>;
  bit_identical_cells_all<double>(exec, static_cast<left*>(nullptr));
  bit_identical_cells_all<double>(exec, static_cast<right*>(nullptr));
  bit_identical_cells_all<float>(exec, static_cast<left*>(nullptr));
  bit_identical_cells_all<float>(exec, static_cast<right*>(nullptr));
  bit_identical_cells_all<double>(exec,
                                  static_cast<bounded_schedules<Kokkos::LayoutLeft>*>(nullptr));
}

}  // namespace
