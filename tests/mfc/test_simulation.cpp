// The time loop's timing rules: MFC's grind time per right-hand side (m_start_up.fpp,
// s_save_performance_metrics), its two warm-up steps and which steps have their stages fenced
// (m_time_steppers.fpp, s_tvd_rk).
#include <gtest/gtest.h>

#include <string>

#include "case.hpp"
#include "simulation.hpp"

namespace {

const std::string data_dir = LOOPNEST_MFC_TEST_DATA;

TEST(simulation, grind_time_divides_by_the_whole_case_as_mfc_does) {
  // 3D_performance_test: m = n = p = 200 (201^3 cells), 8 equations; MFC divides by m, not m + 1.
  const loopnest_mfc::case_config c = loopnest_mfc::read_case(
      data_dir + "/performance_test_3d.json", {"bc_x%end=-3", "bc_y%end=-3", "bc_z%end=-3"});
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

}  // namespace
