// Grid's fermion-field site: a spinor of 4 spins x 3 colours, 12 complex doubles (192 bytes).
#ifndef LOOPNEST_TEST_SPINOR_HPP
#define LOOPNEST_TEST_SPINOR_HPP

#include <Kokkos_Core.hpp>

namespace loopnest_test {

struct spinor {
  Kokkos::complex<double> c[12];
};

KOKKOS_INLINE_FUNCTION bool operator==(const spinor& a, const spinor& b) {
  bool same = true;
  for (int k = 0; k < 12; ++k) {
    same = same && a.c[k] == b.c[k];
  }
  return same;
}

}  // namespace loopnest_test

#endif
