// The definition of run_schedule (run.hpp), included by the translation units that instantiate
// it, one (precision, schedule) pair each.
#ifndef LOOPNEST_MFC_RUN_SCHEDULE_HPP
#define LOOPNEST_MFC_RUN_SCHEDULE_HPP

#include "run.hpp"
#include "simulation.hpp"

#include <string>

namespace loopnest_mfc {

template <class T, class Schedule>
run_result run_schedule(const run_site& site, const host_fields& cons, const std::string& out_dir,
                        output_format format, kernel_profile& profile) {
  const bool sweep      = site.sweep;
  const auto directions = [sweep](five_equation_solver<T>& solver) {
    solver.sweep_directions(sweep);
  };
#ifdef LOOPNEST_MFC_MPI
  if (site.distributed != nullptr) {
    const halo_setup<Schedule> halo{site.distributed, site.transport};
    const auto setup = [&](five_equation_solver<T>& solver) {
      directions(solver);
      halo(solver);
    };
    return run_case<T, Schedule>(site.c, site.g, cons, out_dir, format, profile, profile.on(),
                                 site.distributed->ranks(), setup, site.run_time_info);
  }
#endif
  return run_case<T, Schedule>(site.c, site.g, cons, out_dir, format, profile, profile.on(), {},
                               directions, site.run_time_info);
}

}  // namespace loopnest_mfc

#endif
