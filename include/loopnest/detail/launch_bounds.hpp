// Per-backend launch bounds: what a schedule's bounds become in Kokkos, and the most threads a
// block (a tile) may hold under them.
#ifndef LOOPNEST_DETAIL_LAUNCH_BOUNDS_HPP
#define LOOPNEST_DETAIL_LAUNCH_BOUNDS_HPP

#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>

#include <type_traits>

namespace loopnest::Impl {

// Per-backend launch bounds of loopnest's MDRange kernels under default_bounds, whose block is the
// tile: the register count alone decides how many threads an SM holds. On CUDA, 512 threads
// (Kokkos' largest tile) in at least 4 blocks per SM cap a kernel at 32 registers, so a Hopper SM
// holds its full 2048 threads; without the bound, packing compiled to 40 registers and ran
// slower than a flat range (docs/design.md, "Launch bounds and loads in flight").
template <class ExecutionSpace>
struct launch_bounds_traits {
  using type = Kokkos::LaunchBounds<>;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct launch_bounds_traits<Kokkos::Cuda> {
  using type = Kokkos::LaunchBounds<512, 4>;
};
#endif

// The Kokkos launch bounds of a schedule's bounds on ExecutionSpace.
template <class ExecutionSpace, class Bounds>
struct kokkos_bounds {
  using type = Kokkos::LaunchBounds<Bounds::max_threads, Bounds::min_blocks_per_sm>;
};
template <class ExecutionSpace>
struct kokkos_bounds<ExecutionSpace, default_bounds> {
  using type = typename launch_bounds_traits<ExecutionSpace>::type;
};

// The most points a tile may hold: the backend's limit, or fewer under launch bounds.
template <class Bounds, class ExecutionSpace>
int max_block_threads(const ExecutionSpace& exec) {
  const int backend = max_tile_points(exec);
  if constexpr (std::is_same<Bounds, default_bounds>::value) {
    return backend;
  } else {
    return backend < static_cast<int>(Bounds::max_threads) ? backend
                                                           : static_cast<int>(Bounds::max_threads);
  }
}

// A flat range takes no launch bounds under default_bounds: Kokkos sizes its blocks from the
// kernel's register count.
template <class ExecutionSpace, class Bounds>
struct flat_bounds {
  using type = typename kokkos_bounds<ExecutionSpace, Bounds>::type;
};
template <class ExecutionSpace>
struct flat_bounds<ExecutionSpace, default_bounds> {
  using type = Kokkos::LaunchBounds<>;
};

}  // namespace loopnest::Impl

#endif
