// What a loop body must be callable as, for the static_asserts of the public loops.
#ifndef LOOPNEST_DETAIL_BODY_TRAITS_HPP
#define LOOPNEST_DETAIL_BODY_TRAITS_HPP

#include <type_traits>

namespace loopnest::Impl {

template <class F, int Rank>
inline constexpr bool is_cell_body_v =
    Rank == 2 ? std::is_invocable<const F&, int, int>::value
              : std::is_invocable<const F&, int, int, int>::value;
template <class F, int Rank>
inline constexpr bool is_cell_var_body_v =
    Rank == 2 ? std::is_invocable<const F&, int, int, int>::value
              : std::is_invocable<const F&, int, int, int, int>::value;

template <class P, int Rank>
using cell_value_t =
    std::decay_t<std::conditional_t<Rank == 2, std::invoke_result<const P&, int, int>,
                                    std::invoke_result<const P&, int, int, int>>>;
template <class F, class P, int Rank, class = void>
inline constexpr bool is_cell_var_value_body_v = false;
template <class F, class P, int Rank>
inline constexpr bool
    is_cell_var_value_body_v<F, P, Rank, std::void_t<typename cell_value_t<P, Rank>::type>> =
        Rank == 2 ? std::is_invocable<const F&, int, int, int,
                                      const typename cell_value_t<P, Rank>::type&>::value
                  : std::is_invocable<const F&, int, int, int, int,
                                      const typename cell_value_t<P, Rank>::type&>::value;

// The bodies of reduce_cell and reduce_cell_var: the indices, then the accumulator.
template <class F, int Rank, class Value>
inline constexpr bool is_cell_reduce_body_v =
    Rank == 2 ? std::is_invocable<const F&, int, int, Value&>::value
              : std::is_invocable<const F&, int, int, int, Value&>::value;
template <class F, int Rank, class Value>
inline constexpr bool is_cell_var_reduce_body_v =
    Rank == 2 ? std::is_invocable<const F&, int, int, int, Value&>::value
              : std::is_invocable<const F&, int, int, int, int, Value&>::value;

}  // namespace loopnest::Impl

#endif
