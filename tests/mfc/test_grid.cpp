// MFC's grid: pre_process's boundaries and centres, simulation's widths and centres, the ghost
// layers, against MFC's formulas evaluated by hand (and, for stretching, by Python's math module,
// which calls the same libm).
#include <gtest/gtest.h>

#include <cmath>

#include "grid.hpp"

namespace {

using loopnest_mfc::axis_config;
using loopnest_mfc::axis_grid;
using loopnest_mfc::generate_axis;

axis_config uniform(int m, double beg, double end, int bc_beg = -3, int bc_end = -3) {
  axis_config c;
  c.cells_minus_one = m;
  c.beg             = beg;
  c.end             = end;
  c.bc_beg          = bc_beg;
  c.bc_end          = bc_end;
  return c;
}

TEST(mfc_grid, a_uniform_grid_is_mfcs) {
  // dx = 0.9/5 rounds so that 5*dx is not 0.9: the last boundary is the end itself.
  const axis_grid g = generate_axis(uniform(4, 0.0, 0.9), 4);
  const double dx   = 0.9 / 5.0;
  EXPECT_EQ(g.d_pre, dx);
  EXPECT_EQ(g.x_cb(-1), 0.0);
  EXPECT_EQ(g.x_cb(0), dx);
  EXPECT_EQ(g.x_cb(3), dx * 4.0);
  EXPECT_EQ(g.x_cb(4), 0.9);
  EXPECT_NE(g.x_cb(4), dx * 5.0);
  EXPECT_EQ(g.x_cc_pre(0), 0.5 * dx * 1.0);
  EXPECT_EQ(g.x_cc_pre(4), 0.5 * dx * 9.0);
  // simulation: dx(i) = x_cb(i) - x_cb(i-1), x_cc(i) = x_cb(i-1) + dx(i)/2.
  EXPECT_EQ(g.dx(4), 0.9 - dx * 4.0);
  EXPECT_EQ(g.x_cc(4), dx * 4.0 + (0.9 - dx * 4.0) / 2.0);
  EXPECT_EQ(g.x_cc(4), 0.81);
  EXPECT_EQ(g.x_cc_pre(4), 0.8099999999999999);  // the two programs' centres differ by rounding
}

TEST(mfc_grid, stretching_follows_s_generate_serial_grid) {
  // MFC's 3D_performance_test stretching (a = 4, x_a = -1.5, x_b = 1.5 on [0, 4]) with m = 7.
  axis_config c           = uniform(7, 0.0, 4.0);
  c.stretch               = true;
  c.a                     = 4.0;
  c.x_a                   = -1.5;
  c.x_b                   = 1.5;
  const double one_loop[] = {0.0,
                             0.5059879044766622,
                             1.0557005832149642,
                             1.7244180609563218,
                             2.608499225412256,
                             3.76880544641774,
                             5.213652037961986,
                             6.930893045710849,
                             8.909557346902954};
  const axis_grid g1      = generate_axis(c, 4);
  for (int i = -1; i <= 7; ++i) {
    EXPECT_DOUBLE_EQ(g1.x_cb(i), one_loop[i + 1]) << "i = " << i;
  }
  // The centres are the midpoints, and pre_process's spacing is the smallest width.
  EXPECT_EQ(g1.x_cc_pre(3), (g1.x_cb(3) + g1.x_cb(2)) / 2.0);
  EXPECT_EQ(g1.d_pre, g1.x_cb(0) - g1.x_cb(-1));
  c.loops            = 2;
  const axis_grid g2 = generate_axis(c, 4);
  EXPECT_DOUBLE_EQ(g2.x_cb(3), 4.058495058680448);
  EXPECT_DOUBLE_EQ(g2.x_cb(7), 41.70105031649819);
}

// s_populate_grid_variables_buffers: the ghost widths by boundary type, then boundaries and
// centres outwards from the interior.
TEST(mfc_grid, ghost_layers_follow_the_boundary_types) {
  axis_config c     = uniform(7, 0.0, 4.0, -3, -2);
  c.stretch         = true;
  c.a               = 4.0;
  c.x_a             = -1.5;
  c.x_b             = 1.5;
  const axis_grid g = generate_axis(c, 4);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(g.dx(-i), g.dx(0)) << "extrapolation, i = " << i;
    EXPECT_EQ(g.dx(7 + i), g.dx(7 - (i - 1))) << "reflection, i = " << i;
    EXPECT_EQ(g.x_cb(-1 - i), g.x_cb(-i) - g.dx(-i));
    EXPECT_EQ(g.x_cb(7 + i), g.x_cb(7 + i - 1) + g.dx(7 + i));
    EXPECT_EQ(g.x_cc(-i), g.x_cc(1 - i) - (g.dx(1 - i) + g.dx(-i)) / 2.0);
    EXPECT_EQ(g.x_cc(7 + i), g.x_cc(7 + i - 1) + (g.dx(7 + i - 1) + g.dx(7 + i)) / 2.0);
  }
  const axis_grid p = generate_axis(uniform(7, 0.0, 4.0, -1, -1), 4);
  c.bc_beg          = -1;
  c.bc_end          = -1;
  const axis_grid s = generate_axis(c, 4);
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(s.dx(-i), s.dx(7 - (i - 1))) << "periodic, i = " << i;
    EXPECT_EQ(s.dx(7 + i), s.dx(i - 1)) << "periodic, i = " << i;
    EXPECT_EQ(p.dx(-i), 0.5);
  }
}

TEST(mfc_grid, a_grid_that_folds_or_is_not_finite_is_refused_by_name) {
  // Stretching far outside the domain folds the grid back over itself.
  axis_config c          = uniform(49, 0.0, 1.0);
  c.stretch              = true;
  c.a                    = 1.0;
  c.x_a                  = 5.0;
  c.x_b                  = 6.0;
  c.loops                = 2;
  const axis_grid folded = generate_axis(c, 4);
  try {
    loopnest_mfc::check_axis(folded, c, 'x');
    ADD_FAILURE() << "a folded grid was accepted";
  } catch (const loopnest_mfc::case_error& e) {
    EXPECT_STREQ(e.what(),
                 "the grid in x: cell 13 has width -0.0334922 (x_cb(12) = 13.4713, x_cb(13) = "
                 "13.4378); stretch_x, a_x, x_a, x_b and loops_x give a grid that folds over "
                 "itself");
  }
  // A domain wider than double holds.
  const axis_config wide = uniform(49, -1e308, 1e308);
  try {
    loopnest_mfc::check_axis(generate_axis(wide, 4), wide, 'y');
    ADD_FAILURE() << "a grid of infinite widths was accepted";
  } catch (const loopnest_mfc::case_error& e) {
    EXPECT_STREQ(e.what(),
                 "the grid in y: the cell boundary y_cb(-1) is not finite; y_domain%beg and "
                 "y_domain%end give it");
  }
  EXPECT_NO_THROW(loopnest_mfc::check_axis(generate_axis(uniform(49, 0.0, 1.0), 4),
                                           uniform(49, 0.0, 1.0), 'x'));
}

}  // namespace
