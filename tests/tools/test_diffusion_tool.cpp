#include <loopnest/diffusion.hpp>
#include <loopnest/tools/diffusion_tool.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest::diffusion_variant;
using loopnest_test::error_of;
using loopnest_test::expect_mentions;

TEST(diffusion_tool, variant_names_round_trip_and_unknown_names_are_listed) {
  for (const auto v : loopnest::diffusion_variants) {
    EXPECT_EQ(loopnest::parse_diffusion_variant(loopnest::name(v)), v);
  }
  const auto msg = error_of([] { loopnest::parse_diffusion_variant("fastest"); });
  expect_mentions(msg, "loopnest::parse_diffusion_variant: variant 'fastest' is unknown");
  expect_mentions(
      msg, "baseline, contiguous, strided, collapse, flat, kokkos_default, vectorized, temporal");
}

std::string check_error(const std::vector<double>& u, int nx, int ny) {
  return error_of<std::runtime_error>([&] { loopnest::check_diffusion_solution(u, nx, ny); });
}

TEST(diffusion_tool, a_solution_that_is_not_physical_is_an_error) {
  auto u = loopnest::diffusion_initial_condition<double>(5, 5);
  u[7]   = std::numeric_limits<double>::quiet_NaN();
  expect_mentions(check_error(u, 5, 5), "cell (2, 1) = nan is not finite");
  u[7] = std::numeric_limits<double>::infinity();
  expect_mentions(check_error(u, 5, 5), "cell (2, 1) = inf is not finite");
  u[7] = -1e-3;
  expect_mentions(check_error(u, 5, 5),
                  "cell (2, 1) = -0.001 is outside [-1e-10, 1 + 1e-10] (the bounds [0, 1] with "
                  "the FP64 tolerance)");
  u[7] = 0.5;
  expect_mentions(check_error(u, 5, 5), "mass = 1.5 is outside [-1e-10, 1 + 1e-10]");
  expect_mentions(error_of([&] { loopnest::check_diffusion_solution(u, 5, 4); }), "has 25 values");
}

// A field of zeros with `value` in one cell and `rest` spread as mass over the others.
template <class T>
std::vector<T> field_with(T value, double extra_mass) {
  std::vector<T> u(25, T(0));
  u[12] = value;
  u[0]  = static_cast<T>(extra_mass);
  return u;
}

template <class T>
void check_the_tolerance_bounds() {
  const double tol  = loopnest::diffusion_bound_tolerance<T>();
  const auto passes = [](const std::vector<T>& u) {
    return error_of<std::runtime_error>([&] { loopnest::check_diffusion_solution(u, 5, 5); }) ==
           "no exception";
  };
  // Values and the mass within the tolerance of [0, 1] pass; twice as far out they do not.
  EXPECT_TRUE(passes(field_with<T>(T(-0.5 * tol), 0.0)));
  EXPECT_FALSE(passes(field_with<T>(T(-2.0 * tol), 0.0)));
  EXPECT_TRUE(passes(field_with<T>(T(1.0), 0.5 * tol)));
  EXPECT_FALSE(passes(field_with<T>(T(1.0), 2.0 * tol)));
  EXPECT_TRUE(passes(field_with<T>(T(1.0 + 0.5 * tol), 0.0)));
  EXPECT_FALSE(passes(field_with<T>(T(1.0 + 2.0 * tol), 0.0)));
}

TEST(diffusion_tool, the_bounds_allow_the_study_tolerance_and_no_more) {
  EXPECT_EQ(loopnest::diffusion_bound_tolerance<float>(), 1e-4);
  EXPECT_EQ(loopnest::diffusion_bound_tolerance<double>(), 1e-10);
  check_the_tolerance_bounds<float>();
  check_the_tolerance_bounds<double>();
}

// Grids and step counts where no mass has reached the edges: the mass is 1 up to rounding, which
// puts it above 1 on some of them. Every one passes, and at least one was above 1 (or the
// tolerance would not have been exercised).
template <class T>
void check_runs_before_the_edges(const char* label) {
  int above_one = 0;
  for (const int n : {16, 33, 64, 101}) {
    for (int steps = 1; steps < n / 2 - 1; steps += 3) {
      const auto u = loopnest::diffusion_reference<T>(
          n, n + 3, steps, loopnest::diffusion_initial_condition<T>(n, n + 3));
      const auto msg = error_of<std::runtime_error>([&] {
        const auto s = loopnest::check_diffusion_solution(u, n, n + 3);
        above_one += s.mass > 1.0;
      });
      EXPECT_EQ(msg, "no exception")
          << label << " " << n << "x" << n + 3 << ", " << steps << " steps";
    }
  }
  EXPECT_GT(above_one, 0) << label << ": no run had its mass above 1";
}

TEST(diffusion_tool, correct_solutions_whose_mass_rounds_above_one_pass) {
  check_runs_before_the_edges<float>("FP32");
  check_runs_before_the_edges<double>("FP64");
}

template <class ExecutionSpace>
class diffusion_tool_on : public ::testing::Test {};
TYPED_TEST_SUITE(diffusion_tool_on, loopnest_test::execution_spaces);

TYPED_TEST(diffusion_tool_on, a_solution_diffuses_and_loses_mass_through_the_edges) {
  loopnest::diffusion_solver<double, diffusion_variant::vectorized, TypeParam> s(TypeParam(), 9, 9);
  s.set_initial_condition();
  const auto before = loopnest::check_diffusion_solution(s.field(), 9, 9);
  EXPECT_EQ(before.mass, 1.0);
  EXPECT_EQ(before.centre, 1.0);
  s.advance(50);
  const auto after = loopnest::check_diffusion_solution(s.field(), 9, 9);
  EXPECT_LT(after.centre, 0.5);
  EXPECT_LT(after.mass, 1.0);
  EXPECT_GT(after.mass, 0.0);
  EXPECT_EQ(after.min, 0.0) << "the edges stay at 0";
}

}  // namespace
