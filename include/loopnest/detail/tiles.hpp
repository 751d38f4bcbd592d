// Per-backend MDRange tiles, and the checks an explicit loopnest::tile must pass.
#ifndef LOOPNEST_DETAIL_TILES_HPP
#define LOOPNEST_DETAIL_TILES_HPP

#include <loopnest/detail/error.hpp>
#include <loopnest/detail/launch_bounds.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#include <climits>
#include <cstdint>
#include <string>

namespace loopnest::Impl {

// What one unit of a GPU (a CUDA multiprocessor) holds of one kernel, as the backend reports it
// from the kernel's own register count and launch bounds.
struct unit_occupancy {
  int warp   = 1;  // threads of a warp
  int warps  = 0;  // warps of the kernel a unit holds: its registers and threads allow no more
  int blocks = 0;  // blocks a unit holds at most
  int block_threads = 0;  // threads a block of the kernel may have at most
};

// The cells of a box with rows of extent0 that a unit holds at once under tile t: its whole
// blocks, each holding t[1] * t[2] rows' worth of cells (the threads past a row's end idle).
inline double resident_cells(int extent0, const unit_occupancy& u, const int (&t)[3]) {
  const int threads = t[0] * t[1] * t[2];
  if (threads > u.block_threads) {
    return 0;
  }
  const int warps    = (threads + u.warp - 1) / u.warp;
  const int resident = u.warps / warps < u.blocks ? u.warps / warps : u.blocks;
  const int pieces   = (extent0 + t[0] - 1) / t[0];
  return static_cast<double>(resident) * t[1] * t[2] * extent0 / pieces;
}

// Replaces t, a tile of an MDRange of three indices over rows of extent0 (extent1 of them a
// plane), by the one that puts the most cells of the box on a unit, where that is more than a
// warp more than t puts there (a gain below the model's own grain keeps t): blocks of one row,
// or of a row's half or third over several rows, as many as the unit's warps hold. A block of
// one row leaves lanes idle in its last warp and, where the kernel's registers allow fewer
// blocks than the warps would, leaves warps unused; pieces of rows over more rows fill both,
// while more pieces put more warps across two pieces, whose loads touch two runs of memory
// (docs/design.md, "Tiles that fill the unit"). Rows longer than a block start at as many
// pieces as a block needs. Leaves t alone where the occupancy holds no block.
inline void fill_tile(int extent0, int extent1, const unit_occupancy& u, int (&t)[3]) {
  if (extent0 < 1 || extent1 < 1 || u.warp < 1 || u.warps < 1 || u.blocks < 1 ||
      u.block_threads < 1) {
    return;
  }
  double best     = resident_cells(extent0, u, t);
  const int least = (extent0 + u.block_threads - 1) / u.block_threads;
  int chosen[3]   = {t[0], t[1], t[2]};
  for (int pieces = least; pieces < least + 3 && pieces <= extent0; ++pieces) {
    const int a = (extent0 + pieces - 1) / pieces;
    for (int r = 1; r <= extent1 && a * r <= u.block_threads; ++r) {
      const int candidate[3] = {a, r, 1};
      const double cells     = resident_cells(extent0, u, candidate);
      if (cells > best + u.warp) {
        best = cells;
        for (int d = 0; d < 3; ++d) {
          chosen[d] = candidate[d];
        }
      }
    }
  }
  for (int d = 0; d < 3; ++d) {
    t[d] = chosen[d];
  }
}

// Per-backend tile choice. Host backends: a tile is a block of the serial loop nest, and a
// whole run of the stride-1 index keeps the innermost loop long and unit-stride.
template <class ExecutionSpace>
struct tile_traits {
  // The most points a tile may hold along the policy's last index when the policy has 3 or 4
  // indices: no limit on host backends.
  static constexpr int max_last_extent = INT_MAX;
  // Whether occupancy<Policy, Functor>(exec) tells what a unit holds of a kernel (fill_tile).
  static constexpr bool knows_occupancy = false;
  template <int N>
  static void pick(const int (&extent)[N], int (&t)[N], int) {
    t[0] = extent[0] > 0 ? extent[0] : 1;
    for (int d = 1; d < N; ++d) {
      t[d] = 1;
    }
  }
};

// GPU backends: blocks of `Threads`, up to `Width` of them along the stride-1 index and the rest
// along the next indices (fewer when the launch bounds allow fewer threads per block); a box
// thinner than that gets a narrower tile rather than idle threads. A whole-row tile measured as
// fast as 32x8x1 and leaves no thread idle when the other extents are not multiples of 8;
// Kokkos' own CUDA default (16x2 in 2D) is several times slower (docs/design.md, "Tiles").
// Kokkos runs the last of 3 or 4 policy indices along the block's z dimension, which holds at
// most `MaxLast` threads; given a longer tile extent there, Kokkos (4.6) clamps the block and
// silently skips the rest of every tile, so no tile may ask for more.
template <int Width, int Threads, int MaxLast>
struct gpu_tile_traits {
  static_assert(Width <= Threads, "a tile's first extent is part of the block");
  static constexpr int max_last_extent = MaxLast;
  template <int N>
  static void pick(const int (&extent)[N], int (&t)[N], int max_threads) {
    int left = Threads < max_threads ? Threads : max_threads;
    for (int d = 0; d < N; ++d) {
      int want = d == 0 ? (Width < left ? Width : left) : left;
      if (N >= 3 && d == N - 1 && want > MaxLast) {
        want = MaxLast;
      }
      t[d] = extent[d] < want ? (extent[d] > 0 ? extent[d] : 1) : want;
      left /= t[d];
    }
  }
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct tile_traits<Kokkos::Cuda> : gpu_tile_traits<256, 256, 64> {
  // Kokkos 4 keeps each kernel's attributes, which cudaFuncGetAttributes gives once, in Impl.
  static constexpr bool knows_occupancy = KOKKOS_VERSION >= 40000;
  template <class Policy, class Functor>
  static unit_occupancy occupancy(const Kokkos::Cuda& exec) {
#if KOKKOS_VERSION >= 40000
    using driver = Kokkos::Impl::ParallelFor<Functor, Policy, Kokkos::Cuda>;
    const cudaFuncAttributes attr =
        Kokkos::Impl::CudaParallelLaunch<driver, typename Policy::launch_bounds>::
            get_cuda_func_attributes(exec.impl_internal_space_instance());
    const cudaDeviceProp& prop = exec.cuda_device_prop();
    const int by_threads       = prop.maxThreadsPerMultiProcessor / prop.warpSize;
    const int by_registers =
        attr.numRegs > 0 ? Kokkos::Impl::cuda_max_warps_per_sm_registers(prop, attr) : by_threads;
    return {prop.warpSize, by_registers < by_threads ? by_registers : by_threads,
            prop.maxBlocksPerMultiProcessor, attr.maxThreadsPerBlock};
#else
    (void)exec;
    return {};
#endif
  }
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct tile_traits<Kokkos::HIP> : gpu_tile_traits<256, 256, 1024> {};
#endif

[[noreturn]] inline void throw_tile_error(const char* where, const tile& t,
                                          const std::string& why) {
  throw_invalid_argument(where, "tile " + t.to_string() + " " + why);
}

// Checks an explicit tile against what the schedule launches (N policy indices, or none when
// N is 0: flat, kokkos_default and automatic take no tile) and against the backend and the
// schedule's launch bounds.
// `last` is the index of t that the policy runs last (the stride-1 index comes first).
template <class Bounds = default_bounds, class ExecutionSpace>
void check_tile(const char* where, const ExecutionSpace& exec, const tile& t, schedule_kind kind,
                int n, const char* indices, int last) {
  if (t.is_default()) {
    return;
  }
  if (n == 0) {
    throw_tile_error(where, t,
                     std::string("was given to schedule ") + name(kind) +
                         ", which takes no tile (only collapse4 and collapse3 do)");
  }
  if (t.rank() != n) {
    throw_tile_error(where, t,
                     "has " + std::to_string(t.rank()) + " sizes but " + name(kind) +
                         " here needs " + std::to_string(n) + " (" + indices + ")");
  }
  for (int d = 0; d < n; ++d) {
    if (t[d] < 1) {
      throw_tile_error(where, t,
                       "has size " + std::to_string(t[d]) + " at index " + std::to_string(d) +
                           "; every size must be at least 1");
    }
  }
  // Each size is below 2^31, so the product stays exact in 64 bits as long as it stops growing
  // past 2^32, which is over every backend's limit (four sizes of 65536 would wrap to 0 points).
  constexpr std::int64_t saturated = std::int64_t{1} << 32;
  std::int64_t points              = 1;
  for (int d = 0; d < n && points <= saturated; ++d) {
    points *= t[d];
  }
  const int max_points = max_block_threads<Bounds>(exec);
  if (points > max_points) {
    throw_tile_error(
        where, t,
        "holds " +
            (points > saturated ? "more than " + std::to_string(saturated)
                                : std::to_string(points)) +
            " points but " + ExecutionSpace::name() +
            (max_points < max_tile_points(exec) ? " under the schedule's launch bounds" : "") +
            " allows at most " + std::to_string(max_points) + " per tile");
  }
  constexpr int max_last = tile_traits<ExecutionSpace>::max_last_extent;
  if (n >= 3 && t[last] > max_last) {
    throw_tile_error(where, t,
                     "has size " + std::to_string(t[last]) + " at index " + std::to_string(last) +
                         ", which " + ExecutionSpace::name() +
                         " runs along a block's third dimension: at most " +
                         std::to_string(max_last) + " there");
  }
}

}  // namespace loopnest::Impl

#endif
