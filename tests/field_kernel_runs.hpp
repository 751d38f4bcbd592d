// Every field kernel under every schedule on one case, against the host loops: declared here,
// compiled once (field_kernel_runs.cpp.in, one translation unit per precision and field layout)
// and linked into each test binary that runs them, so that no test compiles the kernels again.
#ifndef LOOPNEST_TEST_FIELD_KERNEL_RUNS_HPP
#define LOOPNEST_TEST_FIELD_KERNEL_RUNS_HPP

#include <loopnest/packed_fields.hpp>

#include "field_kernel_checks.hpp"

namespace loopnest_test {

// A grid, a variable count, the seed of the fields' values and the axis order of
// finalize_flux's packed buffer (pack_weno runs in every order).
struct kernel_case {
  grid g;
  int nvar;
  unsigned seed;
  loopnest::axis_order finalize_order;
};

// copy_fields, flux_difference along every direction, finalize_flux and pack_weno under every
// schedule and mapping (schedules_for_layout, strip_schedules), with T fields in Layout and packed
// buffers in PackedLayout (LayoutLeft or LayoutRight).
template <class T, class Layout, class PackedLayout, class ExecutionSpace>
void check_kernels(const ExecutionSpace& exec, const kernel_case& c);

// finalize_flux from c.finalize_order and pack_weno into every order under every schedule: the
// kernels that run as tiled transposes where the stride-1 indices differ.
template <class T, class Layout, class PackedLayout, class ExecutionSpace>
void check_transposing_kernels(const ExecutionSpace& exec, const kernel_case& c);

// The same under launch bounds of 32 threads (bounded_schedules), FP64 in LayoutLeft.
template <class ExecutionSpace>
void check_kernels_bounded(const ExecutionSpace& exec, const kernel_case& c);

}  // namespace loopnest_test

#endif
