#include <loopnest/field_kernels.hpp>

void difference(const loopnest::field_set<float, Kokkos::LayoutRight>& rhs,
                const loopnest::field_set<float, Kokkos::LayoutLeft>& flux,
                const Kokkos::View<float*>& inv_d) {
  loopnest::flux_difference<loopnest::collapse3>(Kokkos::DefaultExecutionSpace(), 0,
                                                 loopnest::assign, rhs, flux, inv_d);
}
