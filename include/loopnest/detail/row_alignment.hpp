// Rows aligned to cache lines: a collapse3 launch over a 3D box whose rows start where the
// kernel's arrays put them, run in memory order or shifted so that warps start on lines (CUDA).
#ifndef LOOPNEST_DETAIL_ROW_ALIGNMENT_HPP
#define LOOPNEST_DETAIL_ROW_ALIGNMENT_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/launch.hpp>
#include <loopnest/detail/launch_bounds.hpp>
#include <loopnest/detail/policy_order.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace loopnest::Impl {

// Row alignment: under collapse3 a GPU block runs whole rows of the stride-1 index, and a row
// that starts mid-line costs every warp of it one more cache line. Shifting each row's threads so
// that its first warp starts on a line of the array the kernel names costs nothing when the shift
// fits in the row's last warp (docs/design.md, "Rows aligned to lines"). `bytes` is the line a
// warp's first access should start on (0: no shift), `warp` the threads of a warp.
template <class ExecutionSpace>
struct row_alignment_traits {
  static constexpr int bytes = 0;
  static constexpr int warp  = 1;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct row_alignment_traits<Kokkos::Cuda> {
  static constexpr int bytes = 128;
  static constexpr int warp  = 32;
};
#endif

// Where the rows of a 3D box start in memory: the element address of the box's first cell and the
// element strides of its indices, all modulo 2^32 (a multiple of every line). line is the
// backend's line in elements (0: rows are not placed), lanes the part of it a row's shift may take
// (0: rows launch unshifted).
struct row_phase {
  std::uint32_t first   = 0;
  std::uint32_t step[3] = {0, 0, 0};
  int lanes             = 0;
  int line              = 0;
  int warp              = 1;
};

// The phase of the rows of b in an array of T whose element (b.lower()) is at first_cell, for
// ExecutionSpace: the line is the backend's, and the lanes the longest power-of-two part of it
// whose shift costs no row one more warp (FP64 rows of 201 take 16 elements, FP32 ones 16 of 32).
// Nothing where the backend takes no shift or no index has stride 1. With `cells` per thread
// (strips) a warp holds that many times more cells, and the line is never shorter than a strip,
// whose vectors need the shift even where it costs a warp.
template <class ExecutionSpace, class T>
row_phase row_phase_for(const box<3>& b, const T* first_cell, const std::ptrdiff_t (&stride)[3],
                        int cells = 1) {
  using traits       = row_alignment_traits<ExecutionSpace>;
  constexpr int elem = static_cast<int>(sizeof(T));
  row_phase rows;
  static_assert((traits::bytes & (traits::bytes - 1)) == 0,
                "row_alignment_traits: the line must be a power of two bytes (or 0)");
  // A line of a power of two bytes holds a power of two elements when it holds a whole number.
  if constexpr (traits::bytes > 0 && traits::bytes % elem == 0) {
    int d = 0;
    while (d < 3 && stride[d] != 1) {
      ++d;
    }
    if (d == 3) {
      return rows;
    }
    const int e        = b.extent(d);
    const int w        = traits::warp;
    int lanes          = traits::bytes / elem;
    const auto threads = [&](int n) { return (n + cells - 1) / cells; };
    const auto fits    = [&](int l) {
      return (threads(e + l - 1) + w - 1) / w == (threads(e) + w - 1) / w;
    };
    rows.line = lanes;
    while (lanes > 1 && lanes > cells && !fits(lanes)) {
      lanes /= 2;
    }
    rows.first =
        static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(first_cell) / sizeof(T));
    for (int s = 0; s < 3; ++s) {
      rows.step[s] = static_cast<std::uint32_t>(stride[s]);
    }
    rows.lanes = lanes < 2 || lanes < cells ? 0 : lanes;
    rows.warp  = w;
  }
  return rows;
}

template <bool Reverse>
row_phase to_policy_order(const row_phase& rows) {
  row_phase p = rows;
  for (int d = 0; d < 3; ++d) {
    p.step[d] = rows.step[Reverse ? 2 - d : d];
  }
  return p;
}

// The phase of row (j, k): the element address of its first cell modulo the line (mask + 1), from
// origin, that of row (0, 0), and the rows' strides, all modulo 2^32. mask 0: no phase.
struct phase_of_rows {
  std::uint32_t origin, step1, step2, mask;
  KOKKOS_FORCEINLINE_FUNCTION int operator()(int j, int k) const {
    return static_cast<int>(
        (origin + static_cast<std::uint32_t>(j) * step1 + static_cast<std::uint32_t>(k) * step2) &
        mask);
  }
};

// The phases of the rows of pb (in policy order) by rows, on a line of `lanes` elements.
inline phase_of_rows phases_of(const policy_box<3>& pb, const row_phase& rows, int lanes) {
  return {rows.first - static_cast<std::uint32_t>(pb.lower[1]) * rows.step[1] -
              static_cast<std::uint32_t>(pb.lower[2]) * rows.step[2],
          rows.step[1], rows.step[2], static_cast<std::uint32_t>(lanes - 1)};
}

// A collapse3 body over rows shifted by their phase: policy index 0 runs over a row's extent plus
// up to lanes - 1 leading threads, rounded up to whole warps, and element i of row (j, k) goes to
// thread i + phase(j, k), so that thread t always touches an address that is t modulo lanes; the
// threads outside the row do nothing. origin is the phase of cell (lower0, 0, 0).
template <class Body>
struct aligned_rows_body {
  Body body;
  int lower0, extent0;
  phase_of_rows phase;
  KOKKOS_FUNCTION void operator()(int t, int j, int k) const {
    const int i = t - phase(j, k);
    if (i >= 0 && i < extent0) {
      body(lower0 + i, j, k);
    }
  }
};

// Whether a collapse3 launch runs its rows as a 1D range (launch_box_rows): under loopnest's own
// tile and the default launch bounds.
template <class Bounds>
bool runs_as_range(const tile& explicit_tile) {
  return explicit_tile.is_default() && std::is_same<Bounds, default_bounds>::value;
}

// Launches a collapse3 body over a box in policy order. Under loopnest's own tile and the default
// launch bounds, the box's rows run one after another in a 1D range, whose two 32-bit divisions a
// thread cost fewer instructions than Kokkos' MDRange index arithmetic, which bound the FP32
// copy. Under an explicit tile, or launch bounds of the schedule's or the kernel's own, the
// Rank-3 MDRange of the tile runs it: a range leaves the block size to Kokkos, and
// flux_difference under its own bounds measured slower as a range (docs/results/h200/fields_fp32).
template <bool Reverse, class Bounds, class ExecutionSpace, class Body>
void launch_box_rows(const std::string& label, const ExecutionSpace& exec, const policy_box<3>& pb,
                     const tile& explicit_tile, const Body& body) {
  if (runs_as_range<Bounds>(explicit_tile)) {
    launch_range<typename kokkos_bounds<ExecutionSpace, Bounds>::type>(label, exec, pb, body);
  } else {
    launch_mdrange<3, Reverse, false, Bounds>(label, exec, pb, var_range{}, explicit_tile, body);
  }
}

// A collapse3 body over the rows of each plane in memory order: thread t of plane k runs the cell
// t - phase(lower1, k) elements past the plane's first cell, where that is a cell of the box, so
// that thread t always touches an address that is t modulo the line (phase.mask + 1) and a warp
// never splits a line, also where it runs the end of one row and the start of the next; the
// threads over the gaps between rows (the array's ghost cells) do nothing.
template <class Body>
struct row_span_body {
  Body body;
  int lower0, extent0, lower1, extent1;
  std::uint32_t row_stride;
  phase_of_rows phase;
  KOKKOS_FUNCTION void operator()(int t, int k) const {
    const int d = t - phase(lower1, k);
    if (d < 0) {
      return;
    }
    const auto j = static_cast<std::uint32_t>(d) / row_stride;
    const int i  = d - static_cast<int>(j * row_stride);
    if (i < extent0 && static_cast<int>(j) < extent1) {
      body(lower0 + i, lower1 + static_cast<int>(j), k);
    }
  }
};

// The threads a plane of pb takes in memory order (row_span_body): its rows' span from a line
// boundary, in whole warps; 0 where the rows are not placed, overlap in memory or leave gaps of
// more than an eighth of a row between them.
inline int row_span_threads(const policy_box<3>& pb, const row_phase& rows) {
  const std::int64_t e0 = pb.extent(0), s1 = rows.step[1];
  if (rows.line < 2 || rows.step[0] != 1 || s1 < e0 || (s1 - e0) * 8 > e0) {
    return 0;
  }
  const std::int64_t span    = rows.line - 1 + (pb.extent(1) - 1) * s1 + e0;
  const std::int64_t threads = (span + rows.warp - 1) / rows.warp * rows.warp;
  return threads <= INT_MAX ? static_cast<int>(threads) : 0;
}

// Launches a collapse3 body over the box with its rows aligned by rows (in policy order), where
// they can be: policy index 0 of stride 1 and loopnest's own tile. Rows that follow each other in
// memory with small gaps run in memory order (row_span_body), every warp on a line: a plane a
// range index under the default bounds, else a Rank-2 MDRange of loopnest's tile, whose block
// flux_difference's own bounds want (docs/results/h200/fields_fp32). Other rows go through
// launch_box_rows, those with a phase padded to whole warps and shifted by it, so that every
// warp starts on a line.
template <bool Reverse, class Bounds, class ExecutionSpace, class Body>
void launch_rows(const std::string& label, const ExecutionSpace& exec, const policy_box<3>& pb,
                 const row_phase& rows, const tile& explicit_tile, const Body& body) {
  if (const int threads = row_span_threads(pb, rows); threads > 0 && explicit_tile.is_default()) {
    const policy_box<2> planes{{0, pb.lower[2]}, {threads, pb.upper[2]}};
    const row_span_body<Body> spans{body,
                                    pb.lower[0],
                                    pb.extent(0),
                                    pb.lower[1],
                                    pb.extent(1),
                                    rows.step[1],
                                    phases_of(pb, rows, rows.line)};
    if (runs_as_range<Bounds>(explicit_tile)) {
      launch_range<typename kokkos_bounds<ExecutionSpace, Bounds>::type>(label, exec, planes,
                                                                         spans);
    } else {
      launch_mdrange<2, false, false, Bounds>(label, exec, planes, var_range{}, explicit_tile,
                                              spans);
    }
    return;
  }
  if (rows.lanes < 2 || rows.step[0] != 1 || !explicit_tile.is_default()) {
    launch_box_rows<Reverse, Bounds>(label, exec, pb, explicit_tile, body);
    return;
  }
  const int w = rows.warp;
  policy_box<3> padded{{0, pb.lower[1], pb.lower[2]},
                       {(pb.extent(0) + rows.lanes - 1 + w - 1) / w * w, pb.upper[1], pb.upper[2]}};
  launch_box_rows<Reverse, Bounds>(
      label, exec, padded, explicit_tile,
      aligned_rows_body<Body>{body, pb.lower[0], pb.extent(0), phases_of(pb, rows, rows.lanes)});
}

// A collapse3 body over strips of N cells along policy index 0: strip thread t runs the cells from
// N t - phase(j, k) on, so that with the rows' phase (lanes a multiple of N) every strip starts on
// a vector of the array the kernel names; a strip cut by the row's ends runs its cells in the row
// one by one (body(i, j, k)), a whole one as body.strip(i, j, k).
template <class Body, int N>
struct aligned_strips_body {
  Body body;
  int lower0, extent0;
  phase_of_rows phase;
  KOKKOS_FUNCTION void operator()(int t, int j, int k) const {
    const int i = N * t - phase(j, k);
    if (i >= 0 && i + N <= extent0) {
      body.strip(lower0 + i, j, k);
    } else {
      for (int u = 0; u < N; ++u) {
        if (i + u >= 0 && i + u < extent0) {
          body(lower0 + i + u, j, k);
        }
      }
    }
  }
};

// Launches a collapse3 body of strips of N cells over the box, with its rows' phase where there
// is one of at least a strip (as launch_rows), from each row's first cell otherwise, through
// launch_box_rows; an explicit tile counts threads, a strip each, along policy index 0.
template <int N, bool Reverse, class Bounds, class ExecutionSpace, class Body>
void launch_strips(const std::string& label, const ExecutionSpace& exec, const policy_box<3>& pb,
                   const row_phase& rows, const tile& explicit_tile, const Body& body) {
  const bool shifted = rows.lanes >= N && rows.step[0] == 1 && explicit_tile.is_default();
  const int lanes    = shifted ? rows.lanes : 1;
  const int w        = shifted ? rows.warp : 1;
  const int threads  = (pb.extent(0) + lanes - 1 + N - 1) / N;
  policy_box<3> padded{{0, pb.lower[1], pb.lower[2]},
                       {(threads + w - 1) / w * w, pb.upper[1], pb.upper[2]}};
  launch_box_rows<Reverse, Bounds>(
      label, exec, padded, explicit_tile,
      aligned_strips_body<Body, N>{
          body, pb.lower[0], pb.extent(0),
          shifted ? phases_of(pb, rows, lanes) : phase_of_rows{0, 0, 0, 0}});
}

}  // namespace loopnest::Impl

#endif
