// Impl::index_bounds: the index space a device handle (field_set_ref, packed_fields_ref) carries
// where Kokkos checks bounds (KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK), and the check itself.
#ifndef LOOPNEST_DETAIL_INDEX_BOUNDS_HPP
#define LOOPNEST_DETAIL_INDEX_BOUNDS_HPP

#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>

namespace loopnest::Impl {

// A message built on the device, which has no snprintf: text and decimal integers appended to a
// fixed buffer, cut short where it is full.
struct abort_message {
  static constexpr int size = 256;
  char text[size];
  int length = 0;

  KOKKOS_INLINE_FUNCTION abort_message& operator<<(const char* s) {
    while (*s != '\0' && length < size - 1) {
      text[length++] = *s++;
    }
    text[length] = '\0';
    return *this;
  }
  KOKKOS_INLINE_FUNCTION abort_message& operator<<(int n) {
    char digits[12];
    int d = 0;
    // In unsigned: -INT_MIN overflows int.
    unsigned u = n < 0 ? 0u - static_cast<unsigned>(n) : static_cast<unsigned>(n);
    do {
      digits[d++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (n < 0) {
      digits[d++] = '-';
    }
    char s[13];
    for (int c = 0; c < d; ++c) {
      s[c] = digits[d - 1 - c];
    }
    s[d] = '\0';
    return *this << static_cast<const char*>(s);
  }
};

// v in [0, nvar) and (i, j, k) in [lower, upper), the index space with ghosts of a grid_shape.
struct index_bounds {
  int nvar;
  int lower[3];
  int upper[3];

  static index_bounds of(const grid_shape& shape) {
    return {shape.nvar(),
            {shape.lower(0), shape.lower(1), shape.lower(2)},
            {shape.upper(0), shape.upper(1), shape.upper(2)}};
  }

  // The bounds of a handle whose indices are put in `order` (Impl::permuted).
  index_bounds permuted(const int (&order)[3]) const {
    index_bounds p = *this;
    for (int d = 0; d < 3; ++d) {
      p.lower[d] = lower[order[d]];
      p.upper[d] = upper[order[d]];
    }
    return p;
  }

  // Aborts (Kokkos::abort) with the indices and the shape where (v, i, j, k) is outside them;
  // `what` names the handle.
  KOKKOS_INLINE_FUNCTION void check(const char* what, int v, int i, int j, int k) const {
    if (v >= 0 && v < nvar && i >= lower[0] && i < upper[0] && j >= lower[1] && j < upper[1] &&
        k >= lower[2] && k < upper[2]) {
      return;
    }
    abort_message m;
    m << what << ": index (v, i, j, k) = (" << v << ", " << i << ", " << j << ", " << k
      << ") is out of bounds: v in [0, " << nvar << "), i in [" << lower[0] << ", " << upper[0]
      << "), j in [" << lower[1] << ", " << upper[1] << "), k in [" << lower[2] << ", " << upper[2]
      << ") with ghosts";
    Kokkos::abort(m.text);
  }
};

}  // namespace loopnest::Impl

#endif
