// Porting a host-written CFD loop nest onto loopnest, one step at a time (docs/porting.md):
// periodic ghosts and a 7-point smoother, a source term over a range of variables, a CFL-like
// maximum. Each step runs under every schedule below and is compared bit for bit with the host
// loop it replaces.
#include <loopnest/loopnest.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <vector>

namespace {

using space  = Kokkos::DefaultExecutionSpace;
using fields = loopnest::field_set<double>;

constexpr int nx = 12, ny = 10, nz = 8, ghost = 1, nvar = 5;
// The variables the source term acts on, half-open: MFC's advxb..advxe is {advxb, advxe + 1}.
constexpr int first_sourced = 3;
constexpr double dt = 1.0e-3, inv_dx = 12.0;

// The arithmetic, shared by the host loops and the loop bodies so that both round alike; the
// multiply-adds go through loopnest::fma so that no compiler contracts them differently.
KOKKOS_INLINE_FUNCTION double smoothed(double centre, double neighbours) {
  return loopnest::fma(1.0 / 6.0, neighbours, 0.25 * centre);
}
KOKKOS_INLINE_FUNCTION double with_source(double value, double rate, double q) {
  return loopnest::fma(dt * rate, q, value);
}
KOKKOS_INLINE_FUNCTION double local_cfl(double rho, double mx, double my, double mz) {
  return (loopnest::abs(mx) + loopnest::abs(my) + loopnest::abs(mz)) / rho * (dt * inv_dx);
}

// The host program's fields: q(v, i, j, k) with i, j, k over [-ghost, n + ghost), x fastest.
struct host_fields {
  std::vector<double> data = std::vector<double>(
      std::size_t(nvar) * (nx + 2 * ghost) * (ny + 2 * ghost) * (nz + 2 * ghost), 0.0);
  double& operator()(int v, int i, int j, int k) {
    return data[((std::size_t(v) * (nz + 2 * ghost) + std::size_t(k + ghost)) * (ny + 2 * ghost) +
                 std::size_t(j + ghost)) *
                    (nx + 2 * ghost) +
                std::size_t(i + ghost)];
  }
};

int wrap(int i, int n) {
  return (i + n) % n;
}

// The host loops being ported, one function per step.
void host_periodic_ghosts(host_fields& q) {
  for (int v = 0; v < nvar; ++v) {
    for (int k = -ghost; k < nz + ghost; ++k) {
      for (int j = -ghost; j < ny + ghost; ++j) {
        for (int i = -ghost; i < nx + ghost; ++i) {
          q(v, i, j, k) = q(v, wrap(i, nx), wrap(j, ny), wrap(k, nz));
        }
      }
    }
  }
}

host_fields host_smooth(host_fields& q) {
  host_fields out;
  for (int v = 0; v < nvar; ++v) {
    for (int k = 0; k < nz; ++k) {
      for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
          out(v, i, j, k) = smoothed(q(v, i, j, k), q(v, i - 1, j, k) + q(v, i + 1, j, k) +
                                                        q(v, i, j - 1, k) + q(v, i, j + 1, k) +
                                                        q(v, i, j, k - 1) + q(v, i, j, k + 1));
        }
      }
    }
  }
  return out;
}

void host_source(host_fields& out, host_fields& q) {
  for (int s = 0; s < nvar - first_sourced; ++s) {
    const int v = first_sourced + s;  // the offset by hand that var_range replaces
    for (int k = 0; k < nz; ++k) {
      for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
          out(v, i, j, k) = with_source(out(v, i, j, k), q(0, i, j, k), q(v, i, j, k));
        }
      }
    }
  }
}

double host_cfl(host_fields& q) {
  double cfl = std::numeric_limits<double>::lowest();
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        cfl = std::max(cfl, local_cfl(q(0, i, j, k), q(1, i, j, k), q(2, i, j, k), q(3, i, j, k)));
      }
    }
  }
  return cfl;
}

// The same steps on loopnest. The loops hand the body (i, j, k, v), cell first; the field
// handles take (v, i, j, k), variable first (docs/api.md, "Index orders").
template <class Schedule>
void periodic_ghosts(const fields& q) {
  loopnest::ghost_rules periodic;
  for (auto& face : periodic.face) {
    face[0] = face[1] = loopnest::ghost_rule::periodic;
  }
  loopnest::fill_ghosts<Schedule>(space(), q, periodic);
}

template <class Schedule>
fields smooth(const fields& q) {
  fields out(space(), "porting_a_loop::out", q.nvar(), {nx, ny, nz}, ghost);
  const auto in = q.ref();
  const auto o  = out.ref();
  loopnest::for_each_cell_var<Schedule>(
      space(), q.interior(), q.nvar(),
      KOKKOS_LAMBDA(int i, int j, int k, int v) {
        o(v, i, j, k) = smoothed(in(v, i, j, k), in(v, i - 1, j, k) + in(v, i + 1, j, k) +
                                                     in(v, i, j - 1, k) + in(v, i, j + 1, k) +
                                                     in(v, i, j, k - 1) + in(v, i, j, k + 1));
      },
      "porting_a_loop::smooth");
  return out;
}

template <class Schedule>
void source(const fields& out, const fields& q) {
  const auto in = q.ref();
  const auto o  = out.ref();
  // v is the variable's own index, first_sourced to nvar - 1: no offset to add.
  loopnest::for_each_cell_var<Schedule>(
      space(), q.interior(), loopnest::var_range{first_sourced, nvar},
      KOKKOS_LAMBDA(int i, int j, int k, int v) {
        o(v, i, j, k) = with_source(o(v, i, j, k), in(0, i, j, k), in(v, i, j, k));
      },
      "porting_a_loop::source");
}

template <class Schedule>
double cfl(const fields& q) {
  const auto in = q.ref();
  double result = 0.0;
  loopnest::reduce_cell<Schedule>(
      space(), q.interior(),
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        acc = loopnest::max(
            acc, local_cfl(in(0, i, j, k), in(1, i, j, k), in(2, i, j, k), in(3, i, j, k)));
      },
      Kokkos::Max<double>(result), "porting_a_loop::cfl");
  return result;
}

fields to_device(host_fields& h) {
  fields f(space(), "porting_a_loop::q", nvar, {nx, ny, nz}, ghost);
  for (int v = 0; v < nvar; ++v) {
    const auto mirror = Kokkos::create_mirror_view(f.field(v));
    for (int k = -ghost; k < nz + ghost; ++k) {
      for (int j = -ghost; j < ny + ghost; ++j) {
        for (int i = -ghost; i < nx + ghost; ++i) {
          mirror(i + ghost, j + ghost, k + ghost) = h(v, i, j, k);
        }
      }
    }
    Kokkos::deep_copy(f.field(v), mirror);
  }
  return f;
}

// Every element, ghosts included, holds the host's bits.
bool same_bits(const fields& f, host_fields& h) {
  Kokkos::fence();
  for (int v = 0; v < nvar; ++v) {
    const auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.field(v));
    for (int k = -ghost; k < nz + ghost; ++k) {
      for (int j = -ghost; j < ny + ghost; ++j) {
        for (int i = -ghost; i < nx + ghost; ++i) {
          const double device = mirror(i + ghost, j + ghost, k + ghost);
          if (std::memcmp(&device, &h(v, i, j, k), sizeof(double)) != 0) {
            return false;
          }
        }
      }
    }
  }
  return true;
}

// The host's results, and per step the schedules that gave other bits.
struct check {
  host_fields initial, ghosts, smoothed, sourced;
  double cfl = 0.0;
  std::string failed[3];
};

template <class Schedule>
void run(check& c) {
  const char* name = loopnest::name(Schedule::kind);
  const fields q   = to_device(c.initial);
  periodic_ghosts<Schedule>(q);
  const fields out = smooth<Schedule>(q);
  if (!same_bits(q, c.ghosts) || !same_bits(out, c.smoothed)) {
    c.failed[0] += std::string(" ") + name;
  }
  source<Schedule>(out, q);
  if (!same_bits(out, c.sourced)) {
    c.failed[1] += std::string(" ") + name;
  }
  const double device = cfl<Schedule>(q);
  if (std::memcmp(&device, &c.cfl, sizeof(double)) != 0) {
    c.failed[2] += std::string(" ") + name;
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  // Before Kokkos, which would print its own help for --help.
  for (int a = 1; a < argc; ++a) {
    if (std::string(argv[a]) == "--help" || std::string(argv[a]) == "-h") {
      std::printf(
          "usage: loopnest-example-porting-a-loop [Kokkos options]\n"
          "Ports a host loop nest onto loopnest step by step (periodic ghosts and a smoother, a\n"
          "source term over a variable range, a CFL-like maximum) and says per step whether\n"
          "every schedule gives the host loop's bits (exit 0) or not (exit 1).\n");
      return 0;
    }
  }
  try {
    Kokkos::ScopeGuard kokkos(argc, argv);
    check c;
    // Interior values of every size of mantissa; the ghosts start as poison the fill replaces.
    for (int v = 0; v < nvar; ++v) {
      for (int k = -ghost; k < nz + ghost; ++k) {
        for (int j = -ghost; j < ny + ghost; ++j) {
          for (int i = -ghost; i < nx + ghost; ++i) {
            const bool inside = i >= 0 && i < nx && j >= 0 && j < ny && k >= 0 && k < nz;
            c.initial(v, i, j, k) =
                inside ? (1.0 + v) / (3.0 + (7 * i + 5 * j + 3 * k + v) % 11) - (v == 2 ? 0.2 : 0.0)
                       : -1.0e300;
          }
        }
      }
    }
    c.ghosts = c.initial;
    host_periodic_ghosts(c.ghosts);
    c.smoothed = host_smooth(c.ghosts);
    c.sourced  = c.smoothed;
    host_source(c.sourced, c.ghosts);
    c.cfl = host_cfl(c.ghosts);

    run<loopnest::collapse4>(c);
    run<loopnest::collapse3>(c);
    run<loopnest::flat>(c);
    run<loopnest::kokkos_default>(c);
    run<loopnest::automatic>(c);

    const std::string steps[3] = {"1, periodic ghosts (fill_ghosts) and a 7-point smoother",
                                  "2, a source term over var_range{" +
                                      std::to_string(first_sourced) + ", " + std::to_string(nvar) +
                                      "}",
                                  "3, a CFL-like maximum (reduce_cell)"};
    bool all                   = true;
    for (int s = 0; s < 3; ++s) {
      if (c.failed[s].empty()) {
        std::printf("step %s: PASS, the host loop's bits under every schedule\n", steps[s].c_str());
      } else {
        std::printf("step %s: FAIL, other bits under%s\n", steps[s].c_str(), c.failed[s].c_str());
        all = false;
      }
    }
    return all ? 0 : 1;
  } catch (const std::exception& e) {  // loopnest reports bad arguments as exceptions
    std::fprintf(stderr, "loopnest-example-porting-a-loop: %s\n", e.what());
    return 1;
  }
}
