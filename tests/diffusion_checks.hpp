// Helpers for tests of loopnest's diffusion solver: one run of a variant, every variant's run
// of one problem against the serial reference, and random fields.
#ifndef LOOPNEST_TEST_DIFFUSION_CHECKS_HPP
#define LOOPNEST_TEST_DIFFUSION_CHECKS_HPP

#include <loopnest/diffusion.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace loopnest_test {

template <class T>
std::vector<T> random_field(int nx, int ny, unsigned seed) {
  std::mt19937 gen(seed);
  // Small enough that the mass stays in [0, 1] on every grid of the tests.
  std::uniform_real_distribution<double> dist(0.0, 1.0 / (nx * ny));
  std::vector<T> u(static_cast<std::size_t>(nx) * ny);
  for (auto& x : u) {
    x = static_cast<T>(dist(gen));
  }
  return u;
}

template <class T, loopnest::diffusion_variant V, class ExecutionSpace>
std::vector<T> run(int nx, int ny, int steps, const std::vector<T>& initial, T alpha = T(0.1),
                   const loopnest::tile& t = {}, int steps_per_pass = 0) {
  loopnest::diffusion_solver<T, V, ExecutionSpace> s(ExecutionSpace(), nx, ny, alpha, t,
                                                     steps_per_pass);
  s.set_field(initial);
  s.advance(steps);
  EXPECT_EQ(s.steps_taken(), steps);
  return s.field();
}

// Every variant's result for one problem, in the order of loopnest::diffusion_variants.
template <class T, class ExecutionSpace>
std::vector<std::vector<T>> run_all(int nx, int ny, int steps, const std::vector<T>& initial,
                                    T alpha = T(0.1)) {
  return {
      run<T, loopnest::diffusion_variant::baseline, ExecutionSpace>(nx, ny, steps, initial, alpha),
      run<T, loopnest::diffusion_variant::contiguous, ExecutionSpace>(nx, ny, steps, initial,
                                                                      alpha),
      run<T, loopnest::diffusion_variant::strided, ExecutionSpace>(nx, ny, steps, initial, alpha),
      run<T, loopnest::diffusion_variant::collapse, ExecutionSpace>(nx, ny, steps, initial, alpha),
      run<T, loopnest::diffusion_variant::flat, ExecutionSpace>(nx, ny, steps, initial, alpha),
      run<T, loopnest::diffusion_variant::kokkos_default, ExecutionSpace>(nx, ny, steps, initial,
                                                                          alpha),
      run<T, loopnest::diffusion_variant::vectorized, ExecutionSpace>(nx, ny, steps, initial,
                                                                      alpha),
      run<T, loopnest::diffusion_variant::temporal, ExecutionSpace>(nx, ny, steps, initial, alpha)};
}

// Every variant matches the serial reference within the study's tolerance and every variant
// gives the same bits as every other. Returns every variant's result.
template <class T, class ExecutionSpace>
std::vector<std::vector<T>> check_against_reference(int nx, int ny, int steps,
                                                    const std::vector<T>& initial,
                                                    T alpha = T(0.1)) {
  const auto reference = loopnest::diffusion_reference<T>(nx, ny, steps, initial, alpha);
  auto results         = run_all<T, ExecutionSpace>(nx, ny, steps, initial, alpha);
  const auto p         = loopnest::precision_of<T>();
  const std::string where =
      std::to_string(nx) + "x" + std::to_string(ny) + ", " + std::to_string(steps) + " steps";
  EXPECT_EQ(results.size(), std::size(loopnest::diffusion_variants));
  for (std::size_t r = 0; r < results.size(); ++r) {
    const std::string variant = loopnest::name(loopnest::diffusion_variants[r]);
    const auto c = loopnest::compare_fields(results[r].data(), reference.data(), reference.size(),
                                            loopnest::default_tolerance(p, p));
    EXPECT_EQ(c.failures, 0) << variant << " " << where << ": max |c - r| = " << c.max_abs;
    // Every variant but baseline against baseline: baseline against itself proves nothing.
    if (r > 0) {
      EXPECT_TRUE(loopnest::bitwise_equal(results[r].data(), results[0].data(), results[0].size()))
          << variant << " differs from baseline, " << where;
    }
  }
  return results;
}

}  // namespace loopnest_test

#endif
