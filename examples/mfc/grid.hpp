// loopnest_mfc::generate_grid: MFC's rectilinear grid, uniform or stretched, as pre_process builds
// it (src/pre_process/m_grid.f90, s_generate_serial_grid) and as simulation re-derives it from the
// cell boundaries and extends it into the ghost layers (m_start_up.fpp, s_read_serial_data_files;
// s_populate_grid_variables_buffers). Every formula keeps MFC's order of operations.
#ifndef LOOPNEST_MFC_GRID_HPP
#define LOOPNEST_MFC_GRID_HPP

#include "case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopnest_mfc {

// One direction of the grid; indices are MFC's: cells 0..m, boundaries -1..m, ghosts beyond.
struct axis_grid {
  int m     = 0;  // last interior cell
  int ghost = 0;  // ghost layers on each side (0 for a direction the case does not have)
  // pre_process's spacing: (end - beg)/(m + 1), or the smallest width of a stretched grid. The
  // sphere's smoothing scales with it.
  double d_pre = 0.0;
  std::vector<double> cb;      // x_cb(-1 - ghost .. m + ghost)
  std::vector<double> cc_pre;  // pre_process's x_cc(0 .. m), used to lay the patches
  std::vector<double> d;       // simulation's dx(-ghost .. m + ghost)
  std::vector<double> cc;      // simulation's x_cc(-ghost .. m + ghost)

  double& x_cb(int i) { return cb.at(slot(i + 1 + ghost)); }
  double x_cb(int i) const { return cb.at(slot(i + 1 + ghost)); }
  double& x_cc_pre(int i) { return cc_pre.at(slot(i)); }
  double x_cc_pre(int i) const { return cc_pre.at(slot(i)); }
  double& dx(int i) { return d.at(slot(i + ghost)); }
  double dx(int i) const { return d.at(slot(i + ghost)); }
  double& x_cc(int i) { return cc.at(slot(i + ghost)); }
  double x_cc(int i) const { return cc.at(slot(i + ghost)); }

  // The storage position of an index already shifted to start at 0 (.at() catches the rest).
  static std::size_t slot(int shifted) { return static_cast<std::size_t>(shifted); }
};

struct grid {
  int num_dims = 1;
  axis_grid axis[3];
};

namespace detail {

// pre_process: s_generate_serial_grid for one direction (the x branch; y and z are the same
// without cylindrical coordinates, which the port refuses).
inline void generate_pre_process(axis_grid& g, const axis_config& c) {
  const int m = g.m;
  double dx   = (c.end - c.beg) / static_cast<double>(m + 1);
  for (int i = 0; i <= m; ++i) {
    g.x_cc_pre(i) = c.beg + 5.e-1 * dx * static_cast<double>(2 * i + 1);
    g.x_cb(i - 1) = c.beg + dx * static_cast<double>(i);
  }
  g.x_cb(m) = c.end;
  if (c.stretch) {
    const double length = std::abs(g.x_cb(m) - g.x_cb(-1));
    for (int i = -1; i <= m; ++i) {
      g.x_cb(i) = g.x_cb(i) / length;
    }
    const double x_a = c.x_a / length;
    const double x_b = c.x_b / length;
    const double a   = c.a;
    // A grid that stops being finite stays so: the passes after that are not run (check_axis
    // refuses the grid), so that a huge loops_x does not run for hours first.
    bool finite = true;
    for (int j = 1; j <= c.loops && finite; ++j) {
      for (int i = -1; i <= m; ++i) {
        const double x = g.x_cb(i);
        g.x_cb(i)      = x / a *
                    (a + std::log(std::cosh(a * (x - x_a))) + std::log(std::cosh(a * (x - x_b))) -
                     2. * std::log(std::cosh(a * (x_b - x_a) / 2.)));
        finite = finite && std::isfinite(g.x_cb(i));
      }
    }
    for (int i = -1; i <= m; ++i) {
      g.x_cb(i) = g.x_cb(i) * length;
    }
    for (int i = 0; i <= m; ++i) {
      g.x_cc_pre(i) = (g.x_cb(i) + g.x_cb(i - 1)) / 2.;
    }
    dx = g.x_cb(0) - g.x_cb(-1);
    for (int i = 1; i <= m; ++i) {
      dx = std::min(dx, g.x_cb(i) - g.x_cb(i - 1));
    }
  }
  g.d_pre = dx;
}

// simulation: widths and centres from the boundaries, then the ghost layers by boundary type
// (MFC's BC_PERIODIC = -1, BC_REFLECTIVE = -2, BC_GHOST_EXTRAP = -3 and below).
inline void derive_simulation(axis_grid& g, const axis_config& c) {
  const int m = g.m;
  for (int i = 0; i <= m; ++i) {
    g.dx(i) = g.x_cb(i) - g.x_cb(i - 1);
  }
  for (int i = 0; i <= m; ++i) {
    g.x_cc(i) = g.x_cb(i - 1) + g.dx(i) / 2.;
  }
  const int buff = g.ghost;
  for (int i = 1; i <= buff; ++i) {
    if (c.bc_beg <= -3) {
      g.dx(-i) = g.dx(0);
    } else if (c.bc_beg == -2) {
      g.dx(-i) = g.dx(i - 1);
    } else if (c.bc_beg == -1) {
      g.dx(-i) = g.dx(m - (i - 1));
    }
  }
  for (int i = 1; i <= buff; ++i) {
    g.x_cb(-1 - i) = g.x_cb(-i) - g.dx(-i);
  }
  for (int i = 1; i <= buff; ++i) {
    g.x_cc(-i) = g.x_cc(1 - i) - (g.dx(1 - i) + g.dx(-i)) / 2.;
  }
  for (int i = 1; i <= buff; ++i) {
    if (c.bc_end <= -3) {
      g.dx(m + i) = g.dx(m);
    } else if (c.bc_end == -2) {
      g.dx(m + i) = g.dx(m - (i - 1));
    } else if (c.bc_end == -1) {
      g.dx(m + i) = g.dx(i - 1);
    }
  }
  for (int i = 1; i <= buff; ++i) {
    g.x_cb(m + i) = g.x_cb(m + (i - 1)) + g.dx(m + i);
  }
  for (int i = 1; i <= buff; ++i) {
    g.x_cc(m + i) = g.x_cc(m + (i - 1)) + (g.dx(m + (i - 1)) + g.dx(m + i)) / 2.;
  }
}

}  // namespace detail

// One direction: pre_process's grid, then simulation's widths, centres and `ghost` layers.
inline axis_grid generate_axis(const axis_config& c, int ghost) {
  if (c.bc_beg < -16 || c.bc_beg > -1 || c.bc_end < -16 || c.bc_end > -1) {
    throw std::invalid_argument("loopnest_mfc::generate_axis: boundary types are -1 to -16");
  }
  axis_grid g;
  g.m              = c.cells_minus_one;
  g.ghost          = ghost;
  const auto cells = static_cast<std::size_t>(g.m) + 1;
  const auto wide  = cells + 2 * static_cast<std::size_t>(ghost);
  g.cb.assign(wide + 1, 0.0);
  g.cc_pre.assign(cells, 0.0);
  g.d.assign(wide, 0.0);
  g.cc.assign(wide, 0.0);
  detail::generate_pre_process(g, c);
  detail::derive_simulation(g, c);
  return g;
}

// Refuses (case_error) a direction whose cell boundaries are not finite or do not increase: a
// domain too wide for double, or stretching parameters that fold the grid over itself.
inline void check_axis(const axis_grid& g, const axis_config& c, char name) {
  const std::string s(1, name);
  const std::string why = c.stretch
                              ? "; stretch_" + s + ", a_" + s + ", " + s + "_a, " + s +
                                    "_b and loops_" + s + " give a grid that folds over itself"
                              : "; " + s + "_domain%beg and " + s + "_domain%end give it";
  for (int i = -1; i <= g.m; ++i) {
    if (!std::isfinite(g.x_cb(i))) {
      std::string what = "the grid in ";
      what.append(s).append(": the cell boundary ").append(s).append("_cb(");
      what.append(std::to_string(i)).append(") is not finite").append(why);
      throw case_error(what);
    }
  }
  for (int i = 0; i <= g.m; ++i) {
    if (!(g.dx(i) > 0) || !std::isfinite(g.dx(i))) {
      char values[160];
      std::snprintf(values, sizeof(values),
                    "cell %d has width %.6g (%s_cb(%d) = %.6g, %s_cb(%d) = %.6g)", i, g.dx(i),
                    s.c_str(), i - 1, g.x_cb(i - 1), s.c_str(), i, g.x_cb(i));
      std::string what = "the grid in ";
      what.append(s).append(": ").append(values).append(why);
      throw case_error(what);
    }
  }
}

// The whole grid with MFC's buff_size ghost layers in each direction the case has; a direction
// it does not have is one cell without ghosts. Throws case_error for a grid check_axis refuses.
inline grid generate_grid(const case_config& c) {
  grid g;
  g.num_dims = c.num_dims;
  for (int d = 0; d < 3; ++d) {
    if (d < c.num_dims) {
      g.axis[d] = generate_axis(c.axis[d], buff_size);
      check_axis(g.axis[d], c.axis[d], "xyz"[d]);
    } else {
      g.axis[d].m = 0;
    }
  }
  return g;
}

}  // namespace loopnest_mfc

#endif
