// loopnest_mfc::parameter_store: the parameters of an MFC case, typed, each with where it was
// written, and the list of the parameters this port implements. A key that is not on the list, a
// value of the wrong type or a value the port does not implement is refused with one line that
// names the key: nothing is ignored.
#ifndef LOOPNEST_MFC_PARAMETERS_HPP
#define LOOPNEST_MFC_PARAMETERS_HPP

#include "json.hpp"
#include "mfc_keys.hpp"

#include <cmath>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopnest_mfc {

// A case the port cannot run as written: one line naming the key, exit status 2.
struct case_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One parameter MFC's case files may set. `shape` writes each index as (#), so that
// "patch_icpp(#)%vel(#)" covers patch_icpp(2)%vel(1). `allowed` lists the values the port
// implements (integers or T/F, separated by '|'); empty means any value of the type.
struct parameter_spec {
  const char* shape;
  value_type type;
  const char* allowed;
  const char* meaning;
};

// MFC's parameters for model_eqns = 2 (src/*/m_global_parameters.fpp, s_assign_default_values_*
// and the namelists of m_start_up.fpp) that this port reads; see docs/mfc.md.
inline constexpr parameter_spec supported_parameters[] = {
    // Logistics and output.
    {"run_time_info", value_type::logical, "T|F",
     "write CASE_DIR/run_time.inf (ICFL each step); stop past an ICFL of 1"},
    {"parallel_io", value_type::logical, "T|F",
     "accepted; one process always writes MFC's serial text files D/"},
    {"format", value_type::integer, "1|2", "post_process's database format; accepted, unused"},
    {"precision", value_type::integer, "1|2", "output precision: 1 F30.3/F30.7, 2 F40.14"},
    {"prim_vars_wrt", value_type::logical, "T|F", "also write D/prim.* (always in 1D, as MFC)"},
    {"adv_alphan", value_type::logical, "T",
     "older MFC: every volume fraction advected (the five-equation model's form)"},
    // Computational domain.
    {"m", value_type::integer, "", "cells in x, minus one"},
    {"n", value_type::integer, "", "cells in y, minus one (0 in 1D)"},
    {"p", value_type::integer, "", "cells in z, minus one (0 in 1D and 2D)"},
    {"x_domain%beg", value_type::real, "", "domain start in x"},
    {"x_domain%end", value_type::real, "", "domain end in x"},
    {"y_domain%beg", value_type::real, "", "domain start in y"},
    {"y_domain%end", value_type::real, "", "domain end in y"},
    {"z_domain%beg", value_type::real, "", "domain start in z"},
    {"z_domain%end", value_type::real, "", "domain end in z"},
    {"stretch_x", value_type::logical, "T|F", "hyperbolic-tangent stretching in x"},
    {"stretch_y", value_type::logical, "T|F", "stretching in y"},
    {"stretch_z", value_type::logical, "T|F", "stretching in z"},
    {"a_x", value_type::real, "", "stretching rate in x"},
    {"a_y", value_type::real, "", "stretching rate in y"},
    {"a_z", value_type::real, "", "stretching rate in z"},
    {"x_a", value_type::real, "", "start of the stretched region in x"},
    {"x_b", value_type::real, "", "end of the stretched region in x"},
    {"y_a", value_type::real, "", "start of the stretched region in y"},
    {"y_b", value_type::real, "", "end of the stretched region in y"},
    {"z_a", value_type::real, "", "start of the stretched region in z"},
    {"z_b", value_type::real, "", "end of the stretched region in z"},
    {"loops_x", value_type::integer, "", "stretching passes in x (default 1)"},
    {"loops_y", value_type::integer, "", "stretching passes in y (default 1)"},
    {"loops_z", value_type::integer, "", "stretching passes in z (default 1)"},
    {"cyl_coord", value_type::logical, "F", "Cartesian coordinates only"},
    {"dt", value_type::real, "", "time step"},
    {"t_step_start", value_type::integer, "", "first time step"},
    {"t_step_stop", value_type::integer, "", "last time step"},
    {"t_step_save", value_type::integer, "", "time steps between outputs"},
    {"cfl_adap_dt", value_type::logical, "T|F", "dt from cfl_target before every step"},
    {"cfl_const_dt", value_type::logical, "T|F", "dt from cfl_target once, at the start"},
    {"cfl_target", value_type::real, "", "the CFL number dt is set to (cfl_adap/const_dt)"},
    {"t_stop", value_type::real, "", "end time (cfl_adap/const_dt; the last step ends on it)"},
    {"t_save", value_type::real, "", "time between outputs (cfl_adap/const_dt)"},
    {"n_start", value_type::integer, "", "first output's number, at time t_save*n_start"},
    // Simulation algorithm.
    {"model_eqns", value_type::integer, "2", "the five-equation model of Allaire et al."},
    {"num_fluids", value_type::integer, "1|2", "fluids"},
    {"num_patches", value_type::integer, "", "initial-condition patches (1 to 10)"},
    {"alt_soundspeed", value_type::logical, "F", "the mixture sound speed of the 5-equation model"},
    {"mpp_lim", value_type::logical, "T|F", "clip partial densities and volume fractions"},
    {"mixture_err", value_type::logical, "T|F", "floor a negative squared sound speed"},
    {"time_stepper", value_type::integer, "3", "third-order TVD Runge-Kutta"},
    {"recon_type", value_type::integer, "1", "WENO reconstruction"},
    {"weno_order", value_type::integer, "1|3|5", "WENO order (1: first-order upwind)"},
    {"weno_eps", value_type::real, "", "WENO's epsilon (default 1e-16)"},
    {"mapped_weno", value_type::logical, "T|F", "mapped WENO-JS weights"},
    {"wenoz", value_type::logical, "F", "WENO-Z weights"},
    {"teno", value_type::logical, "F", "TENO weights"},
    {"mp_weno", value_type::logical, "F", "monotonicity-preserving WENO"},
    {"null_weights", value_type::logical, "F", "null WENO weights at boundaries"},
    {"weno_Re_flux", value_type::logical, "F", "WENO of viscous fluxes"},
    {"weno_avg", value_type::logical, "F", "averaged WENO states"},
    {"riemann_solver", value_type::integer, "1|2", "1 HLL, 2 HLLC"},
    {"wave_speeds", value_type::integer, "1", "direct wave-speed estimates"},
    {"avg_state", value_type::integer, "2", "arithmetic mean state"},
    {"low_Mach", value_type::integer, "0", "no low-Mach correction"},
    {"bc_x%beg", value_type::integer, "-1|-2|-3|-5|-6|-7|-8|-9|-10|-11|-12",
     "boundary at x begin: -1 periodic, -2 reflective, -3 ghost-cell extrapolation; "
     "characteristic: -5 slip wall, -6 non-reflecting subsonic buffer, -7 non-reflecting "
     "subsonic inflow, -8 non-reflecting subsonic outflow, -9 force-free subsonic outflow, -10 "
     "constant-pressure subsonic outflow, -11 supersonic inflow, -12 supersonic outflow"},
    {"bc_x%end", value_type::integer, "-1|-2|-3|-5|-6|-7|-8|-9|-10|-11|-12", "boundary at x end"},
    {"bc_y%beg", value_type::integer, "-1|-2|-3|-5|-6|-7|-8|-9|-10|-11|-12", "boundary at y begin"},
    {"bc_y%end", value_type::integer, "-1|-2|-3|-5|-6|-7|-8|-9|-10|-11|-12", "boundary at y end"},
    {"bc_z%beg", value_type::integer, "-1|-2|-3|-5|-6|-7|-8|-9|-10|-11|-12", "boundary at z begin"},
    {"bc_z%end", value_type::integer, "-1|-2|-3|-5|-6|-7|-8|-9|-10|-11|-12", "boundary at z end"},
    // MFC's GRCBC inputs (m_cbc.fpp): the state a -7 face relaxes toward, and the pressure and
    // normal velocity a -8 face relaxes toward; y and z alike.
    {"bc_x%grcbc_in", value_type::logical, "T|F", "relax the -7 face of x toward bc_x%*_in"},
    {"bc_x%grcbc_out", value_type::logical, "T|F", "relax the -8 face of x toward bc_x%pres_out"},
    {"bc_x%grcbc_vel_out", value_type::logical, "T|F",
     "with grcbc_out, also toward bc_x%vel_out(1)"},
    {"bc_x%vel_in(#)", value_type::real, "", "GRCBC inflow velocity component (#)"},
    {"bc_x%vel_out(#)", value_type::real, "", "GRCBC outflow velocity component (#)"},
    {"bc_x%pres_in", value_type::real, "", "GRCBC inflow pressure"},
    {"bc_x%pres_out", value_type::real, "", "GRCBC outflow pressure"},
    {"bc_x%alpha_rho_in(#)", value_type::real, "", "GRCBC inflow partial density of fluid (#)"},
    {"bc_x%alpha_in(#)", value_type::real, "", "GRCBC inflow volume fraction of fluid (#)"},
    {"bc_y%grcbc_in", value_type::logical, "T|F", "relax the -7 face of y toward bc_y%*_in"},
    {"bc_y%grcbc_out", value_type::logical, "T|F", "relax the -8 face of y toward bc_y%pres_out"},
    {"bc_y%grcbc_vel_out", value_type::logical, "T|F",
     "with grcbc_out, also toward bc_y%vel_out(2)"},
    {"bc_y%vel_in(#)", value_type::real, "", "GRCBC inflow velocity component (#)"},
    {"bc_y%vel_out(#)", value_type::real, "", "GRCBC outflow velocity component (#)"},
    {"bc_y%pres_in", value_type::real, "", "GRCBC inflow pressure"},
    {"bc_y%pres_out", value_type::real, "", "GRCBC outflow pressure"},
    {"bc_y%alpha_rho_in(#)", value_type::real, "", "GRCBC inflow partial density of fluid (#)"},
    {"bc_y%alpha_in(#)", value_type::real, "", "GRCBC inflow volume fraction of fluid (#)"},
    {"bc_z%grcbc_in", value_type::logical, "T|F", "relax the -7 face of z toward bc_z%*_in"},
    {"bc_z%grcbc_out", value_type::logical, "T|F", "relax the -8 face of z toward bc_z%pres_out"},
    {"bc_z%grcbc_vel_out", value_type::logical, "T|F",
     "with grcbc_out, also toward bc_z%vel_out(3)"},
    {"bc_z%vel_in(#)", value_type::real, "", "GRCBC inflow velocity component (#)"},
    {"bc_z%vel_out(#)", value_type::real, "", "GRCBC outflow velocity component (#)"},
    {"bc_z%pres_in", value_type::real, "", "GRCBC inflow pressure"},
    {"bc_z%pres_out", value_type::real, "", "GRCBC outflow pressure"},
    {"bc_z%alpha_rho_in(#)", value_type::real, "", "GRCBC inflow partial density of fluid (#)"},
    {"bc_z%alpha_in(#)", value_type::real, "", "GRCBC inflow volume fraction of fluid (#)"},
    // Initial-condition patches.
    {"patch_icpp(#)%geometry", value_type::integer, "1|2|3|8|9",
     "1 line segment, 2 circle, 3 rectangle, 8 sphere, 9 cuboid"},
    {"patch_icpp(#)%x_centroid", value_type::real, "", "patch centre in x"},
    {"patch_icpp(#)%y_centroid", value_type::real, "", "patch centre in y"},
    {"patch_icpp(#)%z_centroid", value_type::real, "", "patch centre in z"},
    {"patch_icpp(#)%length_x", value_type::real, "", "patch length in x"},
    {"patch_icpp(#)%length_y", value_type::real, "", "patch length in y"},
    {"patch_icpp(#)%length_z", value_type::real, "", "patch length in z"},
    {"patch_icpp(#)%radius", value_type::real, "", "circle or sphere radius"},
    {"patch_icpp(#)%smoothen", value_type::logical, "T|F",
     "smooth the circle's or sphere's surface"},
    {"patch_icpp(#)%smooth_patch_id", value_type::integer, "", "patch blended with when smoothing"},
    {"patch_icpp(#)%smooth_coeff", value_type::real, "", "smoothing coefficient"},
    {"patch_icpp(#)%alter_patch(#)", value_type::logical, "T|F",
     "whether the patch may overwrite cells of patch (#) (0: no patch yet)"},
    {"patch_icpp(#)%vel(#)", value_type::expression, "", "velocity component"},
    {"patch_icpp(#)%pres", value_type::expression, "", "pressure"},
    {"patch_icpp(#)%alpha_rho(#)", value_type::expression, "", "partial density of fluid (#)"},
    {"patch_icpp(#)%alpha(#)", value_type::expression, "", "volume fraction of fluid (#)"},
    {"patch_icpp(#)%hcid", value_type::integer, "207|281|282",
     "MFC's hard-coded initial condition of a 2D case: 207 Kelvin-Helmholtz shear layers (any "
     "patch), 281 acoustic pulse and 282 zero-circulation vortex (patch 2)"},
    // Fluids, in MFC's transformed form: gamma is 1/(gamma - 1), pi_inf is gamma*pi/(gamma - 1).
    {"fluid_pp(#)%gamma", value_type::real, "", "1/(gamma - 1) of the stiffened gas"},
    {"fluid_pp(#)%pi_inf", value_type::real, "", "gamma*pi_inf/(gamma - 1) of the stiffened gas"},
    {"fluid_pp(#)%qv", value_type::real, "", "reference energy (default 0)"},
    {"fluid_pp(#)%eos", value_type::integer, "1|2", "stiffened gas, ideal gas (pi_inf 0)"},
};

// A key or value as a message shows it: whole up to 64 characters, else its start and its length,
// so that a megabyte string is not echoed back.
inline std::string shown(const std::string& text) {
  if (text.size() <= 64) {
    return text;
  }
  return text.substr(0, 48) + "... (" + std::to_string(text.size()) + " characters)";
}

// A key split into its shape and its indices: "patch_icpp(2)%vel(1)" is
// "patch_icpp(#)%vel(#)" with indices {2, 1}. An index is a decimal integer without sign.
struct key_shape {
  std::string shape;
  std::vector<int> indices;
};

inline key_shape shape_of(const std::string& key) {
  key_shape out;
  std::size_t k = 0;
  while (k < key.size()) {
    if (key[k] == '(') {
      std::size_t close = k + 1;
      while (close < key.size() && key[close] >= '0' && key[close] <= '9') {
        ++close;
      }
      if (close > k + 1 && close < key.size() && key[close] == ')' && close - k - 1 <= 6) {
        out.indices.push_back(std::stoi(key.substr(k + 1, close - k - 1)));
        out.shape += "(#)";
        k = close + 1;
        continue;
      }
    }
    out.shape.push_back(key[k]);
    ++k;
  }
  return out;
}

// The key as MFC's toolchain writes it: each index of `k` in decimal without leading zeros.
inline std::string canonical_key(const key_shape& k) {
  std::string out;
  std::size_t next = 0;
  for (std::size_t at = 0; at < k.shape.size(); ++at) {
    if (k.shape.compare(at, 3, "(#)") == 0 && next < k.indices.size()) {
      out += "(" + std::to_string(k.indices[next++]) + ")";
      at += 2;
    } else {
      out.push_back(k.shape[at]);
    }
  }
  return out;
}

inline const parameter_spec* find_spec(const std::string& shape) {
  for (const parameter_spec& spec : supported_parameters) {
    if (shape == spec.shape) {
      return &spec;
    }
  }
  return nullptr;
}

inline const mfc_key* find_mfc_key(const std::string& shape) {
  for (const mfc_key& key : mfc_case_keys) {
    if (shape == key.shape) {
      return &key;
    }
  }
  return nullptr;
}

// MFC's names for the values of `shape`, "name = value" separated by ", " ("" when it has none).
inline std::string enum_names_of(const std::string& shape) {
  std::string out;
  for (const enum_name& e : mfc_enum_names) {
    if (shape == e.shape) {
      out += (out.empty() ? "" : ", ") + std::string(e.name) + " = " + std::to_string(e.value);
    }
  }
  return out;
}

inline const enum_name* find_enum_name(const std::string& shape, const std::string& name) {
  for (const enum_name& e : mfc_enum_names) {
    if (shape == e.shape && name == e.name) {
      return &e;
    }
  }
  return nullptr;
}

// One parameter as given: its typed value and where it came from ("case.json:12:5" or
// "--override").
struct parameter {
  std::string key;
  const parameter_spec* spec = nullptr;  // the port implements it
  const mfc_key* known       = nullptr;  // else one of MFC's keys the port accepts without effect
  std::vector<int> indices;
  long long integer = 0;
  double real       = 0.0;
  bool logical      = false;
  std::string spelling;    // the value as written, for messages
  std::string expression;  // an expression value's text, whole
  std::string origin;
};

inline std::string value_list(const char* allowed) {
  std::string out;
  for (const char* c = allowed; *c != '\0'; ++c) {
    out += *c == '|' ? std::string(" or ") : std::string(1, *c);
  }
  return out;
}

inline bool allowed_value(const char* allowed, const std::string& value) {
  if (*allowed == '\0') {
    return true;
  }
  const std::string list = std::string("|") + allowed + "|";
  return list.find("|" + value + "|") != std::string::npos;
}

class parameter_store {
 public:
  // Adds (or, for an override, replaces) one parameter; refuses a key that is not MFC's, one the
  // port refuses, a value of the wrong type and a value the port does not implement. An MFC key
  // the port does not read is kept apart (without_effect()).
  void set(const std::string& key, const json_value& value, const std::string& origin,
           bool replace = false) {
    const key_shape shape      = shape_of(key);
    const std::string name     = shown(key);
    const parameter_spec* spec = nullptr;
    const mfc_key* known       = nullptr;
    look_up(key, shape, origin, spec, known);
    if (!replace && (m_values.count(key) != 0 || m_without_effect.count(key) != 0)) {
      throw case_error(origin + ": parameter '" + name + "' is given twice");
    }
    const value_type type = spec != nullptr ? spec->type : known->type;
    parameter p;
    p.key     = key;
    p.spec    = spec;
    p.known   = known;
    p.indices = shape.indices;
    p.origin  = origin;
    for (const int index : p.indices) {
      if (index < 0) {
        throw case_error(
            std::string(origin).append(": '").append(name).append("': index out of range"));
      }
    }
    const auto wrong_type = [&](const char* expected) {
      const std::string got = value.type == json_value::kind::string ? "'" + shown(value.text) + "'"
                              : value.type == json_value::kind::number
                                  ? shown(value.text)
                                  : std::string(kind_name(value.type));
      // "dt": "1e-3" is a number in quotes: say so rather than that it is not a number.
      if (value.type == json_value::kind::string && type != value_type::logical) {
        if (is_quoted_number(value.text, origin)) {
          return case_error(origin + ": '" + name + "' = " + got + " is a string, not " + expected +
                            ": write the number without quotes");
        }
      }
      return case_error(origin + ": '" + name + "' = " + got + " is not " + expected);
    };
    std::string canonical;
    switch (type) {
      case value_type::integer:
        // MFC's toolchain writes some enumerations by name ("riemann_solver": "hllc").
        if (value.type == json_value::kind::string && !enum_names_of(shape.shape).empty()) {
          if (const enum_name* e = find_enum_name(shape.shape, value.text)) {
            p.integer  = e->value;
            p.real     = e->value;
            canonical  = std::to_string(e->value);
            p.spelling = "'" + value.text + "' (" + canonical + ")";
            break;
          }
          if (!is_quoted_number(value.text, origin)) {
            throw case_error(origin + ": '" + name + "' = '" + shown(value.text) +
                             "' is not one of MFC's names for it (" + enum_names_of(shape.shape) +
                             ")");
          }
        }
        if (!value.is_integer_literal()) {
          throw wrong_type("an integer");
        }
        if (std::fabs(value.number) > 2147483647.0) {
          throw wrong_type("an integer of at most 2^31 - 1 in magnitude");
        }
        p.integer  = static_cast<long long>(value.number);
        p.real     = value.number;
        canonical  = std::to_string(p.integer);
        p.spelling = shown(value.text);
        break;
      case value_type::real:
        if (value.type != json_value::kind::number) {
          throw wrong_type("a number");
        }
        p.real     = value.number;
        p.spelling = shown(value.text);
        break;
      case value_type::expression:
        if (value.type == json_value::kind::string) {
          p.expression = value.text;
          p.spelling   = "'" + shown(value.text) + "'";
          break;
        }
        if (value.type != json_value::kind::number) {
          throw wrong_type("a number or an expression of x, y, z");
        }
        p.real     = value.number;
        p.spelling = shown(value.text);
        break;
      case value_type::logical:
        // MFC's case files write logicals as 'T' and 'F'; Python's True and False print as JSON
        // true and false.
        if (value.type == json_value::kind::boolean) {
          p.logical = value.boolean;
        } else if (value.type == json_value::kind::string &&
                   (value.text == "T" || value.text == "F")) {
          p.logical = value.text == "T";
        } else {
          throw wrong_type("a logical ('T' or 'F')");
        }
        canonical  = p.logical ? "T" : "F";
        p.spelling = canonical;
        break;
      case value_type::text:
        if (value.type != json_value::kind::string) {
          throw wrong_type("a string");
        }
        p.spelling = "'" + shown(value.text) + "'";
        break;
    }
    if (known != nullptr) {
      const char* off = type == value_type::logical ? "F" : "0";
      if (known->role == key_role::off_only && canonical != off) {
        throw case_error(origin + ": '" + name + "' = " + p.spelling +
                         " is not implemented by this port (" + known->why + "; it accepts " + off +
                         ", MFC's default)");
      }
      m_without_effect[key] = std::move(p);
      return;
    }
    if (type != value_type::real && !allowed_value(spec->allowed, canonical)) {
      throw case_error(origin + ": '" + name + "' = " + p.spelling +
                       " is not implemented by this port (it implements " +
                       value_list(spec->allowed) + ": " + spec->meaning + ")");
    }
    m_values[key] = std::move(p);
  }

  // Removes a parameter (--override KEY=), refusing a key that is not MFC's as set() does.
  void erase(const std::string& key, const std::string& origin) {
    const parameter_spec* spec = nullptr;
    const mfc_key* known       = nullptr;
    look_up(key, shape_of(key), origin, spec, known, false);
    m_values.erase(key);
    m_without_effect.erase(key);
  }

  const parameter* find(const std::string& key) const {
    const auto it = m_values.find(key);
    return it == m_values.end() ? nullptr : &it->second;
  }
  bool has(const std::string& key) const { return find(key) != nullptr; }

  // The parameters the port implements.
  const std::map<std::string, parameter>& all() const { return m_values; }
  // MFC's keys given that the port accepts and does not read.
  const std::map<std::string, parameter>& without_effect() const { return m_without_effect; }

 private:
  std::map<std::string, parameter> m_values;
  std::map<std::string, parameter> m_without_effect;

  // Finds what `key` is: implemented (`spec`) or one of MFC's keys (`known`); refuses a key
  // spelled otherwise than MFC's toolchain writes it, one MFC does not have (a misspelling) and,
  // when `refusing`, one the port refuses whatever its value.
  static void look_up(const std::string& key, const key_shape& shape, const std::string& origin,
                      const parameter_spec*& spec, const mfc_key*& known, bool refusing = true) {
    const std::string name = shown(key);
    // "fluid_pp(01)%gamma" would be stored apart from "fluid_pp(1)%gamma" and never read.
    if (canonical_key(shape) != key) {
      throw case_error(origin + ": parameter '" + name +
                       "': an index is written as MFC writes it, '" + shown(canonical_key(shape)) +
                       "'");
    }
    spec  = find_spec(shape.shape);
    known = spec == nullptr ? find_mfc_key(shape.shape) : nullptr;
    if (spec == nullptr && known == nullptr) {
      throw case_error(origin + ": parameter '" + name +
                       "' is not one of MFC's parameters (misspelt? loopnest-mfc "
                       "--list-parameters lists them)");
    }
    if (refusing && known != nullptr && known->role == key_role::refused) {
      throw case_error(origin + ": parameter '" + name + "' is not implemented by this port (" +
                       known->why + ")");
    }
  }

  // Whether a string value is a number in quotes ("dt": "1e-3").
  static bool is_quoted_number(const std::string& text, const std::string& origin) {
    try {
      return parse_json(text, origin).type == json_value::kind::number;
    } catch (const json_error&) {
      return false;  // not a number in any form
    }
  }
};

// Reads "key=value" as given to --override: T and F are logicals, a JSON number is a number, any
// other text is a JSON value or else a string; "key=" removes the key.
inline void apply_override(parameter_store& store, const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw case_error("--override '" + shown(assignment) + "' is not key=value");
  }
  const std::string key  = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  // KEY= takes the key out of the case (load_case_object checks that the case has it).
  if (text.empty()) {
    store.erase(key, "--override " + shown(assignment));
    return;
  }
  json_value value;
  try {
    value = parse_json(text, "--override");
  } catch (const json_error&) {
    value.type = json_value::kind::string;
    value.text = text;
  }
  if (value.type == json_value::kind::array || value.type == json_value::kind::object ||
      value.type == json_value::kind::null) {
    throw case_error("--override " + shown(assignment) + ": '" + shown(key) +
                     "' takes a single value");
  }
  store.set(key, value, "--override " + shown(assignment), true);
}

}  // namespace loopnest_mfc

#endif
