// loopnest-mfc: MFC's five-equation model (model_eqns = 2) on loopnest, from MFC's own case files.
// This is the host-side foundation: it reads and checks a case, builds MFC's grid and initial
// condition, and writes MFC's step output for the first time step. The right-hand side and the
// time loop are not ported yet, and nothing here pretends otherwise.
#include "case.hpp"
#include "eos.hpp"
#include "grid.hpp"
#include "json.hpp"
#include "output.hpp"
#include "parameters.hpp"
#include "patches.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Exit statuses: done; a case or command line the port refuses (nothing written); an output that
// could not be written.
enum exit_status { done = 0, refused = 2, io_error = 3 };

void print_usage(std::FILE* to) {
  std::fprintf(
      to,
      "usage: loopnest-mfc CASE.json [--override KEY=VALUE]... [--case-dir DIR]\n"
      "       loopnest-mfc --list-parameters\n"
      "Reads the JSON dictionary an MFC case.py prints (python3 case.py > CASE.json) for\n"
      "model_eqns = 2, checks every parameter before anything runs, builds MFC's grid and\n"
      "initial condition and writes MFC's serial output of step t_step_start to DIR/D\n"
      "(cons.<v>.00.<step>.dat; prim.* in 1D and with prim_vars_wrt = T).\n"
      "The right-hand side is not ported yet: no time step is taken.\n"
      "  --override KEY=VALUE  replace or add one parameter (T and F are logicals)\n"
      "  --case-dir DIR        where D/ goes (default: the directory of CASE.json)\n"
      "  --list-parameters     the parameters this port implements, and their allowed values\n"
      "Exit status: 0 written; 2 the case or the command line is refused (one line naming\n"
      "the parameter, nothing written); 3 an output could not be written.\n");
}

void list_parameters() {
  for (const loopnest_mfc::parameter_spec& spec : loopnest_mfc::supported_parameters) {
    const char* type = spec.type == loopnest_mfc::value_type::integer ? "integer"
                       : spec.type == loopnest_mfc::value_type::real  ? "real"
                                                                      : "logical";
    const std::string allowed =
        *spec.allowed == '\0' ? std::string("any") : loopnest_mfc::value_list(spec.allowed);
    std::printf("%-32s %-8s %-16s %s\n", spec.shape, type, allowed.c_str(), spec.meaning);
  }
}

struct options {
  std::string case_file;
  std::string case_dir;
  std::vector<std::string> overrides;
};

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

options parse_arguments(int argc, char* argv[]) {
  options o;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--override" || arg == "--case-dir") {
      if (k + 1 >= argc) {
        throw loopnest_mfc::case_error(arg + " needs a value");
      }
      (arg == "--override" ? o.overrides.emplace_back() : o.case_dir) = argv[++k];
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw loopnest_mfc::case_error("unknown option '" + arg + "'");
    } else if (o.case_file.empty()) {
      o.case_file = arg;
    } else {
      throw loopnest_mfc::case_error("a second case file '" + arg + "'");
    }
  }
  if (o.case_file.empty()) {
    throw loopnest_mfc::case_error("no CASE.json given (loopnest-mfc --help)");
  }
  if (o.case_dir.empty()) {
    o.case_dir = directory_of(o.case_file);
  }
  return o;
}

}  // namespace

int main(int argc, char* argv[]) {
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--help") == 0 || std::strcmp(argv[k], "-h") == 0) {
      print_usage(stdout);
      return done;
    }
    if (std::strcmp(argv[k], "--list-parameters") == 0) {
      list_parameters();
      return done;
    }
  }
  options o;
  loopnest_mfc::case_config c;
  try {
    o                         = parse_arguments(argc, argv);
    c                         = loopnest_mfc::read_case(o.case_file, o.overrides);
    const std::string problem = loopnest_mfc::output_directory_problem(o.case_dir);
    if (!problem.empty()) {
      throw loopnest_mfc::case_error("--case-dir: " + problem);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loopnest-mfc: %s\n", e.what());
    return refused;
  }

  const loopnest_mfc::grid g               = loopnest_mfc::generate_grid(c);
  const loopnest_mfc::initial_condition ic = loopnest_mfc::apply_patches(c, g);
  const loopnest_mfc::host_fields cons     = loopnest_mfc::conservative_of<double>(c, ic.prim);
  const loopnest_mfc::host_fields prim     = loopnest_mfc::primitive_of<double>(c, cons);
  std::vector<std::string> written;
  try {
    written = loopnest_mfc::write_serial_data_files(o.case_dir, c, g, cons, prim, c.t_step_start);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loopnest-mfc: %s\n", e.what());
    return io_error;
  }
  std::printf("CASE=%s\nDIMENSIONS=%d\nCELLS=%d %d %d\nFLUIDS=%d\nEQUATIONS=%d\nPATCHES=%zu\n",
              c.source.c_str(), c.num_dims, c.m() + 1, c.n() + 1, c.p() + 1, c.num_fluids,
              c.sys_size(), c.patches.size());
  std::printf("STEP=%d\nFILES=%zu\nOUTPUT=%s/D\n", c.t_step_start, written.size(),
              o.case_dir.c_str());
  std::printf("RHS=NOT_PORTED (no time step taken)\n");
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "loopnest-mfc: writing standard output failed\n");
    return io_error;
  }
  return done;
}
