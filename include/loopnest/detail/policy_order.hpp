// The order in which loopnest hands a box's indices to Kokkos, and calls a body back in box
// order.
#ifndef LOOPNEST_DETAIL_POLICY_ORDER_HPP
#define LOOPNEST_DETAIL_POLICY_ORDER_HPP

#include <loopnest/box.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>

#include <type_traits>

namespace loopnest::Impl {

// Policy order: loopnest hands Kokkos the indices with the one adjacent threads should step
// through first and iterates Left, because every Kokkos backend maps policy index 0 to
// threadIdx.x (GPU) or to the innermost loop (host) under Iterate::Left. The spatial indices
// are either in box order or reversed; the variable index, when in the policy, is always last.
template <class Schedule>
inline constexpr bool reverse_v =
    std::is_same<typename Schedule::layout, Kokkos::LayoutLeft>::value !=
    std::is_same<typename Schedule::mapping, contiguous>::value;

template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) invoke_cell(const F& f, int p0, int p1) {
  if constexpr (Reverse) {
    return f(p1, p0);
  } else {
    return f(p0, p1);
  }
}
template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION decltype(auto) invoke_cell(const F& f, int p0, int p1, int p2) {
  if constexpr (Reverse) {
    return f(p2, p1, p0);
  } else {
    return f(p0, p1, p2);
  }
}
template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION void invoke_cell_var(const F& f, int v, int p0, int p1) {
  if constexpr (Reverse) {
    f(p1, p0, v);
  } else {
    f(p0, p1, v);
  }
}
template <bool Reverse, class F>
KOKKOS_FORCEINLINE_FUNCTION void invoke_cell_var(const F& f, int v, int p0, int p1, int p2) {
  if constexpr (Reverse) {
    f(p2, p1, p0, v);
  } else {
    f(p0, p1, p2, v);
  }
}

// The box's bounds and extents in policy order.
template <int Rank>
struct policy_box {
  int lower[Rank];
  int upper[Rank];
  int extent(int d) const { return upper[d] - lower[d]; }
};
template <bool Reverse, int Rank>
policy_box<Rank> to_policy_order(const box<Rank>& b) {
  policy_box<Rank> p{};
  for (int d = 0; d < Rank; ++d) {
    const int from = Reverse ? Rank - 1 - d : d;
    p.lower[d]     = b.lower(from);
    p.upper[d]     = b.upper(from);
  }
  return p;
}

}  // namespace loopnest::Impl

#endif
