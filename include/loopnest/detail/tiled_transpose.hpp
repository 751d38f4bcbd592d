// A copy between two arrays whose stride-1 indices differ (a transposing pack, a finalize from a
// transposed buffer): square tiles of each plane staged through team scratch memory, read along
// the source's stride-1 index and written along the destination's, so that both sides move whole
// lines where a cell-per-thread loop leaves one of them strided.
#ifndef LOOPNEST_DETAIL_TILED_TRANSPOSE_HPP
#define LOOPNEST_DETAIL_TILED_TRANSPOSE_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/launch_bounds.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/packed_fields.hpp>
#include <loopnest/read_only.hpp>
#include <loopnest/schedule.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace loopnest::Impl {

// A team's tile of the transposing copy: Tile elements along the source's rows by Rows along the
// destination's, moved by TeamSize threads (Tile 0: the plain loop of the schedule).
template <int Tile, int Rows, int TeamSize>
struct transpose_shape {
  static constexpr int tile      = Tile;
  static constexpr int rows      = Rows;
  static constexpr int team_size = TeamSize;
};

// Per-backend tiles. Host backends: one thread walks a 32 x 32 block, which stays in L1 between
// its reads along one index and its writes along the other. A backend may name a second shape,
// sector_shape, for elements of sector_element bytes whose rows all start on a sector of
// sector_bytes (0: it names none).
template <class ExecutionSpace>
struct transpose_traits : transpose_shape<32, 32, 1> {
  static constexpr int sector_bytes   = 0;
  static constexpr int sector_element = 0;
  using sector_shape                  = transpose_shape<32, 32, 1>;
};
// GPU backends: a warp reads 32 consecutive elements of a source row and writes 32 consecutive
// elements of a destination row; 256 threads load eight elements each before they store any,
// which kept more bytes in flight than 32 x 32 tiles in a plain-CUDA study on the H200
// (docs/results/h200/fields_fp32/transpose_study/). On CUDA, FP32 rows that all start on a
// 32-byte sector go faster with 128 threads of 16 loads each, which lose where rows start
// mid-sector and in FP64 (the same study, round 6, and loopnest's own runs).
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct transpose_traits<Kokkos::Cuda> : transpose_shape<32, 64, 256> {
  static constexpr int sector_bytes   = 32;
  static constexpr int sector_element = 4;
  using sector_shape                  = transpose_shape<32, 64, 128>;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct transpose_traits<Kokkos::HIP> : transpose_shape<32, 64, 256> {
  static constexpr int sector_bytes   = 0;
  static constexpr int sector_element = 0;
  using sector_shape                  = transpose_shape<32, 64, 256>;
};
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
// tile (a, b), Tile x Rows elements, of plane c for one variable; the variable varies slowest
// over the league, so that the teams on the GPU at once share one field. The scratch rows hold
// Tile + 1 elements, so that the threads of a warp reading down a column of the tile hit every
// bank once.
template <class T, int Tile, int Rows, int TeamSize, class Dst, class Src>
struct transpose_tiles {
  // `lanes` threads read a source row of the tile, `read_rows` rows at once, and write
  // destination rows likewise. Every trip count is a compile-time constant and each thread steps
  // a pointer by a stride from one address per row or column (it may step past the tile's last
  // row, but reads and writes only under the guards): on the H200 that took fewer registers and
  // instructions than run-time loops indexing by a product, and more of the copy bandwidth in all
  // but one case (docs/results/h200/fields_fp32/).
  static constexpr int lanes     = TeamSize < Tile ? TeamSize : Tile;
  static constexpr int read_rows = TeamSize / lanes;
  static_assert((TeamSize & (TeamSize - 1)) == 0 && (Tile & (Tile - 1)) == 0 &&
                    (Rows & (Rows - 1)) == 0,
                "loopnest::Impl::transpose_tiles: the team size and the tile's sides must be "
                "powers of two, so that the team covers the tile in whole rows and columns.");
  static constexpr int pitch = Tile + 1;
  // Loads each thread issues before it stores any.
  static constexpr int per_pass = Rows / read_rows < 8 ? Rows / read_rows : 8;
  Dst dst;
  Src src;
  int lower[3], extent[3];
  int tiles_a, tiles_b;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t scratch_bytes() {
    return sizeof(T) * Rows * pitch;
  }

  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& m) const {
    T* tile      = static_cast<T*>(m.team_shmem().get_shmem(scratch_bytes()));
    int n        = m.league_rank();
    const int a0 = (n % tiles_a) * Tile;
    n /= tiles_a;
    const int b0 = (n % tiles_b) * Rows;
    n /= tiles_b;
    const int c       = lower[2] + n % extent[2];
    const int v       = n / extent[2];
    const int na      = extent[0] - a0 < Tile ? extent[0] - a0 : Tile;
    const int nb      = extent[1] - b0 < Rows ? extent[1] - b0 : Rows;
    const int first_a = lower[0] + a0, first_b = lower[1] + b0;
    const int r = m.team_rank();
    // Thread r reads column tx of the tile's rows ty, ty + read_rows, ..., and writes rows tx, tx
    // + lanes, ... of the transposed tile at its columns ty, ty + read_rows, ...; on GPUs the
    // loops unroll into guarded loads and stores.
    const int tx = r % lanes, ty = r / lanes;
    const std::ptrdiff_t read_step = read_rows * src.s1, write_step = read_rows * dst.s0;
    for (int ja = 0; ja < Tile / lanes; ++ja) {
      const int ia = tx + ja * lanes;
      if (ia < na) {
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
        // Row ty may lie past the tile's last row, read only under the guards: its address is
        // formed from the first row, which the bounds checks accept.
        const T* at = &src(v, first_a + ia, first_b, c) + ty * src.s1;
#else
        const T* at = &src(v, first_a + ia, first_b + ty, c);
#endif
        for (int jb = 0; jb < Rows / read_rows; jb += per_pass) {
          T x[per_pass];
          for (int u = 0; u < per_pass; ++u, at += read_step) {
            if (ty + (jb + u) * read_rows < nb) {
              x[u] = load_read_only(*at);
            }
          }
          for (int u = 0; u < per_pass; ++u) {
            const int ib = ty + (jb + u) * read_rows;
            if (ib < nb) {
              tile[ib * pitch + ia] = x[u];
            }
          }
        }
      }
    }
    m.team_barrier();
    for (int h = 0; h < Rows / lanes; ++h) {
      const int ib = tx + h * lanes;
      if (ib < nb) {
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
        T* at = &dst(v, first_a, first_b + ib, c) + ty * dst.s0;
#else
        T* at       = &dst(v, first_a + ty, first_b + ib, c);
#endif
        for (int u = 0; u < Tile / read_rows; ++u, at += write_step) {
          const int ia = ty + u * read_rows;
          if (ia < na) {
            *at = tile[ib * pitch + ia];
          }
        }
      }
    }
  }
};

// The largest power of two not above n (n >= 1): a team size that covers a tile in whole rows.
constexpr int power_of_two_floor(int n) {
  int p = 1;
  while (p <= n / 2) {
    p *= 2;
  }
  return p;
}

// A handle whose strides (s0, s1, s2) are put in the order of `order`: the element at index
// (x[order[0]], x[order[1]], x[order[2]]) is the one at x. The base, the offset of index 0, is
// the same in every order.
template <class Ref>
Ref permuted(Ref r, const int (&order)[3]) {
  const std::ptrdiff_t s[3] = {r.s0, r.s1, r.s2};
  r.s0                      = s[order[0]];
  r.s1                      = s[order[1]];
  r.s2                      = s[order[2]];
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
  r.bounds = r.bounds.permuted(order);
#endif
  return r;
}

// The stride between the variables of one allocation: a packed buffer's; 0 for a field_set,
// whose variables are allocations of their own.
template <class T>
std::ptrdiff_t variable_stride(const field_set_ref<T>&) {
  return 0;
}
template <class T>
std::ptrdiff_t variable_stride(const packed_fields_ref<T>& r) {
  return r.sv;
}

// Whether every row of r along index `unit` (its stride-1 index) within `cells`, in every
// variable, starts a multiple of `elements` from the start of its allocation (Kokkos starts
// allocations on a line, so such rows start on a sector of `elements`).
template <class Ref>
bool rows_start_on(const box<3>& cells, int unit, const Ref& r, std::ptrdiff_t elements) {
  const std::ptrdiff_t stride[3] = {r.s0, r.s1, r.s2};
  std::ptrdiff_t first           = r.base;
  bool on                        = variable_stride(r) % elements == 0;
  for (int d = 0; d < 3; ++d) {
    first += cells.lower(d) * stride[d];
    on = on && (d == unit || cells.extent(d) == 1 || stride[d] % elements == 0);
  }
  return on && first % elements == 0;
}

// Launches the tiles of the copy in `order` (see transpose_tiles) in the shape of Traits (a
// transpose_shape); returns false where the league would not fit an int.
template <class Traits, class Policy, class ExecutionSpace, class Dst, class Src>
bool launch_transpose_tiles(const ExecutionSpace& exec, const box<3>& cells, const int (&order)[3],
                            int nvar, const Dst& dst, const Src& src, const std::string& label) {
  using value_type = std::remove_reference_t<decltype(dst(0, 0, 0, 0))>;
  using functor =
      transpose_tiles<value_type, Traits::tile, Traits::rows, Traits::team_size, Dst, Src>;
  functor f{permuted(dst, order), permuted(src, order), {}, {}, 0, 0};
  for (int d = 0; d < 3; ++d) {
    f.lower[d]  = cells.lower(order[d]);
    f.extent[d] = cells.extent(order[d]);
  }
  f.tiles_a                 = (f.extent[0] + Traits::tile - 1) / Traits::tile;
  f.tiles_b                 = (f.extent[1] + Traits::rows - 1) / Traits::rows;
  const std::int64_t league = std::int64_t{f.tiles_a} * f.tiles_b * f.extent[2] * nvar;
  if (league > INT_MAX) {
    return false;
  }
  Kokkos::parallel_for(label,
                       Policy(exec, static_cast<int>(league), Traits::team_size)
                           .set_scratch_size(0, Kokkos::PerTeam(functor::scratch_bytes())),
                       f);
  return true;
}

// dst(v, cell) = src.load(v, cell) over the box as a tiled transpose, when the schedule and
// the backend take one and the two arrays' stride-1 indices differ; returns whether it launched.
// collapse4, collapse3, flat and automatic launch the same teams of one tile and one variable:
// teams that moved a tile of every variable in turn, the variable loop of collapse3's work item,
// ran slower in every size and precision of the study above. kokkos_default (the baseline) and
// the strided mapping (the negative control) keep their plain loops.
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
    using bounds       = bounds_for_t<kind == schedule_kind::collapse4 ? schedule_kind::collapse4
                                                                       : schedule_kind::collapse3,
                                typename Schedule::bounds>;
    // Under the caller's launch bounds a team has at most their threads and square tiles: the
    // blocks the bounds ask an SM to hold must fit its shared memory (16 blocks of 32 threads
    // with 64 x 33 doubles each do not on the H200).
    constexpr bool bounded = !std::is_same<bounds, default_bounds>::value;
    constexpr int team     = [] {
      if constexpr (bounded) {
        return traits::team_size < static_cast<int>(bounds::max_threads)
                       ? traits::team_size
                       : static_cast<int>(bounds::max_threads);
      } else {
        return traits::team_size;
      }
    }();
    using shape = transpose_shape<traits::tile, bounded ? traits::tile : traits::rows,
                                  power_of_two_floor(team)>;
    using policy =
        Kokkos::TeamPolicy<ExecutionSpace, typename flat_bounds<ExecutionSpace, bounds>::type>;
    using value_type = std::remove_reference_t<decltype(dst(0, 0, 0, 0))>;
    if constexpr (!bounded && traits::sector_bytes > 0 &&
                  sizeof(value_type) == traits::sector_element) {
      constexpr std::ptrdiff_t sector = traits::sector_bytes / traits::sector_element;
      if (rows_start_on(cells, a, src, sector) && rows_start_on(cells, b, dst, sector)) {
        return launch_transpose_tiles<typename traits::sector_shape, policy>(exec, cells, order,
                                                                             nvar, dst, src, label);
      }
    }
    return launch_transpose_tiles<shape, policy>(exec, cells, order, nvar, dst, src, label);
  }
}

}  // namespace loopnest::Impl

#endif
