// Whether a case fits in memory: the bytes it needs against what the host and the device have,
// and which exceptions are failed allocations.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>

#include "memory.hpp"

namespace {

using namespace loopnest_mfc;

case_config cube(int cells) {
  case_config c;
  c.num_dims   = 3;
  c.num_fluids = 2;
  for (axis_config& a : c.axis) {
    a.cells_minus_one = cells - 1;
  }
  return c;
}

TEST(mfc_memory, a_run_holds_four_host_copies_of_the_state_and_the_grid) {
  const case_config c = cube(10);
  EXPECT_EQ(grid_bytes(c), 4. * 8. * 3. * (10 + 8));
  EXPECT_EQ(host_bytes_of_run(c), 1000. * (4. * 8. * 8. + 4. + 1.) + grid_bytes(c));
}

TEST(mfc_memory, a_case_is_refused_by_the_memory_it_does_not_fit) {
  const case_config c = cube(1000);
  const loopnest::memory_headroom host{100, "under the address-space limit (ulimit -v)"};
  EXPECT_EQ(memory_problem(c, 10., 20., host, 100., false), "");
  EXPECT_EQ(memory_problem(c, 2e9, 20., {1000000000, "on the host"}, 100., false),
            "the case needs 2 GB of host memory (m = 999, n = 999, p = 999: 1e+09 cells of 8 "
            "equations), more than the 1 GB available on the host");
  EXPECT_EQ(memory_problem(c, 10., 3e9, host, 1.5e9, false),
            "the case needs 3 GB of device memory (m = 999, n = 999, p = 999: 1e+09 cells of 8 "
            "equations), more than the 1.5 GB free on the device");
  // A device that is the host: both needs count against the host, none against the device.
  EXPECT_EQ(memory_problem(c, 60., 50., host, 1., true),
            "the case needs 1.1e-07 GB of host memory (m = 999, n = 999, p = 999: 1e+09 cells of "
            "8 equations), more than the 1e-07 GB available under the address-space limit "
            "(ulimit -v)");
  EXPECT_EQ(memory_problem(c, 50., 50., host, 1., true), "");
}

TEST(mfc_memory, failed_allocations_are_told_from_other_errors) {
  EXPECT_TRUE(is_allocation_failure(std::bad_alloc()));
  EXPECT_TRUE(is_allocation_failure(allocation_failure("another rank could not allocate")));
  EXPECT_TRUE(is_allocation_failure(std::runtime_error(
      "Kokkos ERROR: Cuda memory space failed to allocate 1.5 GiB (label=\"q\").")));
  EXPECT_FALSE(is_allocation_failure(std::runtime_error("MPI_Allreduce failed")));
}

}  // namespace
