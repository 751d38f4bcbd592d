// The one place where loopnest absorbs differences between Kokkos versions (3.4 to 4.x).
#ifndef LOOPNEST_KOKKOS_COMPAT_HPP
#define LOOPNEST_KOKKOS_COMPAT_HPP

#include <Kokkos_Core.hpp>

#include <cmath>
#include <type_traits>

#if KOKKOS_VERSION < 30400
#error "loopnest needs Kokkos 3.4 or newer"
#endif

namespace loopnest {
namespace Impl {

// Kokkos 4 made concurrency() a member function; 3.4 has a static one. A call through an
// instance compiles against both.
template <class ExecutionSpace>
int concurrency(const ExecutionSpace& exec) {
  return exec.concurrency();
}

// Largest number of points one MDRange tile may hold on this backend (512 on CUDA in Kokkos
// 3.4 to 4.x, unbounded on host backends). Kokkos keeps the query in Impl in every version.
template <class ExecutionSpace>
int max_tile_points(const ExecutionSpace& exec) {
  return Kokkos::Impl::get_tile_size_properties(exec).max_total_tile_size;
}

// Kokkos::initialize on device `id` of the backend: InitializationSettings from Kokkos 3.7,
// InitArguments before.
inline void initialize_on_device(int id) {
#if KOKKOS_VERSION >= 30700
  Kokkos::initialize(Kokkos::InitializationSettings().set_device_id(id));
#else
  Kokkos::InitArguments arguments;
  arguments.device_id = id;
  Kokkos::initialize(arguments);
#endif
}

}  // namespace Impl

// a * b + c with one rounding on every backend (Kokkos::fma from Kokkos 4.0 on). A body that
// writes each product-and-sum through it leaves no room for the compiler's own contraction, so
// host and device give the same bits.
template <class T>
KOKKOS_INLINE_FUNCTION T fma(T a, T b, T c) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::fma(a, b, c);
#elif defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// The square root, the power and Fortran's SIGN (magnitude of a, sign of b, -0.0 included) on
// every backend: Kokkos 3.4 keeps sqrt and pow in Kokkos::Experimental and has no copysign.
template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::sqrt(x);
#else
  return Kokkos::Experimental::sqrt(x);
#endif
}
// x to the power y, the standard library's pow on the host (Fortran's x**y of a real y).
template <class T>
KOKKOS_INLINE_FUNCTION T pow(T x, T y) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::pow(x, y);
#else
  return Kokkos::Experimental::pow(x, y);
#endif
}
template <class T>
KOKKOS_INLINE_FUNCTION T copysign(T a, T b) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::copysign(a, b);
#elif defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::copysign(a, b);
#else
  return std::copysign(a, b);
#endif
}

// |x|, and the smaller and the larger of a and b, with the values of std::abs, std::min and
// std::max (abs(-0.0) is +0.0; min and max return a when neither is smaller, so a NaN in a stays)
// on every backend, but for abs of a NaN, a NaN whose bits the backend chooses (CUDA's FP32 abs
// gives another NaN than std::abs): Kokkos 3.4 has them only as Kokkos::Experimental::fabs, fmin
// and fmax, and fmin and fmax drop a NaN.
template <class T>
KOKKOS_INLINE_FUNCTION T abs(T x) {
  static_assert(std::is_arithmetic<T>::value,
                "loopnest::abs: the argument must be arithmetic, such as int, float or double.");
#if KOKKOS_VERSION >= 40000
  return static_cast<T>(Kokkos::abs(x));
#else
  if constexpr (std::is_floating_point<T>::value) {
    return Kokkos::Experimental::fabs(x);
  } else {
    return x < T(0) ? static_cast<T>(-x) : x;
  }
#endif
}
template <class T>
KOKKOS_INLINE_FUNCTION T min(T a, T b) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::min(a, b);
#else
  return b < a ? b : a;
#endif
}
template <class T>
KOKKOS_INLINE_FUNCTION T max(T a, T b) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::max(a, b);
#else
  return a < b ? b : a;
#endif
}

}  // namespace loopnest

#endif
