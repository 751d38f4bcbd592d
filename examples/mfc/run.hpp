// What loopnest-mfc's main needs of a run: where it goes and the runs it can make, one per
// (precision, schedule) pair. Each pair is compiled in a translation unit of its own
// (run_schedule.cpp.in), so that the pairs build in parallel; the solver's stages and sweeps
// come compiled from loopnest_mfc_solver (solver.cmake).
#ifndef LOOPNEST_MFC_RUN_HPP
#define LOOPNEST_MFC_RUN_HPP

#include "case.hpp"
#include "grid.hpp"
#include "simulation.hpp"
#ifdef LOOPNEST_MFC_MPI
#include "distributed.hpp"

#include <loopnest/mpi/halo_transport.hpp>
#endif

#include <string>

namespace loopnest_mfc {

// Where a run goes: the case and grid of this rank, the run_time.inf it writes (rank 0, with
// run_time_info and output), and under MPI the decomposition and how ranks exchange ghost cells.
struct run_site {
  const case_config& c;
  const grid& g;
  run_time_information* run_time_info = nullptr;
#ifdef LOOPNEST_MFC_MPI
  const distributed_case* distributed = nullptr;
  loopnest::halo_transport transport  = loopnest::halo_transport::mpi_host;
#endif
  // Each direction's WENO and Riemann solver as one sweep (five_equation_solver::sweep_directions).
  bool sweep = false;
};

// Runs the case from the conservative state `cons` under Schedule in precision T (run_case),
// writing `format`'s files into `out_dir`/D, timing each loop into `profile` when it is on. Defined
// in run_schedule.hpp; instantiated for T in {double, float} and loopnest's collapse3, collapse4,
// flat and automatic.
template <class T, class Schedule>
run_result run_schedule(const run_site& site, const host_fields& cons, const std::string& out_dir,
                        output_format format, kernel_profile& profile);

}  // namespace loopnest_mfc

#endif
