// The time loop: MFC's steps, times and output numbers with t_step_* and with cfl_adap_dt and
// cfl_const_dt (p_main.fpp; m_start_up.fpp, s_perform_time_step, s_save_data), and its timing
// rules: the grind time per right-hand side (s_save_performance_metrics), its two warm-up steps
// and which steps have their stages fenced (m_time_steppers.fpp, s_tvd_rk).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "case.hpp"
#include "simulation.hpp"

namespace {

const std::string data_dir = LOOPNEST_MFC_TEST_DATA;

TEST(simulation, grind_time_divides_by_the_whole_case_as_mfc_does) {
  // 3D_performance_test: m = n = p = 200 (201^3 cells), 8 equations; MFC divides by m, not m + 1.
  const loopnest_mfc::case_config c =
      loopnest_mfc::read_case(data_dir + "/performance_test_3d.json", {});
  EXPECT_DOUBLE_EQ(loopnest_mfc::grind_time_of(c, 1.0e-3), 1.0e6 / (8.0 * 200.0 * 200.0 * 200.0));
  // In 1D, n and p are 0 and count as 1.
  const loopnest_mfc::case_config tube =
      loopnest_mfc::read_case(data_dir + "/shock_tube_1d.json", {});
  EXPECT_DOUBLE_EQ(loopnest_mfc::grind_time_of(tube, 2.0e-6),
                   2.0e3 / (tube.sys_size() * static_cast<double>(tube.m())));
}

TEST(simulation, two_warm_up_steps_and_at_least_one_timed) {
  EXPECT_EQ(loopnest_mfc::warm_up_steps(30), 2);
  EXPECT_EQ(loopnest_mfc::warm_up_steps(3), 2);
  EXPECT_EQ(loopnest_mfc::warm_up_steps(2), 1);
  EXPECT_EQ(loopnest_mfc::warm_up_steps(1), 0);
}

TEST(simulation, every_other_timed_step_is_fenced_by_stage_from_the_first) {
  for (int n = 0; n < 2; ++n) {
    EXPECT_FALSE(loopnest_mfc::stages_fenced(n, 2)) << n;
  }
  for (int n = 2; n < 30; ++n) {
    EXPECT_EQ(loopnest_mfc::stages_fenced(n, 2), n % 2 == 0) << n;
  }
  EXPECT_TRUE(loopnest_mfc::stages_fenced(0, 0));
}

using loopnest_mfc::time_march;

// What a march does: the output numbers saved after its steps and the dts of its steps, each
// dt from the state being `state_dt(step)`.
struct marched {
  std::vector<int> outputs;
  std::vector<double> dts;
  std::vector<int> asked;  // the steps that took a dt from the state
  double time = 0.0;
  std::string stopped;
};

template <class StateDt>
marched march_of(const loopnest_mfc::case_config& c, const StateDt& state_dt) {
  time_march m(c);
  marched out;
  for (int step = 0; !m.done() && step < 1000; ++step) {
    double from_state = 0.0;
    if (m.needs_state_dt()) {
      from_state = state_dt(step);
      out.asked.push_back(step);
    }
    out.stopped = m.begin_step(from_state);
    if (!out.stopped.empty()) {
      break;
    }
    out.dts.push_back(m.dt());
    const int output = m.end_step();
    if (output >= 0) {
      out.outputs.push_back(output);
    }
  }
  out.time = m.time();
  return out;
}

loopnest_mfc::case_config cfl_case(bool adaptive, double t_stop, double t_save, int n_start) {
  loopnest_mfc::case_config c;
  c.cfl_adap_dt  = adaptive;
  c.cfl_const_dt = !adaptive;
  c.cfl_target   = 0.5;
  c.t_stop       = t_stop;
  c.t_save       = t_save;
  c.n_start      = n_start;
  return c;
}

TEST(simulation, t_step_runs_from_start_to_stop_saving_every_t_step_save_and_the_last) {
  loopnest_mfc::case_config c;
  c.dt           = 1e-3;
  c.t_step_start = 2;
  c.t_step_stop  = 12;
  c.t_step_save  = 4;
  EXPECT_EQ(time_march(c).first_output(), 2);
  const marched m = march_of(c, [](int) { return 1.0; });
  EXPECT_EQ(m.outputs, (std::vector<int>{6, 10, 12}));
  EXPECT_EQ(m.dts, std::vector<double>(10, 1e-3));
  EXPECT_TRUE(m.asked.empty());
  // MFC's mytime: t_step_start*dt, then dt added each step.
  double time = 2 * 1e-3;
  for (int k = 0; k < 10; ++k) {
    time += 1e-3;
  }
  EXPECT_EQ(m.time, time);
}

TEST(simulation, cfl_adap_dt_asks_every_step_and_the_last_step_ends_at_t_stop) {
  // dt = 0.07 then 0.06, ...: 0.25, 0.5, 0.75 and t_stop = 1 are passed, each saved once.
  const marched m =
      march_of(cfl_case(true, 1.0, 0.25, 0), [](int step) { return step < 5 ? 0.07 : 0.06; });
  EXPECT_EQ(m.time, 1.0);
  EXPECT_EQ(m.outputs, (std::vector<int>{1, 2, 3, 4}));
  ASSERT_EQ(m.dts.size(), 16u);  // 5*0.07 + 10*0.06 = 0.95, then 0.05 of the 0.06 asked
  EXPECT_EQ(m.asked.size(), m.dts.size());
  EXPECT_LT(m.dts.back(), 0.06);
  EXPECT_GT(m.dts.back(), 0.049);
  double time = 0.0;
  for (std::size_t k = 0; k + 1 < m.dts.size(); ++k) {
    time += m.dts[k];
  }
  EXPECT_EQ(m.dts.back(), 1.0 - time);
}

TEST(simulation, cfl_const_dt_asks_once_and_numbers_outputs_from_n_start) {
  // From t = 0.1*3 = 0.3 (output 3) to 1 in steps of 0.045: outputs 4 to 10 at 0.4, 0.5, ...
  const loopnest_mfc::case_config c = cfl_case(false, 1.0, 0.1, 3);
  EXPECT_EQ(time_march(c).first_output(), 3);
  const marched m = march_of(c, [](int step) { return step == 0 ? 0.045 : 1.0; });
  EXPECT_EQ(m.asked, std::vector<int>{0});
  EXPECT_EQ(m.time, 1.0);
  EXPECT_EQ(m.outputs, (std::vector<int>{4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(m.dts.size(), 16u);  // 15 steps of 0.045 reach 0.975, the last is 0.025
  EXPECT_EQ(m.dts.front(), 0.045);
}

TEST(simulation, a_t_stop_between_multiples_of_t_save_saves_the_last_output_again) {
  // Steps of 0.125, t_save = 0.375: outputs 1 and 2 at 0.375 and 0.75, and int(1/0.375) = 2
  // again at t_stop = 1 (MFC writes it over).
  const marched m = march_of(cfl_case(true, 1.0, 0.375, 0), [](int) { return 0.125; });
  EXPECT_EQ(m.outputs, (std::vector<int>{1, 2, 2}));
  EXPECT_EQ(m.time, 1.0);
}

TEST(simulation, cfl_adap_dt_stops_below_a_thousandth_of_the_first_dt) {
  const marched m =
      march_of(cfl_case(true, 1.0, 0.5, 0), [](int step) { return step < 3 ? 0.01 : 0.99e-5; });
  EXPECT_EQ(m.dts.size(), 3u);
  EXPECT_NE(m.stopped.find("Delta t has become too small"), std::string::npos) << m.stopped;
  // Above a thousandth it goes on.
  const marched on =
      march_of(cfl_case(true, 0.0301, 0.01, 0), [](int step) { return step < 3 ? 0.01 : 2e-5; });
  EXPECT_TRUE(on.stopped.empty()) << on.stopped;
  EXPECT_EQ(on.time, 0.0301);
}

TEST(simulation, an_n_start_past_t_stop_takes_no_step) {
  const marched m = march_of(cfl_case(true, 1.0, 0.5, 2), [](int) { return 0.1; });
  EXPECT_TRUE(m.dts.empty());
  EXPECT_TRUE(m.outputs.empty());
}

}  // namespace
