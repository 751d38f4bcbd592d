// loopnest::reduce_cell and reduce_cell_var: a reduction over the cells, or the (cell, variable)
// pairs, of a box with a Kokkos reducer, in an order fixed by the box alone, so that the result
// is the same bits under every schedule and mapping and from run to run, sums included. The
// order is in loopnest/detail/reduction_order.hpp.
#ifndef LOOPNEST_REDUCE_HPP
#define LOOPNEST_REDUCE_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/detail/reduction_order.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/schedule.hpp>

#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace loopnest {

namespace Impl {

template <class Reducer, class = void>
struct is_reducer : std::false_type {};
template <class Reducer>
struct is_reducer<Reducer, std::void_t<typename Reducer::value_type,
                                       decltype(std::declval<const Reducer&>().reference())>>
    : std::true_type {};

// Where the last level of a reduction on Memory writes its result: memory the host reads after
// a fence, with no copy to wait for (Kokkos' own reductions do the same), or Memory itself where
// this header names no such memory for the backend (only CUDA, the one measured).
template <class Memory>
struct reduction_result_memory {
  using type = Memory;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct reduction_result_memory<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
template <class Memory>
using reduction_result_memory_t = typename reduction_result_memory<Memory>::type;

// Device memory for the partials, slices and result of the reductions of value_type V on
// Memory, kept from one reduction to the next and grown as needed: allocated at every call, it
// cost a CUDA reduction a cudaMalloc and a cudaFree, which waits for the device. One reduction
// holds it at a time (host threads that reduce at once take turns, for as long as an instance
// lives); Kokkos::finalize frees it.
template <class V, class Memory>
class reduction_scratch {
 public:
  template <class ExecutionSpace>
  explicit reduction_scratch(const ExecutionSpace& exec) : m_lock(store().mutex) {
    store_type& s = store();
    if (!s.hooked) {
      // The Views must go before Kokkos does; a later Kokkos::initialize starts afresh.
      Kokkos::push_finalize_hook([&s] {
        s.partials = {};
        s.slices   = {};
        s.result   = {};
        s.hooked   = false;
      });
      s.hooked = true;
      s.slices = Kokkos::View<V*, Memory>(
          Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "loopnest::reduce::slices"),
          fold_width);
      s.result = result_view(
          Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "loopnest::reduce::result"));
    }
  }

  // Room for count partials (the same memory as the last call's, where that was as large).
  template <class ExecutionSpace>
  Kokkos::View<V*, Memory> partials(const ExecutionSpace& exec, std::int64_t count) {
    store_type& s = store();
    if (static_cast<std::int64_t>(s.partials.extent(0)) < count) {
      s.partials = {};
      s.partials = Kokkos::View<V*, Memory>(
          Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "loopnest::reduce::partials"),
          static_cast<std::size_t>(count));
    }
    return Kokkos::subview(s.partials, std::make_pair(std::int64_t{0}, count));
  }
  Kokkos::View<V*, Memory> slices() const { return store().slices; }
  using result_view = Kokkos::View<V, reduction_result_memory_t<Memory>>;
  result_view result() const { return store().result; }

 private:
  struct store_type {
    std::mutex mutex;
    bool hooked = false;
    Kokkos::View<V*, Memory> partials, slices;
    result_view result;
  };
  static store_type& store() {
    static store_type s;
    return s;
  }
  std::unique_lock<std::mutex> m_lock;
};

// Schedule with Kind in place of its own (one cell per work item).
template <class Schedule, schedule_kind Kind>
using with_kind_t = schedule<Kind, typename Schedule::mapping, typename Schedule::layout,
                             typename Schedule::bounds>;

// The loop over a box of tiles under Schedule. A tile folds up to 64 cells in one work item, a
// long body whose warps stay on lines without collapse3's rows: automatic runs it flat (faster
// than collapse3 on the H200, docs/results/h200/experiments.md), or collapse4 where its rule
// finds the box too small to fill the device.
template <class Schedule, bool PerVariable, class ExecutionSpace, int Rank, class Fold>
void run_tiles(const ExecutionSpace& exec, const box<Rank>& tiles, int nvar, const Fold& fold,
               const std::string& label) {
  if constexpr (Schedule::kind == schedule_kind::automatic) {
    if (automatic_choice<Schedule>(exec, tiles.size()) == schedule_kind::collapse4) {
      run_tiles<with_kind_t<Schedule, schedule_kind::collapse4>, PerVariable>(exec, tiles, nvar,
                                                                              fold, label);
    } else {
      run_tiles<with_kind_t<Schedule, schedule_kind::flat>, PerVariable>(exec, tiles, nvar, fold,
                                                                         label);
    }
  } else if constexpr (PerVariable) {
    for_each_cell_var<Schedule>(exec, tiles, nvar, fold, label);
  } else {
    for_each_cell<Schedule>(exec, tiles, fold, label);
  }
}

// The first pass of a reduction (reduction_order.hpp): the partials of b's tiles, numbered as
// reduction_tiles(b, nvar) numbers them, under Schedule, in scratch's memory.
template <class Schedule, bool PerVariable, class ExecutionSpace, int Rank, class F, class Reducer>
Kokkos::View<typename Reducer::value_type*, typename ExecutionSpace::memory_space> tile_partials(
    const ExecutionSpace& exec, const box<Rank>& b, int nvar, const F& f, const Reducer& reducer,
    reduction_scratch<typename Reducer::value_type, typename ExecutionSpace::memory_space>& scratch,
    const std::string& label) {
  using memory = typename ExecutionSpace::memory_space;
  const reduction_tiles<Rank> tiles(b, PerVariable ? nvar : 1);
  auto partials = scratch.partials(exec, tiles.count());
  const tile_fold<Rank, PerVariable, F, Reducer, memory> fold{f, reducer, tiles, partials};
  if (!b.empty()) {
    run_tiles<Schedule, PerVariable>(exec, tiles.index_box(), nvar, fold, label + "::tiles");
  }
  return partials;
}

// The second pass: the partials folded (fold_partials) into reducer.reference() on the host.
// Blocks until the result is there.
template <class ExecutionSpace, class Reducer, class Memory>
void fold_into_reference(const ExecutionSpace& exec, const Reducer& reducer,
                         const Kokkos::View<typename Reducer::value_type*, Memory>& partials,
                         const reduction_scratch<typename Reducer::value_type, Memory>& scratch,
                         const std::string& label) {
  using result_view = typename reduction_scratch<typename Reducer::value_type, Memory>::result_view;
  const result_view result = scratch.result();
  fold_partials(exec, reducer, partials, scratch.slices(), result, label + "::partials");
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename result_view::memory_space>::accessible) {
    exec.fence();
    reducer.reference() = result();
  } else {
    const typename result_view::HostMirror host = Kokkos::create_mirror_view(result);
    Kokkos::deep_copy(exec, host, result);
    exec.fence();
    reducer.reference() = host();
  }
}

// Both passes of a reduction over b.
template <class Schedule, bool PerVariable, class ExecutionSpace, int Rank, class F, class Reducer>
void reduce(const ExecutionSpace& exec, const box<Rank>& b, int nvar, const F& f,
            const Reducer& reducer, const std::string& label) {
  const profiling_region region(label);
  reduction_scratch<typename Reducer::value_type, typename ExecutionSpace::memory_space> scratch(
      exec);
  fold_into_reference(
      exec, reducer,
      tile_partials<Schedule, PerVariable>(exec, b, nvar, f, reducer, scratch, label), scratch,
      label);
}

}  // namespace Impl

// Reduces f(i, j, acc) (2D box) or f(i, j, k, acc) (3D box) over every cell of b on exec into
// reducer.reference(), a host value (Kokkos::Sum<double>(total), Max, Min, MinMax, MaxLoc,
// MinLoc, or a custom reducer with value_type, init, join and reference). The body updates acc,
// a value_type& that starts at the reducer's identity. The cells are visited and joined in an
// order fixed by the box (reduction_order.hpp): Schedule only maps that work onto the device,
// so every schedule gives the same bits, run after run; another backend may join in another
// order. An empty box gives the identity. Blocks until the result is on the host.
template <class Schedule, class ExecutionSpace, int Rank, class F, class Reducer>
void reduce_cell(const ExecutionSpace& exec, const box<Rank>& b, const F& f, const Reducer& reducer,
                 const std::string& label = "loopnest::reduce_cell") {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::reduce_cell: the template argument must be a loopnest schedule, such "
                "as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::reduce_cell: the first argument must be a Kokkos execution space "
                "instance, such as Kokkos::DefaultExecutionSpace().");
  static_assert(Impl::is_reducer<Reducer>::value,
                "loopnest::reduce_cell: the reducer must be a Kokkos reducer such as "
                "Kokkos::Sum<double>(result), with value_type and reference().");
  static_assert(Impl::is_cell_reduce_body_v<F, Rank, typename Reducer::value_type>,
                "loopnest::reduce_cell: the body must be callable as f(i, j, acc) for a 2D box "
                "and as f(i, j, k, acc) for a 3D box, with int indices and acc the reducer's "
                "value_type&.");
  Impl::reduce<Schedule, false>(exec, b, 1, f, reducer, label);
}

// Reduces f(i, j, v, acc) (2D box) or f(i, j, k, v, acc) (3D box) over every cell of b and every
// variable v in [0, nvar), as reduce_cell does: the order is fixed by the box and nvar, the same
// bits under every schedule. Throws std::invalid_argument, before any launch, for nvar < 1.
template <class Schedule, class ExecutionSpace, int Rank, class F, class Reducer>
void reduce_cell_var(const ExecutionSpace& exec, const box<Rank>& b, int nvar, const F& f,
                     const Reducer& reducer,
                     const std::string& label = "loopnest::reduce_cell_var") {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::reduce_cell_var: the template argument must be a loopnest schedule, "
                "such as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::reduce_cell_var: the first argument must be a Kokkos execution space "
                "instance, such as Kokkos::DefaultExecutionSpace().");
  static_assert(Impl::is_reducer<Reducer>::value,
                "loopnest::reduce_cell_var: the reducer must be a Kokkos reducer such as "
                "Kokkos::Sum<double>(result), with value_type and reference().");
  static_assert(Impl::is_cell_var_reduce_body_v<F, Rank, typename Reducer::value_type>,
                "loopnest::reduce_cell_var: the body must be callable as f(i, j, v, acc) for a "
                "2D box and as f(i, j, k, v, acc) for a 3D box, with int indices and acc the "
                "reducer's value_type&.");
  if (nvar < 1) {
    throw std::invalid_argument("loopnest::reduce_cell_var: nvar = " + std::to_string(nvar) +
                                " must be at least 1");
  }
  Impl::reduce<Schedule, true>(exec, b, nvar, f, reducer, label);
}

}  // namespace loopnest

#endif
