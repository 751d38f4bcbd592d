// A directional update for the sweep's tests and benchmark: a four-cell face stencil that mixes
// two variables, then each cell's difference of its faces, as one sweep body and as two loops
// through memory.
#ifndef LOOPNEST_TEST_SWEEP_UPDATE_HPP
#define LOOPNEST_TEST_SWEEP_UPDATE_HPP

#include <loopnest/kokkos_compat.hpp>

namespace loopnest_test {

// The value at the face below cell (i, j, k) along Axis from the four cells around it, variable
// v mixed with the next one: a stencil that reads two cells below and one above, and other
// variables than its own.
template <int Axis, class T, class Ref>
KOKKOS_INLINE_FUNCTION T face_value(const Ref& q, int nvar, int v, int i, int j, int k) {
  constexpr int e0 = Axis == 0, e1 = Axis == 1, e2 = Axis == 2;
  const T a  = q.load(v, i - 2 * e0, j - 2 * e1, k - 2 * e2);
  const T b  = q.load(v, i - e0, j - e1, k - e2);
  const T c  = q.load(v, i, j, k);
  const T d  = q.load(v, i + e0, j + e1, k + e2);
  const T w  = q.load((v + 1) % nvar, i - e0, j - e1, k - e2);
  const T lo = T(-1) / T(6) * a + T(5) / T(6) * b + T(1) / T(3) * c;
  const T hi = T(1) / T(3) * b + T(5) / T(6) * c - T(1) / T(6) * d;
  return T(0.5) * (lo + hi) + w * (hi - lo);
}

// The face values of the cells of a box and one cell above it along Axis, then each cell's
// difference of the faces above and below: as one sweep, faces in team scratch, the faces a loop
// over the cells (block.for_each_cell), the differences one over the (cell, variable) pairs
// (block.for_each_cell_var).
template <int Axis, class T, class Out>
struct sweep_difference {
  Out out;
  int nvar;
  T inv;

  template <class Block>
  KOKKOS_INLINE_FUNCTION void operator()(const Block& block) const {
    const auto q    = block.staged();
    const auto face = block.array(0);
    block.for_each_cell(0, 1, [&](int i, int j, int k) {
      for (int v = 0; v < nvar; ++v) {
        face(v, i, j, k) = face_value<Axis, T>(q, nvar, v, i, j, k);
      }
    });
    block.barrier();
    constexpr int e0 = Axis == 0, e1 = Axis == 1, e2 = Axis == 2;
    block.for_each_cell_var(0, 0, nvar, [&](int i, int j, int k, int v) {
      out(v, i, j, k) = (face(v, i + e0, j + e1, k + e2) - face(v, i, j, k)) * inv;
    });
  }
};

// The same as two loops through memory: the faces into a field set, then the differences.
template <int Axis, class T, class Ref>
struct faces_to_memory {
  Ref q, face;
  int nvar;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    for (int v = 0; v < nvar; ++v) {
      face(v, i, j, k) = face_value<Axis, T>(q, nvar, v, i, j, k);
    }
  }
};
template <int Axis, class T, class Ref>
struct difference_from_memory {
  Ref face, out;
  int nvar;
  T inv;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    constexpr int e0 = Axis == 0, e1 = Axis == 1, e2 = Axis == 2;
    for (int v = 0; v < nvar; ++v) {
      out(v, i, j, k) = (face(v, i + e0, j + e1, k + e2) - face(v, i, j, k)) * inv;
    }
  }
};

}  // namespace loopnest_test

#endif
