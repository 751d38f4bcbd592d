// Randomized tests of the diffusion variants: parameters drawn from fixed seeds 1 to 24
// (randomized_draws.hpp), each case's seed and parameters in the failure message.
#include <loopnest/diffusion.hpp>
#include <loopnest/loopnest.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "diffusion_checks.hpp"
#include "randomized_draws.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::draw;
using loopnest_test::draw_tile;

constexpr unsigned diffusion_cases = 24;

// ----------------------------------------------------------------------------------------
// Diffusion: a random grid (3 to 40 cells a side), step count (0 to 40), alpha in [0, 0.25] and
// field; every variant within tolerance of diffusion_reference and bit for bit equal to each
// other and to a host loop over diffusion_update, the one update every variant uses; the
// collapse variant once more with a random tile, the temporal one with a random depth.

struct diffusion_case {
  unsigned seed;
  int nx, ny, steps;
  double alpha;
  loopnest::tile t;
  int steps_per_pass;
  std::string text;
};

diffusion_case draw_diffusion_case(unsigned seed, int max_points, int max_steps_per_pass) {
  std::mt19937 gen(seed);
  diffusion_case c{seed, draw(gen, 3, 40), draw(gen, 3, 40), draw(gen, 0, 40), 0.0, {}, 0, ""};
  c.alpha          = std::uniform_real_distribution<double>(0.0, 0.25)(gen);
  c.t              = draw_tile(gen, {c.nx - 2, c.ny - 2}, max_points);
  c.steps_per_pass = draw(gen, 1, max_steps_per_pass);
  std::ostringstream os;
  os.precision(17);
  os << "seed " << seed << ": " << c.nx << "x" << c.ny << ", " << c.steps << " steps, alpha "
     << c.alpha << ", collapse tile " << c.t.to_string() << ", temporal with " << c.steps_per_pass
     << " steps per pass";
  c.text = os.str();
  return c;
}

// The steps as a host loop over loopnest::diffusion_update, i fastest.
template <class T>
std::vector<T> steps_by_update(int nx, int ny, int steps, std::vector<T> u, T alpha) {
  std::vector<T> v = u;
  const auto at = [nx](int i, int j) { return static_cast<std::size_t>(i) + std::size_t(nx) * j; };
  for (int s = 0; s < steps; ++s) {
    for (int j = 1; j < ny - 1; ++j) {
      for (int i = 1; i < nx - 1; ++i) {
        v[at(i, j)] = loopnest::diffusion_update(alpha, u[at(i, j)], u[at(i - 1, j)],
                                                 u[at(i + 1, j)], u[at(i, j - 1)], u[at(i, j + 1)]);
      }
    }
    std::swap(u, v);
  }
  return u;
}

template <class T, class ExecutionSpace>
void check_diffusion_case(const diffusion_case& c) {
  const T alpha      = static_cast<T>(c.alpha);
  const auto initial = loopnest_test::random_field<T>(c.nx, c.ny, c.seed);
  const auto results = loopnest_test::check_against_reference<T, ExecutionSpace>(
      c.nx, c.ny, c.steps, initial, alpha);
  const auto expected = steps_by_update(c.nx, c.ny, c.steps, initial, alpha);
  ASSERT_FALSE(results.empty());
  EXPECT_TRUE(loopnest::bitwise_equal(results[0].data(), expected.data(), expected.size()))
      << loopnest::name(loopnest::diffusion_variants[0])
      << " differs from the host loop over diffusion_update";
  const auto tiled = loopnest_test::run<T, loopnest::diffusion_variant::collapse, ExecutionSpace>(
      c.nx, c.ny, c.steps, initial, alpha, c.t);
  EXPECT_TRUE(loopnest::bitwise_equal(tiled.data(), expected.data(), expected.size()))
      << "collapse with tile " << c.t.to_string() << " differs from the host loop";
  const auto passes = loopnest_test::run<T, loopnest::diffusion_variant::temporal, ExecutionSpace>(
      c.nx, c.ny, c.steps, initial, alpha, {}, c.steps_per_pass);
  EXPECT_TRUE(loopnest::bitwise_equal(passes.data(), expected.data(), expected.size()))
      << "temporal with " << c.steps_per_pass << " steps per pass differs from the host loop";
}

// ----------------------------------------------------------------------------------------

template <class ExecutionSpace>
class randomized_diffusion : public ::testing::Test {};
TYPED_TEST_SUITE(randomized_diffusion, loopnest_test::execution_spaces);

TYPED_TEST(randomized_diffusion, diffusion_variants_give_the_bits_of_the_update_loop) {
  const int max_points = loopnest::Impl::max_tile_points(TypeParam());
  // The smaller of the two precisions' limits, so that one draw serves both.
  const int max_steps_per_pass =
      std::min(loopnest::diffusion_temporal_traits<TypeParam, float>::max_steps_per_pass,
               loopnest::diffusion_temporal_traits<TypeParam, double>::max_steps_per_pass);
  for (unsigned seed = 1; seed <= diffusion_cases; ++seed) {
    const diffusion_case c = draw_diffusion_case(seed, max_points, max_steps_per_pass);
    SCOPED_TRACE(c.text);
    if (seed % 2) {
      check_diffusion_case<double, TypeParam>(c);
    } else {
      check_diffusion_case<float, TypeParam>(c);
    }
  }
}

}  // namespace
