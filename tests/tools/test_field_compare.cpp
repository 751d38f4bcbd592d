#include <loopnest/tools/field_compare.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_errors.hpp"

namespace {

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

TEST(field_compare, default_tolerances_per_precision_pair) {
  using loopnest::precision;
  const auto expect_tolerance = [](precision c, precision r, double atol, double rtol) {
    const loopnest::tolerance t = loopnest::default_tolerance(c, r);
    EXPECT_EQ(t.atol, atol) << loopnest::name(c) << " against " << loopnest::name(r);
    EXPECT_EQ(t.rtol, rtol) << loopnest::name(c) << " against " << loopnest::name(r);
  };
  expect_tolerance(precision::fp64, precision::fp64, 1e-12, 1e-10);
  expect_tolerance(precision::fp32, precision::fp32, 1e-6, 1e-5);
  expect_tolerance(precision::fp32, precision::fp64, 1e-6, 1e-4);
  expect_tolerance(precision::fp64, precision::fp32, 1e-6, 1e-4);
}

TEST(field_compare, identical_fields_have_zero_metrics) {
  const std::vector<double> r{0.0, 0.25, 1.0, 0.5};
  const auto m = loopnest::compare_fields(r.data(), r.data(), r.size(), {0.0, 0.0});
  EXPECT_EQ(m.max_abs, 0.0);
  EXPECT_EQ(m.rmse, 0.0);
  EXPECT_EQ(m.rel_l2, 0.0);
  EXPECT_EQ(m.mass_diff, 0.0);
  EXPECT_EQ(m.failures, 0);
  EXPECT_EQ(m.cells, 4);
  EXPECT_TRUE(m.pass());
}

// r = (1, 2, 3, 4) and c = r except c[2] = 3.5: one difference of 0.5, so max |c - r| = 0.5,
// RMSE = sqrt(0.25 / 4) = 0.25, ||r|| = sqrt(1 + 4 + 9 + 16) = sqrt(30), mass difference 0.5.
template <class C>
void expect_one_cell_off_by_a_half() {
  const std::vector<double> r{1.0, 2.0, 3.0, 4.0};
  const std::vector<C> c{1.0, 2.0, 3.5, 4.0};
  const auto m = loopnest::compare_fields(c.data(), r.data(), r.size(), {0.1, 0.0});
  EXPECT_EQ(m.max_abs, 0.5);
  EXPECT_EQ(m.rmse, 0.25);
  EXPECT_DOUBLE_EQ(m.rel_l2, 0.5 / std::sqrt(30.0));
  EXPECT_EQ(m.mass_diff, 0.5);
  EXPECT_EQ(m.failures, 1);
  EXPECT_EQ(m.cells, 4);
  EXPECT_FALSE(m.pass());
}

TEST(field_compare, metrics_of_one_cell_off_by_a_half) {
  expect_one_cell_off_by_a_half<double>();
  expect_one_cell_off_by_a_half<float>();
}

TEST(field_compare, the_mass_difference_has_a_sign) {
  const std::vector<double> r{1.0, 1.0};
  const std::vector<double> c{0.75, 1.0};
  const auto m = loopnest::compare_fields(c.data(), r.data(), r.size(), {1.0, 0.0});
  EXPECT_EQ(m.mass_diff, -0.25);
  EXPECT_EQ(m.max_abs, 0.25);
  EXPECT_TRUE(m.pass());
}

// atol = 0.25 and rtol = 0.5 around |r| = 2 allow exactly 1.25 either way (all binary fractions).
// Above r, the next double past c = 3.25 fails. Below r, 2 - nextafter(0.75, 0) rounds back to
// 1.25, so the first c that fails is 0.75 - 2^-52, one ulp of 1.25 further.
TEST(field_compare, a_difference_exactly_at_the_bound_passes_and_one_ulp_more_fails) {
  const loopnest::tolerance tol{0.25, 0.5};
  const auto failures = [&](double c, double r) {
    return loopnest::compare_fields(&c, &r, 1, tol).failures;
  };
  EXPECT_EQ(failures(3.25, 2.0), 0);
  EXPECT_EQ(failures(0.75, 2.0), 0);
  EXPECT_EQ(failures(std::nextafter(0.75, 0.0), 2.0), 0);
  EXPECT_EQ(failures(-3.25, -2.0), 0);
  EXPECT_EQ(failures(std::nextafter(3.25, inf), 2.0), 1);
  EXPECT_EQ(failures(0.75 - std::ldexp(1.0, -52), 2.0), 1);
  EXPECT_EQ(failures(std::nextafter(-3.25, -inf), -2.0), 1);
}

TEST(field_compare, only_failing_cells_are_counted) {
  const std::vector<double> r{0.0, 0.0, 0.0, 0.0, 0.0};
  const std::vector<double> c{0.0, 1e-13, 2e-12, -3e-12, 1e-12};
  const auto m = loopnest::compare_fields(
      c.data(), r.data(), r.size(),
      loopnest::default_tolerance(loopnest::precision::fp64, loopnest::precision::fp64));
  EXPECT_EQ(m.failures, 2);
  EXPECT_EQ(m.max_abs, 3e-12);
}

TEST(field_compare, nan_fails_its_cell_and_poisons_the_metrics) {
  const std::vector<double> r{0.5, 0.5, 0.5};
  const std::vector<double> c{nan, 0.5, 0.75};
  const auto m = loopnest::compare_fields(c.data(), r.data(), r.size(), {inf, inf});
  EXPECT_EQ(m.failures, 1);
  EXPECT_TRUE(std::isnan(m.max_abs)) << "a later finite difference must not replace the NaN";
  EXPECT_TRUE(std::isnan(m.rmse));
  EXPECT_TRUE(std::isnan(m.rel_l2));
  EXPECT_TRUE(std::isnan(m.mass_diff));
  EXPECT_FALSE(m.pass());

  const auto in_reference = loopnest::compare_fields(r.data(), c.data(), r.size(), {inf, inf});
  EXPECT_EQ(in_reference.failures, 1);
  EXPECT_TRUE(std::isnan(in_reference.rel_l2));

  // Against an all-zero reference too, where ||r|| = 0 would otherwise make rel_l2 +inf.
  const std::vector<double> zero{0.0, 0.0, 0.0};
  const auto against_zero =
      loopnest::compare_fields(c.data(), zero.data(), zero.size(), {inf, inf});
  EXPECT_TRUE(std::isnan(against_zero.rel_l2));
  EXPECT_TRUE(std::isnan(against_zero.max_abs));
  EXPECT_TRUE(std::isnan(against_zero.rmse));
  EXPECT_TRUE(std::isnan(against_zero.mass_diff));
}

TEST(field_compare, infinities_fail) {
  const std::vector<double> r{inf, 1.0};
  const std::vector<double> c{inf, inf};
  EXPECT_EQ(loopnest::compare_fields(c.data(), r.data(), r.size(), {1.0, 1.0}).failures, 2);
}

TEST(field_compare, a_finite_candidate_fails_against_an_infinite_reference) {
  // atol + rtol |r| is infinite there, so the bound alone would pass any finite value.
  const std::vector<double> r{inf, -inf, 0.5};
  const std::vector<double> c{0.0, 1e300, 0.5};
  for (const loopnest::tolerance tol :
       {loopnest::tolerance{1e-12, 1e-10}, {1.0, 1.0}, {inf, inf}}) {
    const auto m = loopnest::compare_fields(c.data(), r.data(), r.size(), tol);
    EXPECT_EQ(m.failures, 2) << "atol " << tol.atol << ", rtol " << tol.rtol;
    EXPECT_FALSE(m.pass());
  }
}

TEST(field_compare, relative_l2_against_an_all_zero_reference) {
  const std::vector<double> zero{0.0, 0.0};
  const std::vector<double> c{0.0, 0.5};
  EXPECT_EQ(loopnest::compare_fields(zero.data(), zero.data(), 2, {0.0, 0.0}).rel_l2, 0.0);
  EXPECT_EQ(loopnest::compare_fields(c.data(), zero.data(), 2, {0.0, 0.0}).rel_l2, inf);
}

TEST(field_compare, bad_arguments_name_the_parameter_and_value) {
  const double v[2]  = {0.0, 1.0};
  const double* null = nullptr;
  const auto error   = [](const double* c, const double* r, std::size_t n, loopnest::tolerance t) {
    return error_of([&] { loopnest::compare_fields(c, r, n, t); });
  };
  expect_mentions(error(v, v, 0, {0.0, 0.0}),
                  "loopnest::compare_fields: n = 0 but a field has at least one cell");
  expect_mentions(error(null, v, 2, {0.0, 0.0}), "c is null but n = 2");
  expect_mentions(error(v, null, 2, {0.0, 0.0}), "r is null but n = 2");
  expect_mentions(error(v, v, 2, {-1e-9, 0.0}), "atol = -1e-09 but a tolerance must be at least 0");
  expect_mentions(error(v, v, 2, {0.0, nan}), "rtol = nan but a tolerance must be at least 0");
}

TEST(field_compare, bitwise_equal_tells_signed_zeros_apart) {
  const std::vector<double> plus{0.0, 1.0};
  const std::vector<double> minus{-0.0, 1.0};
  EXPECT_TRUE(loopnest::bitwise_equal(plus.data(), plus.data(), 2));
  EXPECT_FALSE(loopnest::bitwise_equal(plus.data(), minus.data(), 2));
  EXPECT_TRUE(loopnest::compare_fields(minus.data(), plus.data(), 2, {0.0, 0.0}).pass())
      << "the tolerance check sees -0.0 == 0.0";
  const float fplus = 0.0f, fminus = -0.0f;
  EXPECT_FALSE(loopnest::bitwise_equal(&fplus, &fminus, 1));
}

TEST(field_compare, bitwise_equal_compares_nan_payloads) {
  const std::uint64_t bits[3] = {0x7ff8000000000001u, 0x7ff8000000000001u, 0x7ff8000000000002u};
  double a, b, c;
  std::memcpy(&a, &bits[0], sizeof(double));
  std::memcpy(&b, &bits[1], sizeof(double));
  std::memcpy(&c, &bits[2], sizeof(double));
  EXPECT_TRUE(loopnest::bitwise_equal(&a, &b, 1));
  EXPECT_FALSE(loopnest::bitwise_equal(&a, &c, 1));
}

TEST(field_compare, bitwise_equal_over_nothing_is_true_and_null_is_refused) {
  const double* null = nullptr;
  const double v     = 1.0;
  EXPECT_TRUE(loopnest::bitwise_equal(null, null, 0));
  expect_mentions(error_of([&] { loopnest::bitwise_equal(&v, null, 1); }),
                  "loopnest::bitwise_equal: b is null but n = 1");
}

}  // namespace
