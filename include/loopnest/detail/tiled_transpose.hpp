// A copy between two arrays whose stride-1 indices differ (a transposing pack, a finalize from a
// transposed buffer): square tiles of each plane staged through team scratch memory, read along
// the source's stride-1 index and written along the destination's, so that both sides move whole
// lines where a cell-per-thread loop leaves one of them strided.
#ifndef LOOPNEST_DETAIL_TILED_TRANSPOSE_HPP
#define LOOPNEST_DETAIL_TILED_TRANSPOSE_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/launch_bounds.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace loopnest::Impl {

// Per-backend tiles of the transposing copy: tile x tile elements per team of team_size threads
// (0: the plain loop of the schedule). Host backends: one thread walks a 32 x 32 block, which
// stays in L1 between its reads along one index and its writes along the other.
template <class ExecutionSpace>
struct transpose_traits {
  static constexpr int tile      = 32;
  static constexpr int team_size = 1;
};
// GPU backends: a warp reads 32 consecutive elements of a source row and writes 32 consecutive
// elements of a destination row; 256 threads move four elements each per tile.
template <int Tile, int TeamSize>
struct gpu_transpose_traits {
  static constexpr int tile      = Tile;
  static constexpr int team_size = TeamSize;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct transpose_traits<Kokkos::Cuda> : gpu_transpose_traits<32, 256> {};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct transpose_traits<Kokkos::HIP> : gpu_transpose_traits<32, 256> {};
#endif

// The index of a box with stride 1 and more than one element in an array of these strides, or -1
// (an index of one element may share stride 1 with the real one).
inline int unit_stride_dim(const box<3>& b, const std::ptrdiff_t (&stride)[3]) {
  for (int d = 0; d < 3; ++d) {
    if (stride[d] == 1 && b.extent(d) > 1) {
      return d;
    }
  }
  return -1;
}

// The copy in (a, b, c) index order: a is the source's stride-1 index, b the destination's, c the
// third; dst and src are the callers' handles with their strides put in that order. A team moves
// tile (a, b) of plane c for its variables; the scratch rows hold Tile + 1 elements, so that the
// threads of a warp reading down a column of the tile hit every bank once. With Prefetch (teams of
// several variables) the next variable's first loads go out before this one's stores, so that a
// team keeps loads in flight while it writes its tile; teams of one variable keep the plain loop,
// which the restructured one made slower for them.
template <class T, int Tile, int TeamSize, bool Prefetch, class Dst, class Src>
struct transpose_tiles {
  static constexpr int pitch     = Tile + 1;
  static constexpr int per_pass  = 8;  // loads each thread issues before it stores any
  static constexpr int per_tile  = (Tile * Tile + TeamSize - 1) / TeamSize;
  static constexpr int per_batch = per_tile < per_pass ? per_tile : per_pass;
  Dst dst;
  Src src;
  int lower[3], extent[3];
  int tiles_a, tiles_b, nvar, vars_per_team;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_bytes() {
    return sizeof(T) * Tile * pitch;
  }

  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& m) const {
    T* tile      = static_cast<T*>(m.team_shmem().get_shmem(scratch_bytes()));
    int n        = m.league_rank();
    const int a0 = (n % tiles_a) * Tile;
    n /= tiles_a;
    const int b0 = (n % tiles_b) * Tile;
    n /= tiles_b;
    const int c       = lower[2] + n % extent[2];
    const int v0      = n / extent[2] * vars_per_team;
    const int v1      = v0 + vars_per_team < nvar ? v0 + vars_per_team : nvar;
    const int na      = extent[0] - a0 < Tile ? extent[0] - a0 : Tile;
    const int nb      = extent[1] - b0 < Tile ? extent[1] - b0 : Tile;
    const int first_a = lower[0] + a0, first_b = lower[1] + b0;
    const int r = m.team_rank();
    // Element e of the tile: along a (the source's rows) for the reads, along b for the writes.
    T x[per_batch];
    const auto load_batch = [&](int v, int p) {
      for (int u = 0; u < per_batch; ++u) {
        const int e = r + (p + u) * TeamSize, ia = e % Tile, ib = e / Tile;
        if (ib < nb && ia < na) {
          x[u] = src.load(v, first_a + ia, first_b + ib, c);
        }
      }
    };
    if (Prefetch && v0 < v1) {
      load_batch(v0, 0);
    }
    for (int v = v0; v < v1; ++v) {
      for (int p = 0; p < per_tile; p += per_batch) {
        if (!Prefetch || p > 0) {
          load_batch(v, p);
        }
        for (int u = 0; u < per_batch; ++u) {
          const int e = r + (p + u) * TeamSize, ia = e % Tile, ib = e / Tile;
          if (ib < nb && ia < na) {
            tile[ib * pitch + ia] = x[u];
          }
        }
      }
      m.team_barrier();
      if (Prefetch && v + 1 < v1) {
        load_batch(v + 1, 0);
      }
      for (int p = 0; p < per_tile; ++p) {
        const int e = r + p * TeamSize, ib = e % Tile, ia = e / Tile;
        if (ia < na && ib < nb) {
          dst(v, first_a + ia, first_b + ib, c) = tile[ib * pitch + ia];
        }
      }
      // The next variable overwrites the tile.
      m.team_barrier();
    }
  }
};

// A handle whose strides (s0, s1, s2) are put in the order of `order`: the element at index
// (x[order[0]], x[order[1]], x[order[2]]) is the one at x. The base, the offset of index 0, is
// the same in every order.
template <class Ref>
Ref permuted(Ref r, const int (&order)[3]) {
  const std::ptrdiff_t s[3] = {r.s0, r.s1, r.s2};
  r.s0                      = s[order[0]];
  r.s1                      = s[order[1]];
  r.s2                      = s[order[2]];
  return r;
}

// Launches the tiles of the copy in `order` (see transpose_tiles): teams of one variable, or with
// Prefetch teams of all of them; returns false where the league would not fit an int.
template <int Tile, int TeamSize, bool Prefetch, class Policy, class ExecutionSpace, class Dst,
          class Src>
bool launch_transpose_tiles(const ExecutionSpace& exec, const box<3>& cells, const int (&order)[3],
                            int nvar, const Dst& dst, const Src& src, const std::string& label) {
  using value_type = std::remove_reference_t<decltype(dst(0, 0, 0, 0))>;
  using functor    = transpose_tiles<value_type, Tile, TeamSize, Prefetch, Dst, Src>;
  functor f{permuted(dst, order), permuted(src, order), {}, {}, 0, 0, nvar, Prefetch ? nvar : 1};
  for (int d = 0; d < 3; ++d) {
    f.lower[d]  = cells.lower(order[d]);
    f.extent[d] = cells.extent(order[d]);
  }
  f.tiles_a = (f.extent[0] + Tile - 1) / Tile;
  f.tiles_b = (f.extent[1] + Tile - 1) / Tile;
  const std::int64_t league =
      std::int64_t{f.tiles_a} * f.tiles_b * f.extent[2] * (Prefetch ? 1 : nvar);
  if (league > INT_MAX) {
    return false;
  }
  Kokkos::parallel_for(label,
                       Policy(exec, static_cast<int>(league), TeamSize)
                           .set_scratch_size(0, Kokkos::PerTeam(functor::scratch_bytes())),
                       f);
  return true;
}

// dst(v, cell) = src.load(v, cell) over the box as a tiled transpose, when the schedule and
// the backend take one and the two arrays' stride-1 indices differ; returns whether it launched.
// collapse4 gives each team one variable, collapse3 and flat all of them in turn (the variable
// loop of their work item), automatic picks between the two by its cell count; kokkos_default
// (the baseline) and the strided mapping (the negative control) keep their plain loops.
template <class Schedule, class ExecutionSpace, class Dst, class Src>
bool transpose_cells(const ExecutionSpace& exec, const box<3>& cells, int nvar, const Dst& dst,
                     const Src& src, const std::string& label) {
  using traits                 = transpose_traits<ExecutionSpace>;
  constexpr schedule_kind kind = Schedule::kind;
  if constexpr (traits::tile == 0 || kind == schedule_kind::kokkos_default ||
                !std::is_same<typename Schedule::mapping, contiguous>::value) {
    return false;
  } else {
    const std::ptrdiff_t src_stride[3] = {src.s0, src.s1, src.s2};
    const std::ptrdiff_t dst_stride[3] = {dst.s0, dst.s1, dst.s2};
    const int a = unit_stride_dim(cells, src_stride), b = unit_stride_dim(cells, dst_stride);
    if (a < 0 || b < 0 || a == b || cells.empty()) {
      return false;
    }
    const int order[3] = {a, b, 3 - a - b};
    bool one_var       = kind == schedule_kind::collapse4;
    if constexpr (kind == schedule_kind::automatic) {
      one_var = automatic_choice(exec, cells.size()) == schedule_kind::collapse4;
    }
    using bounds = bounds_for_t<kind == schedule_kind::collapse4 ? schedule_kind::collapse4
                                                                 : schedule_kind::collapse3,
                                typename Schedule::bounds>;
    constexpr int team = [] {
      if constexpr (std::is_same<bounds, default_bounds>::value) {
        return traits::team_size;
      } else {
        return traits::team_size < static_cast<int>(bounds::max_threads)
                   ? traits::team_size
                   : static_cast<int>(bounds::max_threads);
      }
    }();
    using policy =
        Kokkos::TeamPolicy<ExecutionSpace, typename flat_bounds<ExecutionSpace, bounds>::type>;
    return one_var ? launch_transpose_tiles<traits::tile, team, false, policy>(
                         exec, cells, order, nvar, dst, src, label)
                   : launch_transpose_tiles<traits::tile, team, true, policy>(
                         exec, cells, order, nvar, dst, src, label);
  }
}

}  // namespace loopnest::Impl

#endif
