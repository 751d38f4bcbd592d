// Randomized tests of the field kernels: parameters drawn from fixed seeds 1 to 40
// (randomized_draws.hpp), each case's seed and parameters in the failure message.
#include <loopnest/field_kernels.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "field_kernel_checks.hpp"
#include "field_kernel_runs.hpp"
#include "randomized_draws.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::draw;
using loopnest_test::draw_extent;

constexpr unsigned kernel_cases = 40;

// ----------------------------------------------------------------------------------------
// Field kernels: a random grid (1 to 3 dimensions, interior extents 1 to 13, ghost width 1 to
// 4), variable count 1 to 11, precision (FP32 or FP64), field-set and packed-buffer layouts and
// finalize_flux's axis order; every axis order for pack_weno; every schedule.

struct kernel_draw {
  unsigned seed;
  loopnest_test::grid g;
  int nvar;
  bool fp64, fields_right, packed_right;
  loopnest::axis_order finalize_order;
  std::string text;
};

constexpr loopnest::axis_order orders[] = {loopnest::axis_order::xyz, loopnest::axis_order::yxz,
                                           loopnest::axis_order::zyx};

kernel_draw draw_kernel_case(unsigned seed) {
  std::mt19937 gen(seed);
  kernel_draw c{seed, {{}, 0}, 0, false, false, false, loopnest::axis_order::xyz, ""};
  const int dims = draw(gen, 1, 3);
  for (int d = 0; d < dims; ++d) {
    c.g.interior.push_back(draw_extent(gen, 13));
  }
  c.g.ghost        = draw(gen, 1, 4);
  c.nvar           = draw(gen, 1, 11);
  c.fp64           = draw(gen, 0, 1) == 1;
  c.fields_right   = draw(gen, 0, 1) == 1;
  c.packed_right   = draw(gen, 0, 1) == 1;
  c.finalize_order = orders[draw(gen, 0, 2)];
  std::ostringstream os;
  os << "seed " << seed << ": " << dims << "D " << c.g << ", nvar " << c.nvar << ", "
     << (c.fp64 ? "FP64" : "FP32") << ", fields " << (c.fields_right ? "LayoutRight" : "LayoutLeft")
     << ", packed " << (c.packed_right ? "LayoutRight" : "LayoutLeft") << ", finalize_flux order "
     << loopnest::name(c.finalize_order);
  c.text = os.str();
  return c;
}

// The case's draws pick the precision and the field and packed layouts; every schedule runs.
template <class T, class ExecutionSpace>
void check_kernel_case_of(const ExecutionSpace& exec, const kernel_draw& c) {
  const loopnest_test::kernel_case k{c.g, c.nvar, c.seed, c.finalize_order};
  using left  = Kokkos::LayoutLeft;
  using right = Kokkos::LayoutRight;
  if (c.fields_right && c.packed_right) {
    loopnest_test::check_kernels<T, right, right>(exec, k);
  } else if (c.fields_right) {
    loopnest_test::check_kernels<T, right, left>(exec, k);
  } else if (c.packed_right) {
    loopnest_test::check_kernels<T, left, right>(exec, k);
  } else {
    loopnest_test::check_kernels<T, left, left>(exec, k);
  }
}

// ----------------------------------------------------------------------------------------

template <class ExecutionSpace>
class randomized_kernels : public ::testing::Test {};
TYPED_TEST_SUITE(randomized_kernels, loopnest_test::execution_spaces);

TYPED_TEST(randomized_kernels, field_kernels_match_the_host_loop_and_leave_the_rest_poisoned) {
  const TypeParam exec;
  for (unsigned seed = 1; seed <= kernel_cases; ++seed) {
    const kernel_draw c = draw_kernel_case(seed);
    SCOPED_TRACE(c.text);
    if (c.fp64) {
      check_kernel_case_of<double>(exec, c);
    } else {
      check_kernel_case_of<float>(exec, c);
    }
  }
}

}  // namespace
