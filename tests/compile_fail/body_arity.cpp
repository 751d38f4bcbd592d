#include <loopnest/loopnest.hpp>

int main() {
  Kokkos::ScopeGuard kokkos;
  loopnest::for_each_cell_var<loopnest::collapse3>(Kokkos::DefaultExecutionSpace(),
                                                   loopnest::box<3>{{0, 0, 0}, {4, 4, 4}}, 2,
                                                   KOKKOS_LAMBDA(int, int, int){});
}
