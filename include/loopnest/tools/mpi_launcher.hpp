// Whether a tool was started by an MPI launcher (Open MPI; MPICH and Intel MPI through PMI; PMIx
// launchers; MVAPICH): the tools initialise MPI only then, or when an argument asks for a
// distributed run, so that a plain run never touches MPI and behaves as the tool built without it.
#ifndef LOOPNEST_TOOLS_MPI_LAUNCHER_HPP
#define LOOPNEST_TOOLS_MPI_LAUNCHER_HPP

#include <algorithm>
#include <cstdlib>
#include <iterator>

namespace loopnest {

inline bool started_by_mpi_launcher() {
  constexpr const char* launchers[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                       "MV2_COMM_WORLD_SIZE"};
  return std::any_of(std::begin(launchers), std::end(launchers),
                     [](const char* name) { return std::getenv(name) != nullptr; });
}

}  // namespace loopnest

#endif
