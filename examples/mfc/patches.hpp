// loopnest_mfc::apply_patches: MFC's initial condition, patch after patch, on the primitive
// variables of the interior cells (src/pre_process/m_icpp_patches.fpp @023a5b47:
// s_icpp_line_segment, s_icpp_circle, s_icpp_rectangle, s_icpp_sphere, s_icpp_cuboid, and
// @:analytical(); m_assign_variables.fpp,
// s_assign_patch_species_primitive_variables; m_initial_condition.fpp). Whether a cell belongs to
// a patch is decided in double precision on pre_process's cell centres, with MFC's comparisons, so
// that a centre on a patch edge up to rounding falls on the side MFC's arithmetic gives.
#ifndef LOOPNEST_MFC_PATCHES_HPP
#define LOOPNEST_MFC_PATCHES_HPP

#include "case.hpp"
#include "eos.hpp"
#include "grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace loopnest_mfc {

// sys_size variables on the interior cells, MFC's q_vf(v)%sf(i, j, k): i fastest, then j, k, v.
struct host_fields {
  int nx = 0, ny = 0, nz = 0, nvar = 0;
  std::vector<double> values;

  host_fields() = default;
  host_fields(int nx_, int ny_, int nz_, int nvar_, double fill)
      : nx(nx_),
        ny(ny_),
        nz(nz_),
        nvar(nvar_),
        values(static_cast<std::size_t>(nx_) * ny_ * nz_ * nvar_, fill) {}

  std::size_t offset(int v, int i, int j, int k) const {
    return static_cast<std::size_t>(i) +
           static_cast<std::size_t>(nx) *
               (static_cast<std::size_t>(j) +
                static_cast<std::size_t>(ny) *
                    (static_cast<std::size_t>(k) + static_cast<std::size_t>(nz) * v));
  }
  double& operator()(int v, int i, int j, int k) { return values[offset(v, i, j, k)]; }
  double operator()(int v, int i, int j, int k) const { return values[offset(v, i, j, k)]; }
};

inline equation_index equations_of(const case_config& c) {
  equation_index ix;
  ix.num_fluids = c.num_fluids;
  ix.num_dims   = c.num_dims;
  return ix;
}

// The case's fluids, with its equations in MFC's order (equation_index) or at the kernels' fixed
// places (slot_index).
template <class T, class Index = equation_index>
stiffened_gas<T, Index> eos_of(const case_config& c) {
  stiffened_gas<T, Index> eos;
  eos.index.num_fluids = c.num_fluids;
  eos.index.num_dims   = c.num_dims;
  eos.mpp_lim          = c.mpp_lim;
  for (int k = 0; k < c.num_fluids; ++k) {
    eos.gammas[k]  = static_cast<T>(c.fluids[k].gamma);
    eos.pi_infs[k] = static_cast<T>(c.fluids[k].pi_inf);
    eos.qvs[k]     = static_cast<T>(c.fluids[k].qv);
  }
  return eos;
}

// The initial condition before any patch: MFC fills every primitive variable with -1e-6
// (s_initialize_initial_condition_module) and marks every cell as laid by no patch (0).
struct initial_condition {
  host_fields prim;
  std::vector<int> patch_id;           // MFC's patch_id_fp, one per interior cell, i fastest
  std::vector<long long> laid;         // laid[k]: cells patch k + 1 assigned (in part, smoothed)
  std::vector<unsigned char> covered;  // whether any patch assigned the cell, i fastest

  int& id(const host_fields& f, int i, int j, int k) {
    return patch_id[static_cast<std::size_t>(i) +
                    static_cast<std::size_t>(f.nx) *
                        (static_cast<std::size_t>(j) + static_cast<std::size_t>(f.ny) * k)];
  }
};

namespace detail {

// The equation of an analytic value, in MFC's order.
inline int equation_of(const equation_index& ix, const analytic_value& a) {
  switch (a.of) {
    case analytic_value::variable::alpha_rho:
      return ix.cont(a.index);
    case analytic_value::variable::vel:
      return ix.mom(a.index);
    case analytic_value::variable::pres:
      return ix.energy();
    case analytic_value::variable::alpha:
      break;
  }
  return ix.adv(a.index);
}

// s_assign_patch_species_primitive_variables for model_eqns = 2 without bubbles, chemistry,
// elasticity or IGR: each variable becomes eta*(the patch's value) + (1 - eta)*(its old value).
// MFC's intermediate mixture evaluations there only fill unused patch fields and are left out.
// Then MFC's @:analytical() (m_icpp_patches.fpp, right after the call in every geometry): each
// value given as an expression is overwritten, whatever eta, with the expression at the cell's
// centre.
inline void assign_patch(const case_config& c, const grid& g, const patch_config& patch,
                         int patch_id, int i, int j, int k, double eta, initial_condition& ic) {
  const equation_index ix = equations_of(c);
  host_fields& q          = ic.prim;
  double orig[max_equations];
  for (int v = 0; v < ix.sys_size(); ++v) {
    orig[v] = q(v, i, j, k);
  }
  q(ix.energy(), i, j, k) = eta * patch.pres + (1. - eta) * orig[ix.energy()];
  for (int f = 0; f < c.num_fluids; ++f) {
    q(ix.adv(f), i, j, k) = eta * patch.alpha[f] + (1. - eta) * orig[ix.adv(f)];
  }
  for (int f = 0; f < c.num_fluids; ++f) {
    q(ix.cont(f), i, j, k) = eta * patch.alpha_rho[f] + (1. - eta) * orig[ix.cont(f)];
  }
  for (int d = 0; d < c.num_dims; ++d) {
    q(ix.mom(d), i, j, k) = eta * patch.vel[d] + (1. - eta) * orig[ix.mom(d)];
  }
  if (!patch.analytic.empty()) {
    const int at[3]  = {i, j, k};
    double centre[3] = {0., 0., 0.};
    for (int d = 0; d < c.num_dims; ++d) {
      centre[d] = g.axis[d].x_cc_pre(at[d]);
    }
    for (const analytic_value& a : patch.analytic) {
      q(equation_of(ix, a), i, j, k) = a.program(centre[0], centre[1], centre[2]);
    }
  }
  if (1. - eta < 1.e-16) {
    ic.id(q, i, j, k) = patch_id;
  }
  ++ic.laid[static_cast<std::size_t>(patch_id - 1)];
  ic.covered[static_cast<std::size_t>(&ic.id(q, i, j, k) - ic.patch_id.data())] = 1;
}

// An axis-aligned box: the line segment (1D), rectangle (2D) and cuboid (3D) patches, never
// smoothed. beg <= x_cc <= end per direction, beg and end as MFC computes them.
inline void apply_box(const case_config& c, const grid& g, const patch_config& patch, int patch_id,
                      initial_condition& ic) {
  double beg[3], end[3];
  for (int d = 0; d < c.num_dims; ++d) {
    beg[d] = patch.centroid[d] - 0.5 * patch.length[d];
    end[d] = patch.centroid[d] + 0.5 * patch.length[d];
  }
  const double eta = 1.;
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        const int at[3] = {i, j, k};
        bool inside     = true;
        for (int d = 0; d < c.num_dims; ++d) {
          const double x = g.axis[d].x_cc_pre(at[d]);
          inside         = inside && beg[d] <= x && end[d] >= x;
        }
        if (inside && patch.alter_patch[ic.id(ic.prim, i, j, k)]) {
          assign_patch(c, g, patch, patch_id, i, j, k, eta, ic);
        }
      }
    }
  }
}

// s_icpp_circle (2D) and s_icpp_sphere (3D): inside when (x - xc)^2 + (y - yc)^2 [+ (z - zc)^2]
// <= r^2; with smoothen, eta blends the patch into the cells of smooth_patch_id over a tanh
// profile across the surface, on the scale of pre_process's smallest spacing, min(dx, dy) for the
// circle and min(dx, dy, dz) for the sphere.
inline void apply_round(const case_config& c, const grid& g, const patch_config& patch,
                        int patch_id, initial_condition& ic) {
  const int dims      = c.num_dims;
  const double radius = patch.radius;
  double d_min        = g.axis[0].d_pre;
  for (int d = 1; d < dims; ++d) {
    d_min = std::min(d_min, g.axis[d].d_pre);
  }
  double eta = 1.;
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        const int at[3]  = {i, j, k};
        double distance2 = 0.;  // ((x - xc)^2 + (y - yc)^2) + (z - zc)^2, MFC's order
        for (int d = 0; d < dims; ++d) {
          const double offset = g.axis[d].x_cc_pre(at[d]) - patch.centroid[d];
          distance2           = distance2 + offset * offset;
        }
        if (patch.smoothen) {
          eta = std::tanh(patch.smooth_coeff / d_min * (std::sqrt(distance2) - radius)) * (-0.5) +
                0.5;
        }
        const int laid_by = ic.id(ic.prim, i, j, k);
        if ((distance2 <= radius * radius && patch.alter_patch[laid_by]) ||
            laid_by == patch.smooth_patch_id) {
          assign_patch(c, g, patch, patch_id, i, j, k, eta, ic);
        }
      }
    }
  }
}

}  // namespace detail

// Lays the case's patches in order (m_icpp_patches.fpp, s_apply_icpp_patches) on the primitive
// variables of the interior cells.
inline initial_condition apply_patches(const case_config& c, const grid& g) {
  initial_condition ic;
  ic.prim = host_fields(c.m() + 1, c.n() + 1, c.p() + 1, c.sys_size(), -1.e-6);
  ic.patch_id.assign(static_cast<std::size_t>(c.m() + 1) * (c.n() + 1) * (c.p() + 1), 0);
  ic.covered.assign(ic.patch_id.size(), 0);
  ic.laid.assign(c.patches.size(), 0);
  for (std::size_t k = 0; k < c.patches.size(); ++k) {
    const patch_config& patch = c.patches[k];
    const int id              = static_cast<int>(k) + 1;
    if (patch.geometry == 2 || patch.geometry == 8) {
      detail::apply_round(c, g, patch, id, ic);
    } else {
      detail::apply_box(c, g, patch, id, ic);
    }
  }
  return ic;
}

// What is wrong with the initial condition at its first bad cell (i fastest): `cell` is that
// cell's number in this block (-1: none) and `problem` says why, naming the cell, its centre and
// the patch that laid it.
struct initial_condition_check {
  long long cell = -1;
  std::string problem;
};

namespace detail {

// "the initial condition at cell (i, j, k), centre (x, y, z)[, laid by patch N]: WHY".
inline initial_condition_check cell_problem(const case_config& c, const grid& g,
                                            const initial_condition& ic, int i, int j, int k,
                                            const int (&offset)[3], const std::string& why) {
  const int at_cell[3] = {i, j, k};
  std::string where    = "the initial condition at cell (";
  for (int d = 0; d < 3; ++d) {
    where += std::to_string(at_cell[d] + offset[d]) + (d < 2 ? ", " : ")");
  }
  where += ", centre (";
  for (int d = 0; d < c.num_dims; ++d) {
    char x[32];
    std::snprintf(x, sizeof(x), "%.6g", g.axis[d].x_cc_pre(at_cell[d]));
    where += x;
    where += d + 1 < c.num_dims ? ", " : ")";
  }
  const long long cell =
      i + static_cast<long long>(ic.prim.nx) * (j + static_cast<long long>(ic.prim.ny) * k);
  if (const int laid_by = ic.patch_id[static_cast<std::size_t>(cell)]; laid_by > 0) {
    where += ", laid by patch " + std::to_string(laid_by);
  }
  return {cell, where + ": " + why};
}

}  // namespace detail

// Checks the initial condition before anything runs: every cell laid by some patch, with a
// finite state, a positive mixture density, a positive mixture gamma and a sound speed,
// (gamma + 1)*p + pi_inf > 0 in MFC's transformed parameters; a pressure below zero (a liquid
// under tension) is allowed. `offset` is the block's first cell in the whole grid, for the
// message.
inline initial_condition_check check_initial_condition(const case_config& c, const grid& g,
                                                       const initial_condition& ic,
                                                       const int (&offset)[3] = {0, 0, 0}) {
  const equation_index ix = equations_of(c);
  const host_fields& q    = ic.prim;
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        const auto at = static_cast<std::size_t>(i + static_cast<long long>(q.nx) *
                                                         (j + static_cast<long long>(q.ny) * k));
        double rho = 0, gamma = 0, pi_inf = 0;
        bool finite = true;
        for (int v = 0; v < ix.sys_size(); ++v) {
          finite = finite && std::isfinite(q(v, i, j, k));
        }
        for (int f = 0; f < c.num_fluids; ++f) {
          rho += q(ix.cont(f), i, j, k);
          gamma += q(ix.adv(f), i, j, k) * c.fluids[f].gamma;
          pi_inf += q(ix.adv(f), i, j, k) * c.fluids[f].pi_inf;
        }
        const double pres = q(ix.energy(), i, j, k);
        char why[200]     = "";
        if (ic.covered[at] == 0) {
          std::snprintf(why, sizeof(why), "no patch covers it");
        } else if (!finite) {
          std::snprintf(why, sizeof(why), "a value is not finite");
        } else if (!(rho > 0)) {
          std::snprintf(why, sizeof(why), "the mixture density %.6g is not positive", rho);
        } else if (!(gamma > 0)) {
          std::snprintf(why, sizeof(why),
                        "the volume fractions give the mixture a gamma (MFC's 1/(gamma - 1)) of "
                        "%.6g, not positive",
                        gamma);
        } else if (!((gamma + 1) * pres + pi_inf > 0)) {
          std::snprintf(
              why, sizeof(why),
              "the pressure %.6g is at or below -pi_inf/(gamma + 1) = %.6g of the mixture "
              "there, which has no sound speed",
              pres, 0.0 - pi_inf / (gamma + 1));
        } else {
          continue;
        }
        return detail::cell_problem(c, g, ic, i, j, k, offset, why);
      }
    }
  }
  return {};
}

// The same for the conservative state the run starts from, computed in the run's precision
// (`precision`, for the message): every value finite (a pressure or velocity too large for the
// precision makes the energy infinite) and the mixture density still positive once rounded.
inline initial_condition_check check_conservative_state(const case_config& c, const grid& g,
                                                        const initial_condition& ic,
                                                        const host_fields& cons,
                                                        const char* precision,
                                                        const int (&offset)[3] = {0, 0, 0}) {
  const equation_index ix = equations_of(c);
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        double rho  = 0;
        bool finite = true;
        for (int v = 0; v < ix.sys_size(); ++v) {
          finite = finite && std::isfinite(cons(v, i, j, k));
        }
        for (int f = 0; f < c.num_fluids; ++f) {
          rho += cons(ix.cont(f), i, j, k);
        }
        if (!finite) {
          return detail::cell_problem(
              c, g, ic, i, j, k, offset,
              std::string("its conservative state (energy, momenta) is not finite in ") +
                  precision + ": a value too large for the precision");
        }
        if (!(rho > 0)) {
          return detail::cell_problem(
              c, g, ic, i, j, k, offset,
              std::string("its mixture density rounds to 0 in ") + precision);
        }
      }
    }
  }
  return {};
}

// How finely single precision holds a pressure in this case: the energy of a stiffened gas carries
// its pi_inf (MFC's gamma*pi/(gamma - 1), 7.8e8 for water), so in float it is stored to half a
// unit in the last place of pi_inf, and p = (E - ... - pi_inf)/gamma to that over gamma. The
// largest over the fluids; 0 when no fluid has a pi_inf.
inline double single_precision_pressure_step(const case_config& c) {
  double step = 0.0;
  for (int f = 0; f < c.num_fluids; ++f) {
    const auto pi_inf = static_cast<float>(c.fluids[f].pi_inf);
    if (pi_inf > 0.0F) {
      const float ulp = std::nextafter(pi_inf, std::numeric_limits<float>::infinity()) - pi_inf;
      step            = std::max(step, 0.5 * ulp / c.fluids[f].gamma);
    }
  }
  return step;
}

namespace detail {

// convert(in, out) on every cell's values, in the scalar type T: the one cell loop of both
// conversions below.
template <class T, class Convert>
host_fields convert_cells(const host_fields& from, const Convert& convert) {
  host_fields to(from.nx, from.ny, from.nz, from.nvar, 0.0);
  T in[max_equations], out[max_equations];
  for (int k = 0; k < from.nz; ++k) {
    for (int j = 0; j < from.ny; ++j) {
      for (int i = 0; i < from.nx; ++i) {
        for (int v = 0; v < from.nvar; ++v) {
          in[v] = static_cast<T>(from(v, i, j, k));
        }
        convert(in, out);
        for (int v = 0; v < from.nvar; ++v) {
          to(v, i, j, k) = static_cast<double>(out[v]);
        }
      }
    }
  }
  return to;
}

}  // namespace detail

// The conservative variables of the interior cells (pre_process's
// s_convert_primitive_to_conservative_variables), in the scalar type T.
template <class T>
host_fields conservative_of(const case_config& c, const host_fields& prim) {
  const stiffened_gas<T> eos = eos_of<T>(c);
  return detail::convert_cells<T>(prim,
                                  [&](const T* p, T* q) { primitive_to_conservative(eos, p, q); });
}

// The primitive variables of the interior cells as simulation computes them from the
// conservative ones (s_convert_conservative_to_primitive_variables over idwint).
template <class T>
host_fields primitive_of(const case_config& c, const host_fields& cons) {
  const stiffened_gas<T> eos = eos_of<T>(c);
  return detail::convert_cells<T>(cons, [&](const T* q, T* p) {
    conservative_to_primitive(eos, q, p, conversion_site::simulation);
  });
}

}  // namespace loopnest_mfc

#endif
