#include <loopnest/loopnest.hpp>

int main() {
  using s = loopnest::with_mapping_t<loopnest::collapse3, Kokkos::LayoutLeft>;
  return static_cast<int>(s::kind);
}
