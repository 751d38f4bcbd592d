// loopnest/kokkos_compat.hpp: the math that differs between Kokkos versions gives the same
// values on the default execution space as the standard library on the host.
#include <gtest/gtest.h>

#include <loopnest/kokkos_compat.hpp>

#include <cmath>

namespace {

// sqrt(x), copysign(0.5, s) and fma(a, b, c) for one x, s, a, b, c, computed on the device.
template <class T>
Kokkos::View<T*, Kokkos::HostSpace> on_device(T x, T s, T a, T b, T c) {
  Kokkos::View<T*> out("out", 4);
  Kokkos::parallel_for(
      "loopnest::test_kokkos_compat", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(int) {
        out(0) = loopnest::sqrt(x);
        out(1) = loopnest::copysign(T(0.5), s);
        out(2) = loopnest::copysign(T(0.5), -s);
        out(3) = loopnest::fma(a, b, c);
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
}

TEST(kokkos_compat, sqrt_copysign_and_fma_agree_with_the_host_fp64) {
  check_math<double>();
}
TEST(kokkos_compat, sqrt_copysign_and_fma_agree_with_the_host_fp32) {
  check_math<float>();
}

}  // namespace
