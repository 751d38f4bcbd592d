// MFC's domain decomposition (src/common/m_mpi_common.fpp, s_mpi_decompose_computational_domain):
// how many ranks each direction gets, which block of cells each rank holds, and the case and
// grid a rank runs on. Host code without MPI: the tool's MPI layer (distributed.hpp) and the
// tests build on it.
//
// Each rank's grid is its slice of the global grid, ghost layers included, so that its WENO
// coefficients and cell widths are those of the single-rank run bit for bit. (MFC's
// pre_process instead lays a uniform grid per rank from the rank's own domain bounds, which can
// differ from the global grid in the last place.)
#ifndef LOOPNEST_MFC_DECOMPOSITION_HPP
#define LOOPNEST_MFC_DECOMPOSITION_HPP

#include "case.hpp"
#include "grid.hpp"

#include <cmath>
#include <string>

namespace loopnest_mfc {

// Ranks per direction (MFC's num_procs_x, _y, _z; 1 beyond num_dims).
struct rank_grid {
  int ranks[3] = {1, 1, 1};
};

// MFC's choice of num_procs_x, _y, _z for num_procs ranks: the factorisation whose blocks are
// closest to equal cell counts along x, y and z (its real-valued measure, its search order,
// later ties winning), each rank keeping at least num_stcls_min*weno_order cells. Throws
// case_error when no factorisation does. (MFC compares the last direction's count per rank as a
// real number, the others as integers; so does this.)
inline rank_grid mfc_rank_grid(const case_config& c, int num_procs) {
  rank_grid r;
  const int least = num_stcls_min * c.weno_order;
  const double m1 = c.m() + 1, n1 = c.n() + 1, p1 = c.p() + 1;
  bool found = false;
  if (c.num_dims == 1 || num_procs == 1) {
    r.ranks[0] = num_procs;
    found      = num_procs == 1 || (c.m() + 1) / num_procs >= least;
  } else if (c.num_dims == 2) {
    r.ranks[1]     = num_procs;
    double fct_min = 10.0 * std::abs(m1 - n1 / num_procs);
    for (int i = 1; i <= num_procs; ++i) {
      if (num_procs % i == 0 && (c.m() + 1) / i >= least) {
        const int ranks_y = num_procs / i;
        const double x = i, y = ranks_y;
        if (fct_min >= std::abs(m1 / x - n1 / y) && n1 / y >= least) {
          r.ranks[0] = i;
          r.ranks[1] = num_procs / i;
          fct_min    = std::abs(m1 / x - n1 / y);
          found      = true;
        }
      }
    }
  } else {
    r.ranks[2]     = num_procs;
    double fct_min = 10.0 * std::abs(m1 - n1) + 10.0 * std::abs(n1 - p1 / num_procs);
    for (int i = 1; i <= num_procs; ++i) {
      if (num_procs % i != 0 || (c.m() + 1) / i < least) {
        continue;
      }
      for (int j = 1; j <= num_procs / i; ++j) {
        if ((num_procs / i) % j != 0 || (c.n() + 1) / j < least) {
          continue;
        }
        const int k    = num_procs / (i * j);
        const double x = i, y = j, z = k;
        const double fct = std::abs(m1 / x - n1 / y) + std::abs(n1 / y - p1 / z);
        if (fct_min >= fct && p1 / z >= least) {
          r.ranks[0] = i;
          r.ranks[1] = j;
          r.ranks[2] = k;
          fct_min    = fct;
          found      = true;
        }
      }
    }
  }
  if (!found) {
    throw case_error("no decomposition of the " + std::to_string(c.m() + 1) + "x" +
                     std::to_string(c.n() + 1) + "x" + std::to_string(c.p() + 1) + " cells over " +
                     std::to_string(num_procs) + " ranks leaves every rank " +
                     std::to_string(least) + " cells (num_stcls_min*weno_order) along each " +
                     "split direction");
  }
  return r;
}

// One rank's block: its first global cell and its cell count per direction, and whether a
// neighbouring rank (rather than a boundary condition) fills each side's ghost layers.
struct block {
  int offset[3]        = {0, 0, 0};
  int extent[3]        = {1, 1, 1};
  bool neighbour[3][2] = {{false, false}, {false, false}, {false, false}};
};

// The boundary value MFC gives a side that a neighbouring rank fills (its rank, >= 0); the
// boundary-condition loop leaves such sides to the halo exchange.
inline constexpr int bc_neighbour = 0;

// The case a rank runs: its own cell counts, and bc_neighbour on the sides its neighbours fill.
inline case_config local_case(const case_config& global, const block& b) {
  case_config c = global;
  for (int d = 0; d < global.num_dims; ++d) {
    c.axis[d].cells_minus_one = b.extent[d] - 1;
    if (b.neighbour[d][0]) {
      c.axis[d].bc_beg = bc_neighbour;
    }
    if (b.neighbour[d][1]) {
      c.axis[d].bc_end = bc_neighbour;
    }
  }
  return c;
}

// The rank's slice of the global grid, its ghost layers being the global grid's cells around it
// (or the global ghost layers at a global boundary).
inline grid local_grid(const grid& global, const block& b) {
  grid g;
  g.num_dims = global.num_dims;
  for (int d = 0; d < 3; ++d) {
    const axis_grid& from = global.axis[d];
    axis_grid& to         = g.axis[d];
    if (d >= global.num_dims) {
      to = from;
      continue;
    }
    const int off   = b.offset[d];
    to.m            = b.extent[d] - 1;
    to.ghost        = from.ghost;
    to.d_pre        = from.d_pre;
    const int cells = to.m + 1 + 2 * to.ghost;
    to.cb.assign(static_cast<std::size_t>(cells) + 1, 0.0);
    to.d.assign(static_cast<std::size_t>(cells), 0.0);
    to.cc.assign(to.d.size(), 0.0);
    to.cc_pre.assign(static_cast<std::size_t>(b.extent[d]), 0.0);
    for (int i = -1 - to.ghost; i <= to.m + to.ghost; ++i) {
      to.x_cb(i) = from.x_cb(off + i);
    }
    for (int i = -to.ghost; i <= to.m + to.ghost; ++i) {
      to.dx(i)   = from.dx(off + i);
      to.x_cc(i) = from.x_cc(off + i);
    }
    for (int i = 0; i <= to.m; ++i) {
      to.x_cc_pre(i) = from.x_cc_pre(off + i);
    }
  }
  return g;
}

}  // namespace loopnest_mfc

#endif
