// cshift against a host loop for structs of 12, 16 and 192 bytes: every rank, layout, dim, shift
// and strategy (cshift_checks.hpp), in a translation unit of its own so that it compiles beside
// test_cshift.cpp.
#include <loopnest/cshift.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

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

// Grid's 4D spinor lattice with rows of 32 sites along the first and last dims (the benchmark's
// 32^4 in row lengths, at 12288 sites), shifts +1 and -1 along every dim: every strategy gives
// the host loop's bytes and the same bytes as the others.
TYPED_TEST(cshift_structs, spinor_lattices_of_rows_of_32_shifted_by_one) {
  const TypeParam exec;
  const std::vector<std::vector<std::int64_t>> by_one(4, {1, -1});
  loopnest_test::check_against_host<loopnest_test::spinor, 4, Kokkos::LayoutLeft>(
      exec, "spinor", {32, 4, 3, 32}, 9, by_one);
  loopnest_test::check_against_host<loopnest_test::spinor, 4, Kokkos::LayoutRight>(
      exec, "spinor", {32, 4, 3, 32}, 10, by_one);
}

}  // namespace
