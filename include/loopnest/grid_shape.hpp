// loopnest::grid_shape: the index space of nvar fields on one structured grid with ghost layers.
#ifndef LOOPNEST_GRID_SHAPE_HPP
#define LOOPNEST_GRID_SHAPE_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/error.hpp>

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace loopnest {

// Which cells of the other axes a ghost slab (grid_shape::ghost_box) spans.
enum class ghost_span {
  // Their interior only: the face's own ghosts, no edge or corner.
  face,
  // Also the ghosts of the axes before it (x's in a y slab, x's and y's in a z slab), as MFC's
  // boundary loops run: slabs filled axis after axis, x first, cover every ghost cell, each edge
  // and corner from cells the axes before it have filled.
  with_corners
};

// nvar variables on an nx [x ny [x nz]] grid whose active dimensions carry `ghost` layers:
// index d runs over [-ghost, n_d + ghost) when d is active and over [0, 1) when it is not (a 2D
// grid has one cell along z, a 1D grid one along y and z). Throws std::invalid_argument, naming
// `owner`, for nvar < 1, an interior extent below 1, a negative ghost width, an extent with its
// ghosts past 2^31 - 1, or 0 or more than 3 extents.
class grid_shape {
 public:
  grid_shape(const char* owner, int nvar, std::initializer_list<int> interior, int ghost)
      : m_nvar(nvar), m_ghost(ghost), m_dims(static_cast<int>(interior.size())) {
    check(owner, "nvar", nvar, 1);
    check(owner, "ghost", ghost, 0);
    if (m_dims < 1 || m_dims > 3) {
      throw std::invalid_argument(std::string(owner) + ": " + std::to_string(m_dims) +
                                  " interior extents given; a grid has 1 to 3");
    }
    int d = 0;
    for (int n : interior) {
      check(owner, ("interior[" + std::to_string(d) + "]").c_str(), n, 1);
      // In 64 bits: n + 2 ghost can overflow int.
      if (std::int64_t{n} + 2 * std::int64_t{ghost} > INT_MAX) {
        throw std::invalid_argument(std::string(owner) + ": interior[" + std::to_string(d) +
                                    "] = " + std::to_string(n) +
                                    " with ghost = " + std::to_string(ghost) +
                                    " on both sides exceeds 2^31 - 1 cells, the most an int "
                                    "index spans");
      }
      m_interior[d++] = n;
    }
    for (int e = 0; e < 3; ++e) {
      m_lower[e] = e < m_dims ? -ghost : 0;
      m_upper[e] = e < m_dims ? m_interior[e] + ghost : 1;
    }
  }

  int nvar() const { return m_nvar; }
  int ghost() const { return m_ghost; }
  int dims() const { return m_dims; }
  int interior_extent(int d) const { return m_interior[d]; }
  // Index bounds of dimension d, ghosts included.
  int lower(int d) const { return m_lower[d]; }
  int upper(int d) const { return m_upper[d]; }
  int extent(int d) const { return m_upper[d] - m_lower[d]; }

  box<3> interior() const { return {{0, 0, 0}, {m_interior[0], m_interior[1], m_interior[2]}}; }
  box<3> with_ghosts() const {
    return {{m_lower[0], m_lower[1], m_lower[2]}, {m_upper[0], m_upper[1], m_upper[2]}};
  }

  // The ghost slab of one face: all `ghost` layers below (side 0) or above (side 1) the interior
  // along `axis`, across the other axes as `span` says. Empty when ghost is 0. Throws
  // std::invalid_argument for an axis outside [0, dims()) or a side other than 0 or 1.
  box<3> ghost_box(int axis, int side, ghost_span span = ghost_span::with_corners) const {
    check_face("loopnest::grid_shape::ghost_box", axis, side);
    return slab(axis, side == 0 ? -m_ghost : m_interior[axis], span);
  }

  // The interior cells a periodic axis copies into ghost_box(axis, side, span): the outermost
  // `ghost` interior layers on the other side (what a neighbouring rank on `side` sends, its own
  // outermost layers on side 1 - side). Throws std::invalid_argument as ghost_box does, and when
  // the interior along `axis` is thinner than the ghost layers (they would reach the ghosts).
  box<3> ghost_source_box(int axis, int side, ghost_span span = ghost_span::with_corners) const {
    constexpr const char* where = "loopnest::grid_shape::ghost_source_box";
    check_face(where, axis, side);
    if (m_interior[axis] < m_ghost) {
      Impl::throw_invalid_argument(
          where, "interior[" + std::to_string(axis) + "] = " + std::to_string(m_interior[axis]) +
                     " is below ghost = " + std::to_string(m_ghost) +
                     ": the ghost layers would be copied from the ghosts on the other side");
    }
    return slab(axis, side == 0 ? m_interior[axis] - m_ghost : 0, span);
  }

 private:
  static void check(const char* owner, const char* name, int value, int least) {
    if (value < least) {
      throw std::invalid_argument(std::string(owner) + ": " + name + " = " + std::to_string(value) +
                                  " but it must be at least " + std::to_string(least));
    }
  }

  void check_face(const char* where, int axis, int side) const {
    if (axis < 0 || axis >= m_dims) {
      Impl::throw_invalid_argument(where, "axis = " + std::to_string(axis) + " but the grid has " +
                                              std::to_string(m_dims) +
                                              " dimensions (0 = x, 1 = y, 2 = z)");
    }
    if (side != 0 && side != 1) {
      Impl::throw_invalid_argument(
          where, "side = " + std::to_string(side) + " but a face is side 0 (below) or 1 (above)");
    }
  }

  // `ghost` layers along axis from `first`; the other axes as span says.
  box<3> slab(int axis, int first, ghost_span span) const {
    int lo[3], hi[3];
    for (int e = 0; e < 3; ++e) {
      const bool ghosts = span == ghost_span::with_corners && e < axis;
      lo[e]             = e == axis ? first : ghosts ? m_lower[e] : 0;
      hi[e]             = e == axis ? first + m_ghost : ghosts ? m_upper[e] : m_interior[e];
    }
    return {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  }

  int m_nvar, m_ghost, m_dims;
  int m_interior[3] = {1, 1, 1};
  int m_lower[3]    = {};
  int m_upper[3]    = {};
};

namespace Impl {
// "[l0, u0) x [l1, u1) x [l2, u2)": the ranges of a box or an index space, for messages.
template <class Box>
std::string describe_ranges(const Box& b) {
  std::string s;
  for (int d = 0; d < 3; ++d) {
    s += (d > 0 ? " x [" : "[") + std::to_string(b.lower(d)) + ", " + std::to_string(b.upper(d)) +
         ")";
  }
  return s;
}
}  // namespace Impl

// Throws std::invalid_argument, naming `where`, the box and shape's index space with ghosts, when
// a non-empty box b does not lie inside that index space: a loop over b that indexes shape's
// fields would run past them. An empty box fits anywhere (a loop over it touches nothing).
inline void check_box_fits(const char* where, const grid_shape& shape, const box<3>& b) {
  if (b.empty()) {
    return;
  }
  for (int d = 0; d < 3; ++d) {
    if (b.lower(d) < shape.lower(d) || b.upper(d) > shape.upper(d)) {
      throw std::invalid_argument(std::string(where) + ": the box " + Impl::describe_ranges(b) +
                                  " does not fit the index space with ghosts " +
                                  Impl::describe_ranges(shape.with_ghosts()) + " (dimension " +
                                  std::to_string(d) + ")");
    }
  }
}

}  // namespace loopnest

#endif
