#include <loopnest/diffusion.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "diffusion_checks.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest::diffusion_variant;
using loopnest_test::check_against_reference;
using loopnest_test::error_of;
using loopnest_test::expect_mentions;
using loopnest_test::random_field;
using loopnest_test::run;

template <class ExecutionSpace>
class diffusion : public ::testing::Test {};
TYPED_TEST_SUITE(diffusion, loopnest_test::execution_spaces);

const std::pair<int, int> grids[] = {{5, 5}, {8, 8}, {13, 6}, {6, 13}, {33, 17}, {64, 40}};
const int step_counts[]           = {7, 8, 31, 32, 300};

// One step from a random field into an output whose interior is NaN: a cell the step leaves
// unwritten fails the comparison.
template <class T, diffusion_variant V, class ExecutionSpace>
void check_one_poisoned_step(int nx, int ny, unsigned seed) {
  const auto initial = random_field<T>(nx, ny, seed);
  loopnest::diffusion_solver<T, V, ExecutionSpace> s(ExecutionSpace(), nx, ny);
  s.set_field(initial);
  const auto next = s.next();
  const T nan = std::numeric_limits<T>::quiet_NaN();  // a host function: not callable in kernels
  Kokkos::parallel_for(
      "poison", Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<2>>({1, 1}, {nx - 1, ny - 1}),
      KOKKOS_LAMBDA(int i, int j) { next(i, j) = nan; });
  s.advance(1);
  const auto got       = s.field();
  const auto reference = loopnest::diffusion_reference<T>(nx, ny, 1, initial);
  const auto p         = loopnest::precision_of<T>();
  const auto c         = loopnest::compare_fields(got.data(), reference.data(), reference.size(),
                                                  loopnest::default_tolerance(p, p));
  EXPECT_EQ(c.failures, 0) << loopnest::name(V) << " " << nx << "x" << ny;
}

template <class T, class ExecutionSpace>
void check_poisoned_steps() {
  unsigned seed = 100;
  for (const auto& [nx, ny] : grids) {
    check_one_poisoned_step<T, diffusion_variant::baseline, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::contiguous, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::strided, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::collapse, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::flat, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::kokkos_default, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::vectorized, ExecutionSpace>(nx, ny, ++seed);
  }
}

TYPED_TEST(diffusion, every_variant_writes_every_interior_cell) {
  check_poisoned_steps<float, TypeParam>();
  check_poisoned_steps<double, TypeParam>();
}

template <class T, class ExecutionSpace>
void check_initial_condition_runs() {
  for (const auto& [nx, ny] : grids) {
    for (const int steps : step_counts) {
      check_against_reference<T, ExecutionSpace>(nx, ny, steps,
                                                 loopnest::diffusion_initial_condition<T>(nx, ny));
    }
  }
}

TYPED_TEST(diffusion, fp64_variants_match_the_reference_and_each_other) {
  check_initial_condition_runs<double, TypeParam>();
}

TYPED_TEST(diffusion, fp32_variants_match_the_reference_and_each_other) {
  check_initial_condition_runs<float, TypeParam>();
}

TYPED_TEST(diffusion, random_fields_keep_their_edges_and_match_the_reference) {
  unsigned seed = 7;
  for (const auto& [nx, ny] : grids) {
    const auto initial = random_field<double>(nx, ny, ++seed);
    check_against_reference<double, TypeParam>(nx, ny, 31, initial);
    const auto out = run<double, diffusion_variant::vectorized, TypeParam>(nx, ny, 31, initial);
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
          const auto c = static_cast<std::size_t>(i) + std::size_t(nx) * j;
          ASSERT_EQ(out[c], initial[c]) << "edge cell (" << i << ", " << j << ")";
        }
      }
    }
  }
}

TYPED_TEST(diffusion, collapse_tiles_change_no_bit) {
  const int nx = 37, ny = 29;
  const auto initial = random_field<double>(nx, ny, 3);
  // Against the vectorized variant, whose launch has no tile at all.
  const auto expected = run<double, diffusion_variant::vectorized, TypeParam>(nx, ny, 9, initial);
  for (const auto& t : {loopnest::tile{}, loopnest::tile{8, 4}, loopnest::tile{1, 16}}) {
    const auto u = run<double, diffusion_variant::collapse, TypeParam>(nx, ny, 9, initial, 0.1, t);
    EXPECT_TRUE(loopnest::bitwise_equal(u.data(), expected.data(), u.size())) << t.to_string();
  }
}

TYPED_TEST(diffusion, fp32_matches_fp64_within_the_mixed_tolerance) {
  for (const auto& [nx, ny] : grids) {
    const auto r = run<double, diffusion_variant::collapse, TypeParam>(
        nx, ny, 300, loopnest::diffusion_initial_condition<double>(nx, ny));
    const auto c = run<float, diffusion_variant::vectorized, TypeParam>(
        nx, ny, 300, loopnest::diffusion_initial_condition<float>(nx, ny));
    const auto cmp = loopnest::compare_fields(
        c.data(), r.data(), r.size(),
        loopnest::default_tolerance(loopnest::precision::fp32, loopnest::precision::fp64));
    EXPECT_EQ(cmp.failures, 0) << nx << "x" << ny << ": max |c - r| = " << cmp.max_abs;
    EXPECT_GT(cmp.max_abs, 0.0) << "FP32 and FP64 cannot agree to the last bit here";
  }
}

TYPED_TEST(diffusion, bad_input_names_the_parameter) {
  using solver = loopnest::diffusion_solver<float, diffusion_variant::flat, TypeParam>;
  expect_mentions(error_of([] { solver(TypeParam(), 2, 10); }), "nx = 2");
  expect_mentions(error_of([] { solver(TypeParam(), 10, -1); }), "ny = -1");
  expect_mentions(error_of([] { solver(TypeParam(), 10, 10, 0.3f); }), "alpha = 0.3");
  expect_mentions(error_of([] { solver(TypeParam(), 100000, 100000); }),
                  "loopnest::diffusion_solver: a grid of nx = 100000 by ny = 100000 cells");
  // Rows of 46340 FP32 cells are padded to 46368: 46368 x 46340 > 2^31 - 1 > 46340^2, while
  // 46336 needs no padding and fits.
  expect_mentions(error_of([] { loopnest::check_diffusion_grid_size<float>(46340, 46340); }),
                  "loopnest::check_diffusion_grid_size: a grid of nx = 46340 by ny = 46340 cells, "
                  "rows padded to 128 bytes, exceeds the 2^31 - 1");
  EXPECT_EQ(error_of([] { loopnest::check_diffusion_grid_size<float>(46336, 46340); }),
            "no exception");
  // Rounding nx = INT_MAX up to a whole line must not wrap.
  expect_mentions(error_of([] { loopnest::check_diffusion_grid_size<double>(INT_MAX, 3); }),
                  "a grid of nx = 2147483647 by ny = 3");
  expect_mentions(error_of([] { loopnest::check_diffusion_grid_size<float>(2, 3); }), "nx = 2");
  expect_mentions(error_of([] {
                    solver(TypeParam(), 10, 10, 0.1f, loopnest::tile{32, 8});
                  }),
                  "tile 32x8 was given to variant flat; only collapse takes a tile");
  using collapse = loopnest::diffusion_solver<float, diffusion_variant::collapse, TypeParam>;
  expect_mentions(error_of([] {
                    collapse(TypeParam(), 10, 10, 0.1f, loopnest::tile{8, 4, 2});
                  }),
                  "tile 8x4x2 has 3 sizes");
  solver s(TypeParam(), 6, 5);
  expect_mentions(error_of([&] { s.advance(-2); }), "steps = -2");
  expect_mentions(error_of([&] { s.set_field(std::vector<float>(29)); }), "values has 29");
  expect_mentions(error_of([] { loopnest::diffusion_reference<double>(5, 5, 1, {1.0}); }),
                  "initial has 1 values");
}

}  // namespace
