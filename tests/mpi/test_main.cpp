// The distributed tests' main: MPI first, then Kokkos, then GoogleTest on every rank. The exit
// status is the worst of all ranks', so that mpirun fails when any rank saw a failure.
#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    std::fprintf(stderr, "MPI_Init failed\n");
    return 1;
  }
  int status = 0;
  {
    ::testing::InitGoogleTest(&argc, argv);
    Kokkos::ScopeGuard kokkos(argc, argv);
    const int mine = RUN_ALL_TESTS();
    MPI_Allreduce(&mine, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return status;
}
