#include <loopnest/loopnest.hpp>

struct nothing {
  template <class Block>
  KOKKOS_INLINE_FUNCTION void operator()(const Block&) const {}
};

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  const loopnest::field_set<double, Kokkos::LayoutLeft, Kokkos::HostSpace> q("q", 1, {4}, 1);
  loopnest::sweep<0, int>(Kokkos::DefaultHostExecutionSpace(), q.interior(), q, 1, {}, nothing{});
  return 0;
}
