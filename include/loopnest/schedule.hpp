// Schedules: how a loop nest over cells, or over (cell, variable) pairs, becomes parallel work.
#ifndef LOOPNEST_SCHEDULE_HPP
#define LOOPNEST_SCHEDULE_HPP

#include <loopnest/kokkos_compat.hpp>

#include <cstdint>
#include <type_traits>

namespace loopnest {

// Mappings: which index adjacent threads (or, on a host backend, the innermost loop) step
// through. contiguous: the index with stride 1 in the schedule's layout (the first index for
// Kokkos::LayoutLeft, the last for Kokkos::LayoutRight). strided: the reverse index order, so
// that adjacent threads are a whole row or plane apart; kept as the negative control.
struct contiguous {};
struct strided {};

enum class schedule_kind {
  collapse4,       // every (cell, variable) pair is a work item: one MDRange over space and var
  collapse3,       // every cell is a work item: MDRange over space, variables sequential inside
  flat,            // 1D range over cells, index decomposed by hand, variables sequential inside
  kokkos_default,  // MDRange over space and var with Kokkos' own default tiles (the baseline)
  automatic        // collapse4 for boxes too small to fill the device, else flat for a body
                   // under launch bounds of its own, collapse3 otherwise (automatic_choice)
};

// Launch bounds of a schedule's GPU kernels: at most MaxThreads threads per block (a tile holds at
// most that many points) and at least MinBlocksPerSM blocks resident per multiprocessor. Together
// they cap the registers of each thread (on an H100 or H200, 65536 / (MaxThreads * MinBlocksPerSM),
// at most 255): a loop body that keeps several loads of every variable in flight needs more of
// them than one that copies. default_bounds is loopnest's per-backend choice (on CUDA, MDRange
// kernels at most 512 threads in at least 4 blocks, 32 registers, every thread of an SM resident;
// flat ranges unbounded). An explicit tile may hold at most MaxThreads points on every backend;
// on GPU backends loopnest's own tile shrinks to fit, host backends otherwise ignore the bounds.
template <unsigned MaxThreads, unsigned MinBlocksPerSM>
struct launch_bounds {
  static_assert(MaxThreads >= 1 && MaxThreads <= 1024,
                "loopnest::launch_bounds: MaxThreads must be between 1 and 1024, the most threads "
                "a GPU block holds.");
  static_assert(MinBlocksPerSM >= 1, "loopnest::launch_bounds: MinBlocksPerSM must be at least 1.");
  static constexpr unsigned max_threads       = MaxThreads;
  static constexpr unsigned min_blocks_per_sm = MinBlocksPerSM;
};
struct default_bounds {};

// A schedule is a type: Kind, the mapping, the layout of the Views the loop body touches, the
// launch bounds and the cells per thread. The layout only tells loopnest which index has stride
// 1; the loop body indexes its Views itself. CellsPerThread (1, 2 or 4; collapse3 and automatic
// only) gives each collapse3 work item of a (cell, variable) loop over a 3D box that many
// consecutive cells along the mapped index: a body that runs strips (as the field kernels' do)
// moves each variable's cells as vectors of up to 16 bytes, any other body runs the cells in
// turn; cell loops and 2D boxes keep one cell per work item. Use the aliases below and
// change one property with with_mapping_t, with_layout_t, with_launch_bounds_t or
// with_cells_per_thread_t:
//   loopnest::for_each_cell_var<loopnest::collapse3>(...);
//   using right = loopnest::with_layout_t<loopnest::collapse3, Kokkos::LayoutRight>;
//   using negative_control = loopnest::with_mapping_t<loopnest::collapse3, loopnest::strided>;
//   using wide_body = loopnest::with_launch_bounds_t<loopnest::collapse3, 256, 4>;
//   using vectors = loopnest::with_cells_per_thread_t<loopnest::collapse3, 4>;
template <schedule_kind Kind, class Mapping = contiguous, class Layout = Kokkos::LayoutLeft,
          class Bounds = default_bounds, int CellsPerThread = 1>
struct schedule {
  static_assert(std::is_same<Mapping, contiguous>::value || std::is_same<Mapping, strided>::value,
                "loopnest::schedule: the mapping must be loopnest::contiguous or "
                "loopnest::strided.");
  static_assert(std::is_same<Layout, Kokkos::LayoutLeft>::value ||
                    std::is_same<Layout, Kokkos::LayoutRight>::value,
                "loopnest::schedule: the layout must be Kokkos::LayoutLeft or "
                "Kokkos::LayoutRight; no other layout has a single stride-1 index.");
  static_assert(Kind != schedule_kind::kokkos_default ||
                    std::is_same<Bounds, default_bounds>::value,
                "loopnest::schedule: kokkos_default launches with Kokkos' own parameters and "
                "takes no launch bounds.");
  static_assert(CellsPerThread == 1 || CellsPerThread == 2 || CellsPerThread == 4,
                "loopnest::schedule: CellsPerThread must be 1, 2 or 4.");
  static_assert(CellsPerThread == 1 || Kind == schedule_kind::collapse3 ||
                    Kind == schedule_kind::automatic,
                "loopnest::schedule: only collapse3 (and automatic, where it picks collapse3) "
                "runs several cells per thread.");

  static constexpr schedule_kind kind   = Kind;
  using mapping                         = Mapping;
  using layout                          = Layout;
  using bounds                          = Bounds;
  static constexpr int cells_per_thread = CellsPerThread;
};

using collapse4      = schedule<schedule_kind::collapse4>;
using collapse3      = schedule<schedule_kind::collapse3>;
using flat           = schedule<schedule_kind::flat>;
using kokkos_default = schedule<schedule_kind::kokkos_default>;
using automatic      = schedule<schedule_kind::automatic>;

template <class T>
struct is_schedule : std::false_type {};
template <schedule_kind Kind, class Mapping, class Layout, class Bounds, int CellsPerThread>
struct is_schedule<schedule<Kind, Mapping, Layout, Bounds, CellsPerThread>> : std::true_type {};
template <class T>
inline constexpr bool is_schedule_v = is_schedule<T>::value;

template <class Schedule, class Mapping>
using with_mapping_t = schedule<Schedule::kind, Mapping, typename Schedule::layout,
                                typename Schedule::bounds, Schedule::cells_per_thread>;
template <class Schedule, class Layout>
using with_layout_t = schedule<Schedule::kind, typename Schedule::mapping, Layout,
                               typename Schedule::bounds, Schedule::cells_per_thread>;
template <class Schedule, unsigned MaxThreads, unsigned MinBlocksPerSM>
using with_launch_bounds_t =
    schedule<Schedule::kind, typename Schedule::mapping, typename Schedule::layout,
             launch_bounds<MaxThreads, MinBlocksPerSM>, Schedule::cells_per_thread>;
template <class Schedule, int CellsPerThread>
using with_cells_per_thread_t =
    schedule<Schedule::kind, typename Schedule::mapping, typename Schedule::layout,
             typename Schedule::bounds, CellsPerThread>;

namespace Impl {
// Schedule with Bounds in place of default_bounds; bounds the caller chose stay, and
// kokkos_default keeps Kokkos' own launch parameters.
template <class Schedule, class Bounds>
using or_bounds_t =
    std::conditional_t<std::is_same<typename Schedule::bounds, default_bounds>::value &&
                           Schedule::kind != schedule_kind::kokkos_default,
                       schedule<Schedule::kind, typename Schedule::mapping,
                                typename Schedule::layout, Bounds, Schedule::cells_per_thread>,
                       Schedule>;

// Bounds that a kernel asks for its variable loop: they apply where each thread runs the
// variables in turn (collapse3, flat, and automatic when it picks collapse3); a collapse4 work
// item holds one variable and keeps the default.
template <class Bounds>
struct var_loop_bounds {};

// The bounds a kernel of kind Kind launches with.
template <schedule_kind Kind, class Bounds>
struct bounds_for {
  using type = Bounds;
};
template <schedule_kind Kind, class Bounds>
struct bounds_for<Kind, var_loop_bounds<Bounds>> {
  using type =
      std::conditional_t<Kind == schedule_kind::collapse4 || Kind == schedule_kind::kokkos_default,
                         default_bounds, Bounds>;
};
template <schedule_kind Kind, class Bounds>
using bounds_for_t = typename bounds_for<Kind, Bounds>::type;
}  // namespace Impl

constexpr const char* name(schedule_kind kind) {
  switch (kind) {
    case schedule_kind::collapse4:
      return "collapse4";
    case schedule_kind::collapse3:
      return "collapse3";
    case schedule_kind::flat:
      return "flat";
    case schedule_kind::kokkos_default:
      return "kokkos_default";
    case schedule_kind::automatic:
      return "automatic";
  }
  return "unknown";
}
constexpr const char* name(contiguous) {
  return "contiguous";
}
constexpr const char* name(strided) {
  return "strided";
}

// The rule of loopnest::automatic. collapse3 gives each thread all variables of one cell, so a
// box with fewer cells than 1/32 of the threads the execution space keeps resident
// (exec.concurrency() / 32, 64 threads per SM) leaves most SMs idle, and collapse4, which
// multiplies the work items by nvar, is chosen instead; the threshold sits between the sizes
// where each measured faster (docs/design.md, "One body, many schedules"). On a serial backend
// concurrency is 1 and collapse4 is never chosen.
template <class ExecutionSpace>
std::int64_t automatic_collapse4_below(const ExecutionSpace& exec) {
  return Impl::concurrency(exec) / 32;
}

// Above that threshold, a schedule with launch bounds of its own (a body the caller says needs
// more registers than loopnest's default: long, bound by its instructions) runs flat, which packs
// the cells into warps with no lane idle at a row's end and no MDRange index arithmetic; a copy-
// like body, bound by memory, runs collapse3, whose rows keep warps on lines. That includes a
// library kernel's own bounds for its variable loop (var_loop_bounds, which keep loads in flight,
// not a long body). Each is the faster there: flat over MFC's right-hand side, whose long loops
// have bounds of their own, collapse3 (or within 2%) over the field kernels (docs/design.md).
// Deterministic: nothing is timed.
namespace Impl {
// Whether Bounds are launch bounds the caller gave a schedule, not default_bounds nor a kernel's
// var_loop_bounds.
template <class Bounds>
struct is_caller_bounds : std::false_type {};
template <unsigned MaxThreads, unsigned MinBlocksPerSM>
struct is_caller_bounds<launch_bounds<MaxThreads, MinBlocksPerSM>> : std::true_type {};

// Whether automatic_choice<Schedule> ever picks flat: Schedule is automatic under launch bounds
// the caller gave it.
template <class Schedule>
inline constexpr bool automatic_may_run_flat_v = (Schedule::kind == schedule_kind::automatic) &&
                                                 is_caller_bounds<typename Schedule::bounds>::value;
}  // namespace Impl

template <class Schedule = automatic, class ExecutionSpace>
schedule_kind automatic_choice(const ExecutionSpace& exec, std::int64_t cells) {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::automatic_choice: the template argument must be a loopnest schedule, "
                "such as loopnest::automatic.");
  if (cells < automatic_collapse4_below(exec)) {
    return schedule_kind::collapse4;
  }
  return Impl::is_caller_bounds<typename Schedule::bounds>::value ? schedule_kind::flat
                                                                  : schedule_kind::collapse3;
}

}  // namespace loopnest

#endif
