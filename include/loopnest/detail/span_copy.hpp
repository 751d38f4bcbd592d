// Impl::span_copy_cells: a copy whose box is, in every variable of both sides, one span of memory
// in the same element order, run as one flat copy per variable.
#ifndef LOOPNEST_DETAIL_SPAN_COPY_HPP
#define LOOPNEST_DETAIL_SPAN_COPY_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/launch_bounds.hpp>
#include <loopnest/detail/row_alignment.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/read_only.hpp>
#include <loopnest/schedule.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace loopnest::Impl {

// Elements one thread moves. A GPU thread moves a warp's width apart, so that every access of a
// warp is one run of memory, and keeps them all in flight: four ran faster than eight in FP32
// and as fast in FP64 on the H200 (docs/results/h200/fields_fp32, "Loops that write part of every
// row, and copies of whole arrays"). A host thread moves one run.
template <class ExecutionSpace>
struct span_copy_traits {
  static constexpr int elements = 256;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct span_copy_traits<Kokkos::Cuda> {
  static constexpr int elements = 4;
};
#endif

// The elements of box b in an array of these strides when they form one span of memory: their
// count, or 0 where they do not (the box leaves gaps, or an index of it has a negative stride).
inline std::int64_t span_length(const box<3>& b, const std::ptrdiff_t (&stride)[3]) {
  if (b.empty()) {
    return 0;
  }
  std::int64_t length = 1;
  bool placed[3]      = {false, false, false};
  // Indices of one element lie anywhere; each other index, smallest stride first, must step
  // exactly over the span of the ones before it.
  for (int d = 0; d < 3; ++d) {
    placed[d] = b.extent(d) == 1;
  }
  for (int n = 0; n < 3; ++n) {
    int next = -1;
    for (int d = 0; d < 3; ++d) {
      if (!placed[d] && stride[d] == length) {
        next = d;
      }
    }
    if (next < 0) {
      return placed[0] && placed[1] && placed[2] ? length : 0;
    }
    placed[next] = true;
    length *= b.extent(next);
  }
  return length;
}

// Thread t of the launch: variable t / threads_per_var; in it, warp w and lane l move elements
// w * warp * Elements + l + warp * u (u < Elements) of the span, counted from `shift` elements
// before its first, which puts every warp's accesses of the destination on lines.
template <class Dst, class Src, int Warp, int Elements, class Index>
struct span_copy_body {
  Dst dst;
  Src src;
  int lower[3];
  Index length, threads_per_var;
  int line;  // elements of a line of the destination, 0 where none is kept
  KOKKOS_FUNCTION void operator()(Index t) const {
    const int v       = static_cast<int>(t / threads_per_var);
    const Index local = t - v * threads_per_var;
    auto* const d     = &dst(v, lower[0], lower[1], lower[2]);
    const auto* s     = &src(v, lower[0], lower[1], lower[2]);
    using value_type  = std::remove_reference_t<decltype(*d)>;
    const Index shift =
        line == 0 ? 0
                  : static_cast<Index>((reinterpret_cast<std::uintptr_t>(d) / sizeof(value_type)) &
                                       static_cast<std::uintptr_t>(line - 1));
    const Index first = local / Warp * (Warp * Elements) + local % Warp - shift;
    value_type x[Elements];
    for (int u = 0; u < Elements; ++u) {
      const Index e = first + u * Warp;
      if (e >= 0 && e < length) {
        x[u] = load_read_only(s[e]);
      }
    }
    for (int u = 0; u < Elements; ++u) {
      const Index e = first + u * Warp;
      if (e >= 0 && e < length) {
        d[e] = x[u];
      }
    }
  }
};

// Runs dst(v, cell) = src(v, cell) over `cells` as one flat copy per variable and returns true
// where the schedule runs every cell of a variable alike (collapse3, flat, automatic, one cell a
// thread, the contiguous mapping) and the box is one span of memory with the same strides in
// both; returns false, having launched nothing, otherwise. Over whole arrays it measured faster
// than a cell's variables in one thread, most in FP32 and where the variables of the two sides
// start on different phases of a line (a packed buffer).
template <class Schedule, class ExecutionSpace, class Dst, class Src>
bool span_copy_cells(const ExecutionSpace& exec, const box<3>& cells, int nvar, const Dst& dst,
                     const Src& src, const std::string& label) {
  constexpr schedule_kind kind = Schedule::kind;
  if constexpr (kind == schedule_kind::collapse4 || kind == schedule_kind::kokkos_default ||
                Schedule::cells_per_thread != 1 ||
                !std::is_same<typename Schedule::mapping, contiguous>::value) {
    return false;
  } else {
    const std::ptrdiff_t dst_stride[3] = {dst.s0, dst.s1, dst.s2};
    const std::ptrdiff_t src_stride[3] = {src.s0, src.s1, src.s2};
    for (int d = 0; d < 3; ++d) {
      if (cells.extent(d) > 1 && dst_stride[d] != src_stride[d]) {
        return false;
      }
    }
    const std::int64_t length = span_length(cells, dst_stride);
    if (length == 0) {
      return false;
    }
    using alignment    = row_alignment_traits<ExecutionSpace>;
    using value_type   = std::remove_reference_t<decltype(dst(0, 0, 0, 0))>;
    constexpr int warp = alignment::warp, elements = span_copy_traits<ExecutionSpace>::elements;
    constexpr int line =
        alignment::bytes % sizeof(value_type) == 0 ? alignment::bytes / sizeof(value_type) : 0;
    const std::int64_t per_warp = std::int64_t{warp} * elements;
    const std::int64_t threads  = (length + line + per_warp - 1) / per_warp * warp;
    using policy_bounds = typename flat_bounds<ExecutionSpace, typename Schedule::bounds>::type;
    auto run            = [&](auto index_constant) {
      using index  = decltype(index_constant);
      using policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index>, policy_bounds>;
      Kokkos::parallel_for(label, policy(exec, 0, static_cast<index>(threads * nvar)),
                                      span_copy_body<Dst, Src, warp, elements, index>{
                               dst,
                               src,
                               {cells.lower(0), cells.lower(1), cells.lower(2)},
                               static_cast<index>(length),
                               static_cast<index>(threads),
                               line});
    };
    // 32-bit division is several times cheaper than 64-bit on GPUs; the thread index and every
    // element offset a thread computes must fit.
    if (threads * nvar <= INT_MAX && length + line + per_warp <= INT_MAX) {
      run(int{});
    } else {
      run(std::int64_t{});
    }
    return true;
  }
}

}  // namespace loopnest::Impl

#endif
