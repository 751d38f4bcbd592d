// loopnest::diffusion_solver: the explicit 5-point diffusion step on a 2D grid, one source for
// FP32 and FP64, under several loop layouts that all give the same bits, with a plain serial
// host loop as the reference. The checks a result must pass are the tools' (loopnest/tools/).
//
//   v(i, j) = u(i, j) + alpha * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4 u(i, j))
//
// on the interior; the four edges keep their values (0 for the standard initial condition).
#ifndef LOOPNEST_DIFFUSION_HPP
#define LOOPNEST_DIFFUSION_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/error.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/read_only.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loopnest {

// How the step maps onto the device. All variants compute every cell with diffusion_update, so
// on one backend they give byte-equal results.
enum class diffusion_variant {
  baseline,        // every cell a work item (one flattened index), a boundary branch per cell
  contiguous,      // a team per row j, its threads along i (stride 1)
  strided,         // a team per column i, its threads along j: the negative control
  collapse,        // loopnest::collapse3 over the interior box
  flat,            // loopnest::flat over the interior box
  kokkos_default,  // loopnest::kokkos_default: Kokkos' own MDRange tiles
  vectorized       // each thread a 16-byte-wide strip of cells, walked several rows along j
};

inline constexpr diffusion_variant diffusion_variants[] = {
    diffusion_variant::baseline,  diffusion_variant::contiguous, diffusion_variant::strided,
    diffusion_variant::collapse,  diffusion_variant::flat,       diffusion_variant::kokkos_default,
    diffusion_variant::vectorized};

// The variant the tools run when none is named.
inline constexpr diffusion_variant fastest_diffusion_variant = diffusion_variant::vectorized;

constexpr const char* name(diffusion_variant v) {
  switch (v) {
    case diffusion_variant::baseline:
      return "baseline";
    case diffusion_variant::contiguous:
      return "contiguous";
    case diffusion_variant::strided:
      return "strided";
    case diffusion_variant::collapse:
      return "collapse";
    case diffusion_variant::flat:
      return "flat";
    case diffusion_variant::kokkos_default:
      return "kokkos_default";
    case diffusion_variant::vectorized:
      return "vectorized";
  }
  return "unknown";
}

// One cell's update, written once for every variant: the sum in the formula's order and one
// explicit fused multiply-add, so that no variant's compiler contraction differs from another's
// (4 u is exact, so contracting the subtraction cannot change the bits either).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T diffusion_update(T alpha, T c, T w, T e, T s, T n) {
  return loopnest::fma(alpha, (((w + e) + s) + n) - T(4) * c, c);
}

namespace Impl {

inline void check_diffusion_grid(const char* where, int nx, int ny) {
  for (const auto& [label, n] : {std::pair<const char*, int>{"nx", nx}, {"ny", ny}}) {
    if (n < 3) {
      throw_invalid_argument(where, std::string(label) + " = " + std::to_string(n) +
                                        " but the grid needs at least 3 cells per direction (an "
                                        "interior between two edges)");
    }
  }
}

template <class T>
void check_diffusion_alpha(const char* where, T alpha) {
  if (!(alpha >= T(0) && alpha <= T(0.25))) {
    throw_invalid_argument(where, "alpha = " + std::to_string(alpha) +
                                      " is outside [0, 0.25], where the explicit step is stable");
  }
}

inline std::size_t cell_count(int nx, int ny) {
  return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
}

}  // namespace Impl

// The standard initial condition on the host, i fastest: 1 in the centre cell ((nx+1)/2,
// (ny+1)/2 counted from 1), 0 elsewhere.
template <class T>
std::vector<T> diffusion_initial_condition(int nx, int ny) {
  Impl::check_diffusion_grid("loopnest::diffusion_initial_condition", nx, ny);
  std::vector<T> u(Impl::cell_count(nx, ny), T(0));
  u[static_cast<std::size_t>((nx + 1) / 2 - 1) +
    static_cast<std::size_t>(nx) * static_cast<std::size_t>((ny + 1) / 2 - 1)] = T(1);
  return u;
}

// The reference: the step as a plain serial host loop, written from the formula and not from
// the device kernels, `steps` times from `initial` (nx * ny values, i fastest).
template <class T>
std::vector<T> diffusion_reference(int nx, int ny, int steps, std::vector<T> initial,
                                   T alpha = T(0.1)) {
  constexpr const char* where = "loopnest::diffusion_reference";
  Impl::check_diffusion_grid(where, nx, ny);
  Impl::check_diffusion_alpha(where, alpha);
  if (steps < 0) {
    Impl::throw_invalid_argument(where, "steps = " + std::to_string(steps) + " is negative");
  }
  if (initial.size() != Impl::cell_count(nx, ny)) {
    Impl::throw_invalid_argument(where, "initial has " + std::to_string(initial.size()) +
                                            " values but the grid has " +
                                            std::to_string(Impl::cell_count(nx, ny)));
  }
  std::vector<T> u = std::move(initial);
  std::vector<T> v = u;
  const auto at = [nx](int i, int j) { return static_cast<std::size_t>(i) + std::size_t(nx) * j; };
  for (int s = 0; s < steps; ++s) {
    for (int j = 1; j < ny - 1; ++j) {
      for (int i = 1; i < nx - 1; ++i) {
        v[at(i, j)] = u[at(i, j)] + alpha * (u[at(i - 1, j)] + u[at(i + 1, j)] + u[at(i, j - 1)] +
                                             u[at(i, j + 1)] - 4 * u[at(i, j)]);
      }
    }
    std::swap(u, v);
  }
  return u;
}

namespace Impl {

// Both arrays are (pitch, ny) LayoutLeft Views: rows padded to whole 128-byte lines so that
// every row starts aligned for the vectorized variant's 16-byte loads and stores. Padding cells
// are zero and stay zero.
template <class T, class MemorySpace>
using diffusion_view = Kokkos::View<T**, Kokkos::LayoutLeft, MemorySpace>;

// In 64 bits: rounding nx near 2^31 up to a whole line would overflow int.
template <class T>
constexpr std::int64_t diffusion_pitch(int nx) {
  constexpr std::int64_t line = 128 / sizeof(T);
  return (nx + line - 1) / line * line;
}

// A strip of cells that one 16-byte load or store moves.
template <class T>
struct alignas(16) diffusion_strip {
  static constexpr int width = 16 / sizeof(T);
  T x[width];
};

// Rows one thread of the vectorized variant walks: the strips of its rows and of the rows above
// and below are each loaded once per thread, so a strip in registers serves up to three rows'
// updates (the rows at a block's edges are loaded by both neighbouring threads).
constexpr int diffusion_rows_per_thread = 4;

template <class T>
struct diffusion_step_args {
  T alpha;
  int nx, ny;
};

template <class ExecutionSpace, class T, class U, class V>
void diffusion_step_baseline(const ExecutionSpace& exec, const diffusion_step_args<T>& a,
                             const U& u, const V& v) {
  const int nx = a.nx, ny = a.ny;
  const T alpha = a.alpha;
  Kokkos::parallel_for(
      "loopnest::diffusion/baseline",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<int>>(exec, 0, nx * ny),
      KOKKOS_LAMBDA(int c) {
        const int i = c % nx, j = c / nx;
        if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
          v(i, j) = u(i, j);
        } else {
          v(i, j) =
              diffusion_update(alpha, u(i, j), u(i - 1, j), u(i + 1, j), u(i, j - 1), u(i, j + 1));
        }
      });
}

// A team per row (Contiguous) or per column, its threads along the other index.
template <bool Contiguous, class ExecutionSpace, class T, class U, class V>
void diffusion_step_teams(const ExecutionSpace& exec, const diffusion_step_args<T>& a, const U& u,
                          const V& v) {
  using policy = Kokkos::TeamPolicy<ExecutionSpace>;
  using member = typename policy::member_type;
  const int nx = a.nx, ny = a.ny;
  const T alpha   = a.alpha;
  const int outer = Contiguous ? ny - 2 : nx - 2;
  const int inner = Contiguous ? nx - 2 : ny - 2;
  Kokkos::parallel_for(
      Contiguous ? "loopnest::diffusion/contiguous" : "loopnest::diffusion/strided",
      policy(exec, outer, Kokkos::AUTO), KOKKOS_LAMBDA(const member& m) {
        const int o = m.league_rank() + 1;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(m, 1, inner + 1), [&](int n) {
          const int i = Contiguous ? n : o, j = Contiguous ? o : n;
          v(i, j) =
              diffusion_update(alpha, u(i, j), u(i - 1, j), u(i + 1, j), u(i, j - 1), u(i, j + 1));
        });
      });
}

template <class Schedule, class ExecutionSpace, class T, class U, class V>
void diffusion_step_schedule(const ExecutionSpace& exec, const diffusion_step_args<T>& a,
                             const U& u, const V& v, const char* label, const tile& t = tile{}) {
  const T alpha = a.alpha;
  for_each_cell<Schedule>(
      exec, box<2>{{1, 1}, {a.nx - 1, a.ny - 1}},
      KOKKOS_LAMBDA(int i, int j) {
        v(i, j) =
            diffusion_update(alpha, u(i, j), u(i - 1, j), u(i + 1, j), u(i, j - 1), u(i, j + 1));
      },
      label, t);
}

// Rows rows of one strip, starting at row j0: every load first (the strips of rows j0 - 1 to
// j0 + Rows and the cells left and right of each row), then every update and store. Loads are
// read-only, so they never wait for a store and a thread keeps Rows + 2 vector loads in flight:
// one 4-byte load in flight per thread cannot saturate HBM. Lanes on an edge or in the row
// padding write back their own value.
template <int Rows, class T>
KOKKOS_FORCEINLINE_FUNCTION void diffusion_strip_rows(const T* in, T* out, std::size_t pitch,
                                                      int i0, int j0, int nx, T alpha) {
  using strip         = diffusion_strip<T>;
  constexpr int w     = strip::width;
  const bool has_left = i0 > 0, has_right = i0 + w < static_cast<int>(pitch);
  strip s[Rows + 2];
  T left[Rows], right[Rows];
  for (int r = 0; r < Rows + 2; ++r) {
    s[r] = load_read_only(*reinterpret_cast<const strip*>(in + pitch * (j0 - 1 + r) + i0));
  }
  for (int r = 0; r < Rows; ++r) {
    const T* row = in + pitch * (j0 + r) + i0;
    left[r]      = has_left ? load_read_only(row[-1]) : T(0);
    right[r]     = has_right ? load_read_only(row[w]) : T(0);
  }
  for (int r = 0; r < Rows; ++r) {
    const strip& c = s[r + 1];
    strip o;
    for (int l = 0; l < w; ++l) {
      const int i = i0 + l;
      o.x[l]      = (i >= 1 && i <= nx - 2)
                        ? diffusion_update(alpha, c.x[l], l == 0 ? left[r] : c.x[l - 1],
                                      l == w - 1 ? right[r] : c.x[l + 1], s[r].x[l], s[r + 2].x[l])
                        : c.x[l];
    }
    *reinterpret_cast<strip*>(out + pitch * (j0 + r) + i0) = o;
  }
}

// Each work item: one 16-byte strip along i and diffusion_rows_per_thread rows along j (fewer in
// the last block of rows), so each interior strip is loaded from memory once and serves three
// rows' updates from registers.
template <class ExecutionSpace, class T, class U, class V>
void diffusion_step_vectorized(const ExecutionSpace& exec, const diffusion_step_args<T>& a,
                               const U& u, const V& v) {
  constexpr int w = diffusion_strip<T>::width;
  constexpr int h = diffusion_rows_per_thread;
  const int nx = a.nx, ny = a.ny;
  const T alpha     = a.alpha;
  const auto pitch  = static_cast<std::size_t>(u.extent(0));
  const int strips  = static_cast<int>(pitch) / w;
  const int blocks  = (ny - 2 + h - 1) / h;
  T* const out      = v.data();
  const T* const in = u.data();
  for_each_cell<flat>(
      exec, box<2>{{0, 0}, {strips, blocks}},
      KOKKOS_LAMBDA(int s, int b) {
        const int i0 = s * w, j0 = 1 + b * h;
        if (j0 + h <= ny - 1) {
          diffusion_strip_rows<h>(in, out, pitch, i0, j0, nx, alpha);
        } else {
          for (int j = j0; j < ny - 1; ++j) {
            diffusion_strip_rows<1>(in, out, pitch, i0, j, nx, alpha);
          }
        }
      },
      "loopnest::diffusion/vectorized");
}

}  // namespace Impl

namespace Impl {

template <class T>
void check_diffusion_grid_size(const char* where, int nx, int ny) {
  check_diffusion_grid(where, nx, ny);
  if (diffusion_pitch<T>(nx) * ny > INT_MAX) {
    throw_invalid_argument(where, "a grid of nx = " + std::to_string(nx) +
                                      " by ny = " + std::to_string(ny) +
                                      " cells, rows padded to 128 bytes, exceeds the 2^31 - 1 "
                                      "cells of 32-bit indices");
  }
}

}  // namespace Impl

// Refuses, before anything is allocated or run, a grid the solver cannot hold in T: fewer than 3
// cells along an axis, or more than 2^31 - 1 cells once each row is padded to whole 128-byte
// lines (the kernels index with int). Throws std::invalid_argument naming nx and ny; the
// solver's constructor makes the same check.
template <class T>
void check_diffusion_grid_size(int nx, int ny) {
  Impl::check_diffusion_grid_size<T>("loopnest::check_diffusion_grid_size", nx, ny);
}

// Two device arrays of nx * ny cells (the edges included) that swap roles every step; the field
// after the last step is current(). Variant picks the loop layout; T is float or double.
template <class T, diffusion_variant Variant, class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class diffusion_solver {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "loopnest::diffusion_solver: the scalar type must be float or double.");

 public:
  using execution_space                      = ExecutionSpace;
  using memory_space                         = typename ExecutionSpace::memory_space;
  using view_type                            = Impl::diffusion_view<T, memory_space>;
  static constexpr diffusion_variant variant = Variant;

  // t: an explicit (i, j) tile for the collapse variant (loopnest's per-backend pick by default).
  diffusion_solver(const ExecutionSpace& exec, int nx, int ny, T alpha = T(0.1),
                   const tile& t = tile{})
      : m_exec(exec), m_nx(nx), m_ny(ny), m_alpha(alpha), m_tile(t) {
    constexpr const char* where = "loopnest::diffusion_solver";
    Impl::check_diffusion_grid_size<T>(where, nx, ny);
    Impl::check_diffusion_alpha(where, alpha);
    if (Variant == diffusion_variant::collapse) {
      Impl::check_tile(where, exec, t, schedule_kind::collapse3, 2, "i, j", 1);
    } else if (!t.is_default()) {
      Impl::throw_invalid_argument(where, "tile " + t.to_string() + " was given to variant " +
                                              name(Variant) + "; only collapse takes a tile");
    }
    const auto pitch = static_cast<int>(Impl::diffusion_pitch<T>(nx));
    m_u              = view_type(Kokkos::view_alloc(exec, "loopnest::diffusion/u"), pitch, ny);
    m_v              = view_type(Kokkos::view_alloc(exec, "loopnest::diffusion/v"), pitch, ny);
  }

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  T alpha() const { return m_alpha; }
  int steps_taken() const { return m_steps; }

  // The standard initial condition in both arrays (so both hold the same edges).
  void set_initial_condition() { set_field(diffusion_initial_condition<T>(m_nx, m_ny)); }

  // Any field (nx * ny values, i fastest) as the state; its edges are held from now on.
  void set_field(const std::vector<T>& values) {
    if (values.size() != Impl::cell_count(m_nx, m_ny)) {
      Impl::throw_invalid_argument("loopnest::diffusion_solver::set_field",
                                   "values has " + std::to_string(values.size()) +
                                       " entries but the grid has " +
                                       std::to_string(Impl::cell_count(m_nx, m_ny)));
    }
    const auto host = Kokkos::create_mirror_view(m_u);
    Kokkos::deep_copy(host, T(0));
    for (int j = 0; j < m_ny; ++j) {
      for (int i = 0; i < m_nx; ++i) {
        host(i, j) = values[static_cast<std::size_t>(i) + std::size_t(m_nx) * j];
      }
    }
    Kokkos::deep_copy(m_exec, m_u, host);
    Kokkos::deep_copy(m_exec, m_v, m_u);
    m_exec.fence();
    m_steps = 0;
  }

  // Runs `steps` steps (asynchronously on the execution space; field() waits for them).
  void advance(int steps) {
    if (steps < 0) {
      Impl::throw_invalid_argument("loopnest::diffusion_solver::advance",
                                   "steps = " + std::to_string(steps) + " is negative");
    }
    const Impl::profiling_region region("loopnest::diffusion");
    for (int s = 0; s < steps; ++s) {
      step(m_u, m_v);
      std::swap(m_u, m_v);
      ++m_steps;
    }
  }

  // The current field on the host, nx * ny values, i fastest.
  std::vector<T> field() const {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_u);
    std::vector<T> out(Impl::cell_count(m_nx, m_ny));
    for (int j = 0; j < m_ny; ++j) {
      for (int i = 0; i < m_nx; ++i) {
        out[static_cast<std::size_t>(i) + std::size_t(m_nx) * j] = host(i, j);
      }
    }
    return out;
  }

  // The device arrays, (pitch, ny) with cells i < nx meaningful: the one holding the current
  // field, and the one the next step writes (poison it to see cells a step leaves unwritten).
  const view_type& current() const { return m_u; }
  const view_type& next() const { return m_v; }

 private:
  void step(const view_type& u, const view_type& v) const {
    const Impl::diffusion_step_args<T> a{m_alpha, m_nx, m_ny};
    if constexpr (Variant == diffusion_variant::baseline) {
      Impl::diffusion_step_baseline(m_exec, a, u, v);
    } else if constexpr (Variant == diffusion_variant::contiguous) {
      Impl::diffusion_step_teams<true>(m_exec, a, u, v);
    } else if constexpr (Variant == diffusion_variant::strided) {
      Impl::diffusion_step_teams<false>(m_exec, a, u, v);
    } else if constexpr (Variant == diffusion_variant::collapse) {
      Impl::diffusion_step_schedule<collapse3>(m_exec, a, u, v, "loopnest::diffusion/collapse",
                                               m_tile);
    } else if constexpr (Variant == diffusion_variant::flat) {
      Impl::diffusion_step_schedule<flat>(m_exec, a, u, v, "loopnest::diffusion/flat");
    } else if constexpr (Variant == diffusion_variant::kokkos_default) {
      Impl::diffusion_step_schedule<kokkos_default>(m_exec, a, u, v,
                                                    "loopnest::diffusion/kokkos_default");
    } else {
      static_assert(Variant == diffusion_variant::vectorized, "every variant has a step");
      Impl::diffusion_step_vectorized(m_exec, a, u, v);
    }
  }

  ExecutionSpace m_exec;
  int m_nx, m_ny;
  T m_alpha;
  tile m_tile;
  int m_steps = 0;
  view_type m_u, m_v;
};

}  // namespace loopnest

#endif
