// loopnest::Impl::profiling_region: each library kernel call as a Kokkos profiling region named
// "loopnest::<kernel>", so that profiling tools attribute its launches to it.
#ifndef LOOPNEST_DETAIL_PROFILING_REGION_HPP
#define LOOPNEST_DETAIL_PROFILING_REGION_HPP

#include <loopnest/kokkos_compat.hpp>

#include <string>

namespace loopnest::Impl {

// Pushed on construction and popped on every way out of the scope, an exception included, so
// that a refused call cannot leave a tool's region stack unbalanced.
class profiling_region {
 public:
  explicit profiling_region(const std::string& name) { Kokkos::Profiling::pushRegion(name); }
  ~profiling_region() { Kokkos::Profiling::popRegion(); }
  profiling_region(const profiling_region&)            = delete;
  profiling_region& operator=(const profiling_region&) = delete;
};

}  // namespace loopnest::Impl

#endif
