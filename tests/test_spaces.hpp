// The execution spaces every typed test runs on: each backend this Kokkos has enabled.
#ifndef LOOPNEST_TEST_SPACES_HPP
#define LOOPNEST_TEST_SPACES_HPP

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <tuple>

namespace loopnest_test {

template <class Tuple>
struct gtest_types;
template <class... T>
struct gtest_types<std::tuple<T...>> {
  using type = ::testing::Types<T...>;
};

using enabled_spaces = decltype(std::tuple_cat(std::tuple<>{}
#if defined(KOKKOS_ENABLE_CUDA)
                                               ,
                                               std::tuple<Kokkos::Cuda>{}
#endif
#if defined(KOKKOS_ENABLE_HIP)
                                               ,
                                               std::tuple<Kokkos::HIP>{}
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
                                               ,
                                               std::tuple<Kokkos::OpenMP>{}
#endif
#if defined(KOKKOS_ENABLE_THREADS)
                                               ,
                                               std::tuple<Kokkos::Threads>{}
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
                                               ,
                                               std::tuple<Kokkos::Serial>{}
#endif
                                               ));
static_assert(std::tuple_size<enabled_spaces>::value > 0, "Kokkos has no backend enabled");

using execution_spaces = gtest_types<enabled_spaces>::type;

}  // namespace loopnest_test

#endif
