// Randomized tests: parameters drawn by std::mt19937 from fixed seeds, each case's seed and
// drawn parameters in the failure message (SCOPED_TRACE), over boxes, ghost widths, extents,
// dimensions, variable counts, tiles and shifts, under every schedule, mapping, layout and
// cshift strategy. The checks themselves are the deterministic tests' (*_checks.hpp); the
// device lambdas live there, in free functions.
#include <loopnest/loopnest.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cshift_checks.hpp"
#include "diffusion_checks.hpp"
#include "field_kernel_checks.hpp"
#include "for_each_checks.hpp"
#include "schedules.hpp"
#include "spinor.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::schedules_for_layout;

// Cases per test: seeds 1 to N.
constexpr unsigned loop_cases      = 40;
constexpr unsigned kernel_cases    = 40;
constexpr unsigned cshift_cases    = 150;
constexpr unsigned diffusion_cases = 24;

int draw(std::mt19937& gen, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(gen);
}

// An extent in [1, hi]: 1 a quarter of the time.
int draw_extent(std::mt19937& gen, int hi) {
  return draw(gen, 0, 3) == 0 ? 1 : draw(gen, 1, hi);
}

loopnest::tile make_tile(const std::vector<int>& s) {
  switch (s.size()) {
    case 2:
      return {s[0], s[1]};
    case 3:
      return {s[0], s[1], s[2]};
    default:
      return {s.at(0), s.at(1), s.at(2), s.at(3)};
  }
}

// A tile for a loop of these extents that the backend takes: each size 1, up to a little past
// the extent, or well past it (up to 96, beyond a GPU block's 64 along z), then the largest
// halved until the tile holds at most max_points points.
loopnest::tile draw_tile(std::mt19937& gen, const std::vector<int>& extents, int max_points) {
  std::vector<int> s;
  for (const int n : extents) {
    const int r = draw(gen, 0, 9);
    s.push_back(r < 3 ? 1 : r < 8 ? draw(gen, 1, n + 2) : draw(gen, n + 1, 96));
  }
  for (;;) {
    std::int64_t points = 1;
    std::size_t largest = 0;
    for (std::size_t d = 0; d < s.size(); ++d) {
      points *= s[d];
      largest = s[d] > s[largest] ? d : largest;
    }
    if (points <= max_points) {
      return make_tile(s);
    }
    s[largest] /= 2;
  }
}

template <int Rank>
std::string box_text(const loopnest::box<Rank>& b) {
  std::string s;
  for (int d = 0; d < Rank; ++d) {
    s += (d ? " x [" : "[") + std::to_string(b.lower(d)) + ", " + std::to_string(b.upper(d)) + ")";
  }
  return s;
}

// ----------------------------------------------------------------------------------------
// for_each_cell and for_each_cell_var: random 2D and 3D boxes (negative lower bounds, extents of
// 1, now and then an empty one), a random variable count and random explicit tiles.

struct loop_case {
  unsigned seed;
  loopnest::box<3> b3;
  loopnest::box<2> b2;
  int nvar;
  // Explicit tiles: for_each_cell (and collapse3's for_each_cell_var), and collapse4's, which
  // has the variable index too.
  loopnest::tile cell3, var3, cell2, var2;
  std::string text;
};

// Lower bounds in [-6, 4]; extents up to 13 (3D) and 40 (2D), 1 a quarter of the time and 0 one
// time in 24.
template <int Rank>
loopnest::box<Rank> draw_box(std::mt19937& gen, int max_extent) {
  int lo[3], hi[3];
  for (int d = 0; d < Rank; ++d) {
    lo[d] = draw(gen, -6, 4);
    hi[d] = lo[d] + (draw(gen, 0, 23) == 0 ? 0 : draw_extent(gen, max_extent));
  }
  if constexpr (Rank == 3) {
    return {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  } else {
    return {{lo[0], lo[1]}, {hi[0], hi[1]}};
  }
}

loop_case draw_loop_case(unsigned seed, int max_points) {
  std::mt19937 gen(seed);
  const auto b3  = draw_box<3>(gen, 13);
  const auto b2  = draw_box<2>(gen, 40);
  const int nvar = draw(gen, 1, 11);
  loop_case c{seed,
              b3,
              b2,
              nvar,
              draw_tile(gen, {b3.extent(0), b3.extent(1), b3.extent(2)}, max_points),
              draw_tile(gen, {b3.extent(0), b3.extent(1), b3.extent(2), nvar}, max_points),
              draw_tile(gen, {b2.extent(0), b2.extent(1)}, max_points),
              draw_tile(gen, {b2.extent(0), b2.extent(1), nvar}, max_points),
              ""};
  c.text = "seed " + std::to_string(seed) + ": 3D box " + box_text(b3) + ", 2D box " +
           box_text(b2) + ", nvar " + std::to_string(nvar) + ", tiles " + c.cell3.to_string() +
           " / " + c.var3.to_string() + " (3D), " + c.cell2.to_string() + " / " +
           c.var2.to_string() + " (2D)";
  return c;
}

// The floating-point body runs only where the visits were right: a visit outside the box would
// write outside its Views.
template <class Schedule, class ExecutionSpace>
void check_loop_case(const ExecutionSpace& exec, const loop_case& c) {
  using loopnest_test::bit_identical;
  using loopnest_test::count_visits;
  if (count_visits<Schedule>(exec, c.b3, {c.nvar})) {
    bit_identical<Schedule, double>(exec, c.b3, c.nvar, c.seed);
    bit_identical<Schedule, float>(exec, c.b3, c.nvar, c.seed + 1000);
  }
  if (count_visits<Schedule>(exec, c.b2, {c.nvar})) {
    bit_identical<Schedule, double>(exec, c.b2, c.nvar, c.seed + 2000);
    bit_identical<Schedule, float>(exec, c.b2, c.nvar, c.seed + 3000);
  }
  constexpr auto kind = Schedule::kind;
  if constexpr (kind == loopnest::schedule_kind::collapse4 ||
                kind == loopnest::schedule_kind::collapse3) {
    constexpr bool c4 = kind == loopnest::schedule_kind::collapse4;
    const auto& var3  = c4 ? c.var3 : c.cell3;
    const auto& var2  = c4 ? c.var2 : c.cell2;
    if (count_visits<Schedule>(exec, c.b3, {c.nvar}, c.cell3, var3)) {
      bit_identical<Schedule, double>(exec, c.b3, c.nvar, c.seed, var3);
    }
    if (count_visits<Schedule>(exec, c.b2, {c.nvar}, c.cell2, var2)) {
      bit_identical<Schedule, float>(exec, c.b2, c.nvar, c.seed + 3000, var2);
    }
  }
}

template <class ExecutionSpace, class... Schedules>
void check_loop_case_all(const ExecutionSpace& exec, const loop_case& c,
                         std::tuple<Schedules...>*) {
  (check_loop_case<Schedules>(exec, c), ...);
}

// ----------------------------------------------------------------------------------------
// Field kernels: a random grid (1 to 3 dimensions, interior extents 1 to 13, ghost width 1 to
// 4), variable count 1 to 11, precision (FP32 or FP64), field-set and packed-buffer layouts and
// finalize_flux's axis order; every axis order for pack_weno; every schedule.

struct kernel_case {
  unsigned seed;
  loopnest_test::grid g;
  int nvar;
  bool fp64, fields_right, packed_right;
  loopnest::axis_order finalize_order;
  std::string text;
};

constexpr loopnest::axis_order orders[] = {loopnest::axis_order::xyz, loopnest::axis_order::yxz,
                                           loopnest::axis_order::zyx};

kernel_case draw_kernel_case(unsigned seed) {
  std::mt19937 gen(seed);
  kernel_case c{seed, {{}, 0}, 0, false, false, false, loopnest::axis_order::xyz, ""};
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

template <class Schedule, class T, class Layout, class PackedLayout, class ExecutionSpace>
void check_kernel_case(const ExecutionSpace& exec, const kernel_case& c) {
  loopnest_test::check_copy<Schedule, T, Layout>(exec, c.g, c.nvar, c.seed);
  loopnest_test::check_flux_difference<Schedule, T, Layout>(exec, c.g, c.nvar, c.seed);
  loopnest_test::check_finalize<Schedule, T, Layout, PackedLayout>(exec, c.g, c.nvar, c.seed,
                                                                   c.finalize_order);
  for (const auto order : orders) {
    loopnest_test::check_pack<Schedule, T, Layout, PackedLayout>(exec, c.g, c.nvar, c.seed, order);
  }
}

template <class T, class Layout, class ExecutionSpace, class... Schedules>
void check_kernel_case_all(const ExecutionSpace& exec, const kernel_case& c,
                           std::tuple<Schedules...>*) {
  if (c.packed_right) {
    (check_kernel_case<Schedules, T, Layout, Kokkos::LayoutRight>(exec, c), ...);
  } else {
    (check_kernel_case<Schedules, T, Layout, Kokkos::LayoutLeft>(exec, c), ...);
  }
}

// The kernels take the layout from the field set, so the schedules' own layout is irrelevant.
using kernel_schedules = schedules_for_layout<Kokkos::LayoutLeft>*;

template <class T, class ExecutionSpace>
void check_kernel_case_of(const ExecutionSpace& exec, const kernel_case& c) {
  if (c.fields_right) {
    check_kernel_case_all<T, Kokkos::LayoutRight>(exec, c, kernel_schedules{});
  } else {
    check_kernel_case_all<T, Kokkos::LayoutLeft>(exec, c, kernel_schedules{});
  }
}

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
// Diffusion: a random grid (3 to 40 cells a side), step count (0 to 40), alpha in [0, 0.25] and
// field; every variant within tolerance of diffusion_reference and bit for bit equal to each
// other and to a host loop over diffusion_update, the one update every variant uses; the
// collapse variant once more with a random tile.

struct diffusion_case {
  unsigned seed;
  int nx, ny, steps;
  double alpha;
  loopnest::tile t;
  std::string text;
};

diffusion_case draw_diffusion_case(unsigned seed, int max_points) {
  std::mt19937 gen(seed);
  diffusion_case c{seed, draw(gen, 3, 40), draw(gen, 3, 40), draw(gen, 0, 40), 0.0, {}, ""};
  c.alpha = std::uniform_real_distribution<double>(0.0, 0.25)(gen);
  c.t     = draw_tile(gen, {c.nx - 2, c.ny - 2}, max_points);
  std::ostringstream os;
  os.precision(17);
  os << "seed " << seed << ": " << c.nx << "x" << c.ny << ", " << c.steps << " steps, alpha "
     << c.alpha << ", collapse tile " << c.t.to_string();
  c.text = os.str();
  return c;
}

// The steps as a host loop over loopnest::diffusion_update, i fastest.
template <class T>
std::vector<T> steps_by_update(int nx, int ny, int steps, std::vector<T> u, T alpha) {
  std::vector<T> v = u;
  const auto at = [nx](int i, int j) { return static_cast<std::size_t>(i) + std::size_t(nx) * j; };
  for (int s = 0; s < steps; ++s) {
    for (int j = 1; j < ny - 1; ++j) {
      for (int i = 1; i < nx - 1; ++i) {
        v[at(i, j)] = loopnest::diffusion_update(alpha, u[at(i, j)], u[at(i - 1, j)],
                                                 u[at(i + 1, j)], u[at(i, j - 1)], u[at(i, j + 1)]);
      }
    }
    std::swap(u, v);
  }
  return u;
}

template <class T, class ExecutionSpace>
void check_diffusion_case(const diffusion_case& c) {
  const T alpha      = static_cast<T>(c.alpha);
  const auto initial = loopnest_test::random_field<T>(c.nx, c.ny, c.seed);
  const auto results = loopnest_test::check_against_reference<T, ExecutionSpace>(
      c.nx, c.ny, c.steps, initial, alpha);
  const auto expected = steps_by_update(c.nx, c.ny, c.steps, initial, alpha);
  ASSERT_FALSE(results.empty());
  EXPECT_TRUE(loopnest::bitwise_equal(results[0].data(), expected.data(), expected.size()))
      << loopnest::name(loopnest::diffusion_variants[0])
      << " differs from the host loop over diffusion_update";
  const auto tiled = loopnest_test::run<T, loopnest::diffusion_variant::collapse, ExecutionSpace>(
      c.nx, c.ny, c.steps, initial, alpha, c.t);
  EXPECT_TRUE(loopnest::bitwise_equal(tiled.data(), expected.data(), expected.size()))
      << "collapse with tile " << c.t.to_string() << " differs from the host loop";
}

// ----------------------------------------------------------------------------------------

template <class ExecutionSpace>
class randomized : public ::testing::Test {};
TYPED_TEST_SUITE(randomized, loopnest_test::execution_spaces);

TYPED_TEST(randomized, for_each_visits_once_and_every_schedule_gives_the_host_loop_bits) {
  const TypeParam exec;
  const int max_points = loopnest::Impl::max_tile_points(exec);
  for (unsigned seed = 1; seed <= loop_cases; ++seed) {
    const loop_case c = draw_loop_case(seed, max_points);
    SCOPED_TRACE(c.text);
    check_loop_case_all(exec, c, static_cast<schedules_for_layout<Kokkos::LayoutLeft>*>(nullptr));
    check_loop_case_all(exec, c, static_cast<schedules_for_layout<Kokkos::LayoutRight>*>(nullptr));
  }
}

TYPED_TEST(randomized, field_kernels_match_the_host_loop_and_leave_the_rest_poisoned) {
  const TypeParam exec;
  for (unsigned seed = 1; seed <= kernel_cases; ++seed) {
    const kernel_case c = draw_kernel_case(seed);
    SCOPED_TRACE(c.text);
    if (c.fp64) {
      check_kernel_case_of<double>(exec, c);
    } else {
      check_kernel_case_of<float>(exec, c);
    }
  }
}

TYPED_TEST(randomized, cshift_matches_the_host_for_every_strategy) {
  const TypeParam exec;
  for (unsigned seed = 1; seed <= cshift_cases; ++seed) {
    const cshift_case c = draw_cshift_case(seed);
    SCOPED_TRACE(c.text);
    check_cshift_case(exec, c);
  }
}

TYPED_TEST(randomized, diffusion_variants_give_the_bits_of_the_update_loop) {
  const int max_points = loopnest::Impl::max_tile_points(TypeParam());
  for (unsigned seed = 1; seed <= diffusion_cases; ++seed) {
    const diffusion_case c = draw_diffusion_case(seed, max_points);
    SCOPED_TRACE(c.text);
    if (seed % 2) {
      check_diffusion_case<double, TypeParam>(c);
    } else {
      check_diffusion_case<float, TypeParam>(c);
    }
  }
}

}  // namespace
