// loopnest::compare_fields: how far a candidate field is from a reference, cell by cell, with the
// diffusion study's tolerances for each pair of precisions; bitwise_equal for the exact check.
// Host code of the tools' layer: both fields are in host memory.
#ifndef LOOPNEST_TOOLS_FIELD_COMPARE_HPP
#define LOOPNEST_TOOLS_FIELD_COMPARE_HPP

#include <loopnest/detail/error.hpp>
#include <loopnest/tools/precision.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace loopnest {

// A cell passes when |c - r| <= atol + rtol * |r|.
struct tolerance {
  double atol;
  double rtol;
};

// The study's defaults. A mixed pair is held to FP32's absolute error with a looser relative one,
// whichever side is the reference: the FP32 rounding of every step dominates the difference.
inline tolerance default_tolerance(precision candidate, precision reference) {
  if (candidate != reference) {
    return {1e-6, 1e-4};
  }
  return candidate == precision::fp32 ? tolerance{1e-6, 1e-5} : tolerance{1e-12, 1e-10};
}

// Candidate c against reference r over all cells:
//   max_abs   = max |c - r|
//   rmse      = sqrt(sum (c - r)^2 / cells)
//   rel_l2    = ||c - r||_2 / ||r||_2, 0 when c == r everywhere and +inf when only r is all zero
//   mass_diff = sum c - sum r
//   failures  = the cells failing |c - r| <= atol + rtol |r|
// A NaN in either field fails its cell and makes the four metrics NaN; an infinity in either
// field fails its cell.
struct field_comparison {
  double max_abs;
  double rmse;
  double rel_l2;
  double mass_diff;
  std::int64_t failures;
  std::int64_t cells;

  bool pass() const { return failures == 0; }
};

namespace Impl {

// Null pointers are refused only when there is a cell to read through them.
inline void check_pointers(const char* where, const void* a, const char* a_name, const void* b,
                           const char* b_name, std::size_t n) {
  if (a == nullptr) {
    throw_invalid_argument(where, std::string(a_name) + " is null but n = " + std::to_string(n));
  }
  if (b == nullptr) {
    throw_invalid_argument(where, std::string(b_name) + " is null but n = " + std::to_string(n));
  }
}

// The shortest text that reads back as the same double (std::to_string prints -1e-9 as
// "-0.000000").
inline std::string shortest_text(double value) {
  char text[32];
  return {text, std::to_chars(text, text + sizeof(text), value).ptr};
}

inline void check_tolerance(const char* where, const char* name, double value) {
  // Written so that NaN is refused too.
  if (!(value >= 0.0)) {
    throw_invalid_argument(where, std::string(name) + " = " + shortest_text(value) +
                                      " but a tolerance must be at least 0");
  }
}

}  // namespace Impl

// Accumulates in double whatever C and R are, so an FP32 field is compared without FP32 rounding.
template <class C, class R>
field_comparison compare_fields(const C* c, const R* r, std::size_t n, tolerance tol) {
  static_assert(Impl::is_fp32_or_fp64_v<C>,
                "loopnest::compare_fields: the candidate's scalar type must be float or double.");
  static_assert(Impl::is_fp32_or_fp64_v<R>,
                "loopnest::compare_fields: the reference's scalar type must be float or double.");
  constexpr const char* where = "loopnest::compare_fields";
  if (n == 0) {
    Impl::throw_invalid_argument(where, "n = 0 but a field has at least one cell");
  }
  Impl::check_pointers(where, c, "c", r, "r", n);
  Impl::check_tolerance(where, "atol", tol.atol);
  Impl::check_tolerance(where, "rtol", tol.rtol);

  double max_abs = 0.0, diff_sq = 0.0, ref_sq = 0.0, mass_diff = 0.0;
  std::int64_t failures = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double cv = c[k], rv = r[k];
    const double d  = cv - rv;
    const double ad = std::fabs(d);
    // An infinite reference would make the bound infinite and pass any finite candidate.
    if (!std::isfinite(cv) || !std::isfinite(rv) || !(ad <= tol.atol + tol.rtol * std::fabs(rv))) {
      ++failures;
    }
    // std::fmax would drop a NaN; once max_abs is NaN it stays NaN.
    if (std::isnan(ad) || ad > max_abs) {
      max_abs = ad;
    }
    diff_sq += d * d;
    ref_sq += rv * rv;
    // Summing c - r per cell, not subtracting two masses of about 1, keeps a mass difference
    // of 1e-16 out of the rounding of the masses.
    mass_diff += d;
  }
  // NaN first: an all-zero reference must not turn a NaN difference into +inf.
  const double rel_l2 = std::isnan(diff_sq) ? diff_sq
                        : diff_sq == 0.0    ? 0.0
                        : ref_sq == 0.0     ? std::numeric_limits<double>::infinity()
                                            : std::sqrt(diff_sq) / std::sqrt(ref_sq);
  const auto cells    = static_cast<std::int64_t>(n);
  return {max_abs, std::sqrt(diff_sq / static_cast<double>(n)), rel_l2, mass_diff, failures, cells};
}

// Byte equality, as memcmp: -0.0 differs from 0.0, and two NaNs are equal only with the same
// payload. This is the check between schedules on one backend, which must agree bit for bit.
template <class T>
bool bitwise_equal(const T* a, const T* b, std::size_t n) {
  static_assert(Impl::is_fp32_or_fp64_v<T>,
                "loopnest::bitwise_equal: the scalar type must be float or double (a class or "
                "long double may hold padding bytes).");
  if (n == 0) {
    return true;
  }
  Impl::check_pointers("loopnest::bitwise_equal", a, "a", b, "b", n);
  return std::memcmp(a, b, n * sizeof(T)) == 0;
}

}  // namespace loopnest

#endif
