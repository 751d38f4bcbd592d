// The execution spaces every typed test runs on: each backend this Kokkos has enabled.
#ifndef LOOPNEST_TEST_SPACES_HPP
#define LOOPNEST_TEST_SPACES_HPP

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <tuple>

// LOOPNEST_TEST_FOR_EACH_SPACE(M) expands M(space) for each backend this Kokkos has enabled,
// for the explicit instantiations of checks compiled once for every space.
#if defined(KOKKOS_ENABLE_CUDA)
#define LOOPNEST_TEST_CUDA(M) M(Kokkos::Cuda)
#else
#define LOOPNEST_TEST_CUDA(M)
#endif
#if defined(KOKKOS_ENABLE_HIP)
#define LOOPNEST_TEST_HIP(M) M(Kokkos::HIP)
#else
#define LOOPNEST_TEST_HIP(M)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define LOOPNEST_TEST_OPENMP(M) M(Kokkos::OpenMP)
#else
#define LOOPNEST_TEST_OPENMP(M)
#endif
#if defined(KOKKOS_ENABLE_THREADS)
#define LOOPNEST_TEST_THREADS(M) M(Kokkos::Threads)
#else
#define LOOPNEST_TEST_THREADS(M)
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
#define LOOPNEST_TEST_SERIAL(M) M(Kokkos::Serial)
#else
#define LOOPNEST_TEST_SERIAL(M)
#endif
#define LOOPNEST_TEST_FOR_EACH_SPACE(M) \
  LOOPNEST_TEST_CUDA(M)                 \
  LOOPNEST_TEST_HIP(M)                  \
  LOOPNEST_TEST_OPENMP(M)               \
  LOOPNEST_TEST_THREADS(M)              \
  LOOPNEST_TEST_SERIAL(M)

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
