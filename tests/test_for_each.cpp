#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "for_each_checks.hpp"
#include "schedules.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::bounded_schedules;
using loopnest_test::count_visits;
using loopnest_test::describe;
using loopnest_test::expect_visited_once;
using loopnest_test::make_counts;
using loopnest_test::margin;
using loopnest_test::schedules_for_layout;
using loopnest_test::strip_schedules;

// Boxes with negative lower bounds, odd extents and extents of 1, and thin boxes whose tiles
// would put more than 64 points along the policy's last index (a CUDA block's z dimension) in
// either policy order.
std::vector<loopnest::box<3>> boxes_3d() {
  return {{{-3, -1, 2}, {4, 0, 7}},   {{0, 0, 0}, {1, 1, 1}},     {{-4, -4, -4}, {13, 6, 3}},
          {{2, -5, -1}, {35, -2, 0}}, {{-1, 0, -3}, {2, 1, 397}}, {{0, 0, 0}, {300, 1, 1}}};
}
std::vector<loopnest::box<2>> boxes_2d() {
  return {{{-2, -5}, {9, -4}}, {{0, 0}, {1, 1}}, {{-4, -3}, {37, 6}}, {{5, 0}, {6, 17}}};
}

constexpr int nvar = 3;
// Variable counts on both sides of nvcc's 4-way unrolling of the variable loop of collapse3 and
// flat: a remainder alone, whole groups, and whole groups with each size of remainder.
// 70 variables of one cell fill more than 64 points along collapse4's last index.
const std::vector<int> visit_nvars = {1, 3, 4, 5, 7, 8, 11, 70};

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
  count_visits_all(exec, static_cast<strip_schedules<Kokkos::LayoutLeft>*>(nullptr));
  count_visits_all(exec, static_cast<strip_schedules<Kokkos::LayoutRight>*>(nullptr));
}

// Variable ranges [first, last): starting past 0 (the variables below must stay unvisited), on
// both sides of the 4-way unrolling, one variable, and empty ones, which visit nothing.
const std::vector<loopnest::var_range> visit_ranges = {{2, 5},  {4, 5}, {3, 10}, {1, 12},
                                                       {7, 77}, {0, 0}, {3, 3}};

template <class ExecutionSpace, class... Schedules>
void count_range_visits_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  for (const loopnest::box<3>& b :
       {loopnest::box<3>{{-3, -1, 2}, {4, 0, 7}}, loopnest::box<3>{{-4, -4, -4}, {13, 6, 3}}}) {
    (count_visits<Schedules>(exec, b, visit_ranges), ...);
  }
  (count_visits<Schedules>(exec, loopnest::box<2>{{-4, -3}, {37, 6}}, visit_ranges), ...);
}

TYPED_TEST(for_each, every_cell_and_variable_of_a_range_is_visited_exactly_once) {
  const TypeParam exec;
  count_range_visits_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  count_range_visits_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  count_range_visits_all(exec, static_cast<bounded_schedules<Kokkos::LayoutLeft>*>(nullptr));
  count_range_visits_all(exec, static_cast<strip_schedules<Kokkos::LayoutLeft>*>(nullptr));
  count_range_visits_all(exec, static_cast<strip_schedules<Kokkos::LayoutRight>*>(nullptr));
  // Both of automatic's choices, and a tile with a size for the variable under collapse4.
  const int big = 1 + static_cast<int>(loopnest::automatic_collapse4_below(exec) / 16);
  count_visits<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {big, 4, 4}}, visit_ranges);
  count_visits<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {2, 2, 2}}, visit_ranges);
  count_visits<loopnest::collapse4>(exec, loopnest::box<3>{{-1, 0, 2}, {6, 3, 4}},
                                    std::vector<loopnest::var_range>{{2, 9}}, {4, 2, 1},
                                    {4, 2, 1, 2});
}

TYPED_TEST(for_each, automatic_runs_both_of_its_choices) {
  // A box large enough that automatic picks collapse3 on every backend, and one small enough
  // that it picks collapse4 wherever concurrency allows; both must still visit once.
  const TypeParam exec;
  const int big = 1 + static_cast<int>(loopnest::automatic_collapse4_below(exec) / 16);
  count_visits<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {big, 4, 4}}, visit_nvars);
  count_visits<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {2, 2, 2}}, visit_nvars);
}

// The branch automatic takes, seen through how often it runs a per-cell computation: once per
// cell under collapse3, once per (cell, variable) under collapse4. The threshold is given, so that
// both branches run on every backend (on a serial one the rule alone always picks collapse3).
template <class ExecutionSpace>
void check_automatic_branch(const ExecutionSpace& exec, std::int64_t collapse4_below,
                            bool expect_collapse4) {
  const loopnest::box<3> b{{-2, 0, 1}, {5, 3, 4}};
  const int nv  = 5;
  const int lo0 = b.lower(0) - margin, lo1 = b.lower(1) - margin, lo2 = b.lower(2) - margin;
  auto written = make_counts<ExecutionSpace>(b, nv);
  Kokkos::View<int*, typename ExecutionSpace::memory_space> calls("calls", 1);
  loopnest::Impl::launch_cell_var<loopnest::automatic>(
      exec, b, {0, nv},
      KOKKOS_LAMBDA(int, int, int) {
        Kokkos::atomic_add(&calls(0), 1);
        return 0;
      },
      KOKKOS_LAMBDA(int i, int j, int k, int v, int) {
        written.hit(i - lo0, j - lo1, k - lo2, v, 1);
      },
      "automatic", loopnest::tile{}, loopnest::Impl::row_phase{}, collapse4_below);
  exec.fence();
  const std::string what = "automatic below " + std::to_string(collapse4_below);
  expect_visited_once<ExecutionSpace, 3>(written, b, what);
  int n = 0;
  Kokkos::deep_copy(n, Kokkos::subview(calls, 0));
  EXPECT_EQ(n, b.size() * (expect_collapse4 ? nv : 1)) << what;
}

TYPED_TEST(for_each, automatic_takes_the_branch_its_threshold_picks) {
  const TypeParam exec;
  const std::int64_t cells = std::int64_t{7} * 3 * 3;
  check_automatic_branch(exec, cells + 1, true);
  check_automatic_branch(exec, cells, false);
  check_automatic_branch(exec, 0, false);
}

// ----------------------------------------------------------------------------------------
// loopnest::per_cell: the body gets p(cell) after the variable index; p runs once per cell under
// collapse3 and flat, once per (cell, variable) under collapse4 and kokkos_default.

template <class Schedule, class ExecutionSpace, class Vars = int>
void check_per_cell(const ExecutionSpace& exec, const loopnest::box<3>& b,
                    const Vars& vars = nvar) {
  using space      = typename ExecutionSpace::memory_space;
  const auto range = loopnest_test::vars_of(vars);
  const int lo0 = b.lower(0) - margin, lo1 = b.lower(1) - margin, lo2 = b.lower(2) - margin;
  auto written = make_counts<ExecutionSpace>(b, range.last);
  Kokkos::View<int*, space> calls("calls", 1);
  loopnest::for_each_cell_var<Schedule>(
      exec, b, vars, loopnest::per_cell(KOKKOS_LAMBDA(int i, int j, int k) {
        Kokkos::atomic_add(&calls(0), 1);
        return i + 100 * j + 10000 * k;
      }),
      KOKKOS_LAMBDA(int i, int j, int k, int v, int c) {
        written.hit(i - lo0, j - lo1, k - lo2, v, c == i + 100 * j + 10000 * k ? 1 : 1000);
      });
  exec.fence();
  expect_visited_once<ExecutionSpace, 3>(
      written, b, describe<Schedule>("per_cell, " + loopnest_test::describe_vars(vars) + ",", 3),
      range.first);
  int n = 0;
  Kokkos::deep_copy(n, Kokkos::subview(calls, 0));
  const bool per_pair =
      Schedule::kind == loopnest::schedule_kind::collapse4 ||
      Schedule::kind == loopnest::schedule_kind::kokkos_default ||
      (Schedule::kind == loopnest::schedule_kind::automatic &&
       loopnest::automatic_choice(exec, b.size()) == loopnest::schedule_kind::collapse4);
  const int count = range.last - range.first;
  EXPECT_EQ(n, count == 0 ? 0 : b.size() * (per_pair ? count : 1))
      << describe<Schedule>("per_cell calls, " + loopnest_test::describe_vars(vars) + ",", 3);
}

template <class ExecutionSpace, class... Schedules>
void check_per_cell_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  for (const auto& b : boxes_3d()) {
    (check_per_cell<Schedules>(exec, b), ...);
  }
  for (const loopnest::var_range vars : {loopnest::var_range{2, 7}, loopnest::var_range{4, 4}}) {
    (check_per_cell<Schedules>(exec, loopnest::box<3>{{-4, -4, -4}, {13, 6, 3}}, vars), ...);
  }
}

TYPED_TEST(for_each, per_cell_value_is_computed_once_per_cell_outside_the_variable_loop) {
  const TypeParam exec;
  check_per_cell_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  check_per_cell_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  check_per_cell_all(exec, static_cast<bounded_schedules<Kokkos::LayoutLeft>*>(nullptr));
}

// ----------------------------------------------------------------------------------------
// Row alignment (Impl::row_phase): collapse3 may start each row's threads at the row's phase, so
// that every warp starts on a line of the array the kernel names.

// A backend that aligns rows to 128-byte lines in 32-thread warps, for row_phase_for.
struct aligned_gpu {};

}  // namespace

template <>
struct loopnest::Impl::row_alignment_traits<aligned_gpu> {
  static constexpr int bytes = 128;
  static constexpr int warp  = 32;
};

namespace {

using loopnest::Impl::row_phase;
using loopnest::Impl::row_phase_for;

template <class T>
std::uint32_t element_address(const T* p) {
  return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p) / sizeof(T));
}

TEST(row_alignment, a_row_takes_the_longest_line_whose_shift_costs_no_warp) {
  const std::vector<double> a(64);
  const std::vector<float> f(64);
  constexpr std::ptrdiff_t row  = 209;
  const std::ptrdiff_t left[3]  = {1, row, row * row};
  const std::ptrdiff_t right[3] = {row * row, row, 1};

  const auto p =
      row_phase_for<aligned_gpu>(loopnest::box<3>{{0, 0, 0}, {201, 3, 3}}, a.data() + 4, left);
  EXPECT_EQ(p.lanes, 16);  // 201 + 15 threads are 7 warps, as 201 are
  EXPECT_EQ(p.warp, 32);
  EXPECT_EQ(p.first, element_address(a.data() + 4));
  EXPECT_EQ(p.step[0], 1U);
  EXPECT_EQ(p.step[1], 209U);
  EXPECT_EQ(p.step[2], 209U * 209U);
  // The line picked for a box of extents e in a double array with these strides.
  const auto lanes = [&](std::initializer_list<int> e, const std::ptrdiff_t(&stride)[3]) {
    return row_phase_for<aligned_gpu>(loopnest::box<3>{{0, 0, 0}, e}, a.data(), stride).lanes;
  };
  // FP32: a whole line (32 elements) would make 201 threads 8 warps; half a line fits.
  EXPECT_EQ(row_phase_for<aligned_gpu>(loopnest::box<3>{{0, 0, 0}, {201, 3, 3}}, f.data() + 1, left)
                .lanes,
            16);
  EXPECT_EQ(lanes({209, 3, 3}, left), 16);
  EXPECT_EQ(lanes({17, 3, 3}, left), 16);
  // 128 threads are 4 whole warps: any shift costs a fifth. The rows are still placed, for a
  // launch in memory order.
  EXPECT_EQ(lanes({128, 3, 3}, left), 0);
  const auto unshifted =
      row_phase_for<aligned_gpu>(loopnest::box<3>{{0, 0, 0}, {128, 3, 3}}, f.data() + 4, left);
  EXPECT_EQ(unshifted.line, 32);
  EXPECT_EQ(unshifted.first, element_address(f.data() + 4));
  EXPECT_EQ(unshifted.step[1], 209U);
  EXPECT_EQ(p.line, 16);
  EXPECT_EQ(lanes({126, 3, 3}, left), 2);
  // The stride-1 index is the row, whichever it is; without one there is no row to align.
  EXPECT_EQ(lanes({3, 3, 201}, right), 16);
  EXPECT_EQ(lanes({3, 3, 128}, right), 0);
  const std::ptrdiff_t no_unit[3] = {2, 2 * row, 2 * row * row};
  EXPECT_EQ(lanes({201, 3, 3}, no_unit), 0);
  // Strips of n cells: a warp holds n times more cells, and the line is never shorter than a
  // strip, even where its shift costs a warp.
  const auto strip_lanes = [&](int e0, int cells) {
    return row_phase_for<aligned_gpu>(loopnest::box<3>{{0, 0, 0}, {e0, 3, 3}}, a.data(), left,
                                      cells)
        .lanes;
  };
  EXPECT_EQ(
      row_phase_for<aligned_gpu>(loopnest::box<3>{{0, 0, 0}, {201, 3, 3}}, f.data() + 1, left, 4)
          .lanes,
      32);
  EXPECT_EQ(strip_lanes(201, 2), 16);
  EXPECT_EQ(strip_lanes(128, 4), 4);
  EXPECT_EQ(strip_lanes(128, 2), 2);
  // Host backends take no shift and place no rows.
  const auto host = row_phase_for<Kokkos::DefaultHostExecutionSpace>(
      loopnest::box<3>{{0, 0, 0}, {201, 3, 3}}, a.data(), left);
  EXPECT_EQ(host.lanes, 0);
  EXPECT_EQ(host.line, 0);
  EXPECT_EQ(lanes({201, 3, 3}, no_unit), 0);
  EXPECT_EQ(
      row_phase_for<aligned_gpu>(loopnest::box<3>{{0, 0, 0}, {201, 3, 3}}, a.data(), no_unit).line,
      0);
}

// Thread t of a plane in memory order runs the cell whose element address is t modulo the line,
// and every cell of the plane exactly once; the threads over the gaps between rows run nothing.
struct record_plane {
  int* runs;  // per cell of the plane, from (lower0, lower1)
  int* last;
  int lower0, lower1, extent0;
  KOKKOS_FUNCTION void operator()(int i, int j, int) const {
    const int cell = (j - lower1) * extent0 + i - lower0;
    ++runs[cell];
    *last = cell;
  }
};

TEST(row_alignment, a_plane_in_memory_order_puts_every_cell_on_a_thread_of_its_line_offset) {
  const int lower0 = -3, lower1 = 2;
  for (const int line : {2, 16, 32}) {
    for (const int extent0 : {1, 17, 201}) {
      for (const int gap : {0, 1, 8}) {
        const int extent1      = 5;
        const auto s1          = static_cast<std::uint32_t>(extent0 + gap);
        const std::uint32_t s2 = s1 * 9;
        for (const std::uint32_t origin : {0U, 3U, 4294967290U}) {
          for (int k = -2; k < 2; ++k) {
            std::vector<int> runs(static_cast<std::size_t>(extent0 * extent1), 0);
            int last = -1;
            const loopnest::Impl::row_span_body<record_plane> body{
                {runs.data(), &last, lower0, lower1, extent0},
                lower0,
                extent0,
                lower1,
                extent1,
                s1,
                {origin, s1, s2, static_cast<std::uint32_t>(line - 1)}};
            const int threads = line - 1 + (extent1 - 1) * static_cast<int>(s1) + extent0;
            for (int t = 0; t < threads + 32; ++t) {
              last = -1;
              body(t, k);
              if (last >= 0) {
                // origin is the element address of cell (lower0, 0, 0).
                const std::uint32_t address =
                    origin + static_cast<std::uint32_t>(last % extent0) +
                    static_cast<std::uint32_t>(lower1 + last / extent0) * s1 +
                    static_cast<std::uint32_t>(k) * s2;
                EXPECT_EQ(
                    (address - static_cast<std::uint32_t>(t)) % static_cast<std::uint32_t>(line),
                    0U)
                    << "line " << line << " extent " << extent0 << " gap " << gap << " thread "
                    << t;
                EXPECT_LT(t, threads);
              }
            }
            for (int c = 0; c < extent0 * extent1; ++c) {
              EXPECT_EQ(runs[static_cast<std::size_t>(c)], 1)
                  << "line " << line << " extent " << extent0 << " gap " << gap << " cell " << c;
            }
          }
        }
      }
    }
  }
}

TEST(row_alignment, only_rows_that_follow_each_other_closely_in_memory_run_in_memory_order) {
  const loopnest::Impl::policy_box<3> pb{{-4, 0, 0}, {197, 201, 3}};  // rows of 201
  row_phase rows;
  rows.step[0] = 1;
  rows.step[1] = 209;
  rows.line    = 32;
  rows.warp    = 32;
  // The span of 201 rows from a line boundary, in whole warps.
  EXPECT_EQ(loopnest::Impl::row_span_threads(pb, rows), (31 + 200 * 209 + 201 + 31) / 32 * 32);
  rows.step[1] = 201 + 201 / 8;
  EXPECT_GT(loopnest::Impl::row_span_threads(pb, rows), 0);
  rows.step[1] = 201 + 201 / 8 + 1;  // gaps of more than an eighth of a row
  EXPECT_EQ(loopnest::Impl::row_span_threads(pb, rows), 0);
  rows.step[1] = 200;  // rows that overlap are not rows of one array
  EXPECT_EQ(loopnest::Impl::row_span_threads(pb, rows), 0);
  rows.step[1] = 209;
  rows.line    = 0;  // not placed
  EXPECT_EQ(loopnest::Impl::row_span_threads(pb, rows), 0);
  rows.line    = 32;
  rows.step[0] = 209;  // no stride-1 index
  EXPECT_EQ(loopnest::Impl::row_span_threads(pb, rows), 0);
}

// Thread t of a shifted row runs the cell whose element address is t modulo the line, and every
// cell of the row exactly once.
struct record_row {
  int* runs;  // per cell of the row, from lower0
  int* last;
  int lower0;
  KOKKOS_FUNCTION void operator()(int i, int, int) const {
    ++runs[i - lower0];
    *last = i - lower0;
  }
};

TEST(row_alignment, a_shifted_row_puts_every_cell_on_a_thread_of_its_line_offset) {
  const std::uint32_t s1 = 209, s2 = 209 * 211;
  const int lower0 = -3;
  for (const int lanes : {2, 8, 16, 32}) {
    for (const int extent0 : {1, 5, 17, 201}) {
      for (const std::uint32_t origin : {0U, 3U, 4294967290U}) {
        const int padded = (extent0 + lanes - 1 + 31) / 32 * 32;
        for (int k = -2; k < 2; ++k) {
          for (int j = -1; j < 3; ++j) {
            std::vector<int> runs(static_cast<std::size_t>(extent0), 0);
            int last = -1;
            const loopnest::Impl::aligned_rows_body<record_row> body{
                {runs.data(), &last, lower0},
                lower0,
                extent0,
                {origin, s1, s2, static_cast<std::uint32_t>(lanes - 1)}};
            for (int t = 0; t < padded; ++t) {
              last = -1;
              body(t, j, k);
              if (last >= 0) {
                // origin is the element address of cell (lower0, 0, 0).
                const std::uint32_t address = origin + static_cast<std::uint32_t>(last) +
                                              static_cast<std::uint32_t>(j) * s1 +
                                              static_cast<std::uint32_t>(k) * s2;
                EXPECT_EQ(
                    (address - static_cast<std::uint32_t>(t)) % static_cast<std::uint32_t>(lanes),
                    0U)
                    << "lanes " << lanes << " extent " << extent0 << " thread " << t;
              }
            }
            for (int i = 0; i < extent0; ++i) {
              EXPECT_EQ(runs[static_cast<std::size_t>(i)], 1)
                  << "lanes " << lanes << " extent " << extent0 << " cell " << i + lower0;
            }
          }
        }
      }
    }
  }
}

// A body of strips that records which cells it ran, and where each whole strip started.
struct record_strips {
  int* runs;  // per cell of the row, from lower0
  int* first;
  int lower0;
  KOKKOS_FUNCTION void operator()(int i, int, int) const { ++runs[i - lower0]; }
  KOKKOS_FUNCTION void strip(int i, int, int) const {
    for (int u = 0; u < 4; ++u) {
      ++runs[i - lower0 + u];
    }
    *first = i - lower0;
  }
};

TEST(row_alignment, a_shifted_row_of_strips_starts_every_whole_strip_on_a_vector) {
  constexpr int n        = 4;
  const std::uint32_t s1 = 209, s2 = 209 * 211;
  const int lower0 = -3;
  for (const int lanes : {4, 16, 32}) {
    for (const int extent0 : {1, 3, 4, 5, 17, 201}) {
      for (const std::uint32_t origin : {0U, 3U, 4294967290U}) {
        const int threads = (extent0 + lanes - 1 + n - 1) / n;
        for (int k = -2; k < 2; ++k) {
          for (int j = -1; j < 3; ++j) {
            std::vector<int> runs(static_cast<std::size_t>(extent0), 0);
            int first = -1;
            const loopnest::Impl::aligned_strips_body<record_strips, n> body{
                {runs.data(), &first, lower0},
                lower0,
                extent0,
                {origin, s1, s2, static_cast<std::uint32_t>(lanes - 1)}};
            int whole = 0;
            for (int t = 0; t < threads; ++t) {
              first = -1;
              body(t, j, k);
              if (first >= 0) {
                ++whole;
                const std::uint32_t address = origin + static_cast<std::uint32_t>(first) +
                                              static_cast<std::uint32_t>(j) * s1 +
                                              static_cast<std::uint32_t>(k) * s2;
                EXPECT_EQ(address % n, 0U) << "lanes " << lanes << " extent " << extent0;
                EXPECT_EQ((address - static_cast<std::uint32_t>(n * t)) %
                              static_cast<std::uint32_t>(lanes),
                          0U)
                    << "lanes " << lanes << " extent " << extent0 << " thread " << t;
              }
            }
            EXPECT_GE(whole, extent0 / n - 1) << "lanes " << lanes << " extent " << extent0;
            for (int i = 0; i < extent0; ++i) {
              EXPECT_EQ(runs[static_cast<std::size_t>(i)], 1)
                  << "lanes " << lanes << " extent " << extent0 << " cell " << i + lower0;
            }
          }
        }
      }
    }
  }
}

// Every (cell, variable) once under collapse3 with rows shifted by any phase, on every backend;
// strided mapping (no stride-1 policy index) keeps the plain launch.
template <class Schedule, class ExecutionSpace>
void count_shifted_visits(const ExecutionSpace& exec, const loopnest::box<3>& b,
                          const row_phase& rows) {
  const int lo0 = b.lower(0) - margin, lo1 = b.lower(1) - margin, lo2 = b.lower(2) - margin;
  for (const int nv : {1, 5}) {
    const auto pairs = make_counts<ExecutionSpace>(b, nv);
    loopnest::Impl::launch_cell_var<Schedule>(
        exec, b, {0, nv}, loopnest::Impl::no_cell_value{},
        loopnest_test::count_body<ExecutionSpace, 3>{pairs, lo0, lo1, lo2}, "shifted_rows",
        loopnest::tile{}, rows);
    exec.fence();
    expect_visited_once<ExecutionSpace, 3>(
        pairs, b,
        describe<Schedule>("shifted rows, lanes " + std::to_string(rows.lanes) + ", first " +
                               std::to_string(rows.first) + ", nvar " + std::to_string(nv) + ",",
                           3));
  }
}

template <class Layout>
using shifted_schedules =
    std::tuple<loopnest::with_layout_t<loopnest::collapse3, Layout>,
               loopnest::schedule<loopnest::schedule_kind::collapse3, loopnest::strided, Layout>,
               loopnest_test::bounded<Layout, loopnest::schedule_kind::collapse3>,
               loopnest::with_layout_t<loopnest::automatic, Layout>,
               loopnest_test::with_cells<Layout, 2>, loopnest_test::with_cells<Layout, 4>>;

template <class Layout, class ExecutionSpace, class... Schedules>
void count_shifted_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  const bool left = std::is_same<Layout, Kokkos::LayoutLeft>::value;
  auto boxes      = boxes_3d();
  boxes.push_back({{-4, -1, 0}, {44, 2, 3}});
  boxes.push_back({{-1, 0, -2}, {3, 2, 40}});
  for (const auto& b : boxes) {
    const int row = left ? b.extent(0) : b.extent(2);
    for (const int lanes : {2, 4, 16}) {
      for (const int warp : {4, 32}) {
        for (const std::uint32_t first : {0U, 1U, 13U}) {
          row_phase rows;
          rows.first   = first;
          rows.step[0] = left ? 1 : 93;
          rows.step[1] = 7;
          rows.step[2] = left ? 93 : 1;
          rows.lanes   = lanes;
          rows.warp    = warp;
          (count_shifted_visits<Schedules>(exec, b, rows), ...);
          // Rows placed on lines of 2 * lanes, following each other in memory: collapse3 runs
          // its planes in memory order where the gaps are small.
          rows.line = 2 * lanes;
          for (const int gap : {0, 1, row / 8}) {
            rows.step[1] = static_cast<std::uint32_t>(row + gap);
            (count_shifted_visits<Schedules>(exec, b, rows), ...);
          }
        }
      }
    }
  }
}

TYPED_TEST(for_each, shifted_rows_visit_every_cell_and_variable_exactly_once) {
  const TypeParam exec;
  count_shifted_all<Kokkos::LayoutLeft>(
      exec, static_cast<shifted_schedules<Kokkos::LayoutLeft>*>(nullptr));
  count_shifted_all<Kokkos::LayoutRight>(
      exec, static_cast<shifted_schedules<Kokkos::LayoutRight>*>(nullptr));
}

// ----------------------------------------------------------------------------------------
// Bad input: std::invalid_argument naming the parameter and value, and nothing written.

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

template <class Schedule, class ExecutionSpace, class Vars>
std::string try_cell_var(const ExecutionSpace& exec, const loopnest::box<3>& b, const Vars& nv,
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

  expect_mentions(try_cell_var<loopnest::flat>(exec, b, -2, {}, hits),
                  "loopnest::for_each_cell_var: nvar = -2 but it must be at least 0");
  expect_mentions(try_cell_var<loopnest::collapse3>(exec, b, loopnest::var_range{5, 2}, {}, hits),
                  "loopnest::for_each_cell_var: var_range{5, 2} has last = 2 below first = 5");
  expect_mentions(
      try_cell_var<loopnest::collapse4>(exec, b, loopnest::var_range{-2, INT_MAX}, {}, hits),
      "var_range{-2, 2147483647} holds more than 2^31 - 1 variables");
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

  // A tile whose extent along the policy's last index passes a CUDA block's z dimension (64):
  // refused where the backend has that limit, run where it has none.
  const loopnest::box<3> thin{{0, 0, 0}, {1, 1, 100}};
  const std::string last_msg =
      try_cell_var<loopnest::collapse4>(exec, thin, 1, {1, 1, 1, 100}, hits);
  constexpr int max_last = loopnest::Impl::tile_traits<TypeParam>::max_last_extent;
  if (max_last < 100) {
    expect_mentions(last_msg, "tile 1x1x1x100 has size 100 at index 3, which " +
                                  std::string(TypeParam::name()) +
                                  " runs along a block's third dimension: at most 64 there");
  } else {
    EXPECT_EQ(last_msg, "no exception");
  }

  // Four sizes of 65536 hold 2^64 points, 0 in 64-bit arithmetic: refused on every backend.
  expect_mentions(try_cell_var<loopnest::collapse4>(exec, b, 2, {65536, 65536, 65536, 65536}, hits),
                  "tile 65536x65536x65536x65536 holds more than 4294967296 points");

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
  EXPECT_EQ(launched, (max_points < 1024 * 1024 ? 0 : b2.size()) +
                          (max_last < 100 ? 0 : thin.size()) + 2 * b.size())
      << "a refused call must launch nothing";
}

TYPED_TEST(for_each, empty_box_or_variable_range_is_a_no_op) {
  const TypeParam exec;
  Kokkos::View<int*, typename TypeParam::memory_space> hits("hits", 1);
  const loopnest::box<3> b{{-1, 0, 0}, {6, 5, 4}};
  EXPECT_EQ(try_cell_var<loopnest::collapse3>(exec, b, 0, {}, hits), "no exception");
  EXPECT_EQ(try_cell_var<loopnest::collapse4>(exec, b, loopnest::var_range{3, 3}, {}, hits),
            "no exception");
  EXPECT_EQ(try_cell_var<loopnest::flat>(exec, b, loopnest::var_range{}, {}, hits), "no exception");
  EXPECT_EQ(try_cell_var<loopnest::collapse4>(exec, {{0, 0, 0}, {0, 9, 9}}, 3, {}, hits),
            "no exception");
  EXPECT_EQ(try_cell<loopnest::flat>(exec, {{4, 4}, {9, 4}}, {}, hits), "no exception");
  exec.fence();
  int launched = -1;
  Kokkos::deep_copy(launched, Kokkos::subview(hits, 0));
  EXPECT_EQ(launched, 0);
}

}  // namespace
