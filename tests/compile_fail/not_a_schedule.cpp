#include <loopnest/loopnest.hpp>

int main() {
  Kokkos::ScopeGuard kokkos;
  loopnest::for_each_cell<int>(Kokkos::DefaultExecutionSpace(), loopnest::box<2>{{0, 0}, {4, 4}},
                               KOKKOS_LAMBDA(int, int){});
}
