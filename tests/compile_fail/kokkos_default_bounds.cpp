#include <loopnest/loopnest.hpp>

int main() {
  using s = loopnest::with_launch_bounds_t<loopnest::kokkos_default, 256, 4>;
  return static_cast<int>(s::kind);
}
