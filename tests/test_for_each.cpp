#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "for_each_checks.hpp"
#include "schedules.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::bit_identical;
using loopnest_test::bounded_schedules;
using loopnest_test::count_visits;
using loopnest_test::describe;
using loopnest_test::expect_visited_once;
using loopnest_test::make_counts;
using loopnest_test::margin;
using loopnest_test::schedules_for_layout;

// Boxes with negative lower bounds, odd extents and extents of 1.
std::vector<loopnest::box<3>> boxes_3d() {
  return {{{-3, -1, 2}, {4, 0, 7}},
          {{0, 0, 0}, {1, 1, 1}},
          {{-4, -4, -4}, {13, 6, 3}},
          {{2, -5, -1}, {35, -2, 0}}};
}
std::vector<loopnest::box<2>> boxes_2d() {
  return {{{-2, -5}, {9, -4}}, {{0, 0}, {1, 1}}, {{-4, -3}, {37, 6}}, {{5, 0}, {6, 17}}};
}

constexpr int nvar = 3;
// Variable counts on both sides of nvcc's 4-way unrolling of the variable loop of collapse3 and
// flat: a remainder alone, whole groups, and whole groups with each size of remainder.
const std::vector<int> visit_nvars = {1, 3, 4, 5, 7, 8, 11};

template <class ExecutionSpace, class... Schedules>
void count_visits_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  for (const auto& b : boxes_3d()) {
    (count_visits<Schedules>(exec, b, visit_nvars), ...);
  }
  for (const auto& b : boxes_2d()) {
    (count_visits<Schedules>(exec, b, visit_nvars), ...);
  }
}

template <class ExecutionSpace>
class for_each : public ::testing::Test {};
TYPED_TEST_SUITE(for_each, loopnest_test::execution_spaces);

TYPED_TEST(for_each, every_cell_and_variable_is_visited_exactly_once) {
  const TypeParam exec;
  count_visits_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  count_visits_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  count_visits_all(exec, static_cast<bounded_schedules<Kokkos::LayoutLeft>*>(nullptr));
  count_visits_all(exec, static_cast<bounded_schedules<Kokkos::LayoutRight>*>(nullptr));
}

TYPED_TEST(for_each, automatic_runs_both_of_its_choices) {
  // A box large enough that automatic picks collapse3 on every backend, and one small enough
  // that it picks collapse4 wherever concurrency allows; both must still visit once.
  const TypeParam exec;
  const int big = 1 + static_cast<int>(loopnest::automatic_collapse4_below(exec) / 16);
  count_visits<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {big, 4, 4}}, visit_nvars);
  count_visits<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {2, 2, 2}}, visit_nvars);
}

// ----------------------------------------------------------------------------------------
// Bit-identical results (for_each_checks.hpp): boxes stored from 1, a ghost layer at 0.

template <class T, class ExecutionSpace, class... Schedules>
void bit_identical_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  (bit_identical<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {38, 10, 6}}, nvar, seed), ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<3>{{1, 1, 1}, {2, 34, 3}}, nvar, seed + 1), ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<2>{{1, 1}, {46, 14}}, nvar, seed + 2), ...);
  (bit_identical<Schedules, T>(exec, loopnest::box<2>{{1, 1}, {9, 2}}, nvar, seed + 3), ...);
}

TYPED_TEST(for_each, every_schedule_gives_the_host_loop_bits_fp64) {
  const TypeParam exec;
  bit_identical_all<double>(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<double>(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  bit_identical_all<double>(exec, static_cast<bounded_schedules<Kokkos::LayoutLeft>*>(nullptr));
}

TYPED_TEST(for_each, every_schedule_gives_the_host_loop_bits_fp32) {
  const TypeParam exec;
  bit_identical_all<float>(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<float>(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  bit_identical_all<float>(exec, static_cast<bounded_schedules<Kokkos::LayoutRight>*>(nullptr));
}

// ----------------------------------------------------------------------------------------
// loopnest::per_cell: the body gets p(cell) after the variable index; p runs once per cell under
// collapse3 and flat, once per (cell, variable) under collapse4 and kokkos_default.

template <class Schedule, class ExecutionSpace>
void check_per_cell(const ExecutionSpace& exec, const loopnest::box<3>& b) {
  using space   = typename ExecutionSpace::memory_space;
  const int lo0 = b.lower(0) - margin, lo1 = b.lower(1) - margin, lo2 = b.lower(2) - margin;
  auto written = make_counts<ExecutionSpace>(b, nvar);
  Kokkos::View<int*, space> calls("calls", 1);
  loopnest::for_each_cell_var<Schedule>(
      exec, b, nvar, loopnest::per_cell(KOKKOS_LAMBDA(int i, int j, int k) {
        Kokkos::atomic_add(&calls(0), 1);
        return i + 100 * j + 10000 * k;
      }),
      KOKKOS_LAMBDA(int i, int j, int k, int v, int c) {
        written.hit(i - lo0, j - lo1, k - lo2, v, c == i + 100 * j + 10000 * k ? 1 : 1000);
      });
  exec.fence();
  expect_visited_once<ExecutionSpace, 3>(written, b, describe<Schedule>("per_cell", 3));
  int n = 0;
  Kokkos::deep_copy(n, Kokkos::subview(calls, 0));
  const bool per_pair =
      Schedule::kind == loopnest::schedule_kind::collapse4 ||
      Schedule::kind == loopnest::schedule_kind::kokkos_default ||
      (Schedule::kind == loopnest::schedule_kind::automatic &&
       loopnest::automatic_choice(exec, b.size()) == loopnest::schedule_kind::collapse4);
  EXPECT_EQ(n, b.size() * (per_pair ? nvar : 1)) << describe<Schedule>("per_cell calls", 3);
}

template <class ExecutionSpace, class... Schedules>
void check_per_cell_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  for (const auto& b : boxes_3d()) {
    (check_per_cell<Schedules>(exec, b), ...);
  }
}

TYPED_TEST(for_each, per_cell_value_is_computed_once_per_cell_outside_the_variable_loop) {
  const TypeParam exec;
  check_per_cell_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  check_per_cell_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  check_per_cell_all(exec, static_cast<bounded_schedules<Kokkos::LayoutLeft>*>(nullptr));
}

// ----------------------------------------------------------------------------------------
// Bad input: std::invalid_argument naming the parameter and value, and nothing written.

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

template <class Schedule, class ExecutionSpace>
std::string try_cell_var(const ExecutionSpace& exec, const loopnest::box<3>& b, int nv,
                         const loopnest::tile& t,
                         const Kokkos::View<int*, typename ExecutionSpace::memory_space>& hits) {
  return error_of([&] {
    loopnest::for_each_cell_var<Schedule>(
        exec, b, nv, KOKKOS_LAMBDA(int, int, int, int) { Kokkos::atomic_add(&hits(0), 1); }, "bad",
        t);
  });
}

template <class Schedule, class ExecutionSpace>
std::string try_cell(const ExecutionSpace& exec, const loopnest::box<2>& b, const loopnest::tile& t,
                     const Kokkos::View<int*, typename ExecutionSpace::memory_space>& hits) {
  return error_of([&] {
    loopnest::for_each_cell<Schedule>(
        exec, b, KOKKOS_LAMBDA(int, int) { Kokkos::atomic_add(&hits(0), 1); }, "bad", t);
  });
}

TYPED_TEST(for_each, bad_input_throws_before_any_launch) {
  const TypeParam exec;
  Kokkos::View<int*, typename TypeParam::memory_space> hits("hits", 1);
  const loopnest::box<3> b{{-1, 0, 0}, {6, 5, 4}};
  const loopnest::box<2> b2{{0, 0}, {7, 3}};

  expect_mentions(try_cell_var<loopnest::collapse3>(exec, b, 0, {}, hits), "nvar = 0");
  expect_mentions(try_cell_var<loopnest::flat>(exec, b, -2, {}, hits), "nvar = -2");
  expect_mentions(try_cell_var<loopnest::collapse4>(exec, b, 2, {32, 8, 1}, hits),
                  "tile 32x8x1 has 3 sizes but collapse4 here needs 4 (i, j, k, v)");
  expect_mentions(try_cell_var<loopnest::collapse3>(exec, b, 2, {32, 8, 1, 1}, hits),
                  "tile 32x8x1x1 has 4 sizes but collapse3 here needs 3 (i, j, k)");
  expect_mentions(try_cell_var<loopnest::collapse3>(exec, b, 2, {32, 0, 1}, hits),
                  "has size 0 at index 1");
  expect_mentions(try_cell_var<loopnest::flat>(exec, b, 2, {64}, hits),
                  "was given to schedule flat, which takes no tile");
  expect_mentions(try_cell_var<loopnest::automatic>(exec, b, 2, {8, 8, 8}, hits),
                  "schedule automatic, which takes no tile");
  expect_mentions(try_cell_var<loopnest::kokkos_default>(exec, b, 2, {8, 8, 8, 1}, hits),
                  "schedule kokkos_default, which takes no tile");
  expect_mentions(try_cell<loopnest::collapse3>(exec, b2, {8, 8, 8}, hits),
                  "has 3 sizes but collapse3 here needs 2 (i, j)");

  // A tile larger than the backend allows: refused where the backend has a limit (512 points
  // on CUDA), accepted and run where it has none (host backends).
  const loopnest::tile huge{1024, 1024};
  const int max_points  = loopnest::Impl::max_tile_points(exec);
  const std::string msg = try_cell<loopnest::collapse3>(exec, b2, huge, hits);
  if (max_points < 1024 * 1024) {
    expect_mentions(msg, "holds 1048576 points but " + std::string(TypeParam::name()) +
                             " allows at most " + std::to_string(max_points));
  } else {
    EXPECT_EQ(msg, "no exception");
  }

  // Launch bounds limit a tile on every backend, the same everywhere.
  using bounded = loopnest::with_launch_bounds_t<loopnest::collapse3, 32, 16>;
  expect_mentions(try_cell_var<bounded>(exec, b, 2, {8, 8, 1}, hits),
                  "tile 8x8x1 holds 64 points but " + std::string(TypeParam::name()) +
                      " under the schedule's launch bounds allows at most 32 per tile");
  expect_mentions(
      try_cell<loopnest::with_launch_bounds_t<loopnest::collapse4, 16, 2>>(exec, b2, {4, 5}, hits),
      "holds 20 points but");
  EXPECT_EQ(try_cell_var<bounded>(exec, b, 2, {8, 4, 1}, hits), "no exception");

  exec.fence();
  int launched = 0;
  Kokkos::deep_copy(launched, Kokkos::subview(hits, 0));
  EXPECT_EQ(launched, (max_points < 1024 * 1024 ? 0 : b2.size()) + 2 * b.size())
      << "a refused call must launch nothing";
}

TYPED_TEST(for_each, empty_box_is_a_no_op) {
  const TypeParam exec;
  Kokkos::View<int*, typename TypeParam::memory_space> hits("hits", 1);
  EXPECT_EQ(try_cell_var<loopnest::collapse4>(exec, {{0, 0, 0}, {0, 9, 9}}, 3, {}, hits),
            "no exception");
  EXPECT_EQ(try_cell<loopnest::flat>(exec, {{4, 4}, {9, 4}}, {}, hits), "no exception");
  exec.fence();
  int launched = -1;
  Kokkos::deep_copy(launched, Kokkos::subview(hits, 0));
  EXPECT_EQ(launched, 0);
}

}  // namespace
