// The initial-condition patches: which cells a patch covers, decided in double precision as MFC
// decides it, alter_patch, and the sphere's smoothing.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "patches.hpp"

namespace {

using namespace loopnest_mfc;

patch_config box(double centroid, double length, double pres) {
  patch_config p;
  p.geometry     = 1;
  p.centroid[0]  = centroid;
  p.length[0]    = length;
  p.pres         = pres;
  p.alpha_rho[0] = 1.;
  p.alpha[0]     = 1.;
  return p;
}

case_config line_case(int m, double end) {
  case_config c;
  c.num_dims                = 1;
  c.axis[0].cells_minus_one = m;
  c.axis[0].beg             = 0.;
  c.axis[0].end             = end;
  c.num_fluids              = 1;
  c.fluids[0].gamma         = 2.5;
  return c;
}

double pressure_at(const initial_condition& ic, int i) {
  return ic.prim(2, i, 0, 0);  // alpha_rho, u, p, alpha in 1D with one fluid
}

TEST(mfc_patches, a_centre_on_an_edge_is_inside) {
  // x_cc = 0.125, 0.375, 0.625, 0.875 exactly; the patch spans [0.625, 0.875] exactly.
  case_config c               = line_case(3, 1.);
  c.patches                   = {box(0.5, 1., 1.), box(0.75, 0.25, 2.)};
  c.patches[1].alter_patch[1] = true;
  const initial_condition ic  = apply_patches(c, generate_grid(c));
  EXPECT_EQ(pressure_at(ic, 1), 1.);
  EXPECT_EQ(pressure_at(ic, 2), 2.);
  EXPECT_EQ(pressure_at(ic, 3), 2.);
  EXPECT_EQ(ic.patch_id[1], 1);
  EXPECT_EQ(ic.patch_id[2], 2);
}

TEST(mfc_patches, a_centre_on_an_edge_up_to_rounding_falls_where_double_arithmetic_puts_it) {
  // dx = 0.3/3 rounds low: x_cc(0) = 0.5*dx = 0.049999999999999996, below the patch's
  // beg = 0.1 - 0.05 = 0.05; x_cc(1) = 0.15 is below end = 0.15000000000000002.
  case_config c = line_case(2, 0.3);
  c.patches     = {box(0.1, 0.1, 3.)};
  const grid g  = generate_grid(c);
  ASSERT_EQ(g.axis[0].x_cc_pre(0), 0.049999999999999996);
  const initial_condition ic = apply_patches(c, g);
  EXPECT_EQ(pressure_at(ic, 0), -1.e-6);  // MFC's fill value: no patch laid it
  EXPECT_EQ(pressure_at(ic, 1), 3.);
  EXPECT_EQ(pressure_at(ic, 2), -1.e-6);
  EXPECT_EQ(ic.patch_id[0], 0);
}

TEST(mfc_patches, cells_are_placed_by_pre_process_centres_not_simulations) {
  // On [0, 0.9] with m = 4, pre_process's centre 0.5*dx*9 = 0.8099999999999999 is below the
  // patch's beg = 0.91 - 0.1 = 0.81, where simulation's centre x_cb(3) + dx(4)/2 = 0.81 is not.
  case_config c = line_case(4, 0.9);
  c.patches     = {box(0.91, 0.2, 5.)};
  const grid g  = generate_grid(c);
  ASSERT_EQ(g.axis[0].x_cc(4), 0.81);
  const initial_condition ic = apply_patches(c, g);
  EXPECT_EQ(pressure_at(ic, 4), -1.e-6);
}

TEST(mfc_patches, alter_patch_decides_which_cells_a_later_patch_may_overwrite) {
  case_config c = line_case(3, 1.);
  // Patch 1 covers cells 0 and 1; patch 2 covers everything but may alter only unlaid cells.
  c.patches            = {box(0.25, 0.5, 1.), box(0.5, 1., 2.)};
  initial_condition ic = apply_patches(c, generate_grid(c));
  EXPECT_EQ(pressure_at(ic, 0), 1.);
  EXPECT_EQ(pressure_at(ic, 3), 2.);
  c.patches[1].alter_patch[1] = true;
  ic                          = apply_patches(c, generate_grid(c));
  EXPECT_EQ(pressure_at(ic, 0), 2.);
  c.patches[1].alter_patch[0] = false;
  ic                          = apply_patches(c, generate_grid(c));
  EXPECT_EQ(pressure_at(ic, 0), 2.);
  EXPECT_EQ(pressure_at(ic, 3), -1.e-6);
}

TEST(mfc_patches, a_smoothed_sphere_blends_into_its_smooth_patch) {
  // MFC's 3D_performance_test in small: a cuboid over the domain, then a sphere of radius 0.5 at
  // the corner, smoothed into patch 1 with coefficient 0.5.
  case_config c;
  c.num_dims   = 3;
  c.num_fluids = 2;
  for (auto& axis : c.axis) {
    axis.cells_minus_one = 3;
    axis.beg             = 0.;
    axis.end             = 1.;
  }
  patch_config cube;
  cube.geometry = 9;
  for (int d = 0; d < 3; ++d) {
    cube.centroid[d] = 0.5;
    cube.length[d]   = 1.;
  }
  cube.pres           = 1.e5;
  cube.alpha_rho[0]   = 1000.;
  cube.alpha_rho[1]   = 0.1;
  cube.alpha[0]       = 0.9;
  cube.alpha[1]       = 0.1;
  patch_config sphere = cube;
  sphere.geometry     = 8;
  sphere.centroid[0] = sphere.centroid[1] = sphere.centroid[2] = 0.;
  sphere.radius                                                = 0.5;
  sphere.smoothen                                              = true;
  sphere.smooth_patch_id                                       = 1;
  sphere.smooth_coeff                                          = 0.5;
  sphere.alter_patch[1]                                        = true;
  sphere.pres                                                  = 1.e3;
  c.patches                                                    = {cube, sphere};
  const initial_condition ic                                   = apply_patches(c, generate_grid(c));
  const int p_index = 2 + 3;  // two partial densities, three velocities
  // Every cell belongs to patch 1, so every cell is blended with eta from its distance r:
  // eta = tanh(0.5/min(dx, dy, dz)*(r - 0.5))*(-0.5) + 0.5 with min(dx, dy, dz) = 0.25.
  for (const int at : {0, 1, 3}) {
    const double x   = 0.125 + 0.25 * at;
    const double r   = std::sqrt(x * x + 0.125 * 0.125 + 0.125 * 0.125);
    const double eta = std::tanh(0.5 / 0.25 * (r - 0.5)) * (-0.5) + 0.5;
    EXPECT_DOUBLE_EQ(ic.prim(p_index, at, 0, 0), eta * 1.e3 + (1. - eta) * 1.e5) << at;
    EXPECT_EQ(ic.patch_id[static_cast<std::size_t>(at)], 1) << "eta < 1: still patch 1's";
  }
}

// The two-fluid line case of `pres` everywhere: water (MFC's stiffened gas, gamma 4.4, pi 6e8)
// left of 0.5 and air right of it.
case_config water_and_air(double pres) {
  case_config c      = line_case(49, 1.);
  c.num_fluids       = 2;
  c.fluids[0].gamma  = 1. / (4.4 - 1.);
  c.fluids[0].pi_inf = 4.4 * 6.e8 / (4.4 - 1.);
  c.fluids[1].gamma  = 1. / (1.4 - 1.);
  patch_config water = box(0.25, 0.5, pres);
  water.alpha_rho[0] = 1000.;
  water.alpha[0]     = 1.;
  water.alpha_rho[1] = 0.;
  water.alpha[1]     = 0.;
  patch_config air   = box(0.75, 0.5, pres);
  air.alpha_rho[0]   = 0.;
  air.alpha[0]       = 0.;
  air.alpha_rho[1]   = 1.2;
  air.alpha[1]       = 1.;
  c.patches          = {water, air};
  return c;
}

std::string problem_of(const case_config& c) {
  const grid g                        = generate_grid(c);
  const initial_condition_check check = check_initial_condition(c, g, apply_patches(c, g));
  return check.cell < 0 ? "none" : check.problem;
}

TEST(mfc_patches, the_initial_condition_is_checked_and_water_may_be_under_tension) {
  EXPECT_EQ(problem_of(water_and_air(1.e5)), "none");
  // Water at -1 MPa has a sound speed (p + pi > 0); air at -1 Pa has none.
  case_config c     = water_and_air(1.e5);
  c.patches[0].pres = -1.e6;
  EXPECT_EQ(problem_of(c), "none");
  c.patches[1].pres = -1.;
  EXPECT_EQ(problem_of(c),
            "the initial condition at cell (25, 0, 0), centre (0.51), laid by patch 2: the "
            "pressure -1 is at or below -pi_inf/(gamma + 1) = 0 of the mixture there, which has "
            "no sound speed");
  // Cells no patch lays keep MFC's fill, -1e-6 everywhere.
  c                      = water_and_air(1.e5);
  c.patches[1].length[0] = 0.2;
  EXPECT_EQ(problem_of(c),
            "the initial condition at cell (25, 0, 0), centre (0.51): no patch covers it");
  c                         = water_and_air(1.e5);
  c.patches[0].alpha_rho[0] = -1.;
  EXPECT_EQ(problem_of(c),
            "the initial condition at cell (0, 0, 0), centre (0.01), laid by patch 1: the mixture "
            "density -1 is not positive");
  // Volume fractions of 0 everywhere leave the mixture no gamma.
  c                     = water_and_air(1.e5);
  c.patches[0].alpha[0] = 0.;
  EXPECT_EQ(problem_of(c),
            "the initial condition at cell (0, 0, 0), centre (0.01), laid by patch 1: the volume "
            "fractions give the mixture a gamma (MFC's 1/(gamma - 1)) of 0, not positive");
}

TEST(mfc_patches, the_state_is_checked_in_the_runs_precision) {
  case_config c              = water_and_air(1.e5);
  const grid g               = generate_grid(c);
  const initial_condition ic = apply_patches(c, g);
  EXPECT_EQ(check_conservative_state(c, g, ic, conservative_of<double>(c, ic.prim), "fp64").cell,
            -1);
  c.patches[1].alpha_rho[1]    = 1e-50;
  const initial_condition thin = apply_patches(c, g);
  EXPECT_EQ(
      check_conservative_state(c, g, thin, conservative_of<double>(c, thin.prim), "fp64").cell, -1);
  EXPECT_EQ(
      check_conservative_state(c, g, thin, conservative_of<float>(c, thin.prim), "fp32").problem,
      "the initial condition at cell (25, 0, 0), centre (0.51), laid by patch 2: its mixture "
      "density rounds to 0 in fp32");
  c                           = water_and_air(1.e39);
  const initial_condition hot = apply_patches(c, g);
  EXPECT_EQ(check_conservative_state(c, g, hot, conservative_of<double>(c, hot.prim), "fp64").cell,
            -1);
  EXPECT_EQ(
      check_conservative_state(c, g, hot, conservative_of<float>(c, hot.prim), "fp32").problem,
      "the initial condition at cell (0, 0, 0), centre (0.01), laid by patch 1: its "
      "conservative state (energy, momenta) is not finite in fp32: a value too large for "
      "the precision");
}

TEST(mfc_patches, single_precision_holds_a_pressure_beside_water_to_half_an_ulp_of_pi_inf) {
  // float(7.76e8) lies in [2^29, 2^30): its unit in the last place is 64, over gamma = 1/3.4.
  EXPECT_NEAR(single_precision_pressure_step(water_and_air(1.e5)), 32. * 3.4, 1e-9);
  EXPECT_EQ(single_precision_pressure_step(line_case(49, 1.)), 0.);
}

// A 2D case of one fluid on [0, 1] x [0, 2] (dy = 2 dx) under a rectangle of constant values:
// alpha_rho, u, v, p, alpha at 0 to 4.
case_config plane_case(int m, int n) {
  case_config c;
  c.num_dims                = 2;
  c.num_fluids              = 1;
  c.fluids[0].gamma         = 2.5;
  c.axis[0].cells_minus_one = m;
  c.axis[0].end             = 1.;
  c.axis[1].cells_minus_one = n;
  c.axis[1].end             = 2.;
  patch_config background;
  background.geometry     = 3;
  background.centroid[0]  = 0.5;
  background.centroid[1]  = 1.;
  background.length[0]    = 1.;
  background.length[1]    = 2.;
  background.pres         = 1.;
  background.alpha_rho[0] = 1.;
  background.alpha[0]     = 1.;
  c.patches               = {background};
  return c;
}

analytic_value analytic(analytic_value::variable of, int index, const std::string& text,
                        const patch_config& p) {
  expression_names names;
  names.num_dims    = 2;
  names.centroid[0] = p.centroid[0];
  names.centroid[1] = p.centroid[1];
  names.radius      = p.radius;
  return {of, index, compile_expression(text, names)};
}

TEST(mfc_patches, an_analytic_value_is_its_expression_at_each_cells_pre_process_centre) {
  case_config c = plane_case(7, 5);
  patch_config p;  // the right half, x > 0.5, altering patch 1
  p.geometry       = 3;
  p.centroid[0]    = 0.75;
  p.centroid[1]    = 1.;
  p.length[0]      = 0.5;
  p.length[1]      = 2.;
  p.alter_patch[1] = true;
  p.pres           = 2.;
  p.alpha[0]       = 1.;
  p.analytic = {analytic(analytic_value::variable::alpha_rho, 0, "1 + 0.2*sin(5*x)*cos(3*y)", p),
                analytic(analytic_value::variable::vel, 1, "y - yc", p)};
  c.patches.push_back(p);
  const grid g               = generate_grid(c);
  const initial_condition ic = apply_patches(c, g);
  int laid                   = 0;
  for (int j = 0; j <= 5; ++j) {
    for (int i = 0; i <= 7; ++i) {
      const double x = g.axis[0].x_cc_pre(i), y = g.axis[1].x_cc_pre(j);
      if (x < 0.5) {
        EXPECT_EQ(ic.prim(0, i, j, 0), 1.);
        EXPECT_EQ(ic.prim(2, i, j, 0), 0.);
        continue;
      }
      ++laid;
      EXPECT_EQ(ic.prim(0, i, j, 0),
                1. + static_cast<double>(0.2F) * std::sin(5. * x) * std::cos(3. * y))
          << i << " " << j;
      EXPECT_EQ(ic.prim(1, i, j, 0), 0.);  // u: the patch's constant
      EXPECT_EQ(ic.prim(2, i, j, 0), y - 1.) << i << " " << j;
      EXPECT_EQ(ic.prim(3, i, j, 0), 2.);
      EXPECT_EQ(ic.patch_id[static_cast<std::size_t>(i + 8 * j)], 2);
    }
  }
  EXPECT_EQ(laid, 4 * 6);
}

// Whether MFC's s_icpp_circle puts the centre (x, y) inside.
bool inside_circle(double x, double y, double xc, double yc, double r) {
  return (x - xc) * (x - xc) + (y - yc) * (y - yc) <= r * r;
}

TEST(mfc_patches, a_circle_covers_the_cells_mfcs_inside_test_gives_its_edge_included) {
  // Centres at 0.0625 + 0.125 i in x and 0.125 + 0.25 j in y: the cell (4, 0) at (0.5625, 0.125)
  // is exactly 0.5 from the circle's centre (0.0625, 0.125).
  case_config c = plane_case(7, 7);
  patch_config circle;
  circle.geometry       = 2;
  circle.centroid[0]    = 0.0625;
  circle.centroid[1]    = 0.125;
  circle.radius         = 0.5;
  circle.alter_patch[1] = true;
  circle.pres           = 3.;
  circle.alpha_rho[0]   = 1.;
  circle.alpha[0]       = 1.;
  c.patches.push_back(circle);
  const grid g = generate_grid(c);
  ASSERT_EQ(g.axis[0].x_cc_pre(4), 0.5625);
  ASSERT_TRUE(inside_circle(0.5625, 0.125, 0.0625, 0.125, 0.5));
  const initial_condition ic = apply_patches(c, g);
  int inside                 = 0;
  for (int j = 0; j <= 7; ++j) {
    for (int i = 0; i <= 7; ++i) {
      const bool in =
          inside_circle(g.axis[0].x_cc_pre(i), g.axis[1].x_cc_pre(j), 0.0625, 0.125, 0.5);
      inside += in ? 1 : 0;
      EXPECT_EQ(ic.prim(3, i, j, 0), in ? 3. : 1.) << i << " " << j;
      EXPECT_EQ(ic.patch_id[static_cast<std::size_t>(i + 8 * j)], in ? 2 : 1) << i << " " << j;
    }
  }
  EXPECT_EQ(inside, 5 + 4 + 1);  // rows j = 0, 1, 2
}

TEST(mfc_patches,
     a_smoothed_circle_blends_over_min_dx_dy_and_its_expression_overwrites_every_cell) {
  // dx = 0.25, dy = 0.125: the blend is on dy's scale. MFC's @:analytical() overwrites the
  // pressure in every cell the circle assigns, the blended cells of patch 1 included.
  case_config c = plane_case(3, 15);
  patch_config circle;
  circle.geometry        = 2;
  circle.centroid[0]     = 0.5;
  circle.centroid[1]     = 1.;
  circle.radius          = 0.25;
  circle.smoothen        = true;
  circle.smooth_patch_id = 1;
  circle.smooth_coeff    = 0.5;
  circle.alter_patch[1]  = true;
  circle.alpha_rho[0]    = 3.;
  circle.alpha[0]        = 1.;
  circle.analytic = {analytic(analytic_value::variable::pres, 0, "1.d0 + (x - xc)**2", circle)};
  c.patches.push_back(circle);
  const grid g               = generate_grid(c);
  const initial_condition ic = apply_patches(c, g);
  for (int j = 0; j <= 15; ++j) {
    for (int i = 0; i <= 3; ++i) {
      const double x = g.axis[0].x_cc_pre(i), y = g.axis[1].x_cc_pre(j);
      const double r   = std::sqrt((x - 0.5) * (x - 0.5) + (y - 1.) * (y - 1.));
      const double eta = std::tanh(0.5 / 0.125 * (r - 0.25)) * (-0.5) + 0.5;
      EXPECT_EQ(ic.prim(0, i, j, 0), eta * 3. + (1. - eta) * 1.) << i << " " << j;
      EXPECT_EQ(ic.prim(3, i, j, 0), 1. + (x - 0.5) * (x - 0.5)) << i << " " << j;
    }
  }
}

}  // namespace
