// loopnest-diffusion: runs the 5-point diffusion step from the standard initial condition, checks
// that the result is physical, prints KEY=VALUE lines, and writes the final field on request.
//   loopnest-diffusion NX NY STEPS [VARIANT [FIELD_FILE]] [--precision fp32|fp64]
// Built with MPI (LOOPNEST_DIFFUSION_MPI), it also runs under mpirun on a grid split over the
// ranks, gathered on rank 0, which checks, prints and writes as one rank does.
//                      [--steps-per-pass K]
#include <loopnest/diffusion.hpp>
#include <loopnest/tools/diffusion_tool.hpp>
#include <loopnest/tools/field_file.hpp>
#include <loopnest/tools/host_memory.hpp>
#include <loopnest/tools/mpi_launcher.hpp>
#include <loopnest/tools/precision.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(LOOPNEST_DIFFUSION_MPI)
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/detail/mpi_error.hpp>
#include <loopnest/mpi/diffusion.hpp>
#include <loopnest/mpi/halo_transport.hpp>

#include <mpi.h>
#endif

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Exit statuses: the run passed its check, the solution failed it (or the run failed), a
// command-line mistake (nothing run or written), an output that could not be written, memory
// that could not be allocated (nothing written).
enum exit_status { pass = 0, check_failed = 1, usage = 2, io_error = 3, out_of_memory = 4 };

// A command-line mistake: reported on one line, exit status 2, nothing run or written.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An output that could not be written: reported on one line, exit status 3.
struct output_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Memory that could not be allocated: reported on one line, exit status 4.
struct memory_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct options {
  int nx = 0, ny = 0, steps = 0;
  std::string variant = loopnest::name(loopnest::fastest_diffusion_variant);
  std::optional<std::string> field_file;
  loopnest::precision precision = loopnest::precision::fp64;
#if defined(LOOPNEST_DIFFUSION_MPI)
  // Ranks along x and y (0: MPI_Dims_create chooses), whether --ranks was given.
  int ranks[2] = {0, 0};
  // Whether --ranks, --transport, --no-overlap or VARIANT distributed asked for the distributed
  // solver (which one rank then runs too).
  bool distributed_asked = false;
  bool overlap           = true;
  std::string transport  = "mpi_host";
#endif
  int steps_per_pass = 0;  // 0: the temporal variant's default on this backend
};

// The temporal variant's default and largest steps per pass on the default device, in T.
template <class T>
using temporal_traits = loopnest::diffusion_temporal_traits<Kokkos::DefaultExecutionSpace, T>;

// The method of a run over several ranks: the distributed solver (collapse3 loops, a halo
// exchange every step).
constexpr const char* distributed_method = "distributed";
#if defined(LOOPNEST_DIFFUSION_MPI)
constexpr bool with_mpi = true;
#else
constexpr bool with_mpi = false;
#endif

// The single-rank variants (distributed is the method of a run over several ranks).
std::string variant_list() {
  std::string variants = "cpu";
  for (const auto v : loopnest::diffusion_variants) {
    variants += std::string(", ") + loopnest::name(v);
  }
  return variants;
}

void print_usage(std::FILE* to) {
  std::fprintf(
      to,
      "usage: loopnest-diffusion NX NY STEPS [VARIANT [FIELD_FILE]] "
      "[--precision fp32|fp64] [--steps-per-pass K]\n"
      "  NX, NY     grid cells per direction, edges included (at least 5; at most 2^31 - 1\n"
      "             cells in all, rows padded to 128 bytes)\n"
      "  STEPS      time steps (at least 1)\n"
      "  VARIANT    %s (default %s; cpu is the serial reference)\n"
      "  FIELD_FILE where to write the final field (\"nx ny\", then one value per line,"
      " i fastest)\n"
      "  --precision fp64 (default) or fp32\n"
      "  --steps-per-pass K  steps the temporal variant advances per pass over memory, 1 to\n"
      "             %d (default %d in FP64, %d in FP32 on this device, %d where the grid\n"
      "             advances in on-chip tiles); temporal only\n"
      "temporal gives the same bits as every other variant. Use it for runs of many steps:\n"
      "it reads and writes the grid once per K steps instead of once per step, so it goes\n"
      "past the copy bandwidth that bounds one step on large grids, and launches once per K\n"
      "steps on small ones, where a step is all launch latency (on a GPU, a grid of at most\n"
      "two on-chip tiles per multiprocessor advances in those tiles, without streaming).\n"
      "The solution must be finite, in [0, 1] and of mass in [0, 1], each within the\n"
      "boundary tolerance (1e-4 in FP32, 1e-10 in FP64).\n"
      "Exit status: 0 CHECK=PASS; 1 CHECK=FAIL (nothing written); 2 bad arguments, or a\n"
      "grid larger than the host's memory can hold (nothing run); 3 standard output or\n"
      "FIELD_FILE could not be written (FIELD_FILE is written after standard output; an\n"
      "existing FIELD_FILE is left as it was); 4 out of memory: the grid's arrays could not\n"
      "be allocated (nothing written).\n",
      variant_list().c_str(), loopnest::name(loopnest::fastest_diffusion_variant),
      std::min(temporal_traits<double>::max_steps_per_pass,
               temporal_traits<float>::max_steps_per_pass),
      temporal_traits<double>::default_steps_per_pass,
      temporal_traits<float>::default_steps_per_pass, temporal_traits<double>::tile_steps_per_pass);
#if defined(LOOPNEST_DIFFUSION_MPI)
  std::fprintf(
      to,
      "Under mpirun -np P (or with --ranks, or VARIANT distributed) the NX x NY grid is split\n"
      "into one block per rank and VARIANT is distributed (collapse3 loops, a one-cell halo\n"
      "exchanged every step); rank 0 gathers the field, checks it, prints and writes\n"
      "FIELD_FILE, the same bytes as one rank writes. Errors are reported by every rank.\n"
      "  --ranks PXxPY       ranks along x and y (default: MPI_Dims_create chooses)\n"
      "  --transport NAME    mpi_host (default), mpi_device or nccl\n"
      "  --no-overlap        exchange the halo, then update; by default the cells that read\n"
      "                      no ghost are updated while the halo moves\n");
#endif
}

int parse_int(const std::string& name, const std::string& text, int min) {
  std::size_t used = 0;
  long value       = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw usage_error(name + " = '" + text + "' is not an integer");
  }
  if (value < min || value > 1000000000L) {
    throw usage_error(name + " = " + text + " is outside [" + std::to_string(min) +
                      ", 1000000000]");
  }
  return static_cast<int>(value);
}

// writer: whether this process writes FIELD_FILE (rank 0 of a distributed run), and so checks
// that it can.
options parse(int argc, char** argv, bool writer = true) {
  options o;
  std::vector<std::string> positional;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--precision") {
      if (a + 1 == argc) {
        throw usage_error("--precision needs a value: fp32 or fp64");
      }
      try {
        o.precision = loopnest::parse_precision(argv[++a]);
      } catch (const std::invalid_argument&) {
        throw usage_error(std::string("--precision = '") + argv[a] + "' is not fp32 or fp64");
      }
#if defined(LOOPNEST_DIFFUSION_MPI)
    } else if (arg == "--ranks" || arg == "--transport") {
      if (a + 1 == argc) {
        throw usage_error(arg + " needs a value");
      }
      const std::string value = argv[++a];
      if (arg == "--transport") {
        try {
          loopnest::parse_halo_transport(value);
        } catch (const std::invalid_argument&) {
          throw usage_error("--transport = '" + value + "' is not mpi_host, mpi_device or nccl");
        }
        o.transport         = value;
        o.distributed_asked = true;
      } else {
        const auto x = value.find('x');
        try {
          if (x == std::string::npos) {
            throw usage_error("");
          }
          o.ranks[0] = parse_int("--ranks", value.substr(0, x), 1);
          o.ranks[1] = parse_int("--ranks", value.substr(x + 1), 1);
        } catch (const usage_error&) {
          throw usage_error("--ranks = '" + value + "' is not PXxPY with two positive integers");
        }
        o.distributed_asked = true;
      }
    } else if (arg == "--no-overlap") {
      o.overlap           = false;
      o.distributed_asked = true;
#endif
    } else if (arg == "--steps-per-pass") {
      if (a + 1 == argc) {
        throw usage_error("--steps-per-pass needs a value: a number of steps");
      }
      o.steps_per_pass = parse_int("--steps-per-pass", argv[++a], 1);
    } else if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
      throw usage_error("unknown option '" + arg + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() < 3 || positional.size() > 5) {
    throw usage_error("expected NX NY STEPS [VARIANT [FIELD_FILE]], got " +
                      std::to_string(positional.size()) + " arguments");
  }
  o.nx    = parse_int("NX", positional[0], 5);
  o.ny    = parse_int("NY", positional[1], 5);
  o.steps = parse_int("STEPS", positional[2], 1);
  try {
    if (o.precision == loopnest::precision::fp32) {
      loopnest::check_diffusion_grid_size<float>(o.nx, o.ny);
    } else {
      loopnest::check_diffusion_grid_size<double>(o.nx, o.ny);
    }
  } catch (const std::invalid_argument& e) {
    throw usage_error("NX = " + positional[0] + ", NY = " + positional[1] + ": " + e.what());
  }
  if (positional.size() > 3) {
    o.variant = positional[3];
    if (o.variant != "cpu" && !(with_mpi && o.variant == distributed_method)) {
      try {
        loopnest::parse_diffusion_variant(o.variant);
      } catch (const std::invalid_argument&) {
        throw usage_error("VARIANT = '" + o.variant + "' is unknown; the variants are " +
                          variant_list() +
                          (with_mpi ? std::string(", ") + distributed_method : ""));
      }
    }
  }
  if (o.steps_per_pass != 0) {
    const int most = o.precision == loopnest::precision::fp32
                         ? temporal_traits<float>::max_steps_per_pass
                         : temporal_traits<double>::max_steps_per_pass;
    if (o.variant != loopnest::name(loopnest::diffusion_variant::temporal)) {
      throw usage_error("--steps-per-pass = " + std::to_string(o.steps_per_pass) +
                        " was given to variant " + o.variant + "; only temporal takes it");
    }
    if (o.steps_per_pass > most) {
      throw usage_error("--steps-per-pass = " + std::to_string(o.steps_per_pass) +
                        " is outside [1, " + std::to_string(most) + "] in " +
                        loopnest::name(o.precision) + " on this device");
    }
  }
  // Before anything runs, so that a long run does not end in a refused write.
  if (positional.size() > 4) {
    o.field_file             = positional[4];
    const std::string reason = writer ? loopnest::field_file_unwritable_reason(*o.field_file) : "";
    if (!reason.empty()) {
      throw usage_error("FIELD_FILE = '" + *o.field_file + "': " + reason);
    }
  }
  return o;
}

// What a run allocates at its peak, in bytes: the serial reference's two nx * ny arrays on the
// host; the solver's two arrays of padded rows in the device's memory, and on the host the
// nx * ny field it hands back with, unless the device's memory is the host's, a mirror of one
// array.
struct run_memory {
  std::uint64_t host, device;
};

template <class T>
run_memory memory_of(const options& o) {
  const std::uint64_t field = std::uint64_t(o.nx) * std::uint64_t(o.ny) * sizeof(T);
  const std::uint64_t array =
      std::uint64_t(loopnest::Impl::diffusion_pitch<T>(o.nx)) * std::uint64_t(o.ny) * sizeof(T);
  if (o.variant == "cpu") {
    return {2 * field, 0};
  }
  if (std::is_same<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>::value) {
    return {2 * array + field, 0};
  }
  return {array + field, 2 * array};
}

run_memory memory_of(const options& o) {
  return o.precision == loopnest::precision::fp32 ? memory_of<float>(o) : memory_of<double>(o);
}

// "NX = .., NY = ..: the run needs .. bytes of host memory [and .. bytes of device memory]".
std::string memory_needed(const options& o) {
  const run_memory m = memory_of(o);
  return "NX = " + std::to_string(o.nx) + ", NY = " + std::to_string(o.ny) + ": the run needs " +
         std::to_string(m.host) + " bytes of host memory" +
         (m.device > 0 ? " and " + std::to_string(m.device) + " bytes of device memory" : "");
}

// Refuses, as a command-line mistake, a run that needs more host memory than the host can still
// give (host_memory_headroom), so that it is told before anything is allocated rather than
// failing part way.
void check_host_memory(const options& o) {
  const loopnest::memory_headroom headroom = loopnest::host_memory_headroom();
  if (memory_of(o).host > headroom.bytes) {
    throw usage_error(memory_needed(o) + " but only " + std::to_string(headroom.bytes) +
                      " bytes are available " + headroom.bound);
  }
}

// mass: the check's reduction of the mass (before the device arrays are released), which TOTAL_S
// leaves out as it leaves out the rest of the check.
struct timings {
  double h2d = 0.0, loop = 0.0, d2h = 0.0, exit = 0.0, mass = 0.0;
};

// mass: set to the result's mass (loopnest::diffusion_mass, on the device).
template <class T, loopnest::diffusion_variant V>
std::vector<T> run_device(const options& o, timings& t, int& steps_per_pass, double& mass) {
  using exec = Kokkos::DefaultExecutionSpace;
  // Held in an optional so that releasing its two arrays (EXIT_S) can be timed on its own.
  std::optional<loopnest::diffusion_solver<T, V, exec>> solver(
      std::in_place, exec(), o.nx, o.ny, T(0.1), loopnest::tile{}, o.steps_per_pass);
  steps_per_pass = solver->steps_per_pass();
  auto t0        = clock_type::now();
  solver->set_initial_condition();
  t.h2d = seconds_since(t0);
  t0    = clock_type::now();
  solver->advance(o.steps);
  exec().fence();
  t.loop = seconds_since(t0);
  t0     = clock_type::now();
  mass   = loopnest::diffusion_mass(exec(), solver->current(), o.nx, o.ny);
  t.mass = seconds_since(t0);
  t0     = clock_type::now();
  auto u = solver->field();
  t.d2h  = seconds_since(t0);
  t0     = clock_type::now();
  solver.reset();
  Kokkos::fence();
  t.exit = seconds_since(t0);
  return u;
}

// steps_per_pass: set to the steps the variant advanced per pass over memory; mass: to the
// result's mass (loopnest::diffusion_mass).
template <class T>
std::vector<T> run(const options& o, timings& t, int& steps_per_pass, double& mass) {
  using loopnest::diffusion_variant;
  if (o.variant == "cpu") {
    // EXIT_S stays 0: there is no device data region to leave; the reference frees its work
    // array within LOOP_S, and the other array is the result, which the check still reads.
    const auto t0 = clock_type::now();
    auto u        = loopnest::diffusion_reference<T>(o.nx, o.ny, o.steps,
                                              loopnest::diffusion_initial_condition<T>(o.nx, o.ny));
    t.loop        = seconds_since(t0);
    const auto t1 = clock_type::now();
    mass          = loopnest::diffusion_mass(u, o.nx, o.ny);
    t.mass        = seconds_since(t1);
    return u;
  }
  switch (loopnest::parse_diffusion_variant(o.variant)) {
    case diffusion_variant::baseline:
      return run_device<T, diffusion_variant::baseline>(o, t, steps_per_pass, mass);
    case diffusion_variant::contiguous:
      return run_device<T, diffusion_variant::contiguous>(o, t, steps_per_pass, mass);
    case diffusion_variant::strided:
      return run_device<T, diffusion_variant::strided>(o, t, steps_per_pass, mass);
    case diffusion_variant::collapse:
      return run_device<T, diffusion_variant::collapse>(o, t, steps_per_pass, mass);
    case diffusion_variant::flat:
      return run_device<T, diffusion_variant::flat>(o, t, steps_per_pass, mass);
    case diffusion_variant::kokkos_default:
      return run_device<T, diffusion_variant::kokkos_default>(o, t, steps_per_pass, mass);
    case diffusion_variant::vectorized:
      return run_device<T, diffusion_variant::vectorized>(o, t, steps_per_pass, mass);
    case diffusion_variant::temporal:
      return run_device<T, diffusion_variant::temporal>(o, t, steps_per_pass, mass);
  }
  throw std::logic_error("unhandled variant " + o.variant);
}

// Flushes standard output: a full disk or a closed pipe is an output_error, not a silent success.
void flush_stdout() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    throw output_error(std::string("writing standard output failed: ") + std::strerror(errno));
  }
}

// Checks the result u of mass `mass`, prints the KEY=VALUE lines and writes FIELD_FILE (an
// output_error when either cannot be written); `layout` (a distributed run's ranks, transport and
// overlap) follows STEPS.
template <class T>
void check_print_and_write(const options& o, const std::vector<T>& u, double mass, const timings& t,
                           double total, const std::string& layout) {
  const auto check = loopnest::check_diffusion_solution(u, o.nx, o.ny, mass);
  std::printf("CHECK=PASS\nMETHOD=%s\nPRECISION=%s\nNX=%d\nNY=%d\nSTEPS=%d\n%s", o.variant.c_str(),
              loopnest::name(o.precision), o.nx, o.ny, o.steps, layout.c_str());
  std::printf("MASS=%.17g\nCENTRE=%.17g\nMIN=%.17g\nMAX=%.17g\n", check.mass, check.centre,
              check.min, check.max);
  std::printf("TOTAL_S=%.6f\nLOOP_S=%.6f\nH2D_S=%.6f\nD2H_S=%.6f\nEXIT_S=%.6f\n", total, t.loop,
              t.h2d, t.d2h, t.exit);
  // Before FIELD_FILE replaces an older one, so that standard output that cannot be written
  // leaves that file as it was.
  flush_stdout();
  if (o.field_file) {
    try {
      loopnest::write_field_file(*o.field_file, o.nx, o.ny, u.data());
    } catch (const std::exception& e) {
      throw output_error(e.what());
    }
  }
}

// start: before Kokkos was initialised, so that TOTAL_S holds the device's start-up too, as the
// diffusion study's solver region (in a fresh process) does.
template <class T>
void run_and_report(const options& o, clock_type::time_point start) {
  timings t;
  int steps_per_pass = 1;
  double mass        = 0.0;
  std::vector<T> u;
  try {
    u = run<T>(o, t, steps_per_pass, mass);
  } catch (const std::exception& e) {
    // A limit check_host_memory does not read (ulimit -d, a cgroup's, the device's memory).
    if (!loopnest::is_allocation_failure(e)) {
      throw;
    }
    const std::string why = e.what();
    throw memory_error(memory_needed(o) +
                       ", and an allocation failed: " + why.substr(0, why.find('\n')));
  }
  std::string layout;
  if (o.variant == loopnest::name(loopnest::diffusion_variant::temporal)) {
    layout = "STEPS_PER_PASS=" + std::to_string(steps_per_pass) + "\n";
  }
  check_print_and_write(o, u, mass, t, seconds_since(start) - t.mass, layout);
}

// The exit status of a run, check and report: an output that could not be written, memory that
// could not be allocated, or a run or check that failed (CHECK=FAIL), is reported on one line.
int report_status(const std::function<void()>& run_check_and_report) {
  try {
    run_check_and_report();
    return pass;
  } catch (const output_error& e) {
    std::fprintf(stderr, "loopnest-diffusion: %s\n", e.what());
    return io_error;
  } catch (const memory_error& e) {
    std::fprintf(stderr, "loopnest-diffusion: %s\n", e.what());
    return out_of_memory;
  } catch (const std::exception& e) {
    std::printf("CHECK=FAIL\n");
    std::fprintf(stderr, "loopnest-diffusion: %s\n", e.what());
    return check_failed;
  }
}

// A run on one process, after its arguments were parsed: exactly the tool without MPI. A run
// the host's memory cannot hold is refused before Kokkos starts.
int run_one_rank(const options& o, clock_type::time_point start) {
  try {
    check_host_memory(o);
  } catch (const usage_error& e) {
    std::fprintf(stderr, "loopnest-diffusion: %s\n", e.what());
    return usage;
  }
  const Kokkos::ScopeGuard kokkos;
  return report_status([&] {
    if (o.precision == loopnest::precision::fp32) {
      run_and_report<float>(o, start);
    } else {
      run_and_report<double>(o, start);
    }
  });
}

// The exit status once standard output is flushed: io_error when it cannot be written. An
// io_error status was reported already, so a standard output that failed too is not reported.
int flushed_status(int status) {
  if (status == io_error) {
    return status;
  }
  try {
    flush_stdout();
  } catch (const output_error& e) {
    std::fprintf(stderr, "loopnest-diffusion: %s\n", e.what());
    return io_error;
  }
  return status;
}

#if defined(LOOPNEST_DIFFUSION_MPI)

// Every rank's line for an error every rank found (collectively agreed, so all say the same).
void report_on_every_rank(const char* what, int rank, int size) {
  std::fprintf(stderr, "loopnest-diffusion: rank %d of %d: %s\n", rank, size, what);
}

// The distributed run: every rank sets up and steps its block; rank 0 gathers, checks, writes
// and prints, and its verdict is every rank's exit status. Errors found while setting up (a
// decomposition that does not fit, a transport not available) are every rank's, exit status 2.
template <class T>
int run_distributed(const options& o, clock_type::time_point start, int rank, int size) {
  using exec = Kokkos::DefaultExecutionSpace;
  std::optional<loopnest::cartesian_decomposition> d;
  std::optional<loopnest::distributed_diffusion_solver<T>> solver;
  try {
    d.emplace(MPI_COMM_WORLD, std::vector<int>{o.nx, o.ny},
              std::vector<int>{o.ranks[0], o.ranks[1]}, std::vector<bool>{false, false});
    solver.emplace(exec(), *d, loopnest::parse_halo_transport(o.transport), o.overlap);
  } catch (const std::exception& e) {
    report_on_every_rank(e.what(), rank, size);
    return usage;
  }
  timings t;
  auto t0 = clock_type::now();
  solver->set_initial_condition();
  t.h2d = seconds_since(t0);
  t0    = clock_type::now();
  solver->advance(o.steps);
  exec().fence();
  // The slowest rank's steps.
  loopnest::Impl::mpi_check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  t.loop       = seconds_since(t0);
  t0           = clock_type::now();
  const auto u = solver->gather();
  t.d2h        = seconds_since(t0);
  t0           = clock_type::now();
  // Collective, on the device where the blocks allow it (distributed_diffusion_solver::mass).
  const double mass = solver->mass();
  t.mass            = seconds_since(t0);
  t0                = clock_type::now();
  solver.reset();
  Kokkos::fence();
  t.exit     = seconds_since(t0);
  int status = pass;
  if (rank == 0) {
    status = flushed_status(report_status([&] {
      check_print_and_write(o, u, mass, t, seconds_since(start) - t.mass,
                            "RANKS=" + std::to_string(d->ranks(0)) + "x" +
                                std::to_string(d->ranks(1)) + "\nTRANSPORT=" + o.transport +
                                "\nOVERLAP=" + (o.overlap ? "on" : "off") + "\n");
    }));
  }
  loopnest::Impl::mpi_check(MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return status;
}

// Whether MPI is wanted: the process was started by an MPI launcher (Open MPI, MPICH and Intel MPI
// through PMI, PMIx launchers, MVAPICH), or an argument asks for the distributed solver. Otherwise
// the tool never initialises MPI and runs exactly as the tool built without it.
bool wants_mpi(int argc, char** argv) {
  if (loopnest::started_by_mpi_launcher()) {
    return true;
  }
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--ranks" || arg == "--transport" || arg == "--no-overlap" ||
        arg == distributed_method) {
      return true;
    }
  }
  return false;
}

// Under MPI: one rank without --ranks or VARIANT distributed runs exactly as the tool without
// MPI; otherwise the distributed run. A mistake in the arguments is found by every rank (rank 0
// alone checks FIELD_FILE, which only it writes, and the ranks agree before anything runs).
int mpi_main(int argc, char** argv) {
  const auto start = clock_type::now();
  int rank = 0, size = 1;
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    std::fprintf(stderr, "loopnest-diffusion: MPI_Init failed\n");
    return check_failed;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = pass;
  try {
    bool help = false;
    for (int a = 1; a < argc; ++a) {
      help = help || std::string(argv[a]) == "--help" || std::string(argv[a]) == "-h";
    }
    if (help) {
      if (rank == 0) {
        print_usage(stdout);
      }
    } else {
      options o;
      loopnest::Impl::rank_error refused;
      try {
        o = parse(argc, argv, rank == 0);
      } catch (const usage_error& e) {
        refused = loopnest::Impl::refuse(e.what());
      }
      const bool distributed = size > 1 || o.distributed_asked || o.variant == distributed_method;
      if (size == 1 && !distributed) {
        if (refused.kind != loopnest::Impl::rank_error_kind::none) {
          std::fprintf(stderr, "loopnest-diffusion: %s\n", refused.message.c_str());
          status = usage;
        } else {
          status = flushed_status(run_one_rank(o, start));
        }
      } else {
        try {
          loopnest::Impl::throw_if_any_rank_failed(MPI_COMM_WORLD, refused);
          if (o.variant != distributed_method &&
              o.variant != loopnest::name(loopnest::fastest_diffusion_variant)) {
            throw usage_error("VARIANT = '" + o.variant + "' runs on one rank; over " +
                              std::to_string(size) + " ranks the method is " + distributed_method);
          }
          o.variant = distributed_method;
        } catch (const std::exception& e) {
          report_on_every_rank(e.what(), rank, size);
          status = usage;
        }
        if (status == pass) {
          Kokkos::ScopeGuard kokkos;
          status = o.precision == loopnest::precision::fp32
                       ? run_distributed<float>(o, start, rank, size)
                       : run_distributed<double>(o, start, rank, size);
        }
      }
    }
  } catch (const std::exception& e) {
    // An MPI call that failed on this rank alone: the others may be waiting on it.
    std::fprintf(stderr, "loopnest-diffusion: rank %d of %d: %s\n", rank, size, e.what());
    MPI_Abort(MPI_COMM_WORLD, check_failed);
  }
  MPI_Finalize();
  return rank == 0 ? flushed_status(status) : status;
}

#endif

}  // namespace

int main(int argc, char** argv) {
  // Past a file size limit FIELD_FILE's write then fails, exit status 3, and leaves no temporary.
  loopnest::ignore_file_size_signal();
#if defined(LOOPNEST_DIFFUSION_MPI)
  if (wants_mpi(argc, argv)) {
    return mpi_main(argc, argv);
  }
#endif
  for (int a = 1; a < argc; ++a) {
    if (std::string(argv[a]) == "--help" || std::string(argv[a]) == "-h") {
      print_usage(stdout);
      return 0;
    }
  }
  options o;
  try {
    o = parse(argc, argv);
  } catch (const usage_error& e) {
    std::fprintf(stderr, "loopnest-diffusion: %s\n", e.what());
    return usage;
  }
  return flushed_status(run_one_rank(o, clock_type::now()));
}
