// loopnest-mfc: MFC's five-equation model (model_eqns = 2) on loopnest, from MFC's own case files:
// reads and checks a case, builds MFC's grid and initial condition, runs MFC's right-hand side
// (WENO5, HLLC, the volume-fraction source) with SSP-RK3 on the schedule chosen at run time, and
// writes MFC's serial output and grind time.
#include "case.hpp"
#include "eos.hpp"
#include "grid.hpp"
#include "json.hpp"
#include "memory.hpp"
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
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
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
      "                    [--precision fp64|fp32] [--schedule SCHEDULE] [--sweep] [--profile]\n"
      "                    [--output-format mfc|vtk|both|binary] [--no-output]\n"
      "       loopnest-mfc --list-parameters\n"
      "Reads the JSON dictionary an MFC case.py prints (python3 case.py > CASE.json) for\n"
      "model_eqns = 2, checks every parameter before anything runs, builds MFC's grid and\n"
      "initial condition, takes SSP-RK3 steps of dt from t_step_start to t_step_stop with\n"
      "MFC's right-hand side (WENO5, HLLC, volume-fraction source) and writes MFC's serial\n"
      "output to DIR/D (cons.<v>.00.<step>.dat; prim.* in 1D and with prim_vars_wrt = T) at\n"
      "t_step_start, every t_step_save steps and at t_step_stop. With cfl_adap_dt = T\n"
      "(cfl_const_dt = T) dt comes from cfl_target before every step (the first), the steps\n"
      "run from t_save*n_start to t_stop, the last shortened to end on it, and the outputs\n"
      "(at the start, after each step past a multiple of t_save, at t_stop) are numbered\n"
      "int(t/t_save). With run_time_info = T, DIR/run_time.inf gets MFC's row per step (its\n"
      "ICFL), and a step past an ICFL of 1 ends the run (exit status 1). The files appear in\n"
      "D/ when the run has ended well; until then they are kept aside (in DIR/.loopnest-mfc-*,\n"
      "removed on an interrupt and by the next run when the process was killed). A run\n"
      "replaces the output of earlier runs: the output files in D/ (cons.*, prim.*, state.* by\n"
      "the names it writes) that it did not write are removed (REPLACED= counts them); other\n"
      "files in D/ stay.\n"
      "  --override KEY=VALUE  replace or add one parameter (T and F are logicals);\n"
      "                        KEY= (no value) takes KEY out of the case\n"
      "  --case-dir DIR        where D/ goes (default: the directory of CASE.json)\n"
      "  --precision P         fp64 (default) or fp32: the scalar type of the whole run\n"
      "  --schedule S          how every loop maps onto the device: collapse3 (default),\n"
      "                        collapse4, flat or automatic (loopnest's schedules)\n"
      "  --sweep               each direction's WENO and Riemann solver as one loopnest::sweep,\n"
      "                        the reconstructed values in team scratch instead of memory\n"
      "                        (the same bits); the other loops as --schedule says\n"
      "  --profile             fence and time every loop; print each loop's time and its share\n"
      "                        of the copy bandwidth measured in the same run\n"
      "  --output-format F     what D/ gets: mfc (default), MFC's text files; vtk, VTK XML\n"
      "                        files ParaView opens (state.<rank>.<step>.vtr, a rectilinear\n"
      "                        grid of the cells with one array per variable under MFC's\n"
      "                        names, raw appended binary in the run's precision, and\n"
      "                        state.pvd, the steps and their times); both; binary,\n"
      "                        MFC's serial binary files (parallel_io = F) that its\n"
      "                        post_process reads: p_all/p<rank>/<step>/x_cb.dat,\n"
      "                        q_cons_vf<i>.dat, Fortran records in the run's precision\n"
      "  --no-output           write no output files and no run_time.inf (timing runs: a\n"
      "                        201^3 case's text output is tens of GB)\n"
      "  --list-parameters     every key of MFC's case dictionary: those this port\n"
      "                        implements (values, and MFC's names for them: \"5eq\",\n"
      "                        \"hllc\"), those it accepts without effect (output,\n"
      "                        post_process, features left off; named on stderr when a\n"
      "                        case gives them) and those it refuses\n"
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
      "Exit status: 0 done; 1 the run went unphysical (a value not finite: the step and the\n"
      "cell are named; an ICFL past 1 with run_time_info = T; with cfl_adap_dt = T a dt below\n"
      "a thousandth of the first: no output is put in D/); 2 the case, its grid, its initial\n"
      "condition or the command line is refused, or the case does not fit in memory (a line\n"
      "for each refused parameter, nothing written); 3 an output could not be written.\n");
}

const char* type_name(loopnest_mfc::value_type type) {
  switch (type) {
    case loopnest_mfc::value_type::integer:
      return "integer";
    case loopnest_mfc::value_type::real:
      return "real";
    case loopnest_mfc::value_type::logical:
      return "logical";
    case loopnest_mfc::value_type::text:
      return "string";
    case loopnest_mfc::value_type::expression:
      return "real|f(x)";
  }
  return "";
}

// Every key of MFC's case dictionary, in three groups: what the port implements (with the
// values, and the names MFC's toolchain writes for them), what it accepts without effect, and
// what it refuses.
void list_parameters() {
  using loopnest_mfc::key_role;
  std::printf("# implemented: key, type, values implemented, meaning\n");
  for (const loopnest_mfc::parameter_spec& spec : loopnest_mfc::supported_parameters) {
    const std::string allowed =
        *spec.allowed == '\0' ? std::string("any") : loopnest_mfc::value_list(spec.allowed);
    const std::string names = loopnest_mfc::enum_names_of(spec.shape);
    std::printf("%-32s %-8s %-16s %s%s\n", spec.shape, type_name(spec.type), allowed.c_str(),
                spec.meaning, names.empty() ? "" : (" (MFC's names: " + names + ")").c_str());
  }
  const auto group = [](key_role role, const char* heading, const char* values) {
    std::printf("# %s\n", heading);
    for (const loopnest_mfc::mfc_key& key : loopnest_mfc::mfc_case_keys) {
      if (key.role == role) {
        const char* shown_values = key.type == loopnest_mfc::value_type::logical ? "F" : values;
        std::printf("%-32s %-8s %-16s %s\n", key.shape, type_name(key.type),
                    role == key_role::off_only ? shown_values : values, key.why);
      }
    }
  };
  group(key_role::no_effect,
        "accepted without effect (named on standard error when a case gives them): key, type, "
        "-, what reads it in MFC",
        "-");
  group(key_role::off_only,
        "accepted off only (MFC's default), refused on: key, type, value accepted, feature", "0");
  group(key_role::refused, "refused whatever the value: key, type, -, why", "-");
}

struct options {
  std::string case_file;
  std::string case_dir;
  std::vector<std::string> overrides;
  std::string precision              = "fp64";
  std::string schedule               = "collapse3";
  bool profile                       = false;
  bool sweep                         = false;
  bool output                        = true;
  loopnest_mfc::output_format format = loopnest_mfc::output_format::mfc;
  std::string transport              = "mpi_host";
};

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

options parse_arguments(int argc, char* argv[]) {
  options o;
  // An option given twice, or a key overridden twice, is refused: the first would be ignored.
  std::vector<std::string> given;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--override" || arg == "--case-dir" || arg == "--precision" || arg == "--schedule" ||
        arg == "--output-format" || (mpi_build && arg == "--transport")) {
      if (k + 1 >= argc) {
        throw loopnest_mfc::case_error(arg + " needs a value");
      }
      const std::string value = argv[++k];
      const std::string what =
          arg == "--override" ? "--override " + loopnest_mfc::override_key(value) : arg;
      if (std::find(given.begin(), given.end(), what) != given.end() && what != "--override ") {
        throw loopnest_mfc::case_error(
            arg == "--override"
                ? "--override: '" + loopnest_mfc::shown(loopnest_mfc::override_key(value)) +
                      "' is overridden twice"
                : arg + " is given twice");
      }
      given.push_back(what);
      if (arg == "--override") {
        o.overrides.push_back(value);
      } else if (arg == "--case-dir") {
        if (value.empty()) {
          throw loopnest_mfc::case_error("--case-dir: the directory name is empty");
        }
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
      } else if (arg == "--output-format") {
        if (!loopnest_mfc::parse_output_format(value, o.format)) {
          throw loopnest_mfc::case_error("--output-format '" + value +
                                         "': it is mfc, vtk, both or binary");
        }
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
    } else if (arg == "--sweep") {
      o.sweep = true;
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
    // A case read from a device or a process's file (/dev/stdin) has no directory for D/.
    if (o.case_dir == "/dev" || o.case_dir.rfind("/dev/", 0) == 0 ||
        o.case_dir.rfind("/proc", 0) == 0) {
      throw loopnest_mfc::case_error("--case-dir is needed: the case file '" + o.case_file +
                                     "' is read from " + o.case_dir + ", where D/ cannot go");
    }
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

int world_size() {
  int size = 1;
#ifdef LOOPNEST_MFC_MPI
  if (with_mpi) {
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
#endif
  return size;
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

// The output file names a run replaces in D/: MFC's, "<cons|prim>.<variable>.<rank, two digits
// or more>.<step, six digits>.dat", and the VTK files, "state.<rank>.<step>.vtr" and state.pvd.
bool is_output_name(const std::string& name, std::string* with_rank = nullptr, int rank = 0) {
  if (name == loopnest_mfc::vtk_collection_name) {
    if (with_rank != nullptr) {
      *with_rank = name;
    }
    return true;
  }
  const std::size_t first = name.find('.');
  if (first == std::string::npos) {
    return false;
  }
  const bool vtk = name.compare(0, first, "state") == 0;
  if (!vtk && name.compare(0, first, "cons") != 0 && name.compare(0, first, "prim") != 0) {
    return false;
  }
  std::size_t at    = first + 1;
  const auto digits = [&](std::size_t least, std::size_t most) {
    std::size_t n = 0;
    while (at + n < name.size() && name[at + n] >= '0' && name[at + n] <= '9') {
      ++n;
    }
    at += n;
    return n >= least && n <= most;
  };
  const auto dot = [&]() { return at < name.size() && name[at++] == '.'; };
  if (!vtk && (!digits(1, 9) || !dot())) {
    return false;
  }
  const std::size_t rank_at = at;
  if (!digits(2, 9) || !dot()) {
    return false;
  }
  const std::size_t rank_end = at - 1;
  if (!digits(6, 6) || name.compare(at, std::string::npos, vtk ? ".vtr" : ".dat") != 0) {
    return false;
  }
  if (with_rank != nullptr) {
    char text[16];
    std::snprintf(text, sizeof(text), "%02d", rank);
    *with_rank = name.substr(0, rank_at) + text + name.substr(rank_end);
  }
  return true;
}

std::string path_in(const std::string& dir, const std::string& name) {
  std::string path = dir;
  path += '/';
  path += name;
  return path;
}

// The names in a directory (without . and ..); none when it cannot be read.
std::vector<std::string> entries_of(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") {
        names.push_back(name);
      }
    }
    ::closedir(d);
  }
  return names;
}

// Removes a directory and what is in it, not following links: the files first, then the
// directories, deepest first.
void remove_tree(const std::string& top) {
  std::vector<std::string> dirs = {top};
  for (std::size_t k = 0; k < dirs.size(); ++k) {
    for (const std::string& name : entries_of(dirs[k])) {
      const std::string path = path_in(dirs[k], name);
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        dirs.push_back(path);
      } else {
        std::remove(path.c_str());
      }
    }
  }
  for (auto dir = dirs.rbegin(); dir != dirs.rend(); ++dir) {
    ::rmdir(dir->c_str());
  }
}

// Removes a stage: its D/ and p_all/ (MFC's binary output) with their files, and the stage
// itself.
void remove_stage(const std::string& stage) {
  remove_tree(stage + "/D");
  remove_tree(stage + "/p_all");
  ::rmdir(stage.c_str());
}

constexpr const char* stage_prefix = ".loopnest-mfc-";

// Removes the stages in `case_dir` that processes of this host left when they died (killed, or
// ended by a signal this program cannot catch), naming each on stderr.
void remove_stale_stages(const std::string& case_dir) {
  const std::string mine = stage_prefix + loopnest::host_name_for_files() + "-";
  for (const std::string& name : entries_of(case_dir)) {
    const long pid = loopnest::ended_writer(name, mine);
    if (pid == 0 || name != mine + std::to_string(pid)) {
      continue;
    }
    const std::string path = path_in(case_dir, name);
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      remove_stage(path);
      if (::lstat(path.c_str(), &st) != 0) {
        std::fprintf(stderr, "loopnest-mfc: removed '%s', left by process %ld, which has ended\n",
                     path.c_str(), pid);
      }
    }
  }
}

// The stage a signal removes before the process ends: fixed buffers, set before the stage is
// made and cleared before it is removed, so that the handler needs only async-signal-safe calls.
char signal_stage[4096];
char signal_stage_d[4096];
volatile std::sig_atomic_t signal_stage_set = 0;

#if defined(__linux__)
struct linux_dirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};
#endif

extern "C" void remove_stage_on_signal(int signal) {
  if (signal_stage_set != 0) {
#if defined(__linux__)
    const int fd = ::open(signal_stage_d, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
      // Unlinking while reading may skip entries: read again until a pass removes nothing.
      bool removed = true;
      while (removed) {
        removed = false;
        ::lseek(fd, 0, SEEK_SET);
        alignas(8) char buffer[4096];
        long n = 0;
        while ((n = ::syscall(SYS_getdents64, fd, buffer, sizeof(buffer))) > 0) {
          for (long at = 0; at < n;) {
            const auto* e  = reinterpret_cast<const linux_dirent64*>(buffer + at);
            const bool dot = e->d_name[0] == '.' && (e->d_name[1] == '\0' ||
                                                     (e->d_name[1] == '.' && e->d_name[2] == '\0'));
            removed        = (!dot && ::unlinkat(fd, e->d_name, 0) == 0) || removed;
            at += e->d_reclen;
          }
        }
      }
      ::close(fd);
    }
#endif
    ::rmdir(signal_stage_d);
    ::rmdir(signal_stage);
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// The run writes into a directory of its own beside D/ and moves its files into D/ only when it
// has ended well, so that a run that fails leaves no output that looks like a result. Every rank
// writes into the one directory rank 0 makes (named after rank 0's host and process). An
// interrupt, a termination or a hang-up removes it; one that a killed process left behind is
// removed by the next run in the same case directory.
class staged_output {
 public:
  explicit staged_output(std::string case_dir)
      : m_case_dir(std::move(case_dir)), m_owner(this_rank() == 0) {
    long id = static_cast<long>(::getpid());
    std::string failure;
    if (m_owner) {
      remove_stale_stages(m_case_dir);
      m_stage = stage_name(id);
      arm_signals();
      if (::mkdir(m_stage.c_str(), 0777) != 0) {
        failure = "cannot create '" + m_stage + "': " + std::strerror(errno);
        disarm_signals();
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

  // What publishing moves and removes: this rank's files and their places in CASE_DIR/D, and
  // (rank 0) the output files of earlier runs there that no rank of this run writes.
  struct plan {
    std::vector<std::string> from, to, stale;
  };

  // Makes CASE_DIR/D when missing and checks that every file can be put in place (an existing
  // one of the same name is a regular file, D/ takes files) before anything moves, so that a
  // publication that cannot complete does not start. Collective: every rank throws when any
  // rank failed.
  plan prepare(const std::vector<std::string>& written, int ranks) const {
    const std::string d = m_case_dir + "/D";
    std::string failure;
    plan out;
    if (m_owner) {
      struct stat st {};
      if (::mkdir(d.c_str(), 0777) != 0 && errno != EEXIST) {
        failure = "cannot create '" + d + "': " + std::strerror(errno);
      } else if (::stat(d.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        failure = "'" + d + "' is not a directory";
      } else if (::access(d.c_str(), W_OK | X_OK) != 0) {
        failure = "cannot write in '" + d + "': " + std::strerror(errno);
      }
    }
    if (!all_ranks(failure.empty())) {
      throw std::runtime_error(failure.empty() ? "rank 0 could not use D/" : failure);
    }
    for (const std::string& from : written) {
      // D/<file>, or p_all/p<rank>/<step>/<file>, whose directories are made here.
      const std::string to = m_case_dir + from.substr(m_stage.size());
      for (std::size_t at = m_case_dir.size() + 1;
           failure.empty() && (at = to.find('/', at)) != std::string::npos; ++at) {
        const std::string parent = to.substr(0, at);
        if (::mkdir(parent.c_str(), 0777) != 0 && errno != EEXIST) {
          failure = "cannot create '" + parent + "': " + std::strerror(errno);
        }
      }
      struct stat st {};
      if (!failure.empty()) {
        break;
      }
      if (::lstat(to.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        failure = "'" + to + "' exists and is not a regular file; D/ was left as it was";
        break;
      }
      out.from.push_back(from);
      out.to.push_back(to);
    }
    if (!all_ranks(failure.empty())) {
      throw std::runtime_error(failure.empty() ? "another rank cannot put its output in place"
                                               : failure);
    }
    if (m_owner) {
      // Every rank writes the names rank 0 writes with its own rank in them.
      std::vector<std::string> now;
      for (const std::string& path : out.to) {
        const std::string name = path.substr(path.find_last_of('/') + 1);
        for (int r = 0; r < ranks && is_output_name(name); ++r) {
          std::string of_rank;
          is_output_name(name, &of_rank, r);
          now.push_back(of_rank);
        }
      }
      std::sort(now.begin(), now.end());
      for (const std::string& name : entries_of(d)) {
        if (is_output_name(name) && !std::binary_search(now.begin(), now.end(), name)) {
          out.stale.push_back(name);
        }
      }
    }
    return out;
  }

  // Moves this rank's files into place and (rank 0) removes the stale ones, with interrupts,
  // terminations and hang-ups held until D/ holds this run's output alone; then removes the
  // stage. Collective: every rank throws when any rank failed.
  void commit(const plan& p) {
    sigset_t held, before;
    sigemptyset(&held);
    for (const int signal : stage_signals) {
      sigaddset(&held, signal);
    }
    ::sigprocmask(SIG_BLOCK, &held, &before);
    std::string failure;
    for (std::size_t k = 0; k < p.from.size() && failure.empty(); ++k) {
      if (std::rename(p.from[k].c_str(), p.to[k].c_str()) != 0) {
        failure = "cannot put '" + p.to[k] + "' in place: " + std::strerror(errno);
      }
    }
    if (all_ranks(failure.empty()) && m_owner) {
      for (const std::string& name : p.stale) {
        std::remove(path_in(m_case_dir + "/D", name).c_str());
      }
    }
    discard();
    ::sigprocmask(SIG_SETMASK, &before, nullptr);
    if (!failure.empty()) {
      throw std::runtime_error(failure);
    }
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
      disarm_signals();
      remove_stage(m_stage);
    }
    m_stage.clear();
  }

 private:
  std::string m_case_dir;
  bool m_owner;
  std::string m_stage;

  std::string stage_name(long id) const {
    return m_case_dir + "/" + stage_prefix + loopnest::host_name_for_files() + "-" +
           std::to_string(id);
  }

  // The signals that remove the stage; one the process was started ignoring (nohup) stays
  // ignored.
  static constexpr int stage_signals[] = {SIGINT, SIGTERM, SIGHUP};
  static inline bool armed[3]          = {false, false, false};

  void arm_signals() const {
    const std::string d = m_stage + "/D";
    if (d.size() >= sizeof(signal_stage_d)) {
      return;  // a path this long is refused by mkdir anyway
    }
    std::snprintf(signal_stage, sizeof(signal_stage), "%s", m_stage.c_str());
    std::snprintf(signal_stage_d, sizeof(signal_stage_d), "%s", d.c_str());
    signal_stage_set = 1;
    for (int k = 0; k < 3; ++k) {
      struct sigaction current {};
      armed[k] = ::sigaction(stage_signals[k], nullptr, &current) == 0 &&
                 current.sa_handler != SIG_IGN &&
                 std::signal(stage_signals[k], remove_stage_on_signal) != SIG_ERR;
    }
  }

  static void disarm_signals() {
    signal_stage_set = 0;
    for (int k = 0; k < 3; ++k) {
      if (armed[k]) {
        std::signal(stage_signals[k], SIG_DFL);
        armed[k] = false;
      }
    }
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
                                       const loopnest_mfc::host_fields& cons, const options& o,
                                       const std::string& out_dir) {
  loopnest_mfc::kernel_profile profile(o.profile);
  loopnest_mfc::run_result r;
  if (o.schedule == "collapse4") {
    r = loopnest_mfc::run_schedule<T, loopnest::collapse4>(site, cons, out_dir, o.format, profile);
  } else if (o.schedule == "flat") {
    r = loopnest_mfc::run_schedule<T, loopnest::flat>(site, cons, out_dir, o.format, profile);
  } else if (o.schedule == "automatic") {
    r = loopnest_mfc::run_schedule<T, loopnest::automatic>(site, cons, out_dir, o.format, profile);
  } else {
    r = loopnest_mfc::run_schedule<T, loopnest::collapse3>(site, cons, out_dir, o.format, profile);
  }
  print_profile_of<T>(site.c, o, profile, r);
  return r;
}

// fp32's note is printed when a patch's pressure is within this many of
// single_precision_pressure_step: errors of a few steps (docs/mfc.md, "Precision") are then past
// a thousandth of the pressure.
constexpr double fp32_pressure_margin = 1000.0;

// A refusal on stderr, each of its lines (one per refused parameter) under the program's name.
void print_refusal(const std::string& text) {
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    std::fprintf(stderr, "loopnest-mfc: %s\n", text.substr(from, end - from).c_str());
    from = end + 1;
  }
}

// The run's summary on standard output (rank 0): KEY=VALUE lines and MFC's timing lines; whether
// it could be written.
bool print_summary(const loopnest_mfc::case_config& c, const options& o,
                   const loopnest_mfc::run_result& r, std::size_t files, int replaced,
                   const loopnest_mfc::run_site& site) {
  std::printf("CASE=%s\nDIMENSIONS=%d\nCELLS=%d %d %d\nFLUIDS=%d\nEQUATIONS=%d\nPATCHES=%zu\n",
              c.source.c_str(), c.num_dims, c.m() + 1, c.n() + 1, c.p() + 1, c.num_fluids,
              c.sys_size(), c.patches.size());
  std::printf("PRECISION=%s\nSCHEDULE=%s%s\nSTEPS=%d\nTIMED_STEPS=%d\nFILES=%zu\nOUTPUT=%s/D\n",
              o.precision.c_str(), o.schedule.c_str(), o.sweep ? " (directions as sweeps)" : "",
              r.steps, r.timed_steps, files, o.case_dir.c_str());
  std::printf("REPLACED=%d\nTIME=%.17g\n", replaced, r.time);
#ifdef LOOPNEST_MFC_MPI
  if (site.distributed != nullptr) {
    const loopnest::cartesian_decomposition& d = site.distributed->decomposition();
    std::printf("RANKS=%d\nDECOMPOSITION=%d %d %d\nTRANSPORT=%s\n", d.size(), d.ranks(0),
                c.num_dims > 1 ? d.ranks(1) : 1, c.num_dims > 2 ? d.ranks(2) : 1,
                o.transport.c_str());
  }
#else
  (void)site;
#endif
  std::printf("CFL=%.17g\nCFL_MAX=%.17g\n", r.cfl, r.cfl_max);
  if (r.timed_steps > 0) {
    std::printf("Time per step: %.6e s\n", r.time_avg);
    std::printf("Time per step, stages fenced: %.6e s\n", r.time_avg_fenced);
    std::printf("Step grind: %.6f ns/gp/eq/step\n", r.step_grind);
    std::printf("Shortest stage: %.6e s\n", r.stage_min);
    std::printf("Performance: %.6f ns/gp/eq/rhs\n", r.grind_time);
  }
  return std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
}

// The rank that reports a failure which ends the run on every rank: the lowest failing one.
// Collective.
bool reports_failure(bool failed) {
#ifdef LOOPNEST_MFC_MPI
  if (with_mpi) {
    const int rank = this_rank();
    int mine = failed ? rank : std::numeric_limits<int>::max(), first = mine;
    loopnest_mfc::distributed_case::check(
        MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
    return failed && first == rank;
  }
#endif
  return failed;
}

// What the device has free for the run; a device that is the host counts against the host.
constexpr bool device_is_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                               Kokkos::DefaultExecutionSpace::memory_space>::accessible;
double available_device_bytes() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess) {
    return static_cast<double>(free);
  }
#endif
  return std::numeric_limits<double>::infinity();
}

// A failed allocation, said in the case's terms.
std::string allocation_message(const loopnest_mfc::case_config& c, const std::exception& e) {
  return "not enough memory for the case (m = " + std::to_string(c.m()) +
         ", n = " + std::to_string(c.n()) + ", p = " + std::to_string(c.p()) + "): " + e.what();
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
    const std::string precision = loopnest_mfc::precision_problem(c, o.precision == "fp32");
    if (!precision.empty()) {
      throw loopnest_mfc::case_error(precision);
    }
  } catch (const std::exception& e) {
    // Every rank reads the same files and arguments, so every rank refuses them alike.
    if (root) {
      print_refusal(e.what());
    }
    return refused;
  }
  if (root && !c.without_effect.empty()) {
    std::string keys;
    for (const std::string& key : c.without_effect) {
      keys += (keys.empty() ? "" : ", ") + loopnest_mfc::shown(key);
    }
    std::fprintf(stderr, "loopnest-mfc: note: not affecting this run: %s\n", keys.c_str());
  }

  const Kokkos::ScopeGuard kokkos(argc, argv);
  // Each step up to the first time step runs on every rank and ends the run on all of them when
  // it fails on any (the lowest failing rank says why): a grid or an initial condition the port
  // refuses, and a case too large for the memory, checked before it is allocated.
  const auto agreed = [&](const auto& step) {
    std::string failure;
    try {
      step();
    } catch (const std::exception& e) {
      failure = loopnest_mfc::is_allocation_failure(e) ? allocation_message(c, e) : e.what();
    }
    const bool ok = all_ranks(failure.empty());
    if (reports_failure(!failure.empty())) {
      std::fprintf(stderr, "loopnest-mfc: %s\n", failure.c_str());
    }
    return ok;
  };
  std::optional<loopnest_mfc::grid> whole_grid;
  if (!agreed([&] {
        // The grid, and this rank's share of the rest at least, before the grid is built.
        const double grid         = loopnest_mfc::grid_bytes(c);
        const std::string problem = loopnest_mfc::memory_problem(
            c, grid + (loopnest_mfc::host_bytes_of_run(c) - grid) / world_size(), 0.0,
            loopnest::host_memory_headroom(), std::numeric_limits<double>::infinity(), false);
        if (!problem.empty()) {
          throw loopnest_mfc::case_error(problem);
        }
        whole_grid.emplace(loopnest_mfc::generate_grid(c));
      })) {
    return refused;
  }
#ifdef LOOPNEST_MFC_MPI
  std::optional<loopnest_mfc::distributed_case> distributed;
  loopnest::halo_transport transport = loopnest::halo_transport::mpi_host;
  if (with_mpi && !agreed([&] {
        transport = loopnest::parse_halo_transport(o.transport);
        distributed.emplace(MPI_COMM_WORLD, c, *whole_grid);
      })) {
    return refused;
  }
  loopnest_mfc::run_site site =
      distributed ? loopnest_mfc::run_site{distributed->local(), distributed->local_grid_of_rank(),
                                           nullptr, &*distributed, transport}
                  : loopnest_mfc::run_site{c, *whole_grid};
  const loopnest_mfc::rank_set ranks =
      distributed ? distributed->ranks() : loopnest_mfc::rank_set{};
  const int rank_count = distributed ? distributed->size() : 1;
#else
  loopnest_mfc::run_site site{c, *whole_grid};
  const loopnest_mfc::rank_set ranks{};
  const int rank_count = 1;
#endif
  site.sweep = o.sweep;
  std::optional<loopnest_mfc::initial_condition> ic;
  if (!agreed([&] {
        const double device_bytes =
            o.precision == "fp32" ? loopnest_mfc::five_equation_solver<float>::field_bytes(site.c)
                                  : loopnest_mfc::five_equation_solver<double>::field_bytes(site.c);
        const std::string problem = loopnest_mfc::memory_problem(
            site.c, loopnest_mfc::host_bytes_of_run(site.c), device_bytes,
            loopnest::host_memory_headroom(), available_device_bytes(), device_is_host);
        if (!problem.empty()) {
          throw loopnest_mfc::case_error(problem);
        }
        ic.emplace(loopnest_mfc::apply_patches(site.c, site.g));
      })) {
    return refused;
  }
  // Said before the check below, whose "no patch covers it" such a patch often explains.
  for (std::size_t k = 0; k < ic->laid.size(); ++k) {
    if (ranks.max(static_cast<double>(ic->laid[k])) == 0.0 && root) {
      std::fprintf(stderr,
                   "loopnest-mfc: note: patch %zu lays no cell (it lies outside the domain, or "
                   "the patches before it are not ones it may alter)\n",
                   k + 1);
    }
  }
  // The conservative state the run starts from, in the run's precision, checked as well.
  std::optional<loopnest_mfc::host_fields> cons;
  if (!agreed([&] {
        loopnest_mfc::initial_condition_check check =
            loopnest_mfc::check_initial_condition(site.c, site.g, *ic, ranks.offset);
        if (check.cell < 0) {
          cons.emplace(o.precision == "fp32"
                           ? loopnest_mfc::conservative_of<float>(site.c, ic->prim)
                           : loopnest_mfc::conservative_of<double>(site.c, ic->prim));
          check = loopnest_mfc::check_conservative_state(site.c, site.g, *ic, *cons,
                                                         o.precision.c_str(), ranks.offset);
        }
        if (check.cell >= 0) {
          throw loopnest_mfc::case_error(check.problem);
        }
      })) {
    return refused;
  }
  // Single precision cannot hold a low pressure beside a stiff fluid's pi_inf: say so up front.
  if (o.precision == "fp32" && root) {
    const double step = loopnest_mfc::single_precision_pressure_step(c);
    double lowest     = std::numeric_limits<double>::infinity();
    std::size_t at    = 0;
    for (std::size_t k = 0; k < c.patches.size(); ++k) {
      bool analytic_pressure = false;  // a pressure that varies is not this note's
      for (const loopnest_mfc::analytic_value& a : c.patches[k].analytic) {
        analytic_pressure =
            analytic_pressure || a.of == loopnest_mfc::analytic_value::variable::pres;
      }
      if (!analytic_pressure && std::fabs(c.patches[k].pres) < lowest) {
        lowest = std::fabs(c.patches[k].pres);
        at     = k + 1;
      }
    }
    if (lowest < fp32_pressure_margin * step) {
      std::fprintf(stderr,
                   "loopnest-mfc: note: in fp32 this case's energy holds a pressure only to about "
                   "%.3g Pa (fluid_pp%%pi_inf is stored beside it) and patch %zu's pressure is "
                   "%.3g: expect pressure errors of several times %.3g; fp64 does not have them "
                   "(docs/mfc.md, \"Precision\")\n",
                   step, at, c.patches[at - 1].pres, step);
    }
  }
  loopnest_mfc::run_result r;
  std::vector<std::string> written;
  int replaced = 0;
  std::string stage_dir;
  try {
    // --no-output makes no stage, so a read-only case directory does not stop a timing run.
    std::optional<staged_output> stage;
    if (o.output) {
      stage.emplace(o.case_dir);
      stage_dir = stage->directory();
    }
    // MFC writes run_time.inf as the run goes, beside D/ (s_open_run_time_information_file).
    std::optional<loopnest_mfc::run_time_information> run_time_info;
    std::string failure;
    if (root && o.output && c.run_time_info) {
      try {
        run_time_info.emplace(o.case_dir + "/run_time.inf");
      } catch (const std::exception& e) {
        failure = e.what();
      }
    }
    if (!all_ranks(failure.empty())) {
      if (root) {
        std::fprintf(stderr, "loopnest-mfc: %s\n", failure.c_str());
      }
      return io_error;
    }
    site.run_time_info = run_time_info ? &*run_time_info : nullptr;
    try {
      const std::string out = stage ? stage->directory() : std::string();
      r                     = o.precision == "fp32" ? run_precision<float>(site, *cons, o, out)
                                                    : run_precision<double>(site, *cons, o, out);
    } catch (const loopnest_mfc::unphysical_state& e) {
      if (root) {
        std::fprintf(stderr, "loopnest-mfc: %s; nothing was put in %s/D\n", e.what(),
                     o.case_dir.c_str());
      }
      return unphysical;
    }
    std::optional<staged_output::plan> publication;
    if (stage) {
      publication = stage->prepare(r.written, rank_count);
      written     = publication->to;
      replaced    = static_cast<int>(publication->stale.size());
    }
    // Standard output before D/ changes, so that a run whose report cannot be written leaves D/
    // as it was.
    if (!all_ranks(!root || print_summary(c, o, r, written.size(), replaced, site))) {
      if (root) {
        std::fprintf(stderr,
                     "loopnest-mfc: writing standard output failed; D/ was left as it was\n");
      }
      return io_error;
    }
    if (stage) {
      stage->commit(*publication);
    }
  } catch (const std::exception& e) {
    // run_case ends every rank alike when an allocation fails (simulation.hpp).
    if (loopnest_mfc::is_allocation_failure(e)) {
      if (root) {
        std::fprintf(stderr, "loopnest-mfc: %s\n", allocation_message(c, e).c_str());
      }
      return refused;
    }
    // A file that could not be written is named where it was to appear, not in the stage.
    std::string message = e.what();
    for (std::size_t at = 0;
         !stage_dir.empty() && (at = message.find(stage_dir, at)) != std::string::npos;) {
      message.replace(at, stage_dir.size(), o.case_dir);
      at += o.case_dir.size();
    }
    std::fprintf(stderr, "loopnest-mfc: %s\n", message.c_str());
    return io_error;
  }
  return done;
}

// run_tool, with what escapes it (a failed MPI call in a reduction every rank makes) reported as
// an error of the run rather than ending the process with std::terminate.
int run_tool_reporting(int argc, char* argv[]) {
  try {
    return run_tool(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loopnest-mfc: %s\n", e.what());
    return io_error;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  // Past a file size limit (ulimit -f) a write fails, an output error (exit status 3, the stage
  // removed), instead of the signal ending the process.
  loopnest::ignore_file_size_signal();
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
    return run_tool_reporting(argc, argv);
  }
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    std::fprintf(stderr, "loopnest-mfc: MPI_Init failed\n");
    return io_error;
  }
  // Every rank returns the same status but for an output error, which may be one rank's: the
  // job's status is the worst.
  const int mine = run_tool_reporting(argc, argv);
  int status     = mine;
  MPI_Allreduce(&mine, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
#else
  return run_tool_reporting(argc, argv);
#endif
}
