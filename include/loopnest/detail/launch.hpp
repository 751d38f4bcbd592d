// The two launches every schedule reduces to: an MDRange from 0 with loopnest's tile, and a flat
// range decomposed by hand.
#ifndef LOOPNEST_DETAIL_LAUNCH_HPP
#define LOOPNEST_DETAIL_LAUNCH_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/launch_bounds.hpp>
#include <loopnest/detail/loop_bodies.hpp>
#include <loopnest/detail/policy_order.hpp>
#include <loopnest/detail/tiles.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/tile.hpp>

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

namespace loopnest::Impl {

// kokkos_default takes Kokkos' own launch parameters: no tile and no launch bounds.
template <class ExecutionSpace, int N, bool KokkosDefaults, class Bounds>
using mdrange_policy =
    Kokkos::MDRangePolicy<ExecutionSpace,
                          Kokkos::Rank<N, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                          Kokkos::IndexType<int>,
                          std::conditional_t<KokkosDefaults, Kokkos::LaunchBounds<>,
                                             typename kokkos_bounds<ExecutionSpace, Bounds>::type>>;

// Launches body over an MDRange of N indices: the policy box, plus the variable index over vars
// when N is Rank + 1. The tile is loopnest's pick, an explicit one (given in box order,
// reversed here along with the spatial indices), or Kokkos' default with KokkosDefaults.
template <int N, bool Reverse, bool KokkosDefaults, class Bounds, class ExecutionSpace, int Rank,
          class Body>
void launch_mdrange(const std::string& label, const ExecutionSpace& exec,
                    const policy_box<Rank>& pb, const var_range& vars, const tile& explicit_tile,
                    const Body& body) {
  static_assert(N == Rank || N == Rank + 1, "the policy covers the box, or the box and var");
  using policy = mdrange_policy<ExecutionSpace, N, KokkosDefaults, Bounds>;
  int extent[N];
  int t[N];
  for (int d = 0; d < N; ++d) {
    extent[d] = d < Rank ? pb.extent(d) : vars.last - vars.first;
  }
  if (explicit_tile.is_default()) {
    tile_traits<ExecutionSpace>::pick(extent, t, max_block_threads<Bounds>(exec));
    // Under launch bounds of its own a kernel may hold fewer threads than a unit has: its tile
    // is then the one that fills the unit by what the backend says the kernel holds.
    constexpr bool fills = N == 3 && !KokkosDefaults &&
                           !std::is_same<Bounds, default_bounds>::value &&
                           tile_traits<ExecutionSpace>::knows_occupancy;
    if constexpr (fills) {
      auto u =
          tile_traits<ExecutionSpace>::template occupancy<policy, from_zero_body<Body, N>>(exec);
      const int most  = max_block_threads<Bounds>(exec);
      u.block_threads = u.block_threads < most ? u.block_threads : most;
      fill_tile(extent[0], extent[1], u, t);
    }
  } else {
    for (int d = 0; d < N; ++d) {
      t[d] = explicit_tile[(Reverse && d < Rank) ? Rank - 1 - d : d];
    }
  }
  typename policy::point_type lower{};
  typename policy::point_type upper{};
  typename policy::tile_type tiles{};
  from_zero_body<Body, N> shifted{body, {}};
  for (int d = 0; d < N; ++d) {
    upper[d]         = extent[d];
    tiles[d]         = KokkosDefaults ? 0 : t[d];
    shifted.lower[d] = d < Rank ? pb.lower[d] : vars.first;
  }
  Kokkos::parallel_for(label, policy(exec, lower, upper, tiles), shifted);
}

// Launches body over the cells of the box as a 1D range of KokkosBounds, each index decomposed by
// hand in policy order (flat_body).
template <class KokkosBounds, class ExecutionSpace, int Rank, class Body>
void launch_range(const std::string& label, const ExecutionSpace& exec, const policy_box<Rank>& pb,
                  const Body& body) {
  std::int64_t cells = 1;
  for (int d = 0; d < Rank; ++d) {
    cells *= pb.extent(d);
  }
  // 32-bit division is several times cheaper than 64-bit on GPUs; boxes past 2^31 cells fall
  // back to 64-bit indices rather than overflow.
  auto run = [&](auto index_constant) {
    using index     = decltype(index_constant);
    using policy    = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index>, KokkosBounds>;
    const auto flat = [&] {
      if constexpr (Rank == 2) {
        return flat_body<Body, 2>{body, pb.lower[0], pb.lower[1], pb.extent(0)};
      } else {
        return flat_body<Body, 3>{body,        pb.lower[0],  pb.lower[1],
                                  pb.lower[2], pb.extent(0), pb.extent(1)};
      }
    }();
    Kokkos::parallel_for(label, policy(exec, 0, static_cast<index>(cells)), flat);
  };
  if (cells <= INT_MAX) {
    run(int{});
  } else {
    run(std::int64_t{});
  }
}

template <class Bounds, class ExecutionSpace, int Rank, class Body>
void launch_flat(const std::string& label, const ExecutionSpace& exec, const policy_box<Rank>& pb,
                 const Body& body) {
  launch_range<typename flat_bounds<ExecutionSpace, Bounds>::type>(label, exec, pb, body);
}

}  // namespace loopnest::Impl

#endif
