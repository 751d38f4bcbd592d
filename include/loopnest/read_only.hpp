// loopnest::load_read_only: a load from memory that no thread writes while the kernel runs.
//
// A loop body is opaque to loopnest, and a C++ compiler must assume that a body's store may
// alias the next variable's load, so it issues them strictly in turn: one load in flight per
// thread. Fortran compilers assume no aliasing between arrays and overlap the loads freely;
// on a GPU one 4-byte load in flight per thread is not enough to saturate memory. Reading
// the inputs through load_read_only tells the compiler that stores cannot change them, so it
// may issue the loads of several variables before the first store (on CUDA and HIP, a
// non-coherent global load, also for 8- and 16-byte aligned structs).
#ifndef LOOPNEST_READ_ONLY_HPP
#define LOOPNEST_READ_ONLY_HPP

#include <Kokkos_Core.hpp>

#include <cstring>
#include <type_traits>

namespace loopnest {

namespace Impl {
// The types CUDA's and HIP's __ldg take.
template <class T>
struct has_ldg
    : std::integral_constant<
          bool, std::is_same<T, float>::value || std::is_same<T, double>::value ||
                    std::is_same<T, int>::value || std::is_same<T, unsigned>::value ||
                    std::is_same<T, long>::value || std::is_same<T, unsigned long>::value ||
                    std::is_same<T, long long>::value ||
                    std::is_same<T, unsigned long long>::value> {};

template <class T>
struct always_false : std::false_type {};

template <class T, class W>
KOKKOS_FORCEINLINE_FUNCTION T bit_cast_to(const W& w) {
  static_assert(sizeof(T) == sizeof(W), "a bit cast keeps the size");
  T t;
  memcpy(&t, &w, sizeof(T));
  return t;
}
}  // namespace Impl

// Returns x. The caller promises that nothing writes x while the kernel runs, other than the
// thread that reads it, after it has read it.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T load_read_only(const T& x) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  if constexpr (Impl::has_ldg<T>::value) {
    return __ldg(&x);
  } else if constexpr (std::is_trivially_copyable<T>::value && sizeof(T) == 8 && alignof(T) >= 8) {
    // Pointers (a table of fields) and 8-byte structs: the same load, as one machine word.
    return Impl::bit_cast_to<T>(__ldg(reinterpret_cast<const unsigned long long*>(&x)));
  } else if constexpr (std::is_trivially_copyable<T>::value && sizeof(T) == 16 &&
                       alignof(T) >= 16) {
    // A 16-byte aligned strip of values: one vector load.
    return Impl::bit_cast_to<T>(__ldg(reinterpret_cast<const uint4*>(&x)));
  } else {
    return x;
  }
#else
  return x;
#endif
}

// A temporary has no address in global memory to load from (on CUDA, a non-coherent load from
// a local address faults).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T load_read_only(const T&& x) {
  static_assert(Impl::always_false<T>::value,
                "loopnest::load_read_only: the argument must be an element of memory (a View "
                "element, an array entry), not a temporary such as a function's return value.");
  return x;
}

}  // namespace loopnest

#endif
