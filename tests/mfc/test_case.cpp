// The case reader: MFC's case files accepted, every parameter the port does not implement refused
// with one line naming it, and the checks that need the whole case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "case.hpp"

namespace {

using loopnest_mfc::case_config;
using loopnest_mfc::case_error;

const std::string data_dir = LOOPNEST_MFC_TEST_DATA;

std::string file_text(const std::string& name) {
  std::ifstream in(data_dir + "/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The 1D shock tube with each line containing `drop` removed and `extra` added after the brace.
std::string shock_tube(const std::string& drop = "", const std::string& extra = "") {
  std::istringstream in(file_text("shock_tube_1d.json"));
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (!drop.empty() && line.find(drop) != std::string::npos) {
      continue;
    }
    out += line + "\n";
    if (line == "{" && !extra.empty()) {
      out += "  " + extra + ",\n";
    }
  }
  return out;
}

case_config read_text(const std::string& text, const std::vector<std::string>& overrides = {}) {
  loopnest_mfc::parameter_store store;
  loopnest_mfc::load_case_object(store, loopnest_mfc::parse_json(text, "case.json"), "case.json",
                                 overrides);
  for (const std::string& o : overrides) {
    loopnest_mfc::apply_override(store, o);
  }
  return loopnest_mfc::build_case(store, "case.json");
}

// What `read` refuses with, or "no error".
template <class Read>
std::string refusal_of(const Read& read) {
  try {
    read();
  } catch (const case_error& e) {
    return e.what();
  }
  return "no error";
}

std::string error_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return refusal_of([&] { read_text(text, overrides); });
}

TEST(mfc_case, reads_the_1d_shock_tube) {
  const case_config c = read_text(shock_tube());
  EXPECT_EQ(c.num_dims, 1);
  EXPECT_EQ(c.m(), 49);
  EXPECT_EQ(c.sys_size(), 4);
  EXPECT_EQ(c.dt, 1e-4);
  EXPECT_TRUE(c.mapped_weno);
  EXPECT_TRUE(c.prim_vars_wrt);
  ASSERT_EQ(c.patches.size(), 2u);
  EXPECT_EQ(c.patches[1].pres, 0.1);
  EXPECT_EQ(c.patches[1].alpha_rho[0], 0.125);
  EXPECT_TRUE(c.patches[1].alter_patch[0]);
  EXPECT_FALSE(c.patches[1].alter_patch[1]);
  EXPECT_EQ(c.fluids[0].gamma, 2.5000000000000004);
}

TEST(mfc_case, reads_mfcs_3d_performance_test_with_its_characteristic_boundaries) {
  const std::string text = file_text("performance_test_3d.json");
  const case_config c    = read_text(text, {"m=24", "n=24", "p=24"});
  for (const auto& axis : c.axis) {
    EXPECT_EQ(axis.bc_end, -6);
  }
  // The boundary types MFC has and the port does not are refused by name.
  EXPECT_NE(error_of(text, {"bc_x%beg=-4"})
                .find("'bc_x%beg' = -4 is not implemented by this port (it implements -1 or -2 or "
                      "-3 or -5 or -6 or -7 or -8 or -9 or -10 or -11 or -12: "),
            std::string::npos);
  EXPECT_NE(
      error_of(text, {"bc_z%end=-13"}).find("'bc_z%end' = -13 is not implemented by this port"),
      std::string::npos);
  EXPECT_EQ(c.num_dims, 3);
  EXPECT_EQ(c.sys_size(), 8);
  EXPECT_TRUE(c.mpp_lim);
  EXPECT_TRUE(c.axis[2].stretch);
  EXPECT_EQ(c.axis[0].bc_beg, -2);
  EXPECT_TRUE(c.patches[1].smoothen);
  EXPECT_EQ(c.patches[1].smooth_patch_id, 1);
  EXPECT_TRUE(c.patches[1].alter_patch[1]);
  EXPECT_EQ(c.fluids[0].pi_inf, 4.4 * 6.e8 / (4.4 - 1.));
}

TEST(mfc_case, refuses_what_the_port_does_not_implement_naming_the_key) {
  EXPECT_EQ(error_of(shock_tube("", "\"bubbles_euler\": \"T\"")),
            "case.json:2:3: 'bubbles_euler' = T is not implemented by this port (Euler-Euler "
            "bubbles; it accepts F, MFC's default)");
  EXPECT_EQ(error_of(shock_tube("", "\"num_bc_patches\": 2")),
            "case.json:2:3: 'num_bc_patches' = 2 is not implemented by this port "
            "(boundary-condition patches; it accepts 0, MFC's default)");
  EXPECT_EQ(error_of(shock_tube("", "\"patch_icpp(2)%alter_patch\": \"T\"")),
            "case.json:2:3: parameter 'patch_icpp(2)%alter_patch' is not implemented by this "
            "port (all of a patch's alter_patch(j) at once: write alter_patch(j) for each "
            "earlier patch j)");
  EXPECT_EQ(error_of(shock_tube("", "\"patch_icpp(1)%hcid\": 170")),
            "case.json:2:3: 'patch_icpp(1)%hcid' = 170 is not implemented by this port (it "
            "implements 207 or 281 or 282: MFC's hard-coded initial condition of a 2D case: 207 "
            "Kelvin-Helmholtz shear layers (any patch), 281 acoustic pulse and 282 "
            "zero-circulation vortex (patch 2))");
  EXPECT_EQ(error_of(shock_tube("", "\"teno\": \"T\"")),
            "case.json:2:3: 'teno' = T is not implemented by this port (it implements F: TENO "
            "weights)");
  EXPECT_EQ(error_of(shock_tube(), {"model_eqns=3"}),
            "--override model_eqns=3: 'model_eqns' = 3 is not implemented by this port (it "
            "implements 2: the five-equation model of Allaire et al.)");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(1)%geometry=5"}),
            "--override patch_icpp(1)%geometry=5: 'patch_icpp(1)%geometry' = 5 is not "
            "implemented by this port (it implements 1 or 2 or 3 or 8 or 9: 1 line segment, 2 "
            "circle, 3 rectangle, 8 sphere, 9 cuboid)");
  EXPECT_EQ(error_of(shock_tube(), {"no_such=1"}),
            "--override no_such=1: parameter 'no_such' is not one of MFC's parameters "
            "(misspelt? loopnest-mfc --list-parameters lists them)");
  EXPECT_EQ(error_of(shock_tube("", "\"rho_wrtt\": \"T\"")),
            "case.json:2:3: parameter 'rho_wrtt' is not one of MFC's parameters (misspelt? "
            "loopnest-mfc --list-parameters lists them)");
}

TEST(mfc_case, accepts_output_keys_and_features_left_off_without_effect) {
  const std::string extra =
      R"j("rho_wrt": "T", "omega_wrt(3)": "T", "schlieren_alpha(1)": 0.4, "fd_order": 2, )j"
      R"("t_step_print": 10, "probe_wrt": "T", "probe(1)%x": 0.5, "viscous": "F", )"
      R"j("num_bc_patches": 0, "fluid_pp(1)%Re(1)": 1e3, "case_dir": "/tmp", "wenoz_q": 2.0)j";
  const case_config c = read_text(shock_tube("", extra));
  EXPECT_EQ(c.without_effect,
            (std::vector<std::string>{"case_dir", "fd_order", "fluid_pp(1)%Re(1)", "num_bc_patches",
                                      "omega_wrt(3)", "probe(1)%x", "probe_wrt", "rho_wrt",
                                      "schlieren_alpha(1)", "t_step_print", "viscous", "wenoz_q"}));
  // Nothing of what the run reads changed.
  const case_config plain = read_text(shock_tube());
  EXPECT_TRUE(plain.without_effect.empty());
  EXPECT_EQ(c.dt, plain.dt);
  EXPECT_EQ(c.t_step_save, plain.t_step_save);
  EXPECT_EQ(c.fluids[0].gamma, plain.fluids[0].gamma);
  // They are typed as in MFC's toolchain, and replaced by an override like any other key.
  EXPECT_EQ(error_of(shock_tube("", R"("rho_wrt": 1)")),
            "case.json:2:3: 'rho_wrt' = 1 is not a logical ('T' or 'F')");
  EXPECT_EQ(error_of(shock_tube("", R"("case_dir": 3)")),
            "case.json:2:3: 'case_dir' = 3 is not a string");
  EXPECT_EQ(error_of(shock_tube("", R"("fd_order": 2.5)")),
            "case.json:2:3: 'fd_order' = 2.5 is not an integer");
  EXPECT_EQ(error_of(shock_tube("", R"("viscous": "F")"), {"viscous=T"}),
            "--override viscous=T: 'viscous' = T is not implemented by this port (viscosity; it "
            "accepts F, MFC's default)");
}

TEST(mfc_case, every_key_listed_once_and_every_enum_name_of_an_integer_key) {
  std::vector<std::string> shapes;
  for (const loopnest_mfc::parameter_spec& spec : loopnest_mfc::supported_parameters) {
    shapes.emplace_back(spec.shape);
  }
  for (const loopnest_mfc::mfc_key& key : loopnest_mfc::mfc_case_keys) {
    shapes.emplace_back(key.shape);
  }
  std::sort(shapes.begin(), shapes.end());
  EXPECT_EQ(std::adjacent_find(shapes.begin(), shapes.end()), shapes.end())
      << "a key is listed twice: it would be read as the first only";
  for (const loopnest_mfc::enum_name& e : loopnest_mfc::mfc_enum_names) {
    const loopnest_mfc::parameter_spec* spec = loopnest_mfc::find_spec(e.shape);
    const loopnest_mfc::mfc_key* key         = loopnest_mfc::find_mfc_key(e.shape);
    EXPECT_TRUE((spec != nullptr && spec->type == loopnest_mfc::value_type::integer) ||
                (key != nullptr && key->type == loopnest_mfc::value_type::integer))
        << e.shape << " has names but is no integer key";
  }
}

TEST(mfc_case, reads_enumerations_by_the_names_mfcs_toolchain_writes) {
  const std::string named =
      R"("model_eqns": "5eq", "riemann_solver": "hllc", "time_stepper": "rk3", )"
      R"("wave_speeds": "direct", "avg_state": "arithmetic", "format": "silo", )"
      R"("precision": "single", "recon_type": "weno", "fluid_pp(1)%eos": "stiffened_gas", )"
      R"("muscl_lim": "minmod")";
  const std::string drop[] = {"model_eqns", "riemann_solver", "time_stepper", "wave_speeds",
                              "avg_state",  "format",         "precision"};
  std::string text         = shock_tube();
  for (const std::string& key : drop) {
    std::istringstream in(text);
    std::string kept;
    for (std::string line; std::getline(in, line);) {
      if (line.find("\"" + key + "\"") == std::string::npos) {
        kept += line + "\n";
      }
    }
    text = kept;
  }
  std::string with_names;
  {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      with_names += line + "\n";
      if (line == "{") {
        with_names += "  " + named + ",\n";
      }
    }
  }
  const case_config c = read_text(with_names);
  EXPECT_EQ(c.precision, 1);
  EXPECT_EQ(c.without_effect, std::vector<std::string>{"muscl_lim"});
  EXPECT_EQ(read_text(shock_tube(), {"model_eqns=5eq", "precision=single"}).precision, 1);
  EXPECT_EQ(error_of(shock_tube(), {"riemann_solver=hlc"}),
            "--override riemann_solver=hlc: 'riemann_solver' = 'hlc' is not one of MFC's names "
            "for it (hll = 1, hllc = 2, hlld = 4, lax_friedrichs = 5)");
  EXPECT_EQ(read_text(shock_tube(), {"riemann_solver=hll"}).riemann_solver, 1);
  EXPECT_EQ(error_of(shock_tube(), {"riemann_solver=hlld"}),
            "--override riemann_solver=hlld: 'riemann_solver' = 'hlld' (4) is not implemented by "
            "this port (it implements 1 or 2: 1 HLL, 2 HLLC)");
  // HLL's volume fractions at a characteristic face are not replaced as MFC's s_cbc does.
  EXPECT_EQ(error_of(shock_tube(), {"riemann_solver=hll", "bc_x%end=-8"}),
            "--override riemann_solver=hll: 'riemann_solver' = 'hll' (1) is not implemented by "
            "this port with characteristic boundaries (bc_x%end = -8): it implements them with "
            "HLLC (2)");
  EXPECT_EQ(error_of(shock_tube("", R"("fluid_pp(1)%eos": "jwl")")),
            "case.json:2:3: 'fluid_pp(1)%eos' = 'jwl' (4) is not implemented by this port (it "
            "implements 1 or 2: stiffened gas, ideal gas (pi_inf 0))");
  EXPECT_EQ(error_of(shock_tube("", R"("fluid_pp(1)%eos": "Stiffened_gas")")),
            "case.json:2:3: 'fluid_pp(1)%eos' = 'Stiffened_gas' is not one of MFC's names for it "
            "(stiffened_gas = 1, ideal_gas = 2, mie_gruneisen = 3, jwl = 4, vinet = 5)");
  // A number in quotes is still said to be one; a key without names keeps the type's message.
  EXPECT_EQ(error_of(shock_tube(), {"riemann_solver=\"2\""}),
            "--override riemann_solver=\"2\": 'riemann_solver' = '2' is a string, not an "
            "integer: write the number without quotes");
  EXPECT_EQ(error_of(shock_tube(), {"weno_order=five"}),
            "--override weno_order=five: 'weno_order' = 'five' is not an integer");
}

TEST(mfc_case, reads_an_ideal_gas_as_a_stiffened_gas_of_pi_inf_0) {
  // MFC's examples write an ideal gas with pi_inf = 0 (older ones) or without it (current MFC).
  const std::string ideal = shock_tube("", R"("fluid_pp(1)%eos": "ideal_gas")");
  for (const case_config& c :
       {read_text(ideal), read_text(ideal, {"fluid_pp(1)%pi_inf="}),
        read_text(shock_tube(), {"fluid_pp(1)%eos=2", "fluid_pp(1)%pi_inf="})}) {
    EXPECT_EQ(c.fluids[0].gamma, 2.5000000000000004);
    EXPECT_EQ(c.fluids[0].pi_inf, 0.0);
  }
  EXPECT_EQ(error_of(ideal, {"fluid_pp(1)%pi_inf=3.5"}),
            "--override fluid_pp(1)%pi_inf=3.5: 'fluid_pp(1)%pi_inf' = 3.5 must be 0 or left out "
            "for an ideal gas (fluid_pp(1)%eos = 'ideal_gas' (2))");
  // A stiffened gas, named or MFC's default, still needs its pi_inf.
  EXPECT_EQ(error_of(shock_tube(), {"fluid_pp(1)%pi_inf="}),
            "case.json: required parameter 'fluid_pp(1)%pi_inf' is missing");
  EXPECT_EQ(
      error_of(shock_tube("", R"("fluid_pp(1)%eos": "stiffened_gas")"), {"fluid_pp(1)%pi_inf="}),
      "case.json: required parameter 'fluid_pp(1)%pi_inf' is missing");
  EXPECT_EQ(error_of(shock_tube("", R"("fluid_pp(1)%eos": "mie_gruneisen")")),
            "case.json:2:3: 'fluid_pp(1)%eos' = 'mie_gruneisen' (3) is not implemented by this "
            "port (it implements 1 or 2: stiffened gas, ideal gas (pi_inf 0))");
}

TEST(mfc_case, an_override_without_a_value_takes_the_key_out_of_the_case) {
  const std::string refused = shock_tube("", R"("bubbles_euler": "T", "rho_wrt": "T")");
  const case_config c       = read_text(refused, {"bubbles_euler=", "rho_wrt="});
  EXPECT_TRUE(c.without_effect.empty());
  EXPECT_EQ(c.dt, read_text(shock_tube()).dt);
  EXPECT_EQ(error_of(shock_tube(), {"dt="}), "case.json: required parameter 'dt' is missing");
  EXPECT_EQ(error_of(shock_tube(), {"rho_wrt="}),
            "--override rho_wrt=: case.json has no 'rho_wrt' to take away");
  EXPECT_EQ(error_of(refused, {"bubbles_euler=", "rho_wrt=", "dtt="}),
            "--override dtt=: case.json has no 'dtt' to take away");
  EXPECT_EQ(refusal_of([&] {
              loopnest_mfc::parameter_store store;
              loopnest_mfc::apply_override(store, "dtt=");
            }),
            "--override dtt=: parameter 'dtt' is not one of MFC's parameters (misspelt? "
            "loopnest-mfc --list-parameters lists them)");
}

std::string read_case_error(const std::string& path) {
  return refusal_of([&] { loopnest_mfc::read_case(path, {}); });
}

TEST(mfc_case, refuses_a_case_file_that_is_no_regular_file_or_too_large) {
  EXPECT_EQ(read_case_error(data_dir), data_dir + ": the case file is not a regular file");
  EXPECT_EQ(read_case_error("/dev/zero"), "/dev/zero: the case file is not a regular file");
  // A sparse file one byte past the limit: refused by its size, before it is read.
  const std::string big = testing::TempDir() + "loopnest_mfc_big_case.json";
  std::ofstream(big).close();
  std::filesystem::resize_file(big, loopnest_mfc::max_case_file_bytes + 1);
  EXPECT_EQ(read_case_error(big), big + ": the case file has 16777217 bytes, more than the " +
                                      "16777216 a case file may have");
  std::filesystem::remove(big);
}

TEST(mfc_case, refuses_indices_not_written_as_mfc_writes_them) {
  EXPECT_EQ(error_of(shock_tube(), {"fluid_pp(01)%gamma=1e-300"}),
            "--override fluid_pp(01)%gamma=1e-300: parameter 'fluid_pp(01)%gamma': an index is "
            "written as MFC writes it, 'fluid_pp(1)%gamma'");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(001)%vel(01)=3"}),
            "--override patch_icpp(001)%vel(01)=3: parameter 'patch_icpp(001)%vel(01)': an index "
            "is written as MFC writes it, 'patch_icpp(1)%vel(1)'");
  EXPECT_EQ(error_of(shock_tube("", "\"patch_icpp(2)%alpha_rho(01)\": 1.0")),
            "case.json:2:3: parameter 'patch_icpp(2)%alpha_rho(01)': an index is written as MFC "
            "writes it, 'patch_icpp(2)%alpha_rho(1)'");
  // The canonical spelling of the same keys is taken.
  EXPECT_NO_THROW(read_text(shock_tube(), {"fluid_pp(1)%gamma=1.4", "patch_icpp(1)%vel(1)=3"}));
}

TEST(mfc_case, refuses_values_of_the_wrong_type) {
  EXPECT_EQ(error_of(shock_tube(), {"m=49.0"}), "--override m=49.0: 'm' = 49.0 is not an integer");
  EXPECT_EQ(error_of(shock_tube(), {"mpp_lim=yes"}),
            "--override mpp_lim=yes: 'mpp_lim' = 'yes' is not a logical ('T' or 'F')");
  EXPECT_EQ(error_of(shock_tube(), {"dt=T"}), "--override dt=T: 'dt' = 'T' is not a number");
}

TEST(mfc_case, overrides_replace_and_add) {
  const case_config c = read_text(shock_tube(), {"dt=2e-5", "mpp_lim=T", "precision=1"});
  EXPECT_EQ(c.dt, 2e-5);
  EXPECT_TRUE(c.mpp_lim);
  EXPECT_EQ(c.precision, 1);
}

TEST(mfc_case, refuses_missing_and_inconsistent_parameters) {
  EXPECT_EQ(error_of(shock_tube("\"dt\"")), "case.json: required parameter 'dt' is missing");
  EXPECT_EQ(error_of(shock_tube(), {"dt=0"}), "--override dt=0: 'dt' = 0 must be positive");
  EXPECT_EQ(error_of(shock_tube(), {"dt=-1e-3"}),
            "--override dt=-1e-3: 'dt' = -1e-3 must be positive");
  EXPECT_EQ(error_of(shock_tube("patch_icpp(2)%pres")),
            "case.json: required parameter 'patch_icpp(2)%pres' is missing");
  EXPECT_EQ(error_of(shock_tube(), {"y_domain%beg=0"}),
            "--override y_domain%beg=0: 'y_domain%beg' is given but n = 0");
  EXPECT_EQ(error_of(shock_tube(), {"m=23"}),
            "--override m=23: 'm' = 23 gives fewer than 25 cells, the least MFC allows with "
            "weno_order = 5");
  EXPECT_EQ(error_of(shock_tube(), {"p=24"}),
            "--override p=24: 'p' = 24 needs n > 0 (a 3D case is also 2D)");
  EXPECT_EQ(error_of(shock_tube(), {"num_patches=1"}),
            "case.json:48:3: 'patch_icpp(2)%alpha(1)' is outside 1 to num_patches = 1");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(2)%alter_patch(2)=T"}),
            "--override patch_icpp(2)%alter_patch(2)=T: 'patch_icpp(2)%alter_patch(2)': patch 2 "
            "can only alter patches laid before it (0 to 1)");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(1)%geometry=9"}),
            "--override patch_icpp(1)%geometry=9: 'patch_icpp(1)%geometry' = 9 is a 3D geometry "
            "but the case is 1D");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(1)%alpha(2)=0.5"}),
            "--override patch_icpp(1)%alpha(2)=0.5: 'patch_icpp(1)%alpha(2)' is outside 1 to "
            "num_fluids = 1");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(1)%vel(2)=1"}),
            "--override patch_icpp(1)%vel(2)=1: 'patch_icpp(1)%vel(2)' = 1 is not 0 but the case "
            "has 1 dimension(s)");
  EXPECT_EQ(error_of(shock_tube(), {"bc_x%beg=-1"}),
            "--override bc_x%beg=-1: 'bc_x%beg' = -1 is periodic but the other end of x is not");
  EXPECT_EQ(error_of(shock_tube(), {"fluid_pp(1)%gamma=0"}),
            "--override fluid_pp(1)%gamma=0: 'fluid_pp(1)%gamma' = 0 must be positive (MFC's "
            "fluid_pp%gamma is 1/(gamma - 1))");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(1)%smoothen=T"}),
            "--override patch_icpp(1)%smoothen=T: 'patch_icpp(1)%smoothen' = T but geometry 1 is "
            "not smoothed");
  EXPECT_EQ(error_of(shock_tube(), {"t_step_stop=1000000"}),
            "--override t_step_stop=1000000: 't_step_stop' = 1000000 does not fit the six digits "
            "of MFC's output file names");
  EXPECT_EQ(error_of(shock_tube("a_x", "\"a_x\": 2")),
            "case.json:2:3: 'a_x' is given but stretch_x is not T");
  EXPECT_EQ(error_of("[1]"), "case.json:1:1: the case must be a JSON object, found an array");
}

// A periodic or reflective boundary copies buff_size ghost layers from the interior: an axis
// thinner than that is refused when the case is read (by MFC's least cells per axis), never left
// to the ghost fill of the first stage.
TEST(mfc_case, refuses_periodic_and_reflective_axes_thinner_than_the_ghost_layers) {
  const std::string m = std::to_string(loopnest_mfc::buff_size - 2);
  EXPECT_EQ(error_of(shock_tube(), {"m=" + m, "weno_order=1", "bc_x%beg=-1", "bc_x%end=-1"}),
            "--override m=" + m + ": 'm' = " + m +
                " gives fewer than 5 cells, the least MFC allows with weno_order = 1");
  EXPECT_EQ(error_of(shock_tube(), {"m=" + m, "weno_order=1", "bc_x%end=-2"}),
            "--override m=" + m + ": 'm' = " + m +
                " gives fewer than 5 cells, the least MFC allows with weno_order = 1");
  EXPECT_EQ(error_of(shock_tube(), {"n=" + m, "weno_order=1", "y_domain%beg=0", "y_domain%end=1",
                                    "bc_y%beg=-2", "bc_y%end=-2"}),
            "--override n=" + m + ": 'n' = " + m +
                " gives fewer than 5 cells, the least MFC allows with weno_order = 1");
}

// A case file written to the test's temporary directory.
std::string written_case(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(mfc_case, reports_every_refused_key_and_override_at_once) {
  const std::string path =
      written_case("loopnest_mfc_keys.json", shock_tube("", R"("foo": 1, "bar": 2)"));
  const std::string not_implemented =
      "' is not one of MFC's parameters (misspelt? loopnest-mfc --list-parameters lists them)";
  EXPECT_EQ(refusal_of([&] {
              loopnest_mfc::read_case(path, {"baz=3", "dt=0.5"});
            }),
            path + ":2:3: parameter 'foo" + not_implemented + "\n" + path +
                ":2:13: parameter 'bar" + not_implemented + "\n--override baz=3: parameter 'baz" +
                not_implemented);
  std::filesystem::remove(path);
}

TEST(mfc_case, reads_a_case_file_that_starts_with_a_byte_order_mark) {
  const std::string path = written_case("loopnest_mfc_bom.json", "\xEF\xBB\xBF" + shock_tube());
  EXPECT_EQ(loopnest_mfc::read_case(path, {}).m(), 49);
  std::filesystem::remove(path);
}

TEST(mfc_case, says_a_quoted_number_is_a_string_and_shows_a_long_value_in_part) {
  EXPECT_EQ(error_of(shock_tube(), {"dt=\"1e-3\""}),
            "--override dt=\"1e-3\": 'dt' = '1e-3' is a string, not a number: write the number "
            "without quotes");
  const std::string sevens(100, '7');
  EXPECT_EQ(error_of(shock_tube(), {"m=\"" + sevens + "\""}),
            "--override m=\"" + sevens.substr(0, 45) + "... (104 characters): 'm' = '" +
                sevens.substr(0, 48) +
                "... (100 characters)' is a string, not an integer: "
                "write the number without quotes");
}

TEST(mfc_case, refuses_cells_past_what_int_indexes_and_an_overflowing_weno_eps) {
  EXPECT_EQ(error_of(shock_tube(), {"m=2147483647"}),
            "--override m=2147483647: 'm' = 2147483647 is more cells than the port indexes (at "
            "most 2147483638)");
  EXPECT_EQ(error_of(shock_tube(), {"weno_eps=1e300"}),
            "--override weno_eps=1e300: 'weno_eps' = 1e300 must be below 1e18 (WENO squares "
            "weno_eps + beta)");
  EXPECT_NO_THROW(read_text(shock_tube(), {"m=2147483638", "weno_eps=1e17"}));
}

// The shock tube stepped by a CFL target: MFC's keys of cfl_dt, the keys of t_step_* noted.
const std::vector<std::string> cfl_adaptive = {"cfl_adap_dt=T", "cfl_target=0.5", "t_stop=0.05",
                                               "t_save=0.02", "n_start=1"};

TEST(mfc_case, reads_the_time_control_of_a_cfl_target) {
  const case_config c = read_text(shock_tube(), cfl_adaptive);
  EXPECT_TRUE(c.cfl_adap_dt);
  EXPECT_FALSE(c.cfl_const_dt);
  EXPECT_TRUE(c.cfl_dt());
  EXPECT_EQ(c.cfl_target, 0.5);
  EXPECT_EQ(c.t_stop, 0.05);
  EXPECT_EQ(c.t_save, 0.02);
  EXPECT_EQ(c.n_start, 1);
  EXPECT_TRUE(c.run_time_info);
  // MFC's loop reads neither dt nor t_step_*: they are noted, and need not be given.
  EXPECT_EQ(c.without_effect,
            (std::vector<std::string>{"dt", "t_step_save", "t_step_start", "t_step_stop"}));
  std::vector<std::string> without_fixed = cfl_adaptive;
  for (const char* key : {"dt=", "t_step_start=", "t_step_stop=", "t_step_save="}) {
    without_fixed.emplace_back(key);
  }
  EXPECT_TRUE(read_text(shock_tube(), without_fixed).without_effect.empty());
  // fp32 has no dt of the case to lose.
  EXPECT_EQ(loopnest_mfc::precision_problem(read_text(shock_tube(), without_fixed), true), "");
  const case_config once = read_text(
      shock_tube(), {"cfl_const_dt=T", "cfl_target=1", "t_stop=1", "t_save=1", "n_start=0"});
  EXPECT_TRUE(once.cfl_const_dt && once.cfl_dt() && !once.cfl_adap_dt);
  // Without cfl_dt the keys of a CFL target are noted, and t_step_* run the case.
  const case_config fixed =
      read_text(shock_tube(), {"cfl_target=0.5", "t_stop=1", "run_time_info=F"});
  EXPECT_FALSE(fixed.cfl_dt());
  EXPECT_FALSE(fixed.run_time_info);
  EXPECT_EQ(fixed.without_effect, (std::vector<std::string>{"cfl_target", "t_stop"}));
  EXPECT_EQ(fixed.dt, 1e-4);
}

TEST(mfc_case, refuses_a_cfl_target_mfcs_checker_refuses_naming_the_key_and_value) {
  const auto with = [](const std::vector<std::string>& changes) {
    std::vector<std::string> overrides = cfl_adaptive;
    for (const std::string& change : changes) {
      const std::string key = loopnest_mfc::override_key(change);
      overrides.erase(std::remove_if(overrides.begin(), overrides.end(),
                                     [&](const std::string& o) {
                                       return loopnest_mfc::override_key(o) == key;
                                     }),
                      overrides.end());
      if (change.back() != '=') {
        overrides.push_back(change);  // KEY= leaves the key out
      }
    }
    return error_of(shock_tube(), overrides);
  };
  EXPECT_EQ(with({"cfl_target=-0.5"}),
            "--override cfl_target=-0.5: 'cfl_target' = -0.5 must be above 0 and at most 1");
  EXPECT_EQ(with({"cfl_target=0"}),
            "--override cfl_target=0: 'cfl_target' = 0 must be above 0 and at most 1");
  EXPECT_EQ(with({"cfl_target=1.5"}),
            "--override cfl_target=1.5: 'cfl_target' = 1.5 must be above 0 and at most 1");
  EXPECT_EQ(with({"t_stop=0"}), "--override t_stop=0: 't_stop' = 0 must be positive");
  EXPECT_EQ(with({"t_stop=-1"}), "--override t_stop=-1: 't_stop' = -1 must be positive");
  EXPECT_EQ(with({"t_save=0"}), "--override t_save=0: 't_save' = 0 must be positive");
  EXPECT_EQ(with({"t_save=0.06"}),
            "--override t_save=0.06: 't_save' = 0.06 must be at most t_stop = 0.05");
  EXPECT_EQ(with({"n_start=-1"}), "--override n_start=-1: 'n_start' = -1 must be at least 0");
  EXPECT_EQ(with({"cfl_const_dt=T"}),
            "--override cfl_const_dt=T: 'cfl_const_dt' = T is given with cfl_adap_dt = T: set "
            "one of them (dt before every step, or once at the start)");
  EXPECT_EQ(with({"t_save=1e-8"}),
            "--override t_save=1e-8: 't_save' = 1e-8 numbers the output at t_stop = 0.05 past "
            "the six digits of MFC's output file names");
  EXPECT_EQ(with({"n_start=1000000"}),
            "--override n_start=1000000: 'n_start' = 1000000 does not fit the six digits of "
            "MFC's output file names");
  EXPECT_EQ(with({"t_stop=", "t_save=0.01"}),
            "case.json: required parameter 't_stop' is missing (cfl_adap_dt = T)");
  EXPECT_EQ(error_of(shock_tube(), {"cfl_const_dt=T"}),
            "case.json: required parameter 'cfl_target' is missing (cfl_const_dt = T)");
  EXPECT_EQ(with({"n_start="}),
            "case.json: required parameter 'n_start' is missing (cfl_adap_dt = T)");
}

TEST(mfc_case, refuses_what_a_precision_cannot_hold) {
  case_config c = read_text(shock_tube());
  EXPECT_EQ(loopnest_mfc::precision_problem(c, false), "");
  EXPECT_EQ(loopnest_mfc::precision_problem(c, true), "");
  c.dt = 1e-50;
  EXPECT_EQ(loopnest_mfc::precision_problem(c, false), "");
  EXPECT_EQ(loopnest_mfc::precision_problem(c, true),
            "'dt' = 1e-50 is 0 in fp32: the state would never advance");
  c          = read_text(shock_tube());
  c.weno_eps = 1e-77;
  EXPECT_EQ(loopnest_mfc::precision_problem(c, false),
            "'weno_eps' = 1e-77 is below 1e-76, where this port's WENO weights underflow in fp64");
  c.weno_eps = 1e-20;
  EXPECT_EQ(loopnest_mfc::precision_problem(c, false), "");
  EXPECT_EQ(loopnest_mfc::precision_problem(c, true),
            "'weno_eps' = 1e-20 is below 1e-18, where this port's WENO weights underflow in fp32");
  // First order has no weights.
  c.weno_order = 1;
  EXPECT_EQ(loopnest_mfc::precision_problem(c, true), "");
}

TEST(mfc_case, reads_a_patch_value_given_as_an_expression_of_the_cell_centre) {
  const case_config c =
      read_text(shock_tube("patch_icpp(2)%alpha_rho(1)",
                           "\"patch_icpp(2)%alpha_rho(1)\": \"1 + 0.2*sin(5*x)\""),
                {"patch_icpp(2)%vel(1)=xc - x", "patch_icpp(2)%pres=.5"});
  const loopnest_mfc::patch_config& p = c.patches[1];
  ASSERT_EQ(p.analytic.size(), 2u);
  // MFC's toolchain writes 0 for an analytic key; the expression overwrites it per cell.
  EXPECT_EQ(p.alpha_rho[0], 0.);
  EXPECT_EQ(p.vel[0], 0.);
  EXPECT_EQ(p.pres, 0.5);  // a string Python's float() reads is a number
  for (const loopnest_mfc::analytic_value& a : p.analytic) {
    if (a.of == loopnest_mfc::analytic_value::variable::alpha_rho) {
      EXPECT_EQ(a.index, 0);
      EXPECT_EQ(a.program(0.3, 0., 0.), 1. + static_cast<double>(0.2F) * std::sin(5. * 0.3));
    } else {
      EXPECT_EQ(a.of, loopnest_mfc::analytic_value::variable::vel);
      EXPECT_EQ(a.program(0.3, 0., 0.), 0.75 - 0.3);  // xc is the patch's x_centroid
    }
  }
}

TEST(mfc_case, refuses_an_expression_naming_the_key_the_column_and_the_token) {
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(2)%pres=1 + y"}),
            "--override patch_icpp(2)%pres=1 + y: 'patch_icpp(2)%pres' = '1 + y' is refused: "
            "column 5: 'y' is not a coordinate of a case with 1 dimension(s)");
  EXPECT_EQ(
      error_of(shock_tube("patch_icpp(1)%alpha(1)", "\"patch_icpp(1)%alpha(1)\": \"1 - r*x\"")),
      "case.json:2:3: 'patch_icpp(1)%alpha(1)' = '1 - r*x' is refused: column 5: 'r' is "
      "the patch's radius, which this patch does not have");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(1)%vel(1)=x^2"}),
            "--override patch_icpp(1)%vel(1)=x^2: 'patch_icpp(1)%vel(1)' = 'x^2' is refused: "
            "column 2: '^' is not a power in MFC's expressions (Python's exclusive or): write **");
  EXPECT_EQ(error_of(shock_tube(), {"patch_icpp(1)%vel(2)=x"}),
            "--override patch_icpp(1)%vel(2)=x: 'patch_icpp(1)%vel(2)' = 'x' is not 0 but the "
            "case has 1 dimension(s)");
}

}  // namespace

namespace {

// MFC's Fortran of hcid 281 and 282 (2dHardcodedIC.fpp) written out in C++: a literal without a
// kind is a single-precision real, and a product of literals is folded in single precision.
double pulse_factor(double x, double y, float mach) {
  const float a = 0.5F * (1.4F - 1) * (mach * mach);
  return 1 - static_cast<double>(a) * std::exp(0.5 * (1 - std::sqrt(x * x + y * y)));
}
double hardcoded_pressure(double x, double y, float mach) {
  return 101325 * std::pow(pulse_factor(x, y, mach), static_cast<double>(1.4F / (1.4F - 1)));
}
double hardcoded_density(double x, double y, float mach) {
  return 1 * std::pow(pulse_factor(x, y, mach), static_cast<double>(1 / (1.4F - 1)));
}

}  // namespace

TEST(mfc_case, reads_the_hard_coded_initial_conditions_of_mfcs_two_examples) {
  using variable               = loopnest_mfc::analytic_value::variable;
  const std::string text       = file_text("analytic_circle_2d.json");
  const double points[3][2]    = {{0.3, -0.7}, {0., 0.}, {1.25, 2.5}};
  const case_config pulse      = read_text(text, {"patch_icpp(2)%hcid=281"});
  const auto& pulse_values     = pulse.patches[1].analytic;
  const float pulse_mach       = 0.4F;
  const float vortex_mach      = 0.1F / 0.3F;
  const float vortex_amplitude = 112.99092883944267F * (1 - vortex_mach);
  // The patch's own expression for pres first, then the hard-coded values that overwrite it.
  ASSERT_EQ(pulse_values.size(), 3u);
  EXPECT_EQ(pulse_values[1].of, variable::pres);
  EXPECT_EQ(pulse_values[2].of, variable::alpha_rho);
  for (const auto& xy : points) {
    const double x = xy[0], y = xy[1];
    EXPECT_EQ(pulse_values[1].program(x, y, 0.), hardcoded_pressure(x, y, pulse_mach));
    EXPECT_EQ(pulse_values[2].program(x, y, 0.), hardcoded_density(x, y, pulse_mach));
  }
  // 282 sets pressure, density and both velocities: their keys may be left out.
  const case_config vortex = read_text(
      text, {"patch_icpp(2)%hcid=282", "patch_icpp(2)%pres=", "patch_icpp(2)%alpha_rho(1)=",
             "patch_icpp(2)%vel(1)=", "patch_icpp(2)%vel(2)="});
  const auto& vortex_values = vortex.patches[1].analytic;
  ASSERT_EQ(vortex_values.size(), 4u);
  EXPECT_EQ(vortex.patches[1].pres, loopnest_mfc::dflt_real);
  for (const auto& xy : points) {
    const double x = xy[0], y = xy[1];
    const double e = std::exp(0.5 * (1 - std::sqrt(x * x + y * y)));
    EXPECT_EQ(vortex_values[0].program(x, y, 0.), hardcoded_pressure(x, y, vortex_mach));
    EXPECT_EQ(vortex_values[1].program(x, y, 0.), hardcoded_density(x, y, vortex_mach));
    EXPECT_EQ(vortex_values[2].program(x, y, 0.), static_cast<double>(vortex_amplitude) * y * e);
    EXPECT_EQ(vortex_values[3].program(x, y, 0.),
              static_cast<double>(112.99092883944267F * vortex_mach) * x * e);
  }
  // Other values, other patches and other dimensions are refused naming the key and the value.
  EXPECT_EQ(error_of(text, {"patch_icpp(1)%hcid=281"}),
            "--override patch_icpp(1)%hcid=281: 'patch_icpp(1)%hcid' = 281 sets values on patch 2 "
            "only in MFC (2dHardcodedIC.fpp), not on patch 1");
  EXPECT_EQ(error_of(shock_tube("", "\"patch_icpp(2)%hcid\": 282")),
            "case.json:2:3: 'patch_icpp(2)%hcid' = 282 is one of MFC's 2D hard-coded initial "
            "conditions but the case is 1D");
  EXPECT_NE(error_of(text, {"patch_icpp(2)%hcid=283"})
                .find("'patch_icpp(2)%hcid' = 283 is not implemented by this port"),
            std::string::npos);
}

namespace {

// MFC's Fortran of hcid 207 (2dHardcodedIC.fpp) written out in C++: every literal is a _wp double.
double shear_layer_velocity(double x, double y) {
  const double pi     = 3.141592653589793;
  const double sigma  = 0.05 / std::sqrt(2.0);
  const double gauss1 = std::exp(-((y - 0.75) * (y - 0.75)) / (2.0 * (sigma * sigma)));
  const double gauss2 = std::exp(-((y - 0.25) * (y - 0.25)) / (2.0 * (sigma * sigma)));
  return 0.1 * std::sin(4.0 * pi * x) * (gauss1 + gauss2);
}

}  // namespace

TEST(mfc_case, reads_the_hard_coded_shear_layers_of_mfcs_kelvin_helmholtz_on_any_patch) {
  using variable         = loopnest_mfc::analytic_value::variable;
  const std::string text = file_text("analytic_circle_2d.json");
  // 207 sets the second velocity of both patches, whose keys may then be left out.
  const case_config c = read_text(
      text, {"patch_icpp(1)%hcid=207", "patch_icpp(2)%hcid=207", "patch_icpp(2)%vel(2)="});
  EXPECT_EQ(c.patches[1].vel[1], loopnest_mfc::dflt_real);
  for (const auto& patch : c.patches) {
    // Each patch's own expression first, then the hard-coded value that overwrites it.
    ASSERT_EQ(patch.analytic.size(), 2u);
    const auto& v = patch.analytic[1];
    EXPECT_EQ(v.of, variable::vel);
    EXPECT_EQ(v.index, 1);
    const double points[3][2] = {{0.3, 0.7}, {0.02, 0.26}, {0.9, 0.5}};
    for (const auto& xy : points) {
      EXPECT_EQ(v.program(xy[0], xy[1], 0.), shear_layer_velocity(xy[0], xy[1]));
    }
    // By hand: at x = 1/8 the sine is 1 and on a layer its Gaussian is 1, the other exp(-100);
    // at x = 1/16, y = 1/2 the sine is sqrt(2)/2 and both Gaussians are exp(-25).
    EXPECT_NEAR(v.program(0.125, 0.75, 0.), 0.1, 1e-15);
    EXPECT_NEAR(v.program(0.125, 0.25, 0.), 0.1, 1e-15);
    EXPECT_NEAR(v.program(0.0625, 0.5, 0.), 0.1 * std::sqrt(0.5) * 2 * std::exp(-25.0), 1e-25);
  }
  EXPECT_EQ(c.patches.size(), 2u);
  EXPECT_EQ(error_of(shock_tube("", "\"patch_icpp(1)%hcid\": 207")),
            "case.json:2:3: 'patch_icpp(1)%hcid' = 207 is one of MFC's 2D hard-coded initial "
            "conditions but the case is 1D");
}

TEST(mfc_case, reads_mfcs_grcbc_inputs_and_refuses_them_without_their_face) {
  const std::string text = file_text("goldens/63CD6ADF/case.json");
  const case_config c    = read_text(text);
  const auto& x          = c.axis[0];
  EXPECT_TRUE(x.grcbc_in);
  EXPECT_TRUE(x.grcbc_out);
  EXPECT_TRUE(x.grcbc_vel_out);
  EXPECT_EQ(x.vel_in[0], 1.);
  EXPECT_EQ(x.vel_out[0], 1.);
  EXPECT_EQ(x.pres_in, 1.);
  EXPECT_EQ(x.pres_out, 1.);
  EXPECT_EQ(x.alpha_rho_in[0], 1.);
  EXPECT_EQ(x.alpha_in[0], 1.);
  // vel_in(2), vel_in(3) and vel_out's tangential components are beyond what a 1D face reads.
  for (const char* key :
       {"bc_x%vel_in(2)", "bc_x%vel_in(3)", "bc_x%vel_out(2)", "bc_x%vel_out(3)"}) {
    EXPECT_NE(std::find(c.without_effect.begin(), c.without_effect.end(), key),
              c.without_effect.end())
        << key;
  }
  const case_config off = read_text(text, {"bc_x%grcbc_out=F"});
  EXPECT_FALSE(off.axis[0].grcbc_vel_out);  // MFC reads it within grcbc_out only
  for (const char* key : {"bc_x%grcbc_vel_out", "bc_x%pres_out", "bc_x%vel_out(1)"}) {
    EXPECT_NE(std::find(off.without_effect.begin(), off.without_effect.end(), key),
              off.without_effect.end())
        << key;
  }
  EXPECT_EQ(error_of(text, {"bc_x%beg=-8"}),
            "case.json:96:3: 'bc_x%grcbc_in' = T needs bc_x%beg or bc_x%end = -7, the face it "
            "relaxes");
  EXPECT_EQ(error_of(text, {"bc_x%end=-3"}),
            "case.json:97:3: 'bc_x%grcbc_out' = T needs bc_x%beg or bc_x%end = -8, the face it "
            "relaxes");
  EXPECT_EQ(error_of(text, {"bc_x%pres_in="}),
            "case.json: required parameter 'bc_x%pres_in' is missing (bc_x%grcbc_in = T)");
  EXPECT_EQ(error_of(text, {"bc_x%vel_out(1)="}),
            "case.json: required parameter 'bc_x%vel_out(1)' is missing (bc_x%grcbc_vel_out = T)");
  EXPECT_EQ(error_of(text, {"bc_x%alpha_in(2)=0.5"}),
            "--override bc_x%alpha_in(2)=0.5: 'bc_x%alpha_in(2)' is outside 1 to num_fluids = 1");
  EXPECT_EQ(error_of(text, {"bc_y%pres_out=1"}),
            "--override bc_y%pres_out=1: 'bc_y%pres_out' is given but n = 0");
}
