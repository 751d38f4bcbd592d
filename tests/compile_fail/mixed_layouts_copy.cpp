#include <loopnest/field_kernels.hpp>

void copy(const loopnest::field_set<double, Kokkos::LayoutLeft>& dst,
          const loopnest::field_set<double, Kokkos::LayoutRight>& src) {
  loopnest::copy_fields<loopnest::collapse3>(Kokkos::DefaultExecutionSpace(), dst, src);
}
