#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "schedules.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

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

// Cell counts over the box grown by `margin` on every side, so that a visit outside the box
// shows as a count where there must be none.
constexpr int margin = 2;
constexpr int nvar   = 3;
// Variable counts on both sides of nvcc's 4-way unrolling of the variable loop of collapse3 and
// flat: a remainder alone, whole groups, and whole groups with each size of remainder.
constexpr int visit_nvars[] = {1, 3, 4, 5, 7, 8, 11};

template <class ExecutionSpace, int Rank>
using count_view = Kokkos::View<int****, Kokkos::LayoutLeft, typename ExecutionSpace::memory_space>;

template <class ExecutionSpace, int Rank>
count_view<ExecutionSpace, Rank> make_counts(const loopnest::box<Rank>& b, int nv) {
  return count_view<ExecutionSpace, Rank>("counts", b.extent(0) + 2 * margin,
                                          b.extent(1) + 2 * margin,
                                          Rank == 3 ? b.extent(2) + 2 * margin : 1, nv);
}

template <class ExecutionSpace, int Rank>
void expect_visited_once(const count_view<ExecutionSpace, Rank>& counts,
                         const loopnest::box<Rank>& b, const std::string& what) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  int wrong    = 0;
  for (int v = 0; v < static_cast<int>(h.extent(3)); ++v) {
    for (int k = 0; k < static_cast<int>(h.extent(2)); ++k) {
      for (int j = 0; j < static_cast<int>(h.extent(1)); ++j) {
        for (int i = 0; i < static_cast<int>(h.extent(0)); ++i) {
          const bool inside = i >= margin && i < margin + b.extent(0) && j >= margin &&
                              j < margin + b.extent(1) &&
                              (Rank == 2 || (k >= margin && k < margin + b.extent(2)));
          wrong += h(i, j, k, v) != (inside ? 1 : 0);
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0) << what;
}

template <class Schedule>
std::string describe(const std::string& entry, int rank) {
  return entry + " " + loopnest::name(Schedule::kind) + "/" +
         loopnest::name(typename Schedule::mapping{}) + "/" +
         (std::is_same<typename Schedule::layout, Kokkos::LayoutLeft>::value ? "left" : "right") +
         " rank " + std::to_string(rank);
}

template <class Schedule, class ExecutionSpace>
void count_visits_3d(const ExecutionSpace& exec, const loopnest::box<3>& b) {
  const int lo0 = b.lower(0) - margin, lo1 = b.lower(1) - margin, lo2 = b.lower(2) - margin;
  auto cells = make_counts<ExecutionSpace>(b, 1);
  loopnest::for_each_cell<Schedule>(
      exec, b, KOKKOS_LAMBDA(int i, int j, int k) {
        Kokkos::atomic_add(&cells(i - lo0, j - lo1, k - lo2, 0), 1);
      });
  exec.fence();
  expect_visited_once<ExecutionSpace, 3>(cells, b, describe<Schedule>("for_each_cell", 3));
  for (const int nv : visit_nvars) {
    auto pairs = make_counts<ExecutionSpace>(b, nv);
    loopnest::for_each_cell_var<Schedule>(
        exec, b, nv, KOKKOS_LAMBDA(int i, int j, int k, int v) {
          Kokkos::atomic_add(&pairs(i - lo0, j - lo1, k - lo2, v), 1);
        });
    exec.fence();
    expect_visited_once<ExecutionSpace, 3>(
        pairs, b, describe<Schedule>("for_each_cell_var, nvar " + std::to_string(nv) + ",", 3));
  }
}

template <class Schedule, class ExecutionSpace>
void count_visits_2d(const ExecutionSpace& exec, const loopnest::box<2>& b) {
  const int lo0 = b.lower(0) - margin, lo1 = b.lower(1) - margin;
  auto cells = make_counts<ExecutionSpace>(b, 1);
  loopnest::for_each_cell<Schedule>(
      exec, b,
      KOKKOS_LAMBDA(int i, int j) { Kokkos::atomic_add(&cells(i - lo0, j - lo1, 0, 0), 1); });
  exec.fence();
  expect_visited_once<ExecutionSpace, 2>(cells, b, describe<Schedule>("for_each_cell", 2));
  for (const int nv : visit_nvars) {
    auto pairs = make_counts<ExecutionSpace>(b, nv);
    loopnest::for_each_cell_var<Schedule>(
        exec, b, nv, KOKKOS_LAMBDA(int i, int j, int v) {
          Kokkos::atomic_add(&pairs(i - lo0, j - lo1, 0, v), 1);
        });
    exec.fence();
    expect_visited_once<ExecutionSpace, 2>(
        pairs, b, describe<Schedule>("for_each_cell_var, nvar " + std::to_string(nv) + ",", 2));
  }
}

template <class ExecutionSpace, class... Schedules>
void count_visits_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  for (const auto& b : boxes_3d()) {
    (count_visits_3d<Schedules>(exec, b), ...);
  }
  for (const auto& b : boxes_2d()) {
    (count_visits_2d<Schedules>(exec, b), ...);
  }
}

template <class ExecutionSpace>
class for_each : public ::testing::Test {};
TYPED_TEST_SUITE(for_each, loopnest_test::execution_spaces);

TYPED_TEST(for_each, every_cell_and_variable_is_visited_exactly_once) {
  const TypeParam exec;
  count_visits_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  count_visits_all(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
}

TYPED_TEST(for_each, automatic_runs_both_of_its_choices) {
  // A box large enough that automatic picks collapse3 on every backend, and one small enough
  // that it picks collapse4 wherever concurrency allows; both must still visit once.
  const TypeParam exec;
  const int big = 1 + static_cast<int>(loopnest::automatic_collapse4_below(exec) / 16);
  count_visits_3d<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {big, 4, 4}});
  count_visits_3d<loopnest::automatic>(exec, loopnest::box<3>{{0, 0, 0}, {2, 2, 2}});
}

// ----------------------------------------------------------------------------------------
// Bit-identical results. The body reads neighbours (ghost cells included) and a per-variable
// coefficient; every product-and-sum goes through loopnest::fma so that no compiler may
// contract it differently, which makes the host loop an exact reference too.

constexpr int ghost = 1;

template <class T>
KOKKOS_INLINE_FUNCTION T update(T centre, T neighbours, T c) {
  return loopnest::fma(c, loopnest::fma(T(-6), centre, neighbours), centre) / (T(1) + c);
}

template <class T, class Layout, class Space>
using field_view = Kokkos::View<T****, Layout, Space>;

template <class T>
T poison() {
  return static_cast<T>(-1.0e30);
}

template <class T, class Layout, class ExecutionSpace>
struct bit_fixture {
  field_view<T, Layout, typename ExecutionSpace::memory_space> u, w;
  Kokkos::View<T*, typename ExecutionSpace::memory_space> coef;
  typename field_view<T, Layout, typename ExecutionSpace::memory_space>::HostMirror reference;
};

// Random input on the ghost-inclusive region of a 3D box (extent 1 along k for 2D), output
// poisoned, and the reference from a plain host loop.
template <class T, class Layout, class ExecutionSpace>
bit_fixture<T, Layout, ExecutionSpace> make_fixture(int n0, int n1, int n2, bool three_d,
                                                    unsigned seed) {
  bit_fixture<T, Layout, ExecutionSpace> fx;
  const int g2 = three_d ? ghost : 0;
  fx.u         = decltype(fx.u)("u", n0 + 2 * ghost, n1 + 2 * ghost, n2 + 2 * g2, nvar);
  fx.w         = decltype(fx.w)("w", n0 + 2 * ghost, n1 + 2 * ghost, n2 + 2 * g2, nvar);
  fx.coef      = decltype(fx.coef)("coef", nvar);
  auto hu      = Kokkos::create_mirror_view(fx.u);
  auto hc      = Kokkos::create_mirror_view(fx.coef);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (int v = 0; v < nvar; ++v) {
    hc(v) = static_cast<T>(0.05 + 0.1 * (dist(gen) + 1.0));
  }
  for (std::size_t e = 0; e < hu.span(); ++e) {
    hu.data()[e] = static_cast<T>(dist(gen));
  }
  Kokkos::deep_copy(fx.u, hu);
  Kokkos::deep_copy(fx.coef, hc);
  fx.reference = Kokkos::create_mirror_view(fx.w);
  Kokkos::deep_copy(fx.reference, poison<T>());
  for (int v = 0; v < nvar; ++v) {
    for (int k = g2; k < n2 + g2; ++k) {
      for (int j = ghost; j < n1 + ghost; ++j) {
        for (int i = ghost; i < n0 + ghost; ++i) {
          T nb =
              (hu(i - 1, j, k, v) + hu(i + 1, j, k, v)) + (hu(i, j - 1, k, v) + hu(i, j + 1, k, v));
          nb                       = three_d ? nb + (hu(i, j, k - 1, v) + hu(i, j, k + 1, v)) : nb;
          fx.reference(i, j, k, v) = update(hu(i, j, k, v), nb, hc(v));
        }
      }
    }
  }
  return fx;
}

template <class T, class Layout, class ExecutionSpace>
void expect_bitwise_equal(const bit_fixture<T, Layout, ExecutionSpace>& fx,
                          const std::string& what) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fx.w);
  ASSERT_EQ(h.span(), fx.reference.span());
  std::size_t differing = 0;
  for (std::size_t e = 0; e < h.span(); ++e) {
    differing += std::memcmp(h.data() + e, fx.reference.data() + e, sizeof(T)) != 0;
  }
  EXPECT_EQ(differing, 0u) << what << ": elements differing from the host loop (or poison)";
}

template <class Schedule, class T, class ExecutionSpace>
void bit_identical_3d(const ExecutionSpace& exec, int n0, int n1, int n2, unsigned seed) {
  auto fx = make_fixture<T, typename Schedule::layout, ExecutionSpace>(n0, n1, n2, true, seed);
  auto u  = fx.u;
  auto w  = fx.w;
  auto c  = fx.coef;
  Kokkos::deep_copy(w, poison<T>());
  // Box in the stored index space (ghosts at 0 and n + 1).
  const loopnest::box<3> interior{{ghost, ghost, ghost}, {n0 + ghost, n1 + ghost, n2 + ghost}};
  loopnest::for_each_cell_var<Schedule>(
      exec, interior, nvar, KOKKOS_LAMBDA(int i, int j, int k, int v) {
        const T nb =
            ((u(i - 1, j, k, v) + u(i + 1, j, k, v)) + (u(i, j - 1, k, v) + u(i, j + 1, k, v))) +
            (u(i, j, k - 1, v) + u(i, j, k + 1, v));
        w(i, j, k, v) = update(u(i, j, k, v), nb, c(v));
      });
  exec.fence();
  expect_bitwise_equal(fx, describe<Schedule>("3D seed " + std::to_string(seed), 3));
}

template <class Schedule, class T, class ExecutionSpace>
void bit_identical_2d(const ExecutionSpace& exec, int n0, int n1, unsigned seed) {
  auto fx = make_fixture<T, typename Schedule::layout, ExecutionSpace>(n0, n1, 1, false, seed);
  auto u  = fx.u;
  auto w  = fx.w;
  auto c  = fx.coef;
  Kokkos::deep_copy(w, poison<T>());
  const loopnest::box<2> interior{{ghost, ghost}, {n0 + ghost, n1 + ghost}};
  loopnest::for_each_cell_var<Schedule>(
      exec, interior, nvar, KOKKOS_LAMBDA(int i, int j, int v) {
        const T nb =
            (u(i - 1, j, 0, v) + u(i + 1, j, 0, v)) + (u(i, j - 1, 0, v) + u(i, j + 1, 0, v));
        w(i, j, 0, v) = update(u(i, j, 0, v), nb, c(v));
      });
  exec.fence();
  expect_bitwise_equal(fx, describe<Schedule>("2D seed " + std::to_string(seed), 2));
}

template <class T, class ExecutionSpace, class... Schedules>
void bit_identical_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  (bit_identical_3d<Schedules, T>(exec, 37, 9, 5, seed), ...);
  (bit_identical_3d<Schedules, T>(exec, 1, 33, 2, seed + 1), ...);
  (bit_identical_2d<Schedules, T>(exec, 45, 13, seed + 2), ...);
  (bit_identical_2d<Schedules, T>(exec, 8, 1, seed + 3), ...);
}

TYPED_TEST(for_each, every_schedule_gives_the_host_loop_bits_fp64) {
  const TypeParam exec;
  bit_identical_all<double>(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<double>(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
}

TYPED_TEST(for_each, every_schedule_gives_the_host_loop_bits_fp32) {
  const TypeParam exec;
  bit_identical_all<float>(exec, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
  bit_identical_all<float>(exec, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
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
        Kokkos::atomic_add(&written(i - lo0, j - lo1, k - lo2, v),
                           c == i + 100 * j + 10000 * k ? 1 : 1000);
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

  exec.fence();
  int launched = 0;
  Kokkos::deep_copy(launched, Kokkos::subview(hits, 0));
  EXPECT_EQ(launched, max_points < 1024 * 1024 ? 0 : b2.size())
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
