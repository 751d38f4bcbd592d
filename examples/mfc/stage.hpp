// five_equation_solver's RK stage (rhs.hpp, stage) and its characteristic boundaries (cbc.hpp):
// included by the translation units that compile it, one per precision and schedule
// (examples/mfc/solver.cmake).
#ifndef LOOPNEST_MFC_STAGE_HPP
#define LOOPNEST_MFC_STAGE_HPP

#include "cbc.hpp"
#include "rhs.hpp"

namespace loopnest_mfc {

template <class T>
template <class Schedule>
void five_equation_solver<T>::stage(int s) {
  const T dt = static_cast<T>(m_case.dt);
  if (s == 1) {
    compute_rhs<Schedule>(m_q0, m_rhs);
    update<Schedule>("rk3_stage1", m_q1, m_q0, m_q1, detail::rk3_stage<T, 1>{dt});
  } else if (s == 2) {
    compute_rhs<Schedule>(m_q1, m_rhs);
    update<Schedule>("rk3_stage2", m_q1, m_q0, m_q1, detail::rk3_stage<T, 2>{dt});
  } else {
    compute_rhs<Schedule>(m_q1, m_rhs);
    update<Schedule>("rk3_stage3", m_q0, m_q0, m_q1, detail::rk3_stage<T, 3>{dt});
  }
}

}  // namespace loopnest_mfc

#endif
