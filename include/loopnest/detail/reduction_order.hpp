// The fixed order of loopnest's reductions (reduce.hpp). The box is cut into tiles by its cell
// indices alone: a tile of a 3D box is one i and up to tile_extent_3d consecutive j and k, of a
// 2D box one i and up to tile_extent_2d consecutive j (per variable v for reduce_cell_var). A
// tile's partial folds its cells from the reducer's identity, k outermost, then j. The
// partials, numbered i + nx*(bj + nbj*(bk + nbk*v)), are folded in levels. While more than
// fold_group * fold_width values remain, their count n becomes m = ceil(n / fold_group): value s
// of the next level folds values s, s + m, s + 2m, ... of this one in order from the identity.
// The last level folds its n values into fold_width slices alike (slice s folds s, s +
// fold_width, ...), which are then joined pairwise, slice s with s + 1, then s with s + 2, and so
// on. Nothing of this depends on the schedule, which only maps the tiles onto the device (one
// work item per tile, along i), nor on a team's size.
#ifndef LOOPNEST_DETAIL_REDUCTION_ORDER_HPP
#define LOOPNEST_DETAIL_REDUCTION_ORDER_HPP

#include <loopnest/box.hpp>
#include <loopnest/kokkos_compat.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace loopnest::Impl {

// Consecutive cells a tile folds along each of j and k: enough work per thread to keep the
// partials a small fraction of the data, while a 3D box still gives as many tiles as a GPU
// holds threads.
inline constexpr int tile_extent_3d = 8;
inline constexpr int tile_extent_2d = 32;
// The values a work item of a level folds: a strided fold reads a level's values as neighbouring
// work items read neighbouring values, and enough of them per item to shrink the level 64-fold,
// so that the partials of a field set on a GPU take one level before the last.
inline constexpr int fold_group = 64;
// The slices of the last level, joined pairwise by one team (a power of two).
inline constexpr int fold_width = 1024;

template <int Rank>
struct reduction_tiles {
  int lower[3]  = {0, 0, 0};
  int extent[3] = {1, 1, 1};
  int blocks[3] = {1, 1, 1};  // tiles along i, j, k
  int nvar      = 1;

  static constexpr int along = Rank == 3 ? tile_extent_3d : tile_extent_2d;

  reduction_tiles(const box<Rank>& b, int variables) : nvar(variables) {
    for (int d = 0; d < Rank; ++d) {
      lower[d]  = b.lower(d);
      extent[d] = b.extent(d);
      blocks[d] = d == 0 ? extent[d] : (extent[d] + along - 1) / along;
    }
  }

  std::int64_t count() const { return std::int64_t{blocks[0]} * blocks[1] * blocks[2] * nvar; }

  // The tiles as a box of their indices (i, bj[, bk]), for the loop that folds them.
  box<Rank> index_box() const {
    if constexpr (Rank == 3) {
      return box<3>{{0, 0, 0}, {blocks[0], blocks[1], blocks[2]}};
    } else {
      return box<2>{{0, 0}, {blocks[0], blocks[1]}};
    }
  }

  KOKKOS_INLINE_FUNCTION std::int64_t index(int i, int bj, int bk, int v) const {
    return i + std::int64_t{blocks[0]} *
                   (bj + std::int64_t{blocks[1]} * (bk + std::int64_t{blocks[2]} * v));
  }

  // The axis (1 or 2) along which part, a box inside the one these tiles cut, starts or ends
  // off this box's tile boundaries, or 0 when every tile of part is one of this box's tiles
  // (a tile is one i, so i never matters).
  int misaligned_axis(const box<Rank>& part) const {
    for (int d = 1; d < Rank; ++d) {
      const int start = part.lower(d) - lower[d], end = part.upper(d) - lower[d];
      if (start % along != 0 || (end % along != 0 && end != extent[d])) {
        return d;
      }
    }
    return 0;
  }

  // The index in this numbering of partial t of `part`, the tiles of a box whose tiles are this
  // box's tiles (misaligned_axis(box) == 0) for the same variables.
  std::int64_t place(const reduction_tiles& part, std::int64_t t) const {
    const auto i = static_cast<int>(t % part.blocks[0]);
    t /= part.blocks[0];
    const auto bj = static_cast<int>(t % part.blocks[1]);
    t /= part.blocks[1];
    const auto bk = static_cast<int>(t % part.blocks[2]);
    const auto v  = static_cast<int>(t / part.blocks[2]);
    return index(i + part.lower[0] - lower[0], bj + (part.lower[1] - lower[1]) / along,
                 bk + (part.lower[2] - lower[2]) / along, v);
  }
};

// One tile's partial into partials(index): f over its cells, k outermost, then j.
template <int Rank, bool PerVariable, class F, class Reducer, class Memory>
struct tile_fold {
  using value_type = typename Reducer::value_type;
  F f;
  Reducer reducer;
  reduction_tiles<Rank> tiles;
  Kokkos::View<value_type*, Memory> partials;

  // f on cell (x, j, k), j and k counted from the box's lower corner, of variable v.
  KOKKOS_INLINE_FUNCTION void cell(int x, int j, int k, int v, value_type& acc) const {
    if constexpr (Rank == 3 && PerVariable) {
      f(x, tiles.lower[1] + j, tiles.lower[2] + k, v, acc);
    } else if constexpr (Rank == 3) {
      f(x, tiles.lower[1] + j, tiles.lower[2] + k, acc);
    } else if constexpr (PerVariable) {
      f(x, tiles.lower[1] + j, v, acc);
    } else {
      f(x, tiles.lower[1] + j, acc);
    }
  }

  KOKKOS_INLINE_FUNCTION void fold(int i, int bj, int bk, int v) const {
    value_type acc;
    reducer.init(acc);
    constexpr int along = reduction_tiles<Rank>::along;
    const int j0 = bj * along, j1 = j0 + along < tiles.extent[1] ? j0 + along : tiles.extent[1];
    const int k0 = bk * along, k1 = k0 + along < tiles.extent[2] ? k0 + along : tiles.extent[2];
    const int x = tiles.lower[0] + i;
    for (int k = k0; k < k1; ++k) {
      if (j1 - j0 == along) {
        // A whole row has a trip count the compiler knows, so it issues the row's loads before
        // the joins that wait on them; the same joins in the same order as the loop below.
        for (int j = 0; j < along; ++j) {
          cell(x, j0 + j, k, v, acc);
        }
      } else {
        for (int j = j0; j < j1; ++j) {
          cell(x, j, k, v, acc);
        }
      }
    }
    partials(tiles.index(i, bj, bk, v)) = acc;
  }

  // The loop bodies for_each_cell and for_each_cell_var call: (i, bj[, bk][, v]).
  KOKKOS_INLINE_FUNCTION void operator()(int i, int bj) const { fold(i, bj, 0, 0); }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int bj, int c) const {
    if constexpr (Rank == 3) {
      fold(i, bj, c, 0);
    } else {
      fold(i, bj, 0, c);
    }
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int bj, int bk, int v) const { fold(i, bj, bk, v); }
};

// Folds the values t, t + stride, ... of in, Chunk at a time while a whole chunk lies below n,
// into acc in order, and returns the first value not folded. A chunk's loads are issued before its
// joins: one by one, each join waited a round trip to memory for its own load.
template <int Chunk, class Reducer, class Values>
KOKKOS_INLINE_FUNCTION std::int64_t fold_chunks(const Reducer& reducer, const Values& in,
                                                std::int64_t n, std::int64_t t, std::int64_t stride,
                                                typename Reducer::value_type& acc) {
  for (; t + (Chunk - 1) * stride < n; t += Chunk * stride) {
    typename Reducer::value_type loaded[Chunk];
    for (int u = 0; u < Chunk; ++u) {
      loaded[u] = in(t + u * stride);
    }
    for (const auto& value : loaded) {
      reducer.join(acc, value);
    }
  }
  return t;
}

// Folds values s, s + stride, s + 2 stride, ... below n of in, in order, into acc: 32 loads in
// flight at a time for values of up to 8 bytes (a level of 64 in two round trips, a last-level
// slice of 32 in one), then 8, then one by one.
template <class Reducer, class Values>
KOKKOS_INLINE_FUNCTION void fold_strided(const Reducer& reducer, const Values& in, std::int64_t n,
                                         std::int64_t s, std::int64_t stride,
                                         typename Reducer::value_type& acc) {
  std::int64_t t = s;
  if constexpr (sizeof(typename Reducer::value_type) <= 8) {
    t = fold_chunks<32>(reducer, in, n, t, stride, acc);
  }
  t = fold_chunks<8>(reducer, in, n, t, stride, acc);
  for (; t < n; t += stride) {
    reducer.join(acc, in(t));
  }
}

// The last level's Width slices of n values, joined pairwise into result() by one team, in
// slices: team scratch or a View of Width values.
template <int Width, class Member, class Reducer, class Values, class Slices, class Result>
KOKKOS_INLINE_FUNCTION void fold_last(const Member& team, const Reducer& reducer, const Values& in,
                                      std::int64_t n, const Slices& slices, const Result& result) {
  const int rank = team.team_rank(), size = team.team_size();
  for (int s = rank; s < Width; s += size) {
    typename Reducer::value_type acc;
    reducer.init(acc);
    fold_strided(reducer, in, n, s, Width, acc);
    slices(s) = acc;
  }
  team.team_barrier();
  for (int stride = 1; stride < Width; stride *= 2) {
    for (int s = rank * 2 * stride; s < Width; s += size * 2 * stride) {
      reducer.join(slices(s), slices(s + stride));
    }
    team.team_barrier();
  }
  if (rank == 0) {
    result() = slices(0);
  }
}

// The most bytes of slices the last level keeps in team scratch, where its pairwise joins wait on
// no memory round trip; larger value types join in a View.
inline constexpr std::size_t fold_scratch_bytes = 32768;

// The partials folded into result() in the levels of the order above. A level folds in place:
// value s of the next level is written by the work item that alone reads value s of this one.
// The last level, one team, folds into slices (Width values) and joins them pairwise. Group and
// Width are the order's fold_group and fold_width, ScratchBytes fold_scratch_bytes; the tests
// choose smaller ones to reach several levels and both homes of the slices.
template <int Group = fold_group, int Width = fold_width,
          std::size_t ScratchBytes = fold_scratch_bytes, class ExecutionSpace, class Reducer,
          class Memory, class ResultMemory>
void fold_partials(const ExecutionSpace& exec, const Reducer& reducer,
                   const Kokkos::View<typename Reducer::value_type*, Memory>& partials,
                   const Kokkos::View<typename Reducer::value_type*, Memory>& slices,
                   const Kokkos::View<typename Reducer::value_type, ResultMemory>& result,
                   const std::string& label) {
  static_assert(Group >= 2 && Width >= 1 && (Width & (Width - 1)) == 0,
                "loopnest::Impl::fold_partials: a level folds at least two values into one, and "
                "the last level's slices are a power of two.");
  using value_type = typename Reducer::value_type;
  const auto& in   = partials;
  auto n           = static_cast<std::int64_t>(partials.extent(0));
  while (n > std::int64_t{Group} * Width) {
    const std::int64_t m = (n + Group - 1) / Group;
    Kokkos::parallel_for(
        label + "::level", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, m),
        KOKKOS_LAMBDA(std::int64_t s) {
          value_type acc;
          reducer.init(acc);
          fold_strided(reducer, in, n, s, m, acc);
          in(s) = acc;
        });
    n = m;
  }
  using policy = Kokkos::TeamPolicy<ExecutionSpace>;
  using member = typename policy::member_type;
  // As many threads as the backend gives one team: the last level's loads are in flight together.
  if constexpr (Width * sizeof(value_type) <= ScratchBytes) {
    using scratch_view = Kokkos::View<value_type*, typename ExecutionSpace::scratch_memory_space,
                                      Kokkos::MemoryUnmanaged>;
    const auto last    = KOKKOS_LAMBDA(const member& team) {
         fold_last<Width>(team, reducer, in, n, scratch_view(team.team_scratch(0), Width), result);
    };
    const auto bytes = Kokkos::PerTeam(scratch_view::shmem_size(Width));
    const int size =
        policy(exec, 1, 1).set_scratch_size(0, bytes).team_size_max(last, Kokkos::ParallelForTag());
    Kokkos::parallel_for(label + "::last", policy(exec, 1, size).set_scratch_size(0, bytes), last);
  } else {
    const auto last = KOKKOS_LAMBDA(const member& team) {
      fold_last<Width>(team, reducer, in, n, slices, result);
    };
    const int size = policy(exec, 1, 1).team_size_max(last, Kokkos::ParallelForTag());
    Kokkos::parallel_for(label + "::last", policy(exec, 1, size), last);
  }
}

}  // namespace loopnest::Impl

#endif
