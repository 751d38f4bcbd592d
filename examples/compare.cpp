// loopnest-compare: checks field files (loopnest/tools/field_file.hpp) cell by cell against a
// reference file with loopnest::compare_fields; see usage below. Host code only, no Kokkos.
#include <loopnest/tools/field_compare.hpp>
#include <loopnest/tools/field_file.hpp>
#include <loopnest/tools/precision.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace {

// Numbers are printed as the shortest text that reads back as the same double.
using loopnest::Impl::shortest_text;

constexpr const char* usage =
    "usage: loopnest-compare REFERENCE CANDIDATE... [--precision P] [--atol A] [--rtol R]\n"
    "\n"
    "Compares each CANDIDATE field file with the REFERENCE field file cell by cell. A cell\n"
    "passes when |c - r| <= atol + rtol |r|; a NaN fails.\n"
    "\n"
    "  --precision P  default tolerances for the pair of precisions that wrote the files, which\n"
    "                 the files do not record: fp64 (the default; atol 1e-12, rtol 1e-10),\n"
    "                 fp32 (1e-6, 1e-5) or mixed (FP32 against FP64; 1e-6, 1e-4)\n"
    "  --atol A       absolute tolerance, a number of at least 0, instead of the default\n"
    "  --rtol R       relative tolerance, a number of at least 0, instead of the default\n"
    "  --help         this text\n"
    "\n"
    "Prints KEY=VALUE lines: REFERENCE, NX, NY, ATOL, RTOL; per candidate CANDIDATE, MAX_ABS,\n"
    "RMSE, REL_L2, MASS_DIFF (sum c - sum r), FAILURES (cells), BITWISE_EQUAL (YES or NO); then\n"
    "COMPARE=PASS or COMPARE=FAIL.\n"
    "Exit status: 0 when every candidate passes, 1 when one fails, 2 for bad arguments or a\n"
    "file that cannot be read, is malformed or holds another grid than the reference, 3 when\n"
    "standard output cannot be written.\n";

[[noreturn]] void refuse(const std::string& why) {
  std::fprintf(stderr, "loopnest-compare: %s (see --help)\n", why.c_str());
  std::exit(2);
}

double parse_tolerance(const std::string& option, const std::string& text) {
  double value          = 0.0;
  const char* const end = text.data() + text.size();
  const auto [next, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || next != end || !std::isfinite(value) || value < 0.0) {
    refuse(option + " '" + text + "' is not a finite number of at least 0");
  }
  return value;
}

loopnest::tolerance tolerance_for(const std::string& precision) {
  if (precision == "mixed") {
    return loopnest::default_tolerance(loopnest::precision::fp32, loopnest::precision::fp64);
  }
  try {
    const loopnest::precision p = loopnest::parse_precision(precision);
    return loopnest::default_tolerance(p, p);
  } catch (const std::invalid_argument&) {
    refuse("--precision '" + precision + "' is not fp32, fp64 or mixed");
  }
}

struct arguments {
  std::string reference;
  std::vector<std::string> candidates;
  loopnest::tolerance tol;
};

arguments parse_arguments(int argc, char* argv[]) {
  std::vector<std::string> paths;
  std::string precision = "fp64";
  std::optional<double> atol, rtol;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    if (arg == "--precision" || arg == "--atol" || arg == "--rtol") {
      if (k + 1 == argc) {
        refuse(arg + " needs a value");
      }
      const std::string value = argv[++k];
      if (arg == "--precision") {
        precision = value;
      } else {
        (arg == "--atol" ? atol : rtol) = parse_tolerance(arg, value);
      }
    } else if (arg.size() > 1 && arg[0] == '-') {
      refuse("unknown option '" + arg + "'");
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.size() < 2) {
    refuse(paths.empty() ? "no REFERENCE and no CANDIDATE given" : "no CANDIDATE given");
  }
  const loopnest::tolerance defaults = tolerance_for(precision);
  return {paths.front(),
          {paths.begin() + 1, paths.end()},
          {atol.value_or(defaults.atol), rtol.value_or(defaults.rtol)}};
}

void print(const char* key, const std::string& value) {
  std::printf("%s=%s\n", key, value.c_str());
}

// Exit status 3 when standard output could not be written (a full disk, a closed pipe): the
// verdict it carried was lost, which must not read as success.
int flushed(int status) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "loopnest-compare: writing standard output failed: %s\n",
                 std::strerror(errno));
    return 3;
  }
  return status;
}

int compare(const arguments& args) {
  try {
    const loopnest::field_data reference = loopnest::read_field_file(args.reference);
    print("REFERENCE", args.reference);
    print("NX", std::to_string(reference.nx));
    print("NY", std::to_string(reference.ny));
    print("ATOL", shortest_text(args.tol.atol));
    print("RTOL", shortest_text(args.tol.rtol));
    bool pass = true;
    for (const std::string& path : args.candidates) {
      const loopnest::field_data candidate = loopnest::read_field_file(path);
      if (candidate.nx != reference.nx || candidate.ny != reference.ny) {
        throw std::runtime_error(path + ":1: the grid is " + std::to_string(candidate.nx) + " x " +
                                 std::to_string(candidate.ny) + " but the reference " +
                                 args.reference + " is " + std::to_string(reference.nx) + " x " +
                                 std::to_string(reference.ny));
      }
      const std::size_t n = reference.values.size();
      const loopnest::field_comparison m =
          loopnest::compare_fields(candidate.values.data(), reference.values.data(), n, args.tol);
      print("CANDIDATE", path);
      print("MAX_ABS", shortest_text(m.max_abs));
      print("RMSE", shortest_text(m.rmse));
      print("REL_L2", shortest_text(m.rel_l2));
      print("MASS_DIFF", shortest_text(m.mass_diff));
      print("FAILURES", std::to_string(m.failures));
      const bool same =
          loopnest::bitwise_equal(candidate.values.data(), reference.values.data(), n);
      print("BITWISE_EQUAL", same ? "YES" : "NO");
      pass = pass && m.pass();
    }
    print("COMPARE", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "loopnest-compare: %s\n", e.what());
    return 2;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  return flushed(compare(parse_arguments(argc, argv)));
}
