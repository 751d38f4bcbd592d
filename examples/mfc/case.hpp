// loopnest_mfc::read_case: an MFC case file (the JSON dictionary a case.py prints) read, typed and
// checked into a case_config before anything runs. The checks follow MFC's own (m_checker.fpp,
// m_check_patches.fpp) where the port needs them; each refusal is one line naming the key.
#ifndef LOOPNEST_MFC_CASE_HPP
#define LOOPNEST_MFC_CASE_HPP

#include "expression.hpp"
#include "json.hpp"
#include "parameters.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace loopnest_mfc {

inline constexpr int max_fluids  = 2;   // what the port implements
inline constexpr int max_patches = 10;  // MFC's num_patches_max
inline constexpr int buff_size   = 4;   // ghost layers: weno_polyn + 2 for inviscid WENO5
// MFC's num_stcls_min: an axis (and each rank's block along it) holds at least
// num_stcls_min*weno_order cells.
inline constexpr int num_stcls_min = 5;
// A periodic (-1) or reflective (-2) boundary copies buff_size layers from the interior, which
// MFC's least cells (num_stcls_min, at weno_order = 1) keep thick enough.
static_assert(num_stcls_min >= buff_size,
              "loopnest-mfc: buff_size exceeds num_stcls_min, the fewest cells an axis may have; "
              "refuse periodic and reflective boundaries on axes thinner than buff_size when the "
              "case is read.");
// MFC's dflt_real (m_constants.fpp): the value of a patch parameter that was not given.
inline constexpr double dflt_real = -1.0e6;

struct axis_config {
  int cells_minus_one = 0;  // m, n or p
  double beg = 0.0, end = 0.0;
  bool stretch = false;
  double a = 0.0, x_a = 0.0, x_b = 0.0;
  int loops  = 1;
  int bc_beg = -3, bc_end = -3;
  // MFC's GRCBC inputs (bc_x%grcbc_in, ...): the state a -7 face relaxes toward (grcbc_in), the
  // pressure a -8 face relaxes toward (grcbc_out) and its normal velocity (grcbc_vel_out).
  bool grcbc_in = false, grcbc_out = false, grcbc_vel_out = false;
  double vel_in[3] = {0.0, 0.0, 0.0}, vel_out[3] = {0.0, 0.0, 0.0};
  double pres_in = 0.0, pres_out = 0.0;
  double alpha_rho_in[max_fluids] = {0.0, 0.0}, alpha_in[max_fluids] = {0.0, 0.0};
};

struct fluid_config {
  double gamma  = 0.0;  // MFC's fluid_pp%gamma: 1/(gamma - 1)
  double pi_inf = 0.0;  // MFC's fluid_pp%pi_inf: gamma*pi_inf/(gamma - 1)
  double qv     = 0.0;
};

// A patch's primitive value given as an analytic expression of the cell centre (MFC's analytic
// patches): which variable, which fluid or direction (from 0), and its compiled program.
struct analytic_value {
  enum class variable { alpha_rho, vel, pres, alpha } of = variable::pres;
  int index                                              = 0;
  expression_program program;
};

// MFC's 2D hard-coded initial conditions the port implements (Hardcoded2D's cases 207, 281 and
// 282, src/common/include/2dHardcodedIC.fpp: 281 and 282 at
// 65d262744df772460e5a8f0deeeec55da4f4adaf, 207 at 0304dfed61c1448e4a98095ae4e10a45876bdc2e, where
// 281 and 282 are unchanged): each value as MFC's Fortran writes it, x_cc(i) and y_cc(j) as x and
// y, compiled as an analytic value is so that each literal keeps its Fortran kind (1.4 and 0.5 are
// single-precision reals there, and a _wp literal is written with d0, a double).
struct hardcoded_value {
  analytic_value::variable of;
  int index;
  const char* fortran;
};

struct hardcoded_ic {
  int hcid;
  int patch;  // the only patch MFC's case sets values on (its if (patch_id == 2)), 0 for any
  int count;
  hardcoded_value values[4];
};

inline constexpr hardcoded_ic hardcoded_ics[] = {
    // The shear layers of MFC's examples/2D_kelvin_helmholtz: a transverse velocity of two
    // Gaussians, at y = 0.25 and y = 0.75, where sigma = 0.05_wp/sqrt(2.0_wp) is written out.
    {207,
     0,
     1,
     {{analytic_value::variable::vel, 1,
       "0.1d0*sin(4.0d0*pi*x)*(exp(-(y - 0.75d0)**2/(2.0d0*(0.05d0/sqrt(2.0d0))**2)) + "
       "exp(-(y - 0.25d0)**2/(2.0d0*(0.05d0/sqrt(2.0d0))**2)))"}}},
    // The acoustic pulse of MFC's examples/2D_acoustic_pulse.
    {281,
     2,
     2,
     {{analytic_value::variable::pres, 0,
       "101325*(1 - 0.5*(1.4 - 1)*(0.4)**2*exp(0.5*(1 - sqrt(x**2 + y**2))))**(1.4/(1.4 - 1))"},
      {analytic_value::variable::alpha_rho, 0,
       "1*(1 - 0.5*(1.4 - 1)*(0.4)**2*exp(0.5*(1 - sqrt(x**2 + y**2))))**(1/(1.4 - 1))"}}},
    // The zero-circulation vortex of MFC's examples/2D_zero_circ_vortex.
    {282,
     2,
     4,
     {{analytic_value::variable::pres, 0,
       "101325*(1 - 0.5*(1.4 - 1)*(0.1/0.3)**2*exp(0.5*(1 - sqrt(x**2 + y**2))))**(1.4/(1.4 - 1))"},
      {analytic_value::variable::alpha_rho, 0,
       "1*(1 - 0.5*(1.4 - 1)*(0.1/0.3)**2*exp(0.5*(1 - sqrt(x**2 + y**2))))**(1/(1.4 - 1))"},
      {analytic_value::variable::vel, 0,
       "112.99092883944267*(1 - (0.1/0.3))*y*exp(0.5*(1 - sqrt(x**2 + y**2)))"},
      {analytic_value::variable::vel, 1,
       "112.99092883944267*((0.1/0.3))*x*exp(0.5*(1 - sqrt(x**2 + y**2)))"}}},
};

struct patch_config {
  int geometry        = 0;
  double centroid[3]  = {dflt_real, dflt_real, dflt_real};
  double length[3]    = {dflt_real, dflt_real, dflt_real};
  double radius       = dflt_real;
  bool smoothen       = false;
  int smooth_patch_id = 0;  // MFC's default: the patch itself
  double smooth_coeff = dflt_real;
  // alter_patch[k]: may overwrite cells laid by patch k (0: cells no patch has laid yet).
  bool alter_patch[max_patches + 1] = {true};
  double vel[3]                     = {0.0, 0.0, 0.0};
  double pres                       = dflt_real;
  double alpha_rho[max_fluids]      = {dflt_real, dflt_real};
  double alpha[max_fluids]          = {dflt_real, dflt_real};
  // The values given as expressions; MFC's toolchain writes 0 for their keys above.
  std::vector<analytic_value> analytic;
};

struct case_config {
  std::string source;  // the case file's name, for messages
  int num_dims = 1;
  axis_config axis[3];
  double dt        = 0.0;
  int t_step_start = 0, t_step_stop = 0, t_step_save = 1;
  // MFC's steps of a CFL target (cfl_dt: cfl_adap_dt or cfl_const_dt): dt from cfl_target every
  // step or once, steps from t_save*n_start until t_stop, output every t_save numbered by t/t_save.
  bool cfl_adap_dt = false, cfl_const_dt = false;
  double cfl_target = 0.0, t_stop = 0.0, t_save = 0.0;
  int n_start        = 0;
  bool run_time_info = false;  // write CASE_DIR/run_time.inf, stop past an ICFL of 1
  int num_fluids     = 1;
  fluid_config fluids[max_fluids];
  int weno_order     = 5;
  int riemann_solver = 2;  // MFC's: 1 HLL, 2 HLLC
  bool mpp_lim = false, mixture_err = false, mapped_weno = false;
  double weno_eps    = 1.0e-16;
  int precision      = 2;
  bool prim_vars_wrt = false;
  std::vector<patch_config> patches;
  // MFC's keys the case gives that the port accepts and does not read (output, post_process,
  // features left off), for the run to report.
  std::vector<std::string> without_effect;

  int m() const { return axis[0].cells_minus_one; }
  int n() const { return axis[1].cells_minus_one; }
  int p() const { return axis[2].cells_minus_one; }
  // MFC's sys_size for model_eqns = 2: partial densities, momenta, energy, volume fractions.
  int sys_size() const { return 2 * num_fluids + num_dims + 1; }
  // MFC's cfl_dt, which m_start_up.fpp sets from the two switches.
  bool cfl_dt() const { return cfl_adap_dt || cfl_const_dt; }
};

namespace detail {

class case_builder {
 public:
  case_builder(const parameter_store& store, std::string source)
      : m_store(store), m_source(std::move(source)) {}

  case_config build() {
    case_config c;
    c.source = m_source;
    read_domain(c);
    read_time(c);
    read_algorithm(c);
    read_grcbc(c);
    read_fluids(c);
    read_patches(c);
    for (const auto& [key, p] : m_store.without_effect()) {
      c.without_effect.push_back(key);
    }
    std::sort(c.without_effect.begin(), c.without_effect.end());
    return c;
  }

 private:
  const parameter_store& m_store;
  std::string m_source;

  [[noreturn]] void missing(const std::string& key, const std::string& why = "") const {
    throw case_error(m_source + ": required parameter '" + key + "' is missing" +
                     (why.empty() ? "" : " (" + why + ")"));
  }
  [[noreturn]] void refuse(const parameter& p, const std::string& why) const {
    throw case_error(p.origin + ": '" + p.key + "' = " + p.spelling + " " + why);
  }

  const parameter& need(const std::string& key, const std::string& why = "") const {
    const parameter* p = m_store.find(key);
    if (p == nullptr) {
      missing(key, why);
    }
    return *p;
  }
  int integer(const std::string& key) const { return static_cast<int>(need(key).integer); }
  double real(const std::string& key, const std::string& why = "") const {
    const parameter& p = need(key, why);
    if (!std::isfinite(p.real)) {
      refuse(p, "is not finite");
    }
    return p.real;
  }
  int integer_or(const std::string& key, int fallback) const {
    const parameter* p = m_store.find(key);
    return p == nullptr ? fallback : static_cast<int>(p->integer);
  }
  double real_or(const std::string& key, double fallback) const {
    const parameter* p = m_store.find(key);
    return p == nullptr ? fallback : p->real;
  }
  bool logical_or(const std::string& key, bool fallback) const {
    const parameter* p = m_store.find(key);
    return p == nullptr ? fallback : p->logical;
  }
  // A key that must not be given, e.g. y_domain%beg in 1D.
  void forbid(const std::string& key, const std::string& why) const {
    if (const parameter* p = m_store.find(key)) {
      throw case_error(p->origin + ": '" + key + "' is given but " + why);
    }
  }

  void read_domain(case_config& c) {
    const char* names[3]  = {"x", "y", "z"};
    const char* extent[3] = {"m", "n", "p"};
    for (int d = 0; d < 3; ++d) {
      const int cells    = integer(extent[d]);
      const parameter& e = need(extent[d]);
      if (cells < (d == 0 ? 1 : 0)) {
        refuse(e, d == 0 ? "must be at least 1" : "must be at least 0");
      }
      // The fields index cells and ghost layers with int.
      if (cells > std::numeric_limits<int>::max() - 2 * buff_size - 1) {
        refuse(e, "is more cells than the port indexes (at most " +
                      std::to_string(std::numeric_limits<int>::max() - 2 * buff_size - 1) + ")");
      }
      c.axis[d].cells_minus_one = cells;
    }
    if (c.p() > 0 && c.n() == 0) {
      refuse(need("p"), "needs n > 0 (a 3D case is also 2D)");
    }
    c.num_dims = c.p() > 0 ? 3 : c.n() > 0 ? 2 : 1;
    for (int d = 0; d < 3; ++d) {
      const std::string s             = names[d];
      axis_config& a                  = c.axis[d];
      const std::string stretch_key[] = {"stretch_" + s,     "a_" + s,          s + "_a",
                                         s + "_b",           "loops_" + s,      "bc_" + s + "%beg",
                                         "bc_" + s + "%end", s + "_domain%beg", s + "_domain%end"};
      if (d >= c.num_dims) {
        for (const std::string& key : stretch_key) {
          forbid(key, std::string(extent[d]) + " = 0");
        }
        continue;
      }
      // MFC's s_check_inputs_weno: every dimension needs num_stcls_min*weno_order cells.
      const int least = num_stcls_min * integer("weno_order");
      if (a.cells_minus_one + 1 < least) {
        refuse(need(extent[d]),
               "gives fewer than " + std::to_string(least) +
                   " cells, the least MFC allows with weno_order = " + need("weno_order").spelling);
      }
      a.beg = real(s + "_domain%beg");
      a.end = real(s + "_domain%end");
      if (!(a.end > a.beg)) {
        refuse(need(s + "_domain%end"),
               "must be greater than " + s + "_domain%beg = " + need(s + "_domain%beg").spelling);
      }
      a.stretch = logical_or("stretch_" + s, false);
      if (a.stretch) {
        a.a     = real("a_" + s, "stretch_" + s + " = T");
        a.x_a   = real(s + "_a", "stretch_" + s + " = T");
        a.x_b   = real(s + "_b", "stretch_" + s + " = T");
        a.loops = integer_or("loops_" + s, 1);
        if (a.loops < 1) {
          refuse(need("loops_" + s), "must be at least 1");
        }
        if (!(a.a > 0)) {
          refuse(need("a_" + s), "must be positive");
        }
        if (!(a.x_a < a.x_b)) {
          refuse(need(s + "_b"), "must be greater than " + s + "_a");
        }
      } else {
        for (int k = 1; k <= 4; ++k) {
          forbid(stretch_key[k], "stretch_" + s + " is not T");
        }
      }
      a.bc_beg = integer("bc_" + s + "%beg");
      a.bc_end = integer("bc_" + s + "%end");
      // MFC's s_check_inputs_bc: periodicity is a property of both ends.
      if ((a.bc_beg == -1) != (a.bc_end == -1)) {
        refuse(need("bc_" + s + (a.bc_beg == -1 ? "%beg" : "%end")),
               "is periodic but the other end of " + s + " is not");
      }
    }
  }

  void read_time(case_config& c) {
    c.run_time_info = logical_or("run_time_info", false);
    c.cfl_adap_dt   = logical_or("cfl_adap_dt", false);
    c.cfl_const_dt  = logical_or("cfl_const_dt", false);
    // MFC recomputes dt every step when both are on: cfl_const_dt would be silently ignored.
    if (c.cfl_adap_dt && c.cfl_const_dt) {
      refuse(need("cfl_const_dt"),
             "is given with cfl_adap_dt = T: set one of them (dt before every step, or once at "
             "the start)");
    }
    // MFC's time loop (p_main.fpp) reads one set of keys or the other: the other is noted.
    const char* const fixed_keys[] = {"dt", "t_step_start", "t_step_stop", "t_step_save"};
    const char* const cfl_keys[]   = {"cfl_target", "t_stop", "t_save", "n_start"};
    for (const char* key : c.cfl_dt() ? fixed_keys : cfl_keys) {
      if (m_store.has(key)) {
        c.without_effect.emplace_back(key);
      }
    }
    if (c.cfl_dt()) {
      read_cfl_time(c);
      return;
    }
    c.dt = real("dt");
    if (!(c.dt > 0)) {
      refuse(need("dt"), "must be positive");
    }
    c.t_step_start = integer("t_step_start");
    c.t_step_stop  = integer("t_step_stop");
    c.t_step_save  = integer("t_step_save");
    if (c.t_step_start < 0) {
      refuse(need("t_step_start"), "must be at least 0");
    }
    if (c.t_step_stop < c.t_step_start) {
      refuse(need("t_step_stop"), "must be at least t_step_start");
    }
    // MFC writes the step with I6.6 in its file names.
    if (c.t_step_stop > 999999) {
      refuse(need("t_step_stop"), "does not fit the six digits of MFC's output file names");
    }
    if (c.t_step_save < 1) {
      refuse(need("t_step_save"), "must be at least 1");
    }
  }

  // MFC's s_check_inputs_time_stepping (src/common/m_checker_common.fpp) under cfl_dt: MFC's
  // defaults (dflt_real, dflt_int) fail it, so each key is required.
  void read_cfl_time(case_config& c) {
    const std::string why = c.cfl_adap_dt ? "cfl_adap_dt = T" : "cfl_const_dt = T";
    c.cfl_target          = real("cfl_target", why);
    // MFC allows 0, a dt of 0 that never reaches t_stop.
    if (!(c.cfl_target > 0 && c.cfl_target <= 1)) {
      refuse(need("cfl_target"), "must be above 0 and at most 1");
    }
    c.t_stop = real("t_stop", why);
    if (!(c.t_stop > 0)) {
      refuse(need("t_stop"), "must be positive");
    }
    c.t_save = real("t_save", why);
    if (!(c.t_save > 0)) {
      refuse(need("t_save"), "must be positive");
    }
    if (c.t_save > c.t_stop) {
      refuse(need("t_save"), "must be at most t_stop = " + need("t_stop").spelling);
    }
    c.n_start = static_cast<int>(need("n_start", why).integer);
    if (c.n_start < 0) {
      refuse(need("n_start"), "must be at least 0");
    }
    // MFC numbers an output int(t/t_save) and writes the number with I6.6 in its file names.
    if (c.n_start > 999999) {
      refuse(need("n_start"), "does not fit the six digits of MFC's output file names");
    }
    if (c.t_stop / c.t_save >= 1.0e6) {
      refuse(need("t_save"), "numbers the output at t_stop = " + need("t_stop").spelling +
                                 " past the six digits of MFC's output file names");
    }
  }

  void read_algorithm(case_config& c) {
    for (const char* key : {"model_eqns", "time_stepper", "weno_order", "riemann_solver",
                            "wave_speeds", "avg_state"}) {
      need(key);  // values were checked against the list when read
    }
    c.num_fluids     = integer("num_fluids");
    c.weno_order     = integer("weno_order");
    c.riemann_solver = integer("riemann_solver");
    // cbc.hpp replaces HLLC's u* next to a characteristic face; MFC's s_cbc replaces HLL's volume
    // fractions at the boundaries otherwise, which the port does not implement.
    for (int d = 0; d < c.num_dims && c.riemann_solver == 1; ++d) {
      const std::string bc_key = std::string("bc_") + "xyz"[d];
      for (const auto& [end, bc] :
           {std::make_pair("%beg", c.axis[d].bc_beg), std::make_pair("%end", c.axis[d].bc_end)}) {
        if (bc <= -5 && bc >= -12) {
          refuse(need("riemann_solver"),
                 "is not implemented by this port with characteristic boundaries (" + bc_key + end +
                     " = " + std::to_string(bc) + "): it implements them with HLLC (2)");
        }
      }
    }
    c.mpp_lim     = logical_or("mpp_lim", false);
    c.mixture_err = logical_or("mixture_err", false);
    c.mapped_weno = logical_or("mapped_weno", false);
    c.weno_eps    = real_or("weno_eps", 1.0e-16);
    if (!(c.weno_eps > 0) || !std::isfinite(c.weno_eps)) {
      refuse(need("weno_eps"), "must be positive");
    }
    // WENO divides by (weno_eps + beta)^2, which overflows single precision past about 1e19.
    if (c.weno_eps >= 1.0e18) {
      refuse(need("weno_eps"), "must be below 1e18 (WENO squares weno_eps + beta)");
    }
    c.precision     = integer_or("precision", 2);
    c.prim_vars_wrt = logical_or("prim_vars_wrt", false);
  }

  // MFC's GRCBC inputs (m_cbc.fpp's s_initialize_cbc_module; its toolchain's check_grcbc): a
  // switch needs its boundary type at one end of the axis and the values it relaxes toward; a value
  // no switch reads does not affect the run.
  void read_grcbc(case_config& c) {
    const char* names = "xyz";
    for (int d = 0; d < 3; ++d) {
      const std::string b = std::string("bc_") + names[d] + "%";
      std::vector<std::string> read;
      const auto value = [&](const std::string& key, const std::string& why) {
        read.push_back(b + key);
        return real(b + key, why);
      };
      if (d >= c.num_dims) {
        for (const auto& [key, p] : m_store.all()) {
          if (key.compare(0, b.size(), b) == 0) {
            forbid(key, std::string(d == 1 ? "n" : "p") + " = 0");
          }
        }
        continue;
      }
      axis_config& a  = c.axis[d];
      a.grcbc_in      = logical_or(b + "grcbc_in", false);
      a.grcbc_out     = logical_or(b + "grcbc_out", false);
      a.grcbc_vel_out = a.grcbc_out && logical_or(b + "grcbc_vel_out", false);
      // A switch on needs its face (-7 non-reflecting inflow, -8 outflow); grcbc_vel_out acts
      // within grcbc_out.
      const auto needs = [&](const char* key, int bc, bool acts) {
        if (logical_or(b + key, false) && a.bc_beg != bc && a.bc_end != bc) {
          std::string why = "needs " + b;
          why += "beg or " + b + "end = " + std::to_string(bc) + ", the face it relaxes";
          refuse(need(b + key), why);
        }
        if (acts) {
          read.push_back(b + key);
        }
      };
      needs("grcbc_in", -7, true);
      needs("grcbc_out", -8, true);
      needs("grcbc_vel_out", -8, a.grcbc_out);
      if (a.grcbc_in) {
        const std::string why = b + "grcbc_in = T";
        a.pres_in             = value("pres_in", why);
        for (int e = 0; e < c.num_dims; ++e) {
          a.vel_in[e] = value("vel_in(" + std::to_string(e + 1) + ")", why);
        }
        for (int f = 0; f < c.num_fluids; ++f) {
          a.alpha_rho_in[f] = value("alpha_rho_in(" + std::to_string(f + 1) + ")", why);
          a.alpha_in[f]     = value("alpha_in(" + std::to_string(f + 1) + ")", why);
        }
      }
      if (a.grcbc_out) {
        a.pres_out = value("pres_out", b + "grcbc_out = T");
      }
      // MFC's -8 face reads the normal component only.
      if (a.grcbc_vel_out) {
        a.vel_out[d] = value("vel_out(" + std::to_string(d + 1) + ")", b + "grcbc_vel_out = T");
      }
      for (const auto& [key, p] : m_store.all()) {
        if (key.compare(0, b.size(), b) != 0 || key == b + "beg" || key == b + "end") {
          continue;
        }
        const std::string& shape = p.spec->shape;
        const bool per_fluid     = shape.find("alpha") != std::string::npos;
        if (!p.indices.empty() &&
            (p.indices[0] < 1 || p.indices[0] > (per_fluid ? c.num_fluids : 3))) {
          throw case_error(p.origin + ": '" + key + "' is outside 1 to " +
                           (per_fluid ? "num_fluids = " + std::to_string(c.num_fluids) : "3"));
        }
        if (std::find(read.begin(), read.end(), key) == read.end()) {
          c.without_effect.push_back(key);
        }
      }
    }
  }

  void read_fluids(case_config& c) {
    for (int i = 1; i <= c.num_fluids; ++i) {
      const std::string f = "fluid_pp(" + std::to_string(i) + ")%";
      fluid_config& fl    = c.fluids[i - 1];
      fl.gamma            = real(f + "gamma");
      // MFC's s_initialize_eos_module (m_eos.fpp) zeroes an ideal gas's pi_inf whatever is given,
      // and its validator refuses a nonzero one: it need not be written.
      if (integer_or(f + "eos", 1) == 2) {
        fl.pi_inf = real_or(f + "pi_inf", 0.0);
        if (fl.pi_inf != 0) {
          refuse(need(f + "pi_inf"), "must be 0 or left out for an ideal gas (" + f +
                                         "eos = " + need(f + "eos").spelling + ")");
        }
      } else {
        fl.pi_inf = real(f + "pi_inf");
      }
      fl.qv = real_or(f + "qv", 0.0);
      // MFC's s_check_inputs_fluids: gamma here is 1/(gamma - 1), positive for gamma > 1.
      if (!(fl.gamma > 0)) {
        refuse(need(f + "gamma"), "must be positive (MFC's fluid_pp%gamma is 1/(gamma - 1))");
      }
      if (fl.pi_inf < 0) {
        refuse(need(f + "pi_inf"), "must not be negative");
      }
    }
    refuse_indices("fluid_pp(", 0, c.num_fluids, "num_fluids");
  }

  // Refuses keys whose first index is outside [1, count], naming `limit`.
  void refuse_indices(const std::string& prefix, std::size_t index_slot, int count,
                      const std::string& limit) const {
    for (const auto& [key, p] : m_store.all()) {
      if (key.compare(0, prefix.size(), prefix) != 0 || p.indices.size() <= index_slot) {
        continue;
      }
      const int index = p.indices[index_slot];
      if (index < 1 || index > count) {
        throw case_error(std::string(p.origin)
                             .append(": '")
                             .append(key)
                             .append("' is outside 1 to ")
                             .append(limit)
                             .append(" = ")
                             .append(std::to_string(count)));
      }
    }
  }

  void read_patches(case_config& c) {
    const int count     = integer("num_patches");
    const parameter& np = need("num_patches");
    if (count < 1 || count > max_patches) {
      refuse(np, "must be from 1 to " + std::to_string(max_patches));
    }
    refuse_indices("patch_icpp(", 0, count, "num_patches");
    for (const auto& [key, p] : m_store.all()) {
      if (key.compare(0, 11, "patch_icpp(") != 0 || p.indices.size() != 2) {
        continue;
      }
      const int patch          = p.indices[0];
      const int inner          = p.indices[1];
      const std::string& shape = p.spec->shape;
      if (shape == "patch_icpp(#)%alter_patch(#)" && inner >= patch) {
        throw case_error(p.origin + ": '" + key + "': patch " + std::to_string(patch) +
                         " can only alter patches laid before it (0 to " +
                         std::to_string(patch - 1) + ")");
      }
      if ((shape == "patch_icpp(#)%alpha_rho(#)" || shape == "patch_icpp(#)%alpha(#)") &&
          (inner < 1 || inner > c.num_fluids)) {
        throw case_error(p.origin + ": '" + key +
                         "' is outside 1 to num_fluids = " + std::to_string(c.num_fluids));
      }
      if (shape == "patch_icpp(#)%vel(#)") {
        if (inner < 1 || inner > 3) {
          throw case_error(p.origin + ": '" + key + "' is outside 1 to 3");
        }
        // MFC's s_check_active_patch_primitive_variables: vel(2) in 1D, vel(3) in 2D only as 0.
        if (inner > c.num_dims && (p.real != 0 || !p.expression.empty())) {
          throw case_error(p.origin + ": '" + key + "' = " + p.spelling +
                           " is not 0 but the case has " + std::to_string(c.num_dims) +
                           " dimension(s)");
        }
      }
    }
    for (int id = 1; id <= count; ++id) {
      c.patches.push_back(read_patch(c, id));
    }
  }

  patch_config read_patch(const case_config& c, int id) const {
    const std::string s = "patch_icpp(" + std::to_string(id) + ")%";
    patch_config pc;
    pc.smooth_patch_id  = id;
    const parameter& g  = need(s + "geometry");
    pc.geometry         = static_cast<int>(g.integer);
    const int dims_of[] = {0, 1, 2, 2, 0, 0, 0, 0, 3, 3};
    if (dims_of[pc.geometry] != c.num_dims) {
      refuse(g, "is a " + std::to_string(dims_of[pc.geometry]) + "D geometry but the case is " +
                    std::to_string(c.num_dims) + "D");
    }
    const char* axes    = "xyz";
    const bool is_round = pc.geometry == 2 || pc.geometry == 8;
    const std::string round_name =
        "geometry " + std::to_string(pc.geometry) + (pc.geometry == 2 ? " (circle)" : " (sphere)");
    for (int d = 0; d < 3; ++d) {
      const std::string centroid = s + axes[d] + "_centroid";
      const std::string length   = s + "length_" + axes[d];
      if (d < c.num_dims) {
        pc.centroid[d] = real(centroid, "geometry " + std::to_string(pc.geometry));
        if (!is_round) {
          pc.length[d] = real(length, "geometry " + std::to_string(pc.geometry));
          if (!(pc.length[d] > 0)) {
            refuse(need(length), "must be positive");
          }
        } else {
          forbid(length, round_name + " has no lengths");
        }
      } else {
        forbid(centroid, "the case has " + std::to_string(c.num_dims) + " dimension(s)");
        forbid(length, "the case has " + std::to_string(c.num_dims) + " dimension(s)");
      }
    }
    if (is_round) {
      pc.radius = real(s + "radius", "geometry " + std::to_string(pc.geometry));
      if (!(pc.radius > 0)) {
        refuse(need(s + "radius"), "must be positive");
      }
      pc.smoothen = logical_or(s + "smoothen", false);
      // MFC's s_check_supported_patch_smoothing.
      if (pc.smoothen) {
        const parameter& sid = need(s + "smooth_patch_id", "smoothen = T");
        pc.smooth_patch_id   = static_cast<int>(sid.integer);
        if (pc.smooth_patch_id < 1 || pc.smooth_patch_id >= id) {
          refuse(sid,
                 "must name a patch laid before this one (1 to " + std::to_string(id - 1) + ")");
        }
        pc.smooth_coeff = real(s + "smooth_coeff", "smoothen = T");
        if (!(pc.smooth_coeff > 0)) {
          refuse(need(s + "smooth_coeff"), "must be positive");
        }
      } else {
        forbid(s + "smooth_patch_id", "smoothen is not T");
        forbid(s + "smooth_coeff", "smoothen is not T");
      }
    } else {
      // MFC's s_check_unsupported_patch_smoothing: line, rectangle and cuboid are never smoothed.
      const std::string why = "geometry " + std::to_string(pc.geometry) + " is not smoothed";
      forbid(s + "radius", "geometry " + std::to_string(pc.geometry) + " has no radius");
      if (const parameter* sm = m_store.find(s + "smoothen"); sm != nullptr && sm->logical) {
        refuse(*sm, "but " + why);
      }
      forbid(s + "smooth_patch_id", why);
      forbid(s + "smooth_coeff", why);
    }
    for (int k = 0; k < id && k <= max_patches; ++k) {
      pc.alter_patch[k] = logical_or(s + "alter_patch(" + std::to_string(k) + ")", k == 0);
    }
    // The names an analytic value may use: the cell centre and this patch's own parameters.
    expression_names names;
    names.num_dims = c.num_dims;
    for (int d = 0; d < c.num_dims; ++d) {
      names.centroid[d] = pc.centroid[d];
      if (!is_round) {
        names.length[d] = pc.length[d];
      }
    }
    if (is_round) {
      names.radius = pc.radius;
    }
    // MFC's Hardcoded2D runs in every 2D geometry after the analytic values; 281 and 282 set
    // their values on patch 2 only, 207 on any patch.
    const hardcoded_ic* hardcoded = nullptr;
    if (const parameter* h = m_store.find(s + "hcid")) {
      if (c.num_dims != 2) {
        refuse(*h, "is one of MFC's 2D hard-coded initial conditions but the case is " +
                       std::to_string(c.num_dims) + "D");
      }
      for (const hardcoded_ic& ic : hardcoded_ics) {
        hardcoded = ic.hcid == h->integer ? &ic : hardcoded;
      }
      if (hardcoded != nullptr && hardcoded->patch != 0 && hardcoded->patch != id) {
        refuse(*h, "sets values on patch " + std::to_string(hardcoded->patch) +
                       " only in MFC (2dHardcodedIC.fpp), not on patch " + std::to_string(id));
      }
    }
    using variable = analytic_value::variable;
    // A value the hard-coded condition sets may be left out (MFC's dflt_real, overwritten).
    const auto value = [&](const std::string& key, variable of, int index) {
      bool overwritten = false;
      for (int v = 0; hardcoded != nullptr && v < hardcoded->count; ++v) {
        overwritten =
            overwritten || (hardcoded->values[v].of == of && hardcoded->values[v].index == index);
      }
      return overwritten && !m_store.has(key) ? dflt_real : patch_value(key, of, index, names, pc);
    };
    for (int d = 0; d < c.num_dims; ++d) {
      pc.vel[d] = value(s + "vel(" + std::to_string(d + 1) + ")", variable::vel, d);
    }
    pc.pres = value(s + "pres", variable::pres, 0);
    for (int f = 0; f < c.num_fluids; ++f) {
      pc.alpha_rho[f] =
          value(s + "alpha_rho(" + std::to_string(f + 1) + ")", variable::alpha_rho, f);
      pc.alpha[f] = value(s + "alpha(" + std::to_string(f + 1) + ")", variable::alpha, f);
    }
    for (int v = 0; hardcoded != nullptr && v < hardcoded->count; ++v) {
      const hardcoded_value& h = hardcoded->values[v];
      pc.analytic.push_back({h.of, h.index, compile_expression(h.fortran, names)});
    }
    return pc;
  }

  // A patch's primitive value: a number (also a string Python's float() reads, which MFC's
  // toolchain writes into the namelist as a number), or an expression compiled into
  // pc.analytic, whose key MFC's toolchain sets to 0.
  double patch_value(const std::string& key, analytic_value::variable of, int index,
                     const expression_names& names, patch_config& pc) const {
    const parameter& p = need(key);
    double number      = p.real;
    if (!p.expression.empty() && !plain_number(p.expression, number)) {
      try {
        pc.analytic.push_back({of, index, compile_expression(p.expression, names)});
      } catch (const expression_error& e) {
        refuse(p, std::string("is refused: ") + e.what());
      }
      return 0.0;
    }
    if (!std::isfinite(number)) {
      refuse(p, "is not finite");
    }
    return number;
  }
};

}  // namespace detail

// The key of an --override KEY=VALUE ("" when there is no '=').
inline std::string override_key(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  return eq == std::string::npos ? std::string() : assignment.substr(0, eq);
}

// Loads the members of a case object into a store: every key is checked against the list, except
// the keys that `overrides` replace or take away (KEY=), so that an override can set a value the
// port implements in place of one it does not, or remove a key the port refuses.
inline void load_case_object(parameter_store& store, const json_value& root,
                             const std::string& source,
                             const std::vector<std::string>& overrides = {}) {
  if (root.type != json_value::kind::object) {
    throw case_error(source + ":" + std::to_string(root.where.line) + ":" +
                     std::to_string(root.where.column) +
                     ": the case must be a JSON object, found " + kind_name(root.type));
  }
  std::string refused;
  for (std::size_t k = 0; k < root.members.size(); ++k) {
    const text_position at = root.key_positions[k];
    bool overridden        = false;
    for (const std::string& o : overrides) {
      overridden = overridden || override_key(o) == root.members[k].first;
    }
    if (overridden) {
      continue;
    }
    try {
      store.set(root.members[k].first, root.members[k].second,
                source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column));
    } catch (const case_error& e) {
      refused += (refused.empty() ? "" : "\n") + std::string(e.what());
    }
  }
  // KEY= takes a key out of the case: one the case does not have is most likely misspelt.
  for (const std::string& o : overrides) {
    const std::string key = override_key(o);
    if (o.size() != key.size() + 1 || key.empty()) {
      continue;
    }
    bool present = false;
    for (const auto& member : root.members) {
      present = present || member.first == key;
    }
    if (!present) {
      refused += (refused.empty() ? "" : "\n") + std::string("--override ") + shown(o) + ": " +
                 source + " has no '" + shown(key) + "' to take away";
    }
  }
  if (!refused.empty()) {
    throw case_error(refused);
  }
}

inline case_config build_case(const parameter_store& store, const std::string& source) {
  return detail::case_builder(store, source).build();
}

// Why the case cannot run in single (fp32) or double precision ("" when it can): a time step that
// rounds to 0 in float, or a weno_eps below where the port's WENO weights underflow. In double
// they multiply two squared smoothness indicators (weno_eps^4 must stay a normal double), in
// float they divide by one (1/weno_eps^2 must stay finite); MFC's own formula d/beta^2 holds in
// double down to about 1e-154.
inline std::string precision_problem(const case_config& c, bool single) {
  char text[200] = "";
  if (single && !c.cfl_dt() && !(static_cast<float>(c.dt) > 0.0F)) {
    std::snprintf(text, sizeof(text), "'dt' = %g is 0 in fp32: the state would never advance",
                  c.dt);
  } else if (const double least = single ? 1e-18 : 1e-76; c.weno_order > 1 && c.weno_eps < least) {
    std::snprintf(text, sizeof(text),
                  "'weno_eps' = %g is below %g, where this port's WENO weights underflow in %s",
                  c.weno_eps, least, single ? "fp32" : "fp64");
  }
  return text;
}

// The largest case file read: MFC's case files are a few kilobytes, and a larger one (or a
// device such as /dev/zero) is refused before it is read.
inline constexpr long long max_case_file_bytes = 16LL << 20;

// Reads, checks and overrides a case file; throws json_error (syntax) or case_error.
inline case_config read_case(const std::string& path, const std::vector<std::string>& overrides) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode)) {
      throw case_error(path + ": the case file is not a regular file");
    }
    if (static_cast<long long>(info.st_size) > max_case_file_bytes) {
      throw case_error(path + ": the case file has " + std::to_string(info.st_size) +
                       " bytes, more than the " + std::to_string(max_case_file_bytes) +
                       " a case file may have");
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw case_error(path + ": cannot open the case file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw case_error(path + ": cannot read the case file");
  }
  std::string json = text.str();
  // A UTF-8 byte-order mark, which some editors write, is not part of the JSON text.
  if (json.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    json.erase(0, 3);
  }
  // Every key and override refused is reported at once, one line each, so that a case from
  // another MFC version is fixed in one pass; the checks that need the whole case follow.
  parameter_store store;
  std::string refused;
  try {
    load_case_object(store, parse_json(json, path), path, overrides);
  } catch (const case_error& e) {
    refused = e.what();
  }
  for (const std::string& o : overrides) {
    try {
      apply_override(store, o);
    } catch (const case_error& e) {
      refused += (refused.empty() ? "" : "\n") + std::string(e.what());
    }
  }
  if (!refused.empty()) {
    throw case_error(refused);
  }
  return build_case(store, path);
}

}  // namespace loopnest_mfc

#endif
