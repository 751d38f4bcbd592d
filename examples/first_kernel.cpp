// The README's example: one loop body over (cell, variable), run under two schedules, with the
// same bits either way.
#include <loopnest/loopnest.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

template <class Schedule>
Kokkos::View<double****, Kokkos::LayoutLeft> smooth(
    const Kokkos::View<double****, Kokkos::LayoutLeft>& q, int n, int nvar) {
  Kokkos::View<double****, Kokkos::LayoutLeft> out("out", n + 2, n + 2, n + 2, nvar);
  // Interior cells 1..n; cells 0 and n + 1 are ghosts the body reads but does not write.
  loopnest::for_each_cell_var<Schedule>(
      Kokkos::DefaultExecutionSpace(), loopnest::box<3>{{1, 1, 1}, {n + 1, n + 1, n + 1}}, nvar,
      KOKKOS_LAMBDA(int i, int j, int k, int v) {
        out(i, j, k, v) = (q(i - 1, j, k, v) + q(i + 1, j, k, v)) * 0.5 + q(i, j, k, v) * v;
      },
      "smooth");
  return out;
}

int main(int argc, char* argv[]) {
  // Before Kokkos, which would print its own help for --help.
  for (int a = 1; a < argc; ++a) {
    if (std::string(argv[a]) == "--help" || std::string(argv[a]) == "-h") {
      std::printf(
          "usage: loopnest-example-first-kernel [Kokkos options]\n"
          "Runs one loop body over (cell, variable) under collapse3 and collapse4 and says\n"
          "whether the results are bit-identical (exit 0) or not (exit 1).\n");
      return 0;
    }
  }
  try {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const int n = 32, nvar = 5;
    Kokkos::View<double****, Kokkos::LayoutLeft> q("q", n + 2, n + 2, n + 2, nvar);
    loopnest::for_each_cell_var<loopnest::collapse3>(
        Kokkos::DefaultExecutionSpace(), loopnest::box<3>{{0, 0, 0}, {n + 2, n + 2, n + 2}}, nvar,
        KOKKOS_LAMBDA(int i, int j, int k, int v) { q(i, j, k, v) = 0.001 * (i * j + k) + v; });

    const auto a    = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                          smooth<loopnest::collapse3>(q, n, nvar));
    const auto b    = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                          smooth<loopnest::collapse4>(q, n, nvar));
    const bool same = std::memcmp(a.data(), b.data(), a.span() * sizeof(double)) == 0;
    std::printf("collapse3 and collapse4 on %s: %s\n", Kokkos::DefaultExecutionSpace::name(),
                same ? "bit-identical" : "DIFFERENT");
    return same ? 0 : 1;
  } catch (const std::exception& e) {  // loopnest::box and Kokkos report errors as exceptions
    std::fprintf(stderr, "loopnest-example-first-kernel: %s\n", e.what());
    return 1;
  }
}
