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
#include <loopnest/reduce.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
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
  vectorized,      // each thread a 16-byte-wide strip of cells, walked several rows along j
  temporal         // several steps per pass over memory: teams stream column strips along j
};

inline constexpr diffusion_variant diffusion_variants[] = {
    diffusion_variant::baseline,   diffusion_variant::contiguous, diffusion_variant::strided,
    diffusion_variant::collapse,   diffusion_variant::flat,       diffusion_variant::kokkos_default,
    diffusion_variant::vectorized, diffusion_variant::temporal};

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
    case diffusion_variant::temporal:
      return "temporal";
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

// Per-backend choices of the temporal variant (diffusion_variant::temporal). A team owns a strip
// of columns_per_thread * team_size columns and streams it along j, advancing K steps per pass
// over memory; every thread keeps its columns' last three rows of every step level in
// registers, and the team exchanges the first and last column of each thread through team
// scratch memory. The host default: one thread per team, 64 columns, so that the halo of 2K
// recomputed columns stays a small share of the strip.
template <class ExecutionSpace, class T>
struct diffusion_temporal_traits {
  // Columns each thread owns: its registers hold 3 * columns_per_thread values per step level.
  static constexpr int columns_per_thread = 64;
  // Team sizes tried by the planner: team_size_step, 2 * team_size_step, ... up to max_team_size.
  static constexpr int team_size_step = 1;
  static constexpr int max_team_size  = 1;
  // Steps per pass when the caller names none, and the largest the solver instantiates.
  static constexpr int default_steps_per_pass = 4;
  static constexpr int max_steps_per_pass     = 12;
  // Small grids: threads of a team that keeps its whole tile, K-deep halo included, in team
  // scratch (at most: the planner takes fewer where the kernel's registers hold fewer on one
  // processor), and the columns of that region (a power of two, so that a cell's column is a
  // mask). One such team per processor makes a wave of the small-grid pass.
  static constexpr int tile_team_size = 1;
  static constexpr int tile_columns   = 64;
  // Rows of one column a thread updates together at each level: their loads are independent
  // and in flight at once, and each middle value serves three updates.
  static constexpr int tile_rows_per_thread = 2;
  // Steps per pass when the caller names none and the small-grid pass takes the grid.
  static constexpr int tile_steps_per_pass = default_steps_per_pass;
  // Whether the planner takes the small-grid pass for a grid whose regions of the most rows need
  // at most two waves of teams: never on a host backend, which has no launch latency and no
  // pipeline start to hide.
  static constexpr bool small_grid_tiles = false;
  // Processors that each want a team of a small-grid pass.
  static int processors(const ExecutionSpace& exec) { return Impl::concurrency(exec); }
  // Teams that run at the same time with team_size threads and scratch_bytes of team scratch
  // each, for a kernel of which one multiprocessor holds resident_threads threads by its
  // registers (Kokkos' team_size_max): the planner sizes the grid of teams to whole waves of
  // these.
  static int concurrent_teams(const ExecutionSpace& exec, int team_size, std::size_t,
                              int /*resident_threads*/) {
    return std::max(1, Impl::concurrency(exec) / team_size);
  }
};

#if defined(KOKKOS_ENABLE_CUDA)
// CUDA: two (FP64) or four (FP32) columns per thread, so that a thread's inner columns take
// their neighbours from its own registers and only its outer two go through shared memory.
// Kokkos caps team scratch at the 48 KB of a block without opt-in, which bounds the team size
// at a given K (the planner checks); several teams share each SM instead.
template <class T>
struct diffusion_temporal_traits<Kokkos::Cuda, T> {
  static constexpr int columns_per_thread     = sizeof(T) == 8 ? 2 : 4;
  static constexpr int team_size_step         = 32;
  static constexpr int max_team_size          = 256;
  static constexpr int default_steps_per_pass = 8;
  static constexpr int max_steps_per_pass     = 12;
  // A block of 1024 threads: the 32 warps of an SM that a team of the small-grid pass holds
  // alone hide its shared-memory latency (256 threads, one team per SM, were slower).
  static constexpr int tile_team_size       = 1024;
  static constexpr int tile_columns         = 64;
  static constexpr int tile_rows_per_thread = 2;
  // At 256^2 a small-grid pass of 10 steps took 7-9% less per step than one of 8 (H200).
  static constexpr int tile_steps_per_pass = 10;
  static constexpr bool small_grid_tiles   = true;
  static int processors(const Kokkos::Cuda& exec) {
    return exec.cuda_device_prop().multiProcessorCount;
  }
  // An SM holds as many teams as its registers (resident_threads: the kernel's registers bound
  // it below the 2048 threads of the hardware), its shared memory and its block slots allow.
  static int concurrent_teams(const Kokkos::Cuda& exec, int team_size, std::size_t scratch_bytes,
                              int resident_threads) {
    const cudaDeviceProp& p = exec.cuda_device_prop();
    // Kokkos keeps about (team_size + 2) doubles of each block's shared memory for itself, and
    // the SM 1 KB per block.
    const std::size_t per_team = scratch_bytes + (team_size + 2) * sizeof(double) + 1024;
    // A kernel that fills a whole block by its registers may fill the SM's 2048 threads.
    const int threads =
        resident_threads >= p.maxThreadsPerBlock ? p.maxThreadsPerMultiProcessor : resident_threads;
    const int by_threads = threads / team_size;
    const int by_scratch = static_cast<int>(p.sharedMemPerMultiprocessor / per_team);
    const int per_sm     = std::min({by_threads, by_scratch, p.maxBlocksPerMultiProcessor});
    return p.multiProcessorCount * std::max(1, per_sm);
  }
};
#endif

namespace Impl {

// How one pass of the temporal variant covers the grid: strips of `width` interior columns
// (each team computes width + 2K columns) times segments of `length` interior rows (each team
// streams length + 2K rows), strips * segments teams of team_size threads. With tile_rows > 0
// (small grids) each team instead holds a region of tile_columns x tile_rows cells in team
// scratch, its width x length tile and a K-deep halo, and advances all K steps there.
struct diffusion_temporal_plan {
  int team_size, strips, segments, width, length;
  int tile_rows = 0;
  int teams() const { return strips * segments; }
  bool tiles() const { return tile_rows > 0; }
};

// Team scratch of one pass: per thread and step level below K, three rows in flight (written
// two rows before they are read, so one barrier per row keeps writers and readers apart) of the
// thread's first and last column. Thread-major, so that every access is the thread's own base
// plus a constant (no offset per level held in registers), and padded by one value, so that
// consecutive threads fall in consecutive banks.
template <class T, class ExecutionSpace>
using diffusion_temporal_scratch =
    Kokkos::View<T*, typename ExecutionSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;

constexpr int diffusion_temporal_scratch_stride(int steps) {
  return 3 * 2 * steps + 1;
}

template <class T, class ExecutionSpace>
std::size_t diffusion_temporal_scratch_bytes(int steps, int team_size) {
  return diffusion_temporal_scratch<T, ExecutionSpace>::shmem_size(
      std::size_t(diffusion_temporal_scratch_stride(steps)) * team_size);
}

// One pass of K steps from `in` to `out` (both pitch x ny, i fastest). Team (strip, segment)
// writes the interior cells of columns [a, a + width) and rows [j0, j0 + length) (clipped to the
// interior). It computes columns [a - K, a - K + team_size * C) and walks rows n = j0 - K to
// j0 + length - 1 + 2K; at row n, step level t computes row n - 2t from level t - 1's rows
// n - 2t - 1 to n - 2t + 1, all finished at earlier rows, so a row needs a single barrier. Level
// t is right on columns [a - K + t, a - K + team_size * C - t) and rows [j0 - K + t,
// j0 + length + K - t): level K on the cells the team writes. Cells outside the grid read as
// 0, and edge cells keep their value at every level, as in the stepwise solver.
template <class T, int K, int C, class ExecutionSpace>
struct diffusion_temporal_kernel {
  static_assert(C >= 2,
                "loopnest::diffusion_temporal_traits: columns_per_thread must be at least "
                "2 (a thread's first and last column are exchanged separately).");
  using scratch_type = diffusion_temporal_scratch<T, ExecutionSpace>;

  const T* m_in;
  T* m_out;
  std::size_t m_pitch;
  int m_nx, m_ny;
  T m_alpha;
  int m_strips, m_width, m_length;

  // One thread's registers: the last three rows of step levels 0 to K - 1 in its columns, in
  // a rotation of three (a row's value goes where the row three before it was), the input rows
  // loaded three rows ahead, and which of its columns are updated and written.
  struct thread_state {
    T level[K][3][C];
    T ahead[3][C];
    bool update[C], write[C];
    int i0, q, team_size, j0, j1, n0;
    T* scratch;  // this thread's part of the team scratch
  };

  static constexpr int stride = diffusion_temporal_scratch_stride(K);

  // Where the first (side 0) or last (side 1) column of level t's rotation slot `slot` lies in a
  // thread's part of the scratch.
  KOKKOS_INLINE_FUNCTION static constexpr int at(int t, int slot, int side) {
    return (t * 3 + slot) * 2 + side;
  }

  KOKKOS_FORCEINLINE_FUNCTION void load_row(T (&row)[C], const thread_state& s, int n) const {
    // Rows past j1 - 1 + K feed no written cell; skipping them saves the draining rows' traffic.
    const bool in_rows = n >= 0 && n < m_ny && n <= s.j1 - 1 + K;
    const T* p         = m_in + std::size_t(in_rows ? n : 0) * m_pitch;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
    for (int c = 0; c < C; ++c) {
      const int i = s.i0 + c;
      row[c]      = in_rows && i >= 0 && i < m_nx ? load_read_only(p[i]) : T(0);
    }
  }

  // Row n = n0 + it, it % 3 == R: every level's update (from the top, so that a level reads its
  // source's rotation slot R before that level overwrites it), then the new input row.
  template <int R, class Member>
  KOKKOS_FORCEINLINE_FUNCTION void row(const Member& m, thread_state& s, int it) const {
    constexpr int south = R, centre = (R + 1) % 3, north = (R + 2) % 3;
    const int n = s.n0 + it;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
    for (int t = K; t >= 1; --t) {
      const int r = n - 2 * t;
      if (r < s.j0 - K + t || r > s.j1 - 1 + K - t) {
        continue;  // a row of level t that no written cell needs
      }
      const T(&c)[C]  = s.level[t - 1][centre];
      const T(&lo)[C] = s.level[t - 1][south];
      const T(&hi)[C] = s.level[t - 1][north];
      const T west    = s.q > 0 ? s.scratch[at(t - 1, centre, 1) - stride] : c[0];
      const T east    = s.q < s.team_size - 1 ? s.scratch[at(t - 1, centre, 0) + stride] : c[C - 1];
      const bool inside = r >= 1 && r <= m_ny - 2;
      T v[C];
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
      for (int k = 0; k < C; ++k) {
        v[k] = inside && s.update[k] ? diffusion_update(m_alpha, c[k], k > 0 ? c[k - 1] : west,
                                                        k < C - 1 ? c[k + 1] : east, lo[k], hi[k])
                                     : c[k];
      }
      if (t == K) {
        T* out = m_out + std::size_t(r) * m_pitch + s.i0;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
        for (int k = 0; k < C; ++k) {
          if (s.write[k]) {
            out[k] = v[k];
          }
        }
      } else {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
        for (int k = 0; k < C; ++k) {
          s.level[t][south][k] = v[k];
        }
        s.scratch[at(t, south, 0)] = v[0];
        s.scratch[at(t, south, 1)] = v[C - 1];
      }
    }
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
    for (int k = 0; k < C; ++k) {
      s.level[0][south][k] = s.ahead[R][k];
    }
    s.scratch[at(0, south, 0)] = s.ahead[R][0];
    s.scratch[at(0, south, 1)] = s.ahead[R][C - 1];
    load_row(s.ahead[R], s, n + 3);
    m.team_barrier();
  }

  // A template on the team handle: Kokkos' member type, or a test's team of host threads.
  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& m) const {
    thread_state s;
    const int strip = m.league_rank() % m_strips, segment = m.league_rank() / m_strips;
    const int a = 1 + strip * m_width, b = a + m_width < m_nx - 1 ? a + m_width : m_nx - 1;
    s.j0        = 1 + segment * m_length;
    s.j1        = s.j0 + m_length < m_ny - 1 ? s.j0 + m_length : m_ny - 1;
    s.n0        = s.j0 - K;
    s.q         = m.team_rank();
    s.team_size = m.team_size();
    s.i0        = a - K + s.q * C;
    const scratch_type x(m.team_scratch(0), std::size_t(stride) * s.team_size);
    s.scratch = x.data() + std::size_t(stride) * s.q;
    for (int k = 0; k < C; ++k) {
      const int i = s.i0 + k;
      s.update[k] = i >= 1 && i <= m_nx - 2;
      s.write[k]  = i >= a && i < b;
      for (int t = 0; t < K; ++t) {
        for (int slot = 0; slot < 3; ++slot) {
          s.level[t][slot][k] = T(0);
        }
      }
    }
    // Rows that no level has written yet are read only by rows no written cell needs; zeros keep
    // them finite and the reads defined.
    for (int v = 0; v < stride; ++v) {
      s.scratch[v] = T(0);
    }
    for (int r = 0; r < 3; ++r) {
      load_row(s.ahead[r], s, s.n0 + r);
    }
    m.team_barrier();
    const int rows = (s.j1 - s.j0) + 3 * K;
    int it         = 0;
    for (; it + 3 <= rows; it += 3) {
      row<0>(m, s, it);
      row<1>(m, s, it + 1);
      row<2>(m, s, it + 2);
    }
    if (it < rows) {
      row<0>(m, s, it);
    }
    if (it + 1 < rows) {
      row<1>(m, s, it + 1);
    }
  }
};

// One pass of K steps for small grids: team (tx, ty) loads the region of Columns x m_rows cells
// whose inner tile (columns [a, a + width), rows [j0, j0 + length)) it writes, K cells of halo
// on every side, into team scratch; then level t = 1 .. K updates the cells t and more from the
// region's border, from level t - 1 in the other half of the scratch, with a team barrier per
// level; level K covers the tile. Cells outside the grid read as 0 and edge cells keep their
// value at every level, as in the stepwise solver. One launch per K steps and no pipeline to
// fill: a grid that fits in a wave of teams costs about the K levels of one region, halo cells
// read by every team whose region holds them.
template <class T, int K, int Columns, int Rows, class ExecutionSpace>
struct diffusion_tiles_kernel {
  static_assert((Columns & (Columns - 1)) == 0 && Columns > 2 * K,
                "loopnest::diffusion_temporal_traits: tile_columns must be a power of two wider "
                "than the two K-deep halos of a pass.");
  static_assert(Rows >= 1,
                "loopnest::diffusion_temporal_traits: tile_rows_per_thread must be at least 1.");
  using scratch_type         = diffusion_temporal_scratch<T, ExecutionSpace>;
  static constexpr int width = Columns - 2 * K;
  // Rows after each copy of a region, zero, for a run cut short by the region's last rows to
  // load past it (its loads, at fixed offsets from one address, take no bounds).
  static constexpr int padding = Rows - 1;
  // Offset of row q of a run (q known at compile time once unrolled).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr std::ptrdiff_t row(int q) {
    return static_cast<std::ptrdiff_t>(q) * Columns;
  }

  // Team scratch of one pass: two copies of a region of Columns x rows cells, each padded.
  static std::size_t scratch_bytes(int rows) {
    return scratch_type::shmem_size(2 * std::size_t(Columns) * (rows + padding));
  }

  const T* m_in;
  T* m_out;
  std::size_t m_pitch;
  int m_nx, m_ny;
  T m_alpha;
  int m_tiles_x, m_rows;

  // The team's threads take cells first to last of the region, adjacent threads adjacent cells
  // (a template on the team handle, as diffusion_temporal_kernel's).
  template <class Member, class F>
  KOKKOS_FORCEINLINE_FUNCTION static void for_cells(const Member& m, int first, int last, F&& f) {
    for (int c = first + m.team_rank(); c < last; c += m.team_size()) {
      f(c);
    }
  }

  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& m) const {
    const int length = m_rows - 2 * K;
    const int tx = m.league_rank() % m_tiles_x, ty = m.league_rank() / m_tiles_x;
    const int x0 = 1 + tx * width - K, y0 = 1 + ty * length - K;  // the region's first cell
    const int cells = Columns * m_rows, copy = Columns * (m_rows + padding);
    const scratch_type x(m.team_scratch(0), 2 * std::size_t(copy));
    T* from = x.data();
    T* to   = from + copy;
    for_cells(m, cells, copy, [&](int c) {
      from[c] = T(0);
      to[c]   = T(0);
    });
    for_cells(m, 0, cells, [&](int c) {
      const int i = x0 + c % Columns, j = y0 + c / Columns;
      from[c] = i >= 0 && i < m_nx && j >= 0 && j < m_ny
                    ? load_read_only(m_in[std::size_t(j) * m_pitch + i])
                    : T(0);
    });
    m.team_barrier();
    for (int t = 1; t <= K; ++t) {
      // Rows t to m_rows - t - 1 of the region, in runs of Rows rows of one column per thread;
      // the columns outside [t, Columns - t) keep what they hold, which no later level reads.
      const int end = m_rows - t, runs = (end - t + Rows - 1) / Rows;
      for (int n = m.team_rank(); n < runs * Columns; n += m.team_size()) {
        const int col = n % Columns, r0 = t + n / Columns * Rows;
        const int i = x0 + col;
        if (col < t || col >= Columns - t) {
          continue;
        }
        // Rows r0 - 1 to r0 + Rows of the column: a run cut short by `end` loads, but does not
        // use, rows past it (the padding at most).
        const T* const in = from + ((r0 - 1) * Columns + col);
        T* const out      = to + (r0 * Columns + col);
        T v[Rows + 2], west[Rows], east[Rows];
        for (int q = 0; q < Rows + 2; ++q) {
          v[q] = in[row(q)];
        }
        for (int q = 0; q < Rows; ++q) {
          west[q] = in[row(q + 1) - 1];
          east[q] = in[row(q + 1) + 1];
        }
        const bool interior_i = i >= 1 && i <= m_nx - 2;
        for (int q = 0; q < Rows; ++q) {
          const int j = y0 + r0 + q;
          if (r0 + q < end) {
            out[row(q)] =
                interior_i && j >= 1 && j <= m_ny - 2
                    ? diffusion_update(m_alpha, v[q + 1], west[q], east[q], v[q], v[q + 2])
                    : v[q + 1];
          }
        }
      }
      m.team_barrier();
      T* const last = from;
      from          = to;
      to            = last;
    }
    // Level K on the tile: interior columns [a, b) and rows [j0, j1) of the grid.
    const int a = x0 + K, j0 = y0 + K;
    const int b  = a + width < m_nx - 1 ? a + width : m_nx - 1;
    const int j1 = j0 + length < m_ny - 1 ? j0 + length : m_ny - 1;
    for_cells(m, Columns * K, Columns * (m_rows - K), [&](int c) {
      const int i = x0 + c % Columns, j = y0 + c / Columns;
      if (i >= a && i < b && j < j1) {
        m_out[std::size_t(j) * m_pitch + i] = from[c];
      }
    });
  }
};

// Calls f(std::integral_constant<int, steps>{}) for 1 <= steps <= sizeof...(Ks): K is a
// template argument of the kernel so that every level's registers are named at compile time.
template <class F, int... Ks>
void with_diffusion_steps(int steps, std::integer_sequence<int, Ks...>, F&& f) {
  (void)((steps == Ks + 1 ? (f(std::integral_constant<int, Ks + 1>{}), true) : false) || ...);
}

template <class T, class ExecutionSpace, class F>
void with_diffusion_steps(int steps, F&& f) {
  with_diffusion_steps(steps,
                       std::make_integer_sequence<
                           int, diffusion_temporal_traits<ExecutionSpace, T>::max_steps_per_pass>{},
                       std::forward<F>(f));
}

// Threads of the K-step kernel one multiprocessor holds by its registers: Kokkos' largest team
// of it (1 on host backends, whose traits do not ask).
template <class T, class ExecutionSpace>
int diffusion_temporal_resident_threads(const ExecutionSpace& exec, int steps) {
  constexpr int columns = diffusion_temporal_traits<ExecutionSpace, T>::columns_per_thread;
  int threads           = 0;
  with_diffusion_steps<T, ExecutionSpace>(steps, [&](auto k) {
    using kernel = diffusion_temporal_kernel<T, decltype(k)::value, columns, ExecutionSpace>;
    threads      = Kokkos::TeamPolicy<ExecutionSpace>(exec, 1, 1)
                  .team_size_max(kernel{nullptr, nullptr, 0, 3, 3, T(0), 1, 1, 1},
                                 Kokkos::ParallelForTag());
  });
  return threads;
}

// Team scratch of a small-grid pass of the traits' kernel (any K: its scratch does not depend
// on it).
template <class T, class ExecutionSpace>
std::size_t diffusion_tiles_scratch_bytes(int rows) {
  using traits = diffusion_temporal_traits<ExecutionSpace, T>;
  return diffusion_tiles_kernel<T, 1, traits::tile_columns, traits::tile_rows_per_thread,
                                ExecutionSpace>::scratch_bytes(rows);
}

// The most rows of a small-grid region that team scratch holds, 0 when not 2 * steps + 1.
template <class T, class ExecutionSpace>
int diffusion_tiles_most_rows(int steps) {
  const auto scratch_max = std::size_t(Kokkos::TeamPolicy<ExecutionSpace>::scratch_size_max(0));
  int rows               = 2 * steps + 1;
  if (diffusion_tiles_scratch_bytes<T, ExecutionSpace>(rows) > scratch_max) {
    return 0;
  }
  while (diffusion_tiles_scratch_bytes<T, ExecutionSpace>(rows + 1) <= scratch_max) {
    ++rows;
  }
  return rows;
}

// Small-grid regions of `rows` rows across ny: how many along j.
inline int diffusion_tiles_along_j(int ny, int rows, int steps) {
  return (ny - 2 + rows - 2 * steps - 1) / (rows - 2 * steps);
}

// Teams of a small-grid pass whose regions have `rows` rows.
template <class T, class ExecutionSpace>
int diffusion_tiles_teams(int nx, int ny, int rows, int steps) {
  const int width = diffusion_temporal_traits<ExecutionSpace, T>::tile_columns - 2 * steps;
  return (nx - 2 + width - 1) / width * diffusion_tiles_along_j(ny, rows, steps);
}

// Threads of a small-grid team: the traits' tile_team_size, or Kokkos' largest team of the
// kernel where its registers allow fewer.
template <class T, class ExecutionSpace>
int diffusion_tiles_team_size(const ExecutionSpace& exec, int steps) {
  using traits = diffusion_temporal_traits<ExecutionSpace, T>;
  int threads  = 0;
  with_diffusion_steps<T, ExecutionSpace>(steps, [&](auto k) {
    using kernel = diffusion_tiles_kernel<T, decltype(k)::value, traits::tile_columns,
                                          traits::tile_rows_per_thread, ExecutionSpace>;
    threads =
        Kokkos::TeamPolicy<ExecutionSpace>(exec, 1, 1)
            .team_size_max(kernel{nullptr, nullptr, 0, 3, 3, T(0), 1, 1}, Kokkos::ParallelForTag());
  });
  return std::min(traits::tile_team_size, threads);
}

// The small-grid plan of a pass of `steps` steps: regions of tile_columns columns and the most
// rows that team scratch holds, fewer where that leaves a processor without a team, but never so
// few that the teams outnumber the processors (a wave of one team per processor; a second, part
// filled, costs as much as the first). Then no more rows than the tiles need. Returns team_size
// 0 when no region fits.
template <class T, class ExecutionSpace>
diffusion_temporal_plan plan_diffusion_tiles(const ExecutionSpace& exec, int nx, int ny,
                                             int steps) {
  using traits    = diffusion_temporal_traits<ExecutionSpace, T>;
  const int width = traits::tile_columns - 2 * steps;
  const int most  = diffusion_tiles_most_rows<T, ExecutionSpace>(steps);
  if (width < 1 || most == 0) {
    return {0, 0, 0, 0, 0};
  }
  const int strips = (nx - 2 + width - 1) / width;
  const int wave   = std::min(ny - 2, std::max(1, traits::processors(exec) / strips));
  int segments     = std::max(diffusion_tiles_along_j(ny, most, steps), wave);
  const int length = (ny - 2 + segments - 1) / segments;
  segments         = (ny - 2 + length - 1) / length;
  return {diffusion_tiles_team_size<T>(exec, steps),
          strips,
          segments,
          width,
          length,
          length + 2 * steps};
}

// The streaming plan of least modelled time for a pass of `steps` steps: every team size the
// traits allow whose scratch and registers fit, every segment count up to four waves of
// concurrent teams. Time is modelled as waves * (teams per wave) * (rows a team streams) *
// (columns it computes), i.e. a machine of fixed throughput that finishes a wave when its slowest
// team does, so that a grid of any width is cut into a number of teams that fills whole waves.
// Returns team_size 0 when nothing fits.
template <class T, class ExecutionSpace>
diffusion_temporal_plan plan_diffusion_stream(const ExecutionSpace& exec, int nx, int ny,
                                              int steps) {
  const int resident    = diffusion_temporal_resident_threads<T>(exec, steps);
  using traits          = diffusion_temporal_traits<ExecutionSpace, T>;
  constexpr int columns = traits::columns_per_thread;
  const int interior_x = nx - 2, interior_y = ny - 2;
  const auto scratch_max =
      static_cast<std::size_t>(Kokkos::TeamPolicy<ExecutionSpace>::scratch_size_max(0));
  diffusion_temporal_plan best{0, 0, 0, 0, 0};
  double best_cost = 0.0;
  for (int team_size = traits::team_size_step; team_size <= traits::max_team_size;
       team_size += traits::team_size_step) {
    const int width = team_size * columns - 2 * steps;
    const std::size_t scratch =
        diffusion_temporal_scratch_bytes<T, ExecutionSpace>(steps, team_size);
    if (width < 1 || scratch > scratch_max || team_size > resident) {
      continue;
    }
    const int strips = (interior_x + width - 1) / width;
    const int slots  = traits::concurrent_teams(exec, team_size, scratch, resident);
    const int most   = std::min(interior_y, std::max(1, 4 * slots / strips));
    for (int segments = 1; segments <= most; ++segments) {
      const int length = (interior_y + segments - 1) / segments;
      const int used   = (interior_y + length - 1) / length;
      if (used != segments) {
        continue;  // the same plan as a smaller segment count
      }
      const int waves   = (strips * segments + slots - 1) / slots;
      const double cost = double(waves) * slots * (length + 3.0 * steps) * team_size * columns;
      if (best.team_size == 0 || cost < best_cost) {
        best      = {team_size, strips, segments, width, length};
        best_cost = cost;
      }
    }
  }
  return best;
}

// The plan of a pass of `steps` steps: the small-grid pass where the traits take it and regions
// of the most rows need at most two teams per processor (a streaming team there spends most of
// its time on the 3K rows before its first write), else the streaming plan.
template <class T, class ExecutionSpace>
diffusion_temporal_plan plan_diffusion_temporal(const ExecutionSpace& exec, int nx, int ny,
                                                int steps) {
  using traits = diffusion_temporal_traits<ExecutionSpace, T>;
  if (traits::small_grid_tiles) {
    const auto tiles = plan_diffusion_tiles<T>(exec, nx, ny, steps);
    if (tiles.team_size > 0 && diffusion_tiles_teams<T, ExecutionSpace>(
                                   nx, ny, diffusion_tiles_most_rows<T, ExecutionSpace>(steps),
                                   steps) <= 2 * traits::processors(exec)) {
      return tiles;
    }
  }
  return plan_diffusion_stream<T>(exec, nx, ny, steps);
}

template <int K, class ExecutionSpace, class T>
void diffusion_temporal_pass(const ExecutionSpace& exec, const diffusion_temporal_plan& p,
                             const diffusion_step_args<T>& a, const T* in, T* out,
                             std::size_t pitch) {
  using traits = diffusion_temporal_traits<ExecutionSpace, T>;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, p.teams(), p.team_size);
  if (p.tiles()) {
    using kernel = diffusion_tiles_kernel<T, K, traits::tile_columns, traits::tile_rows_per_thread,
                                          ExecutionSpace>;
    policy.set_scratch_size(
        0, Kokkos::PerTeam(diffusion_tiles_scratch_bytes<T, ExecutionSpace>(p.tile_rows)));
    Kokkos::parallel_for("loopnest::diffusion/temporal_tiles", policy,
                         kernel{in, out, pitch, a.nx, a.ny, a.alpha, p.strips, p.tile_rows});
    return;
  }
  using kernel = diffusion_temporal_kernel<T, K, traits::columns_per_thread, ExecutionSpace>;
  policy.set_scratch_size(
      0, Kokkos::PerTeam(diffusion_temporal_scratch_bytes<T, ExecutionSpace>(K, p.team_size)));
  Kokkos::parallel_for("loopnest::diffusion/temporal", policy,
                       kernel{in, out, pitch, a.nx, a.ny, a.alpha, p.strips, p.width, p.length});
}

// The pass of `steps` steps, 1 <= steps <= the traits' max_steps_per_pass.
template <class ExecutionSpace, class T>
void diffusion_temporal_pass(const ExecutionSpace& exec, int steps,
                             const diffusion_temporal_plan& p, const diffusion_step_args<T>& a,
                             const T* in, T* out, std::size_t pitch) {
  with_diffusion_steps<T, ExecutionSpace>(steps, [&](auto k) {
    diffusion_temporal_pass<decltype(k)::value>(exec, p, a, in, out, pitch);
  });
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

  using temporal_traits = diffusion_temporal_traits<ExecutionSpace, T>;
  static_assert(temporal_traits::default_steps_per_pass >= 1 &&
                    temporal_traits::default_steps_per_pass <= temporal_traits::max_steps_per_pass,
                "loopnest::diffusion_temporal_traits: default_steps_per_pass must lie in [1, "
                "max_steps_per_pass].");
  static_assert(temporal_traits::tile_steps_per_pass >= 1 &&
                    temporal_traits::tile_steps_per_pass <= temporal_traits::max_steps_per_pass,
                "loopnest::diffusion_temporal_traits: tile_steps_per_pass must lie in [1, "
                "max_steps_per_pass].");

  // t: an explicit (i, j) tile for the collapse variant (loopnest's per-backend pick by default).
  // steps_per_pass: the steps the temporal variant advances per pass over memory, 1 to
  // temporal_traits::max_steps_per_pass (0: the backend's default); other variants take 0.
  diffusion_solver(const ExecutionSpace& exec, int nx, int ny, T alpha = T(0.1),
                   const tile& t = tile{}, int steps_per_pass = 0)
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
    if (Variant == diffusion_variant::temporal) {
      m_steps_per_pass =
          steps_per_pass == 0 ? temporal_traits::default_steps_per_pass : steps_per_pass;
      if (m_steps_per_pass < 1 || m_steps_per_pass > temporal_traits::max_steps_per_pass) {
        Impl::throw_invalid_argument(
            where, "steps_per_pass = " + std::to_string(steps_per_pass) + " is outside [1, " +
                       std::to_string(temporal_traits::max_steps_per_pass) + "] on " +
                       ExecutionSpace::name());
      }
      m_plan = plan(m_steps_per_pass);
      if (steps_per_pass == 0 && temporal_traits::small_grid_tiles) {
        const auto tiles = Impl::plan_diffusion_temporal<T>(m_exec, m_nx, m_ny,
                                                            temporal_traits::tile_steps_per_pass);
        if (tiles.team_size > 0 && tiles.tiles()) {
          m_steps_per_pass = temporal_traits::tile_steps_per_pass;
          m_plan           = tiles;
        }
      }
    } else if (steps_per_pass != 0) {
      Impl::throw_invalid_argument(where, "steps_per_pass = " + std::to_string(steps_per_pass) +
                                              " was given to variant " + name(Variant) +
                                              "; only temporal takes steps_per_pass");
    }
    const auto pitch = static_cast<int>(Impl::diffusion_pitch<T>(nx));
    m_u              = view_type(Kokkos::view_alloc(exec, "loopnest::diffusion/u"), pitch, ny);
    m_v              = view_type(Kokkos::view_alloc(exec, "loopnest::diffusion/v"), pitch, ny);
  }

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  T alpha() const { return m_alpha; }
  int steps_taken() const { return m_steps; }
  // Steps per pass over memory: 1 for the stepwise variants.
  int steps_per_pass() const { return m_steps_per_pass; }
  // How a full pass of the temporal variant covers the grid (team size, strips, segments).
  const Impl::diffusion_temporal_plan& temporal_plan() const { return m_plan; }

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
    if constexpr (Variant == diffusion_variant::temporal) {
      // Full passes, then one pass of the steps left, planned for its own depth.
      for (int left = steps; left > 0; left -= m_steps_per_pass) {
        const int k = std::min(left, m_steps_per_pass);
        pass(k, k == m_steps_per_pass ? m_plan : plan(k));
        std::swap(m_u, m_v);
        m_steps += k;
      }
    } else {
      for (int s = 0; s < steps; ++s) {
        step(m_u, m_v);
        std::swap(m_u, m_v);
        ++m_steps;
      }
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
  Impl::diffusion_temporal_plan plan(int steps) const {
    const auto p = Impl::plan_diffusion_temporal<T>(m_exec, m_nx, m_ny, steps);
    if (p.team_size == 0) {
      Impl::throw_invalid_argument("loopnest::diffusion_solver",
                                   "steps_per_pass = " + std::to_string(steps) +
                                       " leaves no team size whose team scratch fits on " +
                                       ExecutionSpace::name());
    }
    return p;
  }

  void pass(int steps, const Impl::diffusion_temporal_plan& p) const {
    Impl::diffusion_temporal_pass(m_exec, steps, p,
                                  Impl::diffusion_step_args<T>{m_alpha, m_nx, m_ny}, m_u.data(),
                                  m_v.data(), static_cast<std::size_t>(m_u.extent(0)));
  }

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
    } else if constexpr (Variant == diffusion_variant::vectorized) {
      Impl::diffusion_step_vectorized(m_exec, a, u, v);
    }
    // temporal advances by passes of several steps (advance), never by one step here.
  }

  ExecutionSpace m_exec;
  int m_nx, m_ny;
  T m_alpha;
  tile m_tile;
  int m_steps          = 0;
  int m_steps_per_pass = 1;
  Impl::diffusion_temporal_plan m_plan{0, 0, 0, 0, 0};
  view_type m_u, m_v;
};

// The mass of an nx x ny field: u(i + offset, j + offset) for cells 0 <= i < nx, 0 <= j < ny
// (offset 1 for a view with a one-cell halo) summed in double on exec, in loopnest's
// reproducible order (loopnest::reduce_cell over [0, nx) x [0, ny)), so that a solver's device
// array, the same field on the host and distributed_diffusion_solver::mass() give the same bits.
template <class ExecutionSpace, class View>
double diffusion_mass(const ExecutionSpace& exec, const View& u, int nx, int ny, int offset = 0) {
  double mass = 0.0;
  reduce_cell<collapse3>(
      exec, box<2>{{0, 0}, {nx, ny}},
      KOKKOS_LAMBDA(int i, int j, double& acc) {
        acc += static_cast<double>(u(i + offset, j + offset));
      },
      Kokkos::Sum<double>(mass), "loopnest::diffusion_mass");
  return mass;
}

// The mass of a field on the host (nx * ny values, i fastest), as diffusion_mass gives it.
template <class T>
double diffusion_mass(const std::vector<T>& u, int nx, int ny) {
  const Kokkos::View<const T**, Kokkos::LayoutLeft, Kokkos::HostSpace,
                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      host(u.data(), nx, ny);
  return diffusion_mass(Kokkos::DefaultHostExecutionSpace(), host, nx, ny);
}

}  // namespace loopnest

#endif
