// Every schedule x mapping x layout, as a tuple of types for tests and benchmarks to walk.
#ifndef LOOPNEST_TEST_SCHEDULES_HPP
#define LOOPNEST_TEST_SCHEDULES_HPP

#include <loopnest/schedule.hpp>

#include <string>
#include <tuple>
#include <type_traits>

namespace loopnest_test {

template <loopnest::schedule_kind Kind, class Layout>
using both_mappings = std::tuple<loopnest::schedule<Kind, loopnest::contiguous, Layout>,
                                 loopnest::schedule<Kind, loopnest::strided, Layout>>;

template <class Layout>
using schedules_for_layout =
    decltype(std::tuple_cat(both_mappings<loopnest::schedule_kind::collapse4, Layout>{},
                            both_mappings<loopnest::schedule_kind::collapse3, Layout>{},
                            both_mappings<loopnest::schedule_kind::flat, Layout>{},
                            both_mappings<loopnest::schedule_kind::kokkos_default, Layout>{},
                            both_mappings<loopnest::schedule_kind::automatic, Layout>{}));

// Schedules under launch bounds of 32 threads per block: on GPU backends loopnest's own tiles
// (256 threads) no longer fit, so the tile it picks shrinks and the test boxes span several tiles.
template <class Layout, loopnest::schedule_kind Kind>
using bounded =
    loopnest::with_launch_bounds_t<loopnest::schedule<Kind, loopnest::contiguous, Layout>, 32, 16>;
template <class Layout>
using bounded_schedules = std::tuple<bounded<Layout, loopnest::schedule_kind::collapse4>,
                                     bounded<Layout, loopnest::schedule_kind::collapse3>,
                                     bounded<Layout, loopnest::schedule_kind::flat>,
                                     bounded<Layout, loopnest::schedule_kind::automatic>>;

// collapse3 and automatic with several cells per thread (strips), both mappings of collapse3.
template <class Layout, int Cells>
using with_cells = loopnest::with_cells_per_thread_t<
    loopnest::schedule<loopnest::schedule_kind::collapse3, loopnest::contiguous, Layout>, Cells>;
template <class Layout>
using strip_schedules = std::tuple<
    with_cells<Layout, 2>, with_cells<Layout, 4>,
    loopnest::with_mapping_t<with_cells<Layout, 4>, loopnest::strided>,
    loopnest::with_cells_per_thread_t<loopnest::with_layout_t<loopnest::automatic, Layout>, 4>>;

// The schedule's kind, with its cells per thread when there are several and its launch bounds
// when it has its own: collapse3-cells4, collapse3-cells4-lb256x4.
template <class Schedule>
std::string kind_name() {
  std::string name = loopnest::name(Schedule::kind);
  if (Schedule::cells_per_thread > 1) {
    name += "-cells" + std::to_string(Schedule::cells_per_thread);
  }
  using bounds = typename Schedule::bounds;
  if constexpr (!std::is_same<bounds, loopnest::default_bounds>::value) {
    name += "-lb" + std::to_string(bounds::max_threads) + "x" +
            std::to_string(bounds::min_blocks_per_sm);
  }
  return name;
}

}  // namespace loopnest_test

#endif
