// cshift against a host loop for integers of 4, 2 and 1 bytes: every rank, layout, dim, shift and
// strategy (cshift_checks.hpp), in a translation unit of its own so that it compiles beside
// test_cshift.cpp.
#include <loopnest/cshift.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <cstdint>

#include "cshift_checks.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::check_type;

template <class ExecutionSpace>
class cshift_integers : public ::testing::Test {};
TYPED_TEST_SUITE(cshift_integers, loopnest_test::execution_spaces);

TYPED_TEST(cshift_integers, match_a_host_loop) {
  const TypeParam exec;
  check_type<int>(exec, "int", 3);
  check_type<std::int16_t>(exec, "int16", 4);
  check_type<std::uint8_t>(exec, "uint8", 5);
}

}  // namespace
