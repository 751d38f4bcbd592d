// cshift against a host loop for structs of 12, 16 and 192 bytes: every rank, layout, dim, shift
// and strategy (cshift_checks.hpp), in a translation unit of its own so that it compiles beside
// test_cshift.cpp.
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include "spinor.hpp"

#include "cshift_checks.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::check_type;

template <class ExecutionSpace>
class cshift_structs : public ::testing::Test {};
TYPED_TEST_SUITE(cshift_structs, loopnest_test::execution_spaces);

TYPED_TEST(cshift_structs, match_a_host_loop) {
  const TypeParam exec;
  check_type<loopnest_test::three_floats>(exec, "three_floats", 6);
  check_type<Kokkos::complex<double>>(exec, "complex<double>", 7);
  check_type<loopnest_test::spinor>(exec, "spinor", 8);
}

}  // namespace
