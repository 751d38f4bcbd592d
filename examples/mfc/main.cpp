// loopnest-mfc: MFC's five-equation model (model_eqns = 2) on loopnest, from MFC's own case files:
// reads and checks a case, builds MFC's grid and initial condition, runs MFC's right-hand side
// (WENO5, HLLC, the volume-fraction source) with SSP-RK3 on the schedule chosen at run time, and
// writes MFC's serial output and grind time.
#include "case.hpp"
#include "eos.hpp"
#include "grid.hpp"
#include "json.hpp"
#include "output.hpp"
#include "parameters.hpp"
#include "patches.hpp"
#include "run.hpp"
#include "simulation.hpp"
#ifdef LOOPNEST_MFC_MPI
#include "distributed.hpp"

#include <loopnest/mpi/halo_transport.hpp>

#include <mpi.h>
#endif

#include <loopnest/schedule.hpp>
#include <loopnest/tools/mpi_launcher.hpp>

#include <Kokkos_Core.hpp>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

#ifdef LOOPNEST_MFC_MPI
constexpr bool mpi_build = true;
// Whether this run initialised MPI: only under an MPI launcher or with --transport, so that a
// plain run behaves as the tool built without MPI.
bool with_mpi = false;
#else
constexpr bool mpi_build = false;
#endif

// Exit statuses: done; the run went unphysical; a case or command line the port refuses (nothing
// written); an output that could not be written.
enum exit_status { done = 0, unphysical = 1, refused = 2, io_error = 3 };

void print_usage(std::FILE* to) {
  std::fprintf(
      to,
      "usage: loopnest-mfc CASE.json [--override KEY=VALUE]... [--case-dir DIR]\n"
      "                    [--precision fp64|fp32] [--schedule SCHEDULE] [--profile]\n"
      "                    [--no-output]\n"
      "       loopnest-mfc --list-parameters\n"
      "Reads the JSON dictionary an MFC case.py prints (python3 case.py > CASE.json) for\n"
      "model_eqns = 2, checks every parameter before anything runs, builds MFC's grid and\n"
      "initial condition, takes SSP-RK3 steps of dt from t_step_start to t_step_stop with\n"
      "MFC's right-hand side (WENO5, HLLC, volume-fraction source) and writes MFC's serial\n"
      "output to DIR/D (cons.<v>.00.<step>.dat; prim.* in 1D and with prim_vars_wrt = T) at\n"
      "t_step_start, every t_step_save steps and at t_step_stop. The files appear in D/ when\n"
      "the run has ended well; until then they are kept aside.\n"
      "  --override KEY=VALUE  replace or add one parameter (T and F are logicals)\n"
      "  --case-dir DIR        where D/ goes (default: the directory of CASE.json)\n"
      "  --precision P         fp64 (default) or fp32: the scalar type of the whole run\n"
      "  --schedule S          how every loop maps onto the device: collapse3 (default),\n"
      "                        collapse4, flat or automatic (loopnest's schedules)\n"
      "  --profile             fence and time every loop; print each loop's time and its share\n"
      "                        of the copy bandwidth measured in the same run\n"
      "  --no-output           write no D/ files (timing runs: a 201^3 case's text output is\n"
      "                        tens of GB; MFC's binary parallel_io output is not implemented)\n"
      "  --list-parameters     the parameters this port implements, and their allowed values\n"
#ifdef LOOPNEST_MFC_MPI
      "Under mpirun the case (m, n, p global) is split over the ranks by MFC's rules, each\n"
      "rank running its block and writing its own files (cons.<v>.<rank>.<step>.dat), the\n"
      "ghost layers between ranks filled by loopnest's halo exchange; the state is the one\n"
      "rank's bit for bit.\n"
      "  --transport T         how ranks exchange ghost cells: mpi_host (default), mpi_device\n"
      "                        (a GPU-aware MPI) or nccl (CUDA builds with NCCL)\n"
#endif
      "Prints MFC's 'Performance: X ns/gp/eq/rhs' as current MFC computes it (s_tvd_rk,\n"
      "s_save_performance_metrics): the shortest wall-clock time of one RK stage (right-hand\n"
      "side with boundaries and halo, and the stage update; fenced) after two warm-up steps,\n"
      "the slowest rank's, over sys_size*m*n*p of the whole case. Every other timed step is\n"
      "fenced per stage; 'Time per step' averages the others (fenced at the step's ends), and\n"
      "'Step grind' is that step time in the same units (three right-hand sides).\n"
      "Exit status: 0 done; 1 the run went unphysical (the step and the cell are named, no\n"
      "output is put in D/); 2 the case or the command line is refused (one line naming the\n"
      "parameter, nothing written); 3 an output could not be written.\n");
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
  std::string precision = "fp64";
  std::string schedule  = "collapse3";
  bool profile          = false;
  bool output           = true;
  std::string transport = "mpi_host";
};

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

options parse_arguments(int argc, char* argv[]) {
  options o;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--override" || arg == "--case-dir" || arg == "--precision" || arg == "--schedule" ||
        (mpi_build && arg == "--transport")) {
      if (k + 1 >= argc) {
        throw loopnest_mfc::case_error(arg + " needs a value");
      }
      const std::string value = argv[++k];
      if (arg == "--override") {
        o.overrides.push_back(value);
      } else if (arg == "--case-dir") {
        o.case_dir = value;
      } else if (arg == "--transport") {
#ifdef LOOPNEST_MFC_MPI
        try {
          (void)loopnest::parse_halo_transport(value);
        } catch (const std::invalid_argument& e) {
          throw loopnest_mfc::case_error(std::string("--transport: ") + e.what());
        }
#endif
        o.transport = value;
      } else if (arg == "--precision") {
        if (value != "fp64" && value != "fp32") {
          throw loopnest_mfc::case_error("--precision '" + value + "': it is fp64 or fp32");
        }
        o.precision = value;
      } else {
        if (value != "collapse3" && value != "collapse4" && value != "flat" &&
            value != "automatic") {
          throw loopnest_mfc::case_error("--schedule '" + value +
                                         "': it is collapse3, collapse4, flat or automatic");
        }
        o.schedule = value;
      }
    } else if (arg.rfind("--kokkos-", 0) == 0) {
      continue;  // Kokkos' own options, read by Kokkos::initialize
    } else if (arg == "--profile") {
      o.profile = true;
    } else if (arg == "--no-output") {
      o.output = false;
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

// What every rank of a run agrees on (one rank without MPI): whether all of them succeeded.
bool all_ranks(bool ok) {
#ifdef LOOPNEST_MFC_MPI
  if (!with_mpi) {
    return ok;
  }
  int mine = ok ? 1 : 0, all = 0;
  loopnest_mfc::distributed_case::check(
      MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  return all == 1;
#else
  return ok;
#endif
}

int this_rank() {
  int rank = 0;
#ifdef LOOPNEST_MFC_MPI
  if (with_mpi) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  }
#endif
  return rank;
}

// The run writes into a directory of its own beside D/ and moves its files into D/ only when it
// has ended well, so that a run that fails leaves no output that looks like a result. Every rank
// writes into the one directory rank 0 makes (named after rank 0's process).
class staged_output {
 public:
  explicit staged_output(std::string case_dir)
      : m_case_dir(std::move(case_dir)), m_owner(this_rank() == 0) {
    long id = static_cast<long>(::getpid());
    std::string failure;
    if (m_owner) {
      m_stage = stage_name(id);
      if (::mkdir(m_stage.c_str(), 0777) != 0) {
        failure = "cannot create '" + m_stage + "': " + std::strerror(errno);
        m_stage.clear();
      }
    }
#ifdef LOOPNEST_MFC_MPI
    if (with_mpi) {
      loopnest_mfc::distributed_case::check(MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD),
                                            "MPI_Bcast");
    }
#endif
    if (!all_ranks(failure.empty())) {
      throw std::runtime_error(failure.empty() ? "rank 0 could not create the output stage"
                                               : failure);
    }
    m_stage = stage_name(id);
  }
  staged_output(const staged_output&)            = delete;
  staged_output& operator=(const staged_output&) = delete;
  ~staged_output() {
    discard();
  }

  const std::string& directory() const {
    return m_stage;
  }

  // Moves each file this rank wrote under the stage's D/ into CASE_DIR/D (made when missing);
  // returns the final paths. Collective: every rank throws when any rank failed.
  std::vector<std::string> publish(const std::vector<std::string>& written) {
    const std::string d = m_case_dir + "/D";
    std::string failure;
    if (m_owner && ::mkdir(d.c_str(), 0777) != 0 && errno != EEXIST) {
      failure = "cannot create '" + d + "': " + std::strerror(errno);
    }
    if (!all_ranks(failure.empty())) {
      throw std::runtime_error(failure.empty() ? "rank 0 could not create D/" : failure);
    }
    std::vector<std::string> out;
    for (const std::string& from : written) {
      const std::string to = d + from.substr(from.find_last_of('/'));
      if (std::rename(from.c_str(), to.c_str()) != 0) {
        failure = "cannot move '";
        failure += from;
        failure += "' to '";
        failure += to;
        failure += "': ";
        failure += std::strerror(errno);
        break;
      }
      out.push_back(to);
    }
    if (!all_ranks(failure.empty())) {
      throw std::runtime_error(failure.empty() ? "another rank could not move its output"
                                               : failure);
    }
    discard();
    return out;
  }

  // Removes the stage and whatever is still in it (rank 0, once every rank is done with it).
  void discard() {
    if (m_stage.empty()) {
      return;
    }
#ifdef LOOPNEST_MFC_MPI
    if (with_mpi) {
      MPI_Barrier(MPI_COMM_WORLD);
    }
#endif
    if (m_owner) {
      const std::string d = m_stage + "/D";
      if (DIR* dir = ::opendir(d.c_str())) {
        while (const dirent* e = ::readdir(dir)) {
          const std::string name = e->d_name;
          if (name != "." && name != "..") {
            std::string path = d;
            path += '/';
            path += name;
            std::remove(path.c_str());
          }
        }
        ::closedir(dir);
      }
      ::rmdir(d.c_str());
      ::rmdir(m_stage.c_str());
    }
    m_stage.clear();
  }

 private:
  std::string m_case_dir;
  bool m_owner;
  std::string m_stage;

  std::string stage_name(long id) const {
    return m_case_dir + "/.loopnest-mfc-" + std::to_string(id);
  }
};

// The device's copy bandwidth in bytes per second: the best of five copies of `bytes`.
double copy_bandwidth(std::size_t bytes) {
  Kokkos::View<char*> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy_a"), bytes);
  Kokkos::View<char*> b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy_b"), bytes);
  Kokkos::deep_copy(a, char(1));
  double best = 0.0;
  for (int r = 0; r < 6; ++r) {
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    Kokkos::deep_copy(b, a);
    Kokkos::fence();
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (r > 0) {
      best = std::max(best, 2.0 * static_cast<double>(bytes) / s);
    }
  }
  return best;
}

void print_profile(const loopnest_mfc::kernel_profile& profile, double copy_bytes_per_second,
                   int steps) {
  double total = 0.0;
  for (const auto& [name, e] : profile.entries()) {
    total += e.seconds;
  }
  std::printf("PROFILE_COPY_BANDWIDTH_GBS=%.1f\n", copy_bytes_per_second * 1e-9);
  std::printf("PROFILE %-20s %7s %12s %9s %12s %9s %9s\n", "loop", "calls", "ms_per_step", "share",
              "GB_per_call", "GB/s", "of_copy");
  for (const auto& [name, e] : profile.entries()) {
    const double rate = e.bytes / e.seconds;
    std::printf("PROFILE %-20s %7ld %12.4f %8.1f%% %12.4f %9.1f %8.1f%%\n", name.c_str(), e.calls,
                1e3 * e.seconds / std::max(1, steps), 100.0 * e.seconds / total,
                1e-9 * e.bytes / static_cast<double>(e.calls), 1e-9 * rate,
                100.0 * rate / copy_bytes_per_second);
  }
  std::printf("PROFILE %-20s %7s %12.4f\n", "total", "", 1e3 * total / std::max(1, steps));
}

// --profile's table, printed by rank 0.
template <class T>
void print_profile_of(const loopnest_mfc::case_config& c, const options& o,
                      const loopnest_mfc::kernel_profile& profile,
                      const loopnest_mfc::run_result& r) {
  if (o.profile) {
    const std::size_t bytes = static_cast<std::size_t>(c.sys_size()) * (c.m() + 1) * (c.n() + 1) *
                              (c.p() + 1) * sizeof(T);
    const double bandwidth = copy_bandwidth(bytes);
    if (this_rank() == 0) {
      print_profile(profile, bandwidth, r.steps);
    }
  }
}

template <class T>
loopnest_mfc::run_result run_precision(const loopnest_mfc::run_site& site,
                                       const loopnest_mfc::initial_condition& ic, const options& o,
                                       const std::string& out_dir) {
  const loopnest_mfc::host_fields cons = loopnest_mfc::conservative_of<T>(site.c, ic.prim);
  loopnest_mfc::kernel_profile profile(o.profile);
  loopnest_mfc::run_result r;
  if (o.schedule == "collapse4") {
    r = loopnest_mfc::run_schedule<T, loopnest::collapse4>(site, cons, out_dir, profile);
  } else if (o.schedule == "flat") {
    r = loopnest_mfc::run_schedule<T, loopnest::flat>(site, cons, out_dir, profile);
  } else if (o.schedule == "automatic") {
    r = loopnest_mfc::run_schedule<T, loopnest::automatic>(site, cons, out_dir, profile);
  } else {
    r = loopnest_mfc::run_schedule<T, loopnest::collapse3>(site, cons, out_dir, profile);
  }
  print_profile_of<T>(site.c, o, profile, r);
  return r;
}

int run_tool(int argc, char* argv[]) {
  const bool root = this_rank() == 0;
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
    // Every rank reads the same files and arguments, so every rank refuses them alike.
    if (root) {
      std::fprintf(stderr, "loopnest-mfc: %s\n", e.what());
    }
    return refused;
  }

  const Kokkos::ScopeGuard kokkos(argc, argv);
  const loopnest_mfc::grid whole_grid = loopnest_mfc::generate_grid(c);
#ifdef LOOPNEST_MFC_MPI
  std::optional<loopnest_mfc::distributed_case> distributed;
  loopnest::halo_transport transport = loopnest::halo_transport::mpi_host;
  if (with_mpi) {
    try {
      transport = loopnest::parse_halo_transport(o.transport);
      distributed.emplace(MPI_COMM_WORLD, c, whole_grid);
    } catch (const std::exception& e) {
      if (root) {
        std::fprintf(stderr, "loopnest-mfc: %s\n", e.what());
      }
      return refused;
    }
  }
  const loopnest_mfc::run_site site =
      distributed ? loopnest_mfc::run_site{distributed->local(), distributed->local_grid_of_rank(),
                                           &*distributed, transport}
                  : loopnest_mfc::run_site{c, whole_grid};
#else
  const loopnest_mfc::run_site site{c, whole_grid};
#endif
  const loopnest_mfc::initial_condition ic = loopnest_mfc::apply_patches(site.c, site.g);
  loopnest_mfc::run_result r;
  std::vector<std::string> written;
  try {
    // --no-output makes no stage, so a read-only case directory does not stop a timing run.
    std::optional<staged_output> stage;
    if (o.output) {
      stage.emplace(o.case_dir);
    }
    try {
      const std::string out = stage ? stage->directory() : std::string();
      r                     = o.precision == "fp32" ? run_precision<float>(site, ic, o, out)
                                                    : run_precision<double>(site, ic, o, out);
    } catch (const loopnest_mfc::unphysical_state& e) {
      if (root) {
        std::fprintf(stderr, "loopnest-mfc: %s; nothing was put in %s/D\n", e.what(),
                     o.case_dir.c_str());
      }
      return unphysical;
    }
    if (stage) {
      written = stage->publish(r.written);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loopnest-mfc: %s\n", e.what());
    return io_error;
  }
  if (!root) {
    return done;
  }
  std::printf("CASE=%s\nDIMENSIONS=%d\nCELLS=%d %d %d\nFLUIDS=%d\nEQUATIONS=%d\nPATCHES=%zu\n",
              c.source.c_str(), c.num_dims, c.m() + 1, c.n() + 1, c.p() + 1, c.num_fluids,
              c.sys_size(), c.patches.size());
  std::printf("PRECISION=%s\nSCHEDULE=%s\nSTEPS=%d\nTIMED_STEPS=%d\nFILES=%zu\nOUTPUT=%s/D\n",
              o.precision.c_str(), o.schedule.c_str(), r.steps, r.timed_steps, written.size(),
              o.case_dir.c_str());
#ifdef LOOPNEST_MFC_MPI
  if (distributed) {
    const loopnest::cartesian_decomposition& d = distributed->decomposition();
    std::printf("RANKS=%d\nDECOMPOSITION=%d %d %d\nTRANSPORT=%s\n", d.size(), d.ranks(0),
                c.num_dims > 1 ? d.ranks(1) : 1, c.num_dims > 2 ? d.ranks(2) : 1,
                o.transport.c_str());
  }
#endif
  if (r.timed_steps > 0) {
    std::printf("Time per step: %.6e s\n", r.time_avg);
    std::printf("Time per step, stages fenced: %.6e s\n", r.time_avg_fenced);
    std::printf("Step grind: %.6f ns/gp/eq/step\n", r.step_grind);
    std::printf("Shortest stage: %.6e s\n", r.stage_min);
    std::printf("Performance: %.6f ns/gp/eq/rhs\n", r.grind_time);
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "loopnest-mfc: writing standard output failed\n");
    return io_error;
  }
  return done;
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
#ifdef LOOPNEST_MFC_MPI
  with_mpi = loopnest::started_by_mpi_launcher();
  for (int k = 1; k < argc; ++k) {
    with_mpi = with_mpi || std::strcmp(argv[k], "--transport") == 0;
  }
  if (!with_mpi) {
    return run_tool(argc, argv);
  }
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    std::fprintf(stderr, "loopnest-mfc: MPI_Init failed\n");
    return io_error;
  }
  // Every rank returns the same status but for an output error, which may be one rank's: the
  // job's status is the worst.
  const int mine = run_tool(argc, argv);
  int status     = mine;
  MPI_Allreduce(&mine, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
#else
  return run_tool(argc, argv);
#endif
}
