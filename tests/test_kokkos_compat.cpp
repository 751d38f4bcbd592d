// loopnest/kokkos_compat.hpp: the math that differs between Kokkos versions gives the same
// values on the default execution space as the standard library on the host.
#include <gtest/gtest.h>

#include <loopnest/kokkos_compat.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

// sqrt(x), copysign(0.5, s), fma(a, b, c) and pow(x, b) for one x, s, a, b, c, computed on the
// device.
template <class T>
Kokkos::View<T*, Kokkos::HostSpace> on_device(T x, T s, T a, T b, T c) {
  Kokkos::View<T*> out("out", 5);
  Kokkos::parallel_for(
      "loopnest::test_kokkos_compat", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int) {
        out(0) = loopnest::sqrt(x);
        out(1) = loopnest::copysign(T(0.5), s);
        out(2) = loopnest::copysign(T(0.5), -s);
        out(3) = loopnest::fma(a, b, c);
        out(4) = loopnest::pow(x, b);
      });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  return host;
}

template <class T>
void check_math() {
  const T x = T(2.5), a = T(1.1), b = T(3.3), c = T(-0.7);
  // -0.0 carries a sign: Fortran's SIGN(0.5, -0.0) is -0.5 with gfortran's signed zeros.
  const auto r = on_device<T>(x, T(-0.0), a, b, c);
  EXPECT_EQ(r(0), std::sqrt(x));
  EXPECT_EQ(r(1), T(-0.5));
  EXPECT_EQ(r(2), T(0.5));
  EXPECT_EQ(r(3), std::fma(a, b, c));
  EXPECT_EQ(r(4), std::pow(x, b));
}

TEST(kokkos_compat, sqrt_copysign_fma_and_pow_agree_with_the_host_fp64) {
  check_math<double>();
}
TEST(kokkos_compat, sqrt_copysign_fma_and_pow_agree_with_the_host_fp32) {
  check_math<float>();
}

// abs(x[a]), min(x[a], x[b]) and max(x[a], x[b]) for every a and b, computed on the device:
// out(a, b, 0) = min, out(a, b, 1) = max, out(a, a, 2) = abs.
template <class T>
typename Kokkos::View<T***>::HostMirror abs_min_max_on_device(const std::vector<T>& values) {
  const int n = static_cast<int>(values.size());
  Kokkos::View<T*, Kokkos::HostSpace> host_x("x", values.size());
  std::copy(values.begin(), values.end(), host_x.data());
  const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::DefaultExecutionSpace(), host_x);
  Kokkos::View<T***> out("out", n, n, 3);
  Kokkos::parallel_for(
      "loopnest::test_kokkos_compat", Kokkos::RangePolicy<>(0, static_cast<std::size_t>(n) * n),
      KOKKOS_LAMBDA(int ab) {
        const int a  = ab / n;
        const int b  = ab % n;
        out(a, b, 0) = loopnest::min(x(a), x(b));
        out(a, b, 1) = loopnest::max(x(a), x(b));
        out(a, b, 2) = loopnest::abs(x(a));
      });
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point<T>::value) {
    return std::isnan(x);
  } else {
    return false;
  }
}

// Bit for bit what std::abs, std::min and std::max give, on the device and on the host, for
// signed zeros, a NaN (kept by min and max only as their first argument, as std does) and ties.
template <class T>
void check_abs_min_max(const std::vector<T>& values) {
  const auto r = abs_min_max_on_device(values);
  for (std::size_t a = 0; a < values.size(); ++a) {
    const T x = values[a];
    // A NaN's absolute value is a NaN whose bits the device may choose (CUDA's FP32 abs gives
    // another NaN than std::abs); every other value's bits are std::abs's.
    if (is_nan(x)) {
      EXPECT_TRUE(is_nan(r(a, a, 2))) << "abs(" << x << ") = " << r(a, a, 2);
    } else {
      EXPECT_TRUE(same_bits(r(a, a, 2), T(std::abs(x)))) << "abs(" << x << ") = " << r(a, a, 2);
    }
    EXPECT_TRUE(same_bits(loopnest::abs(x), T(std::abs(x)))) << "host abs(" << x << ")";
    for (std::size_t b = 0; b < values.size(); ++b) {
      const T y = values[b];
      EXPECT_TRUE(same_bits(r(a, b, 0), std::min(x, y)))
          << "min(" << x << ", " << y << ") = " << r(a, b, 0);
      EXPECT_TRUE(same_bits(r(a, b, 1), std::max(x, y)))
          << "max(" << x << ", " << y << ") = " << r(a, b, 1);
      EXPECT_TRUE(same_bits(loopnest::min(x, y), std::min(x, y))) << "host min";
      EXPECT_TRUE(same_bits(loopnest::max(x, y), std::max(x, y))) << "host max";
    }
  }
}

template <class T>
std::vector<T> floating_values() {
  return {T(-2.5),
          T(-0.0),
          T(0.0),
          T(1.5),
          T(1.5),
          std::numeric_limits<T>::quiet_NaN(),
          -std::numeric_limits<T>::infinity()};
}

TEST(kokkos_compat, abs_min_and_max_agree_with_std_fp64) {
  check_abs_min_max(floating_values<double>());
}
TEST(kokkos_compat, abs_min_and_max_agree_with_std_fp32) {
  check_abs_min_max(floating_values<float>());
}
TEST(kokkos_compat, abs_min_and_max_agree_with_std_int) {
  check_abs_min_max(std::vector<int>{-7, 0, 3, 3, -1});
}

}  // namespace
