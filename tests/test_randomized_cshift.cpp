// Randomized tests of cshift: parameters drawn from fixed seeds 1 to 150
// (randomized_draws.hpp), each case's seed and parameters in the failure message.
#include <loopnest/cshift.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cshift_checks.hpp"
#include "randomized_draws.hpp"
#include "spinor.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::draw;
using loopnest_test::draw_extent;

constexpr unsigned cshift_cases = 150;

// ----------------------------------------------------------------------------------------
// cshift: a random element type, rank, layout and extents (now and then one long dimension,
// whose rows can need several blocks), and along every dimension random shifts: within three
// extents, a multiple of the extent give or take one, and anywhere in int64_t, its ends
// included.

struct cshift_case {
  unsigned seed;
  int type;  // index into cshift_type_names
  bool right;
  loopnest_test::extents e;
  std::vector<std::vector<std::int64_t>> shifts;  // per dimension
  std::string text;
};

constexpr const char* cshift_type_names[] = {"uint8", "float", "double", "spinor"};

cshift_case draw_cshift_case(unsigned seed) {
  std::mt19937 gen(seed);
  cshift_case c{seed, draw(gen, 0, 3), draw(gen, 0, 1) == 1, {}, {}, ""};
  const int rank = draw(gen, 1, 4);
  for (int d = 0; d < rank; ++d) {
    c.e.push_back(draw_extent(gen, 9));
  }
  if (draw(gen, 0, 3) == 0) {
    // At most about 30000 elements in all.
    const int long_dim = draw(gen, 0, rank - 1);
    c.e[long_dim]      = 1;
    const int others   = std::accumulate(c.e.begin(), c.e.end(), 1, std::multiplies<>());
    c.e[long_dim]      = draw(gen, 10, std::max(10, std::min(3000, 30000 / others)));
  }
  constexpr std::int64_t lowest  = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t highest = std::numeric_limits<std::int64_t>::max();
  std::uniform_int_distribution<std::int64_t> anywhere(lowest, highest);
  for (int d = 0; d < rank; ++d) {
    // One draw a statement, so that every compiler draws in the same order.
    const std::int64_t n = c.e[d];
    const std::int64_t within =
        std::uniform_int_distribution<std::int64_t>(-3 * n - 3, 3 * n + 3)(gen);
    const std::int64_t multiple = draw(gen, -5, 5) * n;
    const std::int64_t off_by   = draw(gen, -1, 1);
    const int ends              = draw(gen, 0, 3);
    const std::int64_t extreme  = ends == 0 ? lowest : ends == 1 ? highest : anywhere(gen);
    c.shifts.push_back({within, multiple + off_by, extreme});
  }
  std::ostringstream os;
  os << "seed " << seed << ": " << cshift_type_names[c.type] << " "
     << (c.right ? "LayoutRight" : "LayoutLeft") << " extents " << loopnest_test::extents_text(c.e)
     << ", shifts";
  for (int d = 0; d < rank; ++d) {
    os << " dim " << d << ":";
    for (const auto s : c.shifts[d]) {
      os << " " << s;
    }
  }
  c.text = os.str();
  return c;
}

template <class T, class Layout, class ExecutionSpace>
void check_cshift_case_in(const ExecutionSpace& exec, const cshift_case& c) {
  using loopnest_test::check_against_host;
  const char* type = cshift_type_names[c.type];
  switch (c.e.size()) {
    case 1:
      check_against_host<T, 1, Layout>(exec, type, c.e, c.seed, c.shifts);
      break;
    case 2:
      check_against_host<T, 2, Layout>(exec, type, c.e, c.seed, c.shifts);
      break;
    case 3:
      check_against_host<T, 3, Layout>(exec, type, c.e, c.seed, c.shifts);
      break;
    default:
      check_against_host<T, 4, Layout>(exec, type, c.e, c.seed, c.shifts);
  }
}

template <class T, class ExecutionSpace>
void check_cshift_case_of(const ExecutionSpace& exec, const cshift_case& c) {
  if (c.right) {
    check_cshift_case_in<T, Kokkos::LayoutRight>(exec, c);
  } else {
    check_cshift_case_in<T, Kokkos::LayoutLeft>(exec, c);
  }
}

template <class ExecutionSpace>
void check_cshift_case(const ExecutionSpace& exec, const cshift_case& c) {
  switch (c.type) {
    case 0:
      check_cshift_case_of<std::uint8_t>(exec, c);
      break;
    case 1:
      check_cshift_case_of<float>(exec, c);
      break;
    case 2:
      check_cshift_case_of<double>(exec, c);
      break;
    default:
      check_cshift_case_of<loopnest_test::spinor>(exec, c);
  }
}

// ----------------------------------------------------------------------------------------

template <class ExecutionSpace>
class randomized_cshift : public ::testing::Test {};
TYPED_TEST_SUITE(randomized_cshift, loopnest_test::execution_spaces);

TYPED_TEST(randomized_cshift, cshift_matches_the_host_for_every_strategy) {
  const TypeParam exec;
  for (unsigned seed = 1; seed <= cshift_cases; ++seed) {
    const cshift_case c = draw_cshift_case(seed);
    SCOPED_TRACE(c.text);
    check_cshift_case(exec, c);
  }
}

}  // namespace
