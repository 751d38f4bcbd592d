// Every schedule x mapping x layout, as a tuple of types for tests and benchmarks to walk.
#ifndef LOOPNEST_TEST_SCHEDULES_HPP
#define LOOPNEST_TEST_SCHEDULES_HPP

#include <loopnest/schedule.hpp>

#include <tuple>

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

}  // namespace loopnest_test

#endif
