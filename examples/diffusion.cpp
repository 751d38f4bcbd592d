// loopnest-diffusion: runs the 5-point diffusion step from the brief's initial condition, checks
// that the result is physical, prints KEY=VALUE lines, and writes the final field on request.
//   loopnest-diffusion NX NY STEPS [VARIANT [FIELD_FILE]] [--precision fp32|fp64]
#include <loopnest/diffusion.hpp>
#include <loopnest/field_compare.hpp>
#include <loopnest/field_file.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// A command-line mistake: reported on one line, exit status 2, nothing run or written.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct options {
  int nx = 0, ny = 0, steps = 0;
  std::string variant = loopnest::name(loopnest::fastest_diffusion_variant);
  std::optional<std::string> field_file;
  loopnest::precision precision = loopnest::precision::fp64;
};

std::string variant_list() {
  std::string variants = "cpu";
  for (const auto v : loopnest::diffusion_variants) {
    variants += std::string(", ") + loopnest::name(v);
  }
  return variants;
}

void print_usage(std::FILE* to) {
  std::fprintf(to,
               "usage: loopnest-diffusion NX NY STEPS [VARIANT [FIELD_FILE]] "
               "[--precision fp32|fp64]\n"
               "  NX, NY     grid cells per direction, edges included (at least 5)\n"
               "  STEPS      time steps (at least 1)\n"
               "  VARIANT    %s (default %s; cpu is the serial reference)\n"
               "  FIELD_FILE where to write the final field (\"nx ny\", then one value per line,"
               " i fastest)\n"
               "  --precision fp64 (default) or fp32\n",
               variant_list().c_str(), loopnest::name(loopnest::fastest_diffusion_variant));
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

// The directory must take a new file before anything runs, so that a long run does not end
// in a write error.
void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  std::error_code ec;
  if (p.filename().empty() || fs::is_directory(p, ec)) {
    throw usage_error("FIELD_FILE = '" + path + "' is a directory, not a file");
  }
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (!fs::is_directory(dir, ec)) {
    throw usage_error("FIELD_FILE = '" + path + "': directory '" + dir.string() +
                      "' does not exist");
  }
  const fs::path probe = dir / (".loopnest-diffusion-probe-" + std::to_string(::getpid()));
  if (std::FILE* f = std::fopen(probe.c_str(), "w")) {
    std::fclose(f);
    fs::remove(probe, ec);
  } else {
    throw usage_error("FIELD_FILE = '" + path + "': directory '" + dir.string() +
                      "' is not writable");
  }
}

options parse(int argc, char** argv) {
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
  if (positional.size() > 3) {
    o.variant = positional[3];
    if (o.variant != "cpu") {
      try {
        loopnest::parse_diffusion_variant(o.variant);
      } catch (const std::invalid_argument&) {
        throw usage_error("VARIANT = '" + o.variant + "' is unknown; the variants are " +
                          variant_list());
      }
    }
  }
  if (positional.size() > 4) {
    o.field_file = positional[4];
    check_writable(*o.field_file);
  }
  return o;
}

struct timings {
  double h2d = 0.0, loop = 0.0, d2h = 0.0;
};

template <class T, loopnest::diffusion_variant V>
std::vector<T> run_device(const options& o, timings& t) {
  using exec = Kokkos::DefaultExecutionSpace;
  loopnest::diffusion_solver<T, V, exec> solver(exec(), o.nx, o.ny);
  auto t0 = clock_type::now();
  solver.set_initial_condition();
  t.h2d = seconds_since(t0);
  t0    = clock_type::now();
  solver.advance(o.steps);
  exec().fence();
  t.loop = seconds_since(t0);
  t0     = clock_type::now();
  auto u = solver.field();
  t.d2h  = seconds_since(t0);
  return u;
}

template <class T>
std::vector<T> run(const options& o, timings& t) {
  using loopnest::diffusion_variant;
  if (o.variant == "cpu") {
    const auto t0 = clock_type::now();
    auto u        = loopnest::diffusion_reference<T>(o.nx, o.ny, o.steps,
                                              loopnest::diffusion_initial_condition<T>(o.nx, o.ny));
    t.loop        = seconds_since(t0);
    return u;
  }
  switch (loopnest::parse_diffusion_variant(o.variant)) {
    case diffusion_variant::baseline:
      return run_device<T, diffusion_variant::baseline>(o, t);
    case diffusion_variant::contiguous:
      return run_device<T, diffusion_variant::contiguous>(o, t);
    case diffusion_variant::strided:
      return run_device<T, diffusion_variant::strided>(o, t);
    case diffusion_variant::collapse:
      return run_device<T, diffusion_variant::collapse>(o, t);
    case diffusion_variant::flat:
      return run_device<T, diffusion_variant::flat>(o, t);
    case diffusion_variant::kokkos_default:
      return run_device<T, diffusion_variant::kokkos_default>(o, t);
    case diffusion_variant::vectorized:
      return run_device<T, diffusion_variant::vectorized>(o, t);
  }
  throw std::logic_error("unhandled variant " + o.variant);
}

template <class T>
void run_and_report(const options& o) {
  const auto t0 = clock_type::now();
  timings t;
  const auto u     = run<T>(o, t);
  const auto check = loopnest::check_diffusion_solution(u, o.nx, o.ny);
  if (o.field_file) {
    loopnest::write_field_file(*o.field_file, o.nx, o.ny, u.data());
  }
  std::printf("CHECK=PASS\nMETHOD=%s\nPRECISION=%s\nNX=%d\nNY=%d\nSTEPS=%d\n", o.variant.c_str(),
              loopnest::name(o.precision), o.nx, o.ny, o.steps);
  std::printf("MASS=%.17g\nCENTRE=%.17g\nMIN=%.17g\nMAX=%.17g\n", check.mass, check.centre,
              check.min, check.max);
  std::printf("TOTAL_S=%.6f\nLOOP_S=%.6f\nH2D_S=%.6f\nD2H_S=%.6f\n", seconds_since(t0), t.loop,
              t.h2d, t.d2h);
}

}  // namespace

int main(int argc, char** argv) {
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
    return 2;
  }
  Kokkos::ScopeGuard kokkos;
  try {
    if (o.precision == loopnest::precision::fp32) {
      run_and_report<float>(o);
    } else {
      run_and_report<double>(o);
    }
  } catch (const std::exception& e) {
    std::printf("CHECK=FAIL\n");
    std::fprintf(stderr, "loopnest-diffusion: %s\n", e.what());
    return 1;
  }
  return 0;
}
