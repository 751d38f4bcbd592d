// Strips: N consecutive elements along an array's stride-1 index, moved by one device thread as
// vectors of up to 16 bytes where the first element is aligned to the vector, element by element
// otherwise (and on the host). A loop body that knows its arrays can move a strip per variable
// instead of a cell.
#ifndef LOOPNEST_DETAIL_STRIPS_HPP
#define LOOPNEST_DETAIL_STRIPS_HPP

#include <loopnest/kokkos_compat.hpp>
#include <loopnest/read_only.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace loopnest::Impl {

// N values, one per cell of a strip.
template <class T, int N>
struct strip_of {
  T x[N];
};

// The vector a strip of T moves as: as many elements as fit in 16 bytes, at most N.
template <class T, int N>
inline constexpr int vector_width_v = static_cast<int>(16 / sizeof(T)) < N
                                          ? static_cast<int>(16 / sizeof(T))
                                          : N;
template <class T, int W>
struct alignas(sizeof(T) * W) vector_of {
  T x[W];
};

template <class T, int N>
KOKKOS_FORCEINLINE_FUNCTION bool vectors_fit(const T* p, std::ptrdiff_t stride) {
  constexpr std::uintptr_t bytes = sizeof(vector_of<T, vector_width_v<T, N>>);
  return stride == 1 && reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

// The strip of N elements from `first` on, `stride` apart: read-only loads (loopnest::
// load_read_only), on a device as vectors when the stride is 1 and first is aligned to one. Host
// code moves elements and leaves vectors to the compiler: GCC 13 hoisted the over-aligned vector
// load above its alignment check (a general protection fault under Kokkos::Serial, FP64).
template <int N, class T>
KOKKOS_FORCEINLINE_FUNCTION strip_of<T, N> load_strip(const T& first, std::ptrdiff_t stride) {
  constexpr int w = vector_width_v<T, N>;
  static_assert(N % w == 0, "a strip is a whole number of vectors");
  strip_of<T, N> s;
  const T* p = &first;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  if (vectors_fit<T, N>(p, stride)) {
    for (int c = 0; c < N; c += w) {
      const auto vec = load_read_only(*reinterpret_cast<const vector_of<T, w>*>(p + c));
      for (int u = 0; u < w; ++u) {
        s.x[c + u] = vec.x[u];
      }
    }
    return s;
  }
#endif
  for (int u = 0; u < N; ++u) {
    s.x[u] = load_read_only(p[u * stride]);
  }
  return s;
}

// Stores a strip where load_strip would have read it, as it would have.
template <int N, class T>
KOKKOS_FORCEINLINE_FUNCTION void store_strip(T& first, std::ptrdiff_t stride,
                                             const strip_of<T, N>& s) {
  T* p = &first;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  constexpr int w = vector_width_v<T, N>;
  if (vectors_fit<T, N>(p, stride)) {
    for (int c = 0; c < N; c += w) {
      vector_of<T, w> vec;
      for (int u = 0; u < w; ++u) {
        vec.x[u] = s.x[c + u];
      }
      *reinterpret_cast<vector_of<T, w>*>(p + c) = vec;
    }
    return;
  }
#endif
  for (int u = 0; u < N; ++u) {
    p[u * stride] = s.x[u];
  }
}

// The stride of a handle (field_set_ref, packed_fields_ref) along box index Axis.
template <int Axis, class Ref>
KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t stride_along(const Ref& r) {
  return Axis == 0 ? r.s0 : Axis == 1 ? r.s1 : r.s2;
}

// Whether a (cell, variable) body also runs strips: a member
//   template <int N, int Axis, class C> void strip(int i, int j, int k, int v, const C& values)
// that does for the N cells from (i, j, k) along box index Axis what the body does for each,
// values.x[u] being the per-cell value of cell u. Bodies without one run cell by cell.
template <class F, class = void>
struct has_strips : std::false_type {};
template <class F>
struct has_strips<F, std::void_t<typename F::runs_strips>> : std::true_type {};

}  // namespace loopnest::Impl

#endif
