// MFC's time loop (src/simulation/p_main.fpp, m_start_up.fpp s_perform_time_step, s_save_data,
// s_save_performance_metrics) around five_equation_solver: SSP-RK3 steps of dt from t_step_start
// to t_step_stop, or with cfl_adap_dt/cfl_const_dt of a dt from cfl_target until t_stop, the last
// one shortened to end on it; MFC's D/ files at the start, every t_step_save steps (or t_save)
// and at the end, a state check after every step, with run_time_info a row of run_time.inf per
// step and a stop past an ICFL of 1 (m_data_output.fpp, s_write_run_time_information), MFC's
// grind time (the shortest fenced RK stage, s_tvd_rk) and, at the saved steps outside the
// timing, its inviscid CFL number (stability.hpp).
#ifndef LOOPNEST_MFC_SIMULATION_HPP
#define LOOPNEST_MFC_SIMULATION_HPP

#include "case.hpp"
#include "grid.hpp"
#include "memory.hpp"
#include "output.hpp"
#include "patches.hpp"
#include "rhs.hpp"
#include "stability.hpp"

#include <loopnest/for_each.hpp>
#include <loopnest/reduce.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopnest_mfc {

// The run went unphysical: the step after which, the cell and what was wrong there.
class unphysical_state : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct run_result {
  int steps   = 0;
  double time = 0.0;  // MFC's mytime at the end: t_stop under cfl_dt
  // Seconds per time step after the warm-up: over the steps timed as a whole (launches fenced
  // only at the step's ends), and over the steps whose stages were each fenced and timed.
  double time_avg        = 0.0;
  double time_avg_fenced = 0.0;
  // MFC's timing floor: the shortest stage (right-hand side with boundaries and halo, and the
  // stage update) of the fenced steps, in seconds.
  double stage_min  = 0.0;
  double grind_time = 0.0;  // ns per grid point per equation per right-hand side, as MFC prints
  double step_grind = 0.0;  // the same for a whole step (three right-hand sides)
  int timed_steps   = 0;
  // MFC's inviscid CFL number (stability.hpp), the largest over the cells of every rank: of the
  // final state, and the largest over the saved states (t_step_start, every t_step_save steps
  // and t_step_stop). Computed outside the timed steps.
  double cfl     = 0.0;
  double cfl_max = 0.0;
  std::vector<std::string> written;
};

// MFC's grind time: seconds over sys_size*max(1, m)*max(1, n)*max(1, p), in ns; m, n and p of
// the whole case (MFC's m_glb, n_glb, p_glb), as MFC divides.
inline double grind_time_of(const case_config& c, double seconds) {
  return seconds * 1.0e9 /
         (static_cast<double>(c.sys_size()) * std::max(1, c.m()) * std::max(1, c.n()) *
          std::max(1, c.p()));
}

// MFC excludes its first n_warmup = 2 steps from the timing (m_time_steppers.fpp, s_tvd_rk); a
// shorter run times what it has.
inline int warm_up_steps(int steps) {
  return std::min(2, std::max(0, steps - 1));
}

// Whether the n-th step (from 0) has its stages fenced and timed: every other timed step, the
// first one included, so that the steps timed as a whole show what the fences cost.
inline bool stages_fenced(int n, int warm_up) {
  return n >= warm_up && (n - warm_up) % 2 == 0;
}

// MFC's time loop on the host (p_main.fpp; m_start_up.fpp, s_perform_time_step and s_save_data):
// when it ends, each step's dt and the time, and which output is saved after a step under which
// number. Without cfl_dt: t_step_stop - t_step_start steps of dt, outputs numbered by step. With
// cfl_dt: from t_save*n_start until the time reaches t_stop, dt from the state (every step, or
// the first only), the last step shortened to end at t_stop, an output after each step that
// passes a multiple of t_save and after the last, numbered int(t/t_save).
class time_march {
 public:
  explicit time_march(const case_config& c)
      : m_cfl(c.cfl_dt()),
        m_adaptive(c.cfl_adap_dt),
        m_t_step(c.cfl_dt() ? 0 : c.t_step_start),
        m_t_step_start(c.t_step_start),
        m_t_step_stop(c.t_step_stop),
        m_t_step_save(c.t_step_save),
        m_n_start(c.n_start),
        m_t_stop(c.t_stop),
        m_t_save(c.t_save),
        m_dt(c.dt),
        m_time(c.cfl_dt() ? c.t_save * c.n_start : c.t_step_start * c.dt) {}

  // Whether the loop has ended (MFC's exit test at the top of each pass).
  bool done() const { return m_cfl ? m_time >= m_t_stop : m_t_step == m_t_step_stop; }

  // Whether the next step's dt is to come from the state: cfl_adap_dt before every step,
  // cfl_const_dt before the first.
  bool needs_state_dt() const { return m_cfl && (m_adaptive || m_steps == 0); }

  // The number of the output the run starts from: n_start, or t_step_start.
  int first_output() const { return m_cfl ? m_n_start : m_t_step_start; }

  // Begins a step: dt = `from_state` when needs_state_dt(), the last step shortened to end at
  // t_stop, the time advanced by it. Returns "" or, with cfl_adap_dt, why the run stops: a dt
  // below a thousandth of the first one (MFC's "Delta t has become too small").
  std::string begin_step(double from_state = 0.0) {
    if (needs_state_dt()) {
      m_dt          = from_state;
      m_unshortened = from_state;
    }
    if (m_steps == 0) {
      m_dt_init = m_dt;
    }
    if (m_cfl && m_adaptive && m_dt < 1.0e-3 * m_dt_init) {
      char text[160];
      std::snprintf(text, sizeof(text),
                    "Delta t has become too small: dt = %.6e in step %d, below a thousandth of the "
                    "first step's %.6e",
                    m_dt, m_t_step + 1, m_dt_init);
      return text;
    }
    if (m_cfl && m_time + m_dt >= m_t_stop) {
      m_dt = m_t_stop - m_time;
    }
    m_time += m_dt;
    return "";
  }

  // Ends the step begun: the number of the output to save after it, or -1 for none.
  int end_step() {
    ++m_t_step;
    ++m_steps;
    if (m_cfl) {
      return std::fabs(std::fmod(m_time, m_t_save)) < m_dt || m_time >= m_t_stop
                 ? static_cast<int>(m_time / m_t_save)
                 : -1;
    }
    return (m_t_step - m_t_step_start) % m_t_step_save == 0 || m_t_step == m_t_step_stop ? m_t_step
                                                                                         : -1;
  }

  // MFC's t_step: of the step begun (run_time.inf's first column), or of the next.
  int t_step() const { return m_t_step; }
  // The steps ended.
  int steps() const { return m_steps; }
  // The time: at the end of the step begun.
  double time() const { return m_time; }
  // The dt of the step begun.
  double dt() const { return m_dt; }
  // The dt the steps take from the state (or the case), the last one's shortening left out.
  double unshortened_dt() const { return m_cfl ? m_unshortened : m_dt; }

 private:
  bool m_cfl, m_adaptive;
  int m_t_step, m_t_step_start, m_t_step_stop, m_t_step_save, m_n_start;
  double m_t_stop, m_t_save, m_dt, m_time;
  double m_dt_init = 0.0, m_unshortened = 0.0;
  int m_steps = 0;
};

namespace detail {

// The first interior cell (in MFC's order, i fastest) where a conservative variable, or a
// primitive one computed from them, is not finite, or -1: a minimum over the cells
// (loopnest::reduce_cell). As in MFC, a finite state is never stopped, a negative pressure
// included: a liquid under tension is physical.
template <class Schedule, class T>
long long first_unphysical_cell(const five_equation_solver<T>& s, const case_config& c) {
  using exec_space                       = typename five_equation_solver<T>::execution_space;
  const auto cons                        = s.state().ref();
  const stiffened_gas<T, slot_index> eos = eos_of<T, slot_index>(c);
  const slot_map slots                   = slot_map::of(equations_of(c));
  const long long nx = c.m() + 1, ny = c.n() + 1;
  long long first = 0;
  loopnest::reduce_cell<bounded<Schedule, blocks_per_sm<T>::state_check>>(
      exec_space(), s.state().interior(),
      KOKKOS_LAMBDA(int i, int j, int k, long long& acc) {
        T q[max_equations] = {};
        T p[max_equations] = {};
        slots.load(cons, i, j, k, q);
        conservative_to_primitive(eos, q, p, conversion_site::pre_process);
        bool bad = false;
        for (int v = 0; v < max_equations; ++v) {
          // NaN or infinite, in the state or in what it converts to.
          bad = bad || (slots.var[v] >= 0 && !(q[v] * T(0) == T(0) && p[v] * T(0) == T(0)));
        }
        const long long cell = i + nx * (j + ny * static_cast<long long>(k));
        acc                  = bad && cell < acc ? cell : acc;
      },
      Kokkos::Min<long long>(first), "loopnest_mfc::state_check");
  return first == Kokkos::reduction_identity<long long>::min() ? -1 : first;
}

}  // namespace detail

// A cell's number in the whole grid (i fastest), from its number in this rank's block, or
// no_cell for none (-1): what the ranks compare to name the first unphysical cell.
inline constexpr long long no_cell = std::numeric_limits<long long>::max();
inline long long global_cell(long long local, const case_config& c, const case_config& whole,
                             const int (&offset)[3]) {
  if (local < 0) {
    return no_cell;
  }
  const long long nx = c.m() + 1, ny = c.n() + 1;
  const long long i = local % nx + offset[0], j = (local / nx) % ny + offset[1];
  const long long k = local / (nx * ny) + offset[2];
  return i + (whole.m() + 1) * (j + (whole.n() + 1) * k);
}

// The ranks a run is spread over (one by default): this rank, its block's first global cell,
// the whole case, and reductions over every rank. Every decision that ends a run (an
// unphysical state, a failed write) goes through them, so that all ranks end it together.
struct rank_set {
  int rank                                = 0;
  int offset[3]                           = {0, 0, 0};
  const case_config* global               = nullptr;  // the whole case; null: the run's own
  int size                                = 1;        // the ranks' count
  std::function<long long(long long)> min = [](long long v) { return v; };
  std::function<double(double)> max       = [](double v) { return v; };
};

// What run_case does to the solver before the first step: nothing, or (distributed.hpp) give
// it the halo exchange.
struct no_setup {
  template <class Solver>
  void operator()(Solver&) const {}
};

// Runs the case from the conservative initial condition `cons`, writing `format`'s files into
// `out_dir`/D (the caller stages it) and, with run_time_info, a row per step into
// `run_time_info` (rank 0; none elsewhere or with no output); throws unphysical_state when a step
// leaves a cell unphysical, the ICFL passes 1 or (cfl_adap_dt) dt falls below a thousandth of the
// first one. An empty out_dir writes nothing. Under several ranks, c and g are this rank's block.
template <class T, class Schedule, class Setup = no_setup>
run_result run_case(const case_config& c, const grid& g, const host_fields& cons,
                    const std::string& out_dir, output_format format, kernel_profile& profile_out,
                    bool profile, const rank_set& ranks = {}, const Setup& setup = {},
                    run_time_information* run_time_info = nullptr) {
  const case_config& whole_case = ranks.global != nullptr ? *ranks.global : c;
  // Every rank allocates its fields before any of them goes on, so that one rank's failed
  // allocation ends the run on all of them instead of leaving the others in the halo exchange.
  std::optional<five_equation_solver<T>> made;
  std::string failure;
  try {
    made.emplace(Kokkos::DefaultExecutionSpace(), c, g, profile);
  } catch (const std::exception& e) {
    failure = is_allocation_failure(e) ? e.what() : "";
    if (failure.empty()) {
      throw;
    }
  }
  if (ranks.min(failure.empty() ? 1 : 0) == 0) {
    throw allocation_failure(failure.empty() ? "another rank could not allocate its fields"
                                             : failure);
  }
  five_equation_solver<T>& solver = *made;
  setup(solver);
  solver.load(cons);
  run_result result;
  using exec_space = typename five_equation_solver<T>::execution_space;
  const auto icfl  = [&](double dt) {
    return ranks.max(
         static_cast<double>(max_icfl<Schedule>(exec_space(), solver.state(), c, g, dt)));
  };
  time_march march(c);
  // The steps the VTK collection lists; under cfl_dt an output may take the number of the one
  // before, which it replaces.
  std::vector<vtk_save> vtk_saves;
  const auto save = [&](int step, double dt) {
    result.cfl     = icfl(dt);
    result.cfl_max = std::max(result.cfl_max, result.cfl);
    if (out_dir.empty()) {
      return;
    }
    std::string failure;
    try {
      const host_fields q = solver.conservative();
      const host_fields p = primitive_of<T>(c, q);
      // Under cfl_dt the last output may take the number of the one before (MFC overwrites it).
      const auto add = [&](const std::vector<std::string>& paths) {
        for (const std::string& path : paths) {
          if (std::find(result.written.begin(), result.written.end(), path) ==
              result.written.end()) {
            result.written.push_back(path);
          }
        }
      };
      if (writes_mfc(format)) {
        add(write_serial_data_files(out_dir, c, g, q, p, step, ranks.rank));
      }
      if (writes_binary(format)) {
        add(write_serial_binary_files<T>(out_dir, g, q, step, ranks.rank));
      }
      if (writes_vtk(format)) {
        add({write_vtk_file<T>(out_dir, c, g, ranks.offset, q, p, step, march.time(), ranks.rank)});
        if (vtk_saves.empty() || vtk_saves.back().step != step) {
          vtk_saves.push_back({step, march.time()});
        } else {
          vtk_saves.back().time = march.time();
        }
        // Rewritten at every save, so that it lists the steps saved so far; rank 0 lists every
        // rank's files.
        if (ranks.rank == 0) {
          add({write_vtk_collection(out_dir, vtk_saves, ranks.size)});
        }
      }
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (ranks.min(failure.empty() ? 1 : 0) == 0) {
      throw std::runtime_error(failure.empty() ? "another rank could not write its output"
                                               : failure);
    }
  };
  // MFC's s_compute_dt, the smallest dt over every rank.
  const auto state_dt = [&] {
    return cfl_time_step<Schedule>(exec_space(), solver.state(), c, g, c.cfl_target, ranks.max);
  };
  const double first_dt = march.needs_state_dt() ? state_dt() : c.dt;
  save(march.first_output(), first_dt);
  // Under cfl_dt the number of steps is not known: MFC's two warm-up steps.
  const int warm_up = c.cfl_dt() ? 2 : warm_up_steps(c.t_step_stop - c.t_step_start);
  double whole = 0.0, fenced = 0.0;
  int whole_steps = 0, fenced_steps = 0;
  double stage_min = std::numeric_limits<double>::infinity();
  const auto since = [](std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (int n = 0; !march.done(); ++n) {
    const double from_state     = n == 0 ? first_dt : march.needs_state_dt() ? state_dt() : 0.0;
    const std::string too_small = march.begin_step(from_state);
    if (!too_small.empty()) {
      throw unphysical_state(too_small);
    }
    solver.set_dt(march.dt());
    if (c.run_time_info) {
      // s_write_run_time_information: the state the step starts from, the step's dt, and the
      // time it ends at.
      const double step_icfl = icfl(march.dt());
      if (run_time_info != nullptr) {
        run_time_info->write_row(march.t_step(), march.dt(), march.time(), step_icfl);
      }
      // MFC stops on either (s_mpi_abort); the row is written first.
      if (!(step_icfl <= 1.0)) {
        char text[160];
        std::snprintf(text, sizeof(text), "ICFL is %s in step %d: %.6f",
                      std::isnan(step_icfl) ? "NaN" : "greater than 1.0", march.t_step() + 1,
                      step_icfl);
        throw unphysical_state(text);
      }
    }
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    if (stages_fenced(n, warm_up)) {
      for (int s = 1; s <= five_equation_solver<T>::stages; ++s) {
        const auto stage_start = std::chrono::steady_clock::now();
        solver.template stage<Schedule>(s);
        Kokkos::fence();
        stage_min = std::min(stage_min, since(stage_start));
      }
    } else {
      solver.template step<Schedule>();
    }
    Kokkos::fence();
    const double seconds = since(start);
    if (stages_fenced(n, warm_up)) {
      fenced += seconds;
      ++fenced_steps;
    } else if (n >= warm_up) {
      whole += seconds;
      ++whole_steps;
    }
    const long long bad = ranks.min(global_cell(detail::first_unphysical_cell<Schedule>(solver, c),
                                                c, whole_case, ranks.offset));
    if (bad != no_cell) {
      const long long nx = whole_case.m() + 1, ny = whole_case.n() + 1;
      throw unphysical_state(
          "the state went unphysical in step " + std::to_string(march.t_step() + 1) + " at cell (" +
          std::to_string(bad % nx) + ", " + std::to_string((bad / nx) % ny) + ", " +
          std::to_string(bad / (nx * ny)) + "): a value that is not finite");
    }
    const int output = march.end_step();
    if (output >= 0) {
      save(output, march.unshortened_dt());
    }
  }
  result.steps       = march.steps();
  result.time        = march.time();
  result.timed_steps = whole_steps + fenced_steps;
  if (result.timed_steps > 0) {
    // MFC's time_final: the slowest rank's (its shortest stage for the grind time).
    result.time_avg_fenced = ranks.max(fenced / fenced_steps);
    result.time_avg   = whole_steps > 0 ? ranks.max(whole / whole_steps) : result.time_avg_fenced;
    result.stage_min  = ranks.max(stage_min);
    result.grind_time = grind_time_of(whole_case, result.stage_min);
    result.step_grind = grind_time_of(whole_case, result.time_avg);
  }
  profile_out = solver.profile();
  return result;
}

}  // namespace loopnest_mfc

#endif
