// Randomized tests of for_each_cell and for_each_cell_var: parameters drawn from fixed seeds 1 to
// 40 (randomized_draws.hpp), each case's seed and parameters in the failure message.
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>

#include "for_each_checks.hpp"
#include "randomized_draws.hpp"
#include "schedules.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::box_text;
using loopnest_test::draw;
using loopnest_test::draw_extent;
using loopnest_test::draw_tile;
using loopnest_test::schedules_for_layout;

constexpr unsigned loop_cases = 40;

// ----------------------------------------------------------------------------------------
// for_each_cell and for_each_cell_var: random 2D and 3D boxes (negative lower bounds, extents of
// 1, now and then an empty one), a random variable count and random explicit tiles.

struct loop_case {
  unsigned seed;
  loopnest::box<3> b3;
  loopnest::box<2> b2;
  int nvar;
  // Explicit tiles: for_each_cell (and collapse3's for_each_cell_var), and collapse4's, which
  // has the variable index too.
  loopnest::tile cell3, var3, cell2, var2;
  std::string text;
};

// Lower bounds in [-6, 4]; extents up to 13 (3D) and 40 (2D), 1 a quarter of the time and 0 one
// time in 24.
template <int Rank>
loopnest::box<Rank> draw_box(std::mt19937& gen, int max_extent) {
  int lo[3], hi[3];
  for (int d = 0; d < Rank; ++d) {
    lo[d] = draw(gen, -6, 4);
    hi[d] = lo[d] + (draw(gen, 0, 23) == 0 ? 0 : draw_extent(gen, max_extent));
  }
  if constexpr (Rank == 3) {
    return {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  } else {
    return {{lo[0], lo[1]}, {hi[0], hi[1]}};
  }
}

loop_case draw_loop_case(unsigned seed, int max_points, int max_last) {
  std::mt19937 gen(seed);
  const auto b3  = draw_box<3>(gen, 13);
  const auto b2  = draw_box<2>(gen, 40);
  const int nvar = draw(gen, 1, 11);
  loop_case c{
      seed,
      b3,
      b2,
      nvar,
      draw_tile(gen, {b3.extent(0), b3.extent(1), b3.extent(2)}, max_points, max_last),
      draw_tile(gen, {b3.extent(0), b3.extent(1), b3.extent(2), nvar}, max_points, max_last),
      draw_tile(gen, {b2.extent(0), b2.extent(1)}, max_points),
      draw_tile(gen, {b2.extent(0), b2.extent(1), nvar}, max_points, max_last),
      ""};
  c.text = "seed " + std::to_string(seed) + ": 3D box " + box_text(b3) + ", 2D box " +
           box_text(b2) + ", nvar " + std::to_string(nvar) + ", tiles " + c.cell3.to_string() +
           " / " + c.var3.to_string() + " (3D), " + c.cell2.to_string() + " / " +
           c.var2.to_string() + " (2D)";
  return c;
}

// The floating-point body runs only where the visits were right: a visit outside the box would
// write outside its Views.
template <class Schedule, class ExecutionSpace>
void check_loop_case(const ExecutionSpace& exec, const loop_case& c) {
  using loopnest_test::bit_identical;
  using loopnest_test::count_visits;
  if (count_visits<Schedule>(exec, c.b3, {c.nvar})) {
    bit_identical<Schedule, double>(exec, c.b3, c.nvar, c.seed);
    bit_identical<Schedule, float>(exec, c.b3, c.nvar, c.seed + 1000);
  }
  if (count_visits<Schedule>(exec, c.b2, {c.nvar})) {
    bit_identical<Schedule, double>(exec, c.b2, c.nvar, c.seed + 2000);
    bit_identical<Schedule, float>(exec, c.b2, c.nvar, c.seed + 3000);
  }
  constexpr auto kind = Schedule::kind;
  if constexpr (kind == loopnest::schedule_kind::collapse4 ||
                kind == loopnest::schedule_kind::collapse3) {
    constexpr bool c4 = kind == loopnest::schedule_kind::collapse4;
    const auto& var3  = c4 ? c.var3 : c.cell3;
    const auto& var2  = c4 ? c.var2 : c.cell2;
    if (count_visits<Schedule>(exec, c.b3, {c.nvar}, c.cell3, var3)) {
      bit_identical<Schedule, double>(exec, c.b3, c.nvar, c.seed, var3);
    }
    if (count_visits<Schedule>(exec, c.b2, {c.nvar}, c.cell2, var2)) {
      bit_identical<Schedule, float>(exec, c.b2, c.nvar, c.seed + 3000, var2);
    }
  }
}

template <class ExecutionSpace, class... Schedules>
void check_loop_case_all(const ExecutionSpace& exec, const loop_case& c,
                         std::tuple<Schedules...>*) {
  (check_loop_case<Schedules>(exec, c), ...);
}

// ----------------------------------------------------------------------------------------

template <class ExecutionSpace>
class randomized_loops : public ::testing::Test {};
TYPED_TEST_SUITE(randomized_loops, loopnest_test::execution_spaces);

TYPED_TEST(randomized_loops, for_each_visits_once_and_every_schedule_gives_the_host_loop_bits) {
  const TypeParam exec;
  const int max_points = loopnest::Impl::max_tile_points(exec);
  const int max_last   = loopnest::Impl::tile_traits<TypeParam>::max_last_extent;
  for (unsigned seed = 1; seed <= loop_cases; ++seed) {
    const loop_case c = draw_loop_case(seed, max_points, max_last);
    SCOPED_TRACE(c.text);
    check_loop_case_all(exec, c, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
    check_loop_case_all(exec, c, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  }
}

}  // namespace
