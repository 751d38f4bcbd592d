#include <loopnest/cshift.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "cshift_checks.hpp"
#include "profiling_counters.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest::cshift_strategy;
using loopnest_test::bytes_of;
using loopnest_test::check_type;
using loopnest_test::count_wrong;
using loopnest_test::error_of;
using loopnest_test::expect_mentions;
using loopnest_test::extents;
using loopnest_test::fill_bytes;
using loopnest_test::host_copy;
using loopnest_test::layout_name;
using loopnest_test::make_view;
using loopnest_test::strategies;
using loopnest_test::view_t;

// ---------------------------------------------------------------------------------------

// cshift(cshift(a, d, s1), d, s2) == cshift(a, d, s1 + s2), and a shift by the extent is the
// identity.
template <class Layout, class Space>
void check_composition(const Space& exec) {
  using view      = view_t<double, 3, Layout, Space>;
  const extents e = {6, 5, 7};
  const view a = make_view<view>("a", e), b = make_view<view>("b", e), c = make_view<view>("c", e),
             d = make_view<view>("d", e);
  fill_bytes(a, 17);
  const std::int64_t pairs[][2] = {{1, 2}, {-3, 5}, {7, -11}, {0, 13}, {-4, -9}};
  for (const auto strategy : strategies()) {
    for (int dim = 0; dim < 3; ++dim) {
      for (const auto& s : pairs) {
        loopnest::cshift(exec, b, a, dim, s[0], strategy);
        loopnest::cshift(exec, c, b, dim, s[1], strategy);
        loopnest::cshift(exec, d, a, dim, s[0] + s[1], strategy);
        exec.fence();
        EXPECT_TRUE(bytes_of(c) == bytes_of(d))
            << layout_name<Layout>() << " dim " << dim << " shifts " << s[0] << ", " << s[1] << " "
            << loopnest::name(strategy);
      }
      for (const int k : {1, -1, 2}) {
        fill_bytes(b, 0);
        loopnest::cshift(exec, b, a, dim, k * e[dim], strategy);
        exec.fence();
        EXPECT_TRUE(bytes_of(b) == bytes_of(a))
            << layout_name<Layout>() << " dim " << dim << " shift " << k * e[dim] << " "
            << loopnest::name(strategy);
      }
    }
  }
}

// The periodic 5-point Laplacian from four cshifts equals the one written with periodic
// indices, bit for bit: both sum the same neighbours in the same order on the host.
template <class Layout, class Space>
void check_laplacian(const Space& exec) {
  using view   = view_t<double, 2, Layout, Space>;
  const int nx = 13, ny = 9;
  const view u("u", nx, ny);
  {
    auto h = Kokkos::create_mirror_view(u);
    std::mt19937 gen(5);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        h(i, j) = dist(gen);
      }
    }
    Kokkos::deep_copy(u, h);
  }
  const typename view::const_type u_read_only = u;
  std::vector<view> shifted;
  for (const auto& ds : {std::array<int, 2>{0, 1}, {0, -1}, {1, 1}, {1, -1}}) {
    shifted.emplace_back("shifted", nx, ny);
    loopnest::cshift(exec, shifted.back(), u_read_only, ds[0], ds[1]);
  }
  exec.fence();
  const auto hu = host_copy(u);
  const auto xp = host_copy(shifted[0]), xm = host_copy(shifted[1]), yp = host_copy(shifted[2]),
             ym = host_copy(shifted[3]);
  int wrong     = 0;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const double by_cshift = xp(i, j) + xm(i, j) + yp(i, j) + ym(i, j) - 4.0 * hu(i, j);
      const double by_index = hu((i + 1) % nx, j) + hu((i + nx - 1) % nx, j) + hu(i, (j + 1) % ny) +
                              hu(i, (j + ny - 1) % ny) - 4.0 * hu(i, j);
      wrong += std::memcmp(&by_cshift, &by_index, sizeof(double)) != 0;
    }
  }
  EXPECT_EQ(wrong, 0) << layout_name<Layout>();
}

// Deep copies and table work (the library's profiling region) over n calls, counted through
// Kokkos' profiling callbacks.
struct work {
  long long copies, tables;
};
inline bool operator==(const work& a, const work& b) {
  return a.copies == b.copies && a.tables == b.tables;
}
inline std::ostream& operator<<(std::ostream& os, const work& w) {
  return os << w.copies << " deep copies, " << w.tables << " table fills";
}

template <class Space, class View>
work work_of(const Space& exec, int n, const View& out, const View& in, int dim, std::int64_t shift,
             cshift_strategy s) {
  const loopnest_test::deep_copy_counter copies;
  const loopnest_test::region_counter tables(loopnest::cshift_table_region);
  for (int k = 0; k < n; ++k) {
    loopnest::cshift(exec, out, in, dim, shift, s);
  }
  exec.fence();
  return {copies.copies(), tables.entries()};
}

// device_table builds once per shape and never copies, no_table neither builds nor copies; the
// cache holds what it should.
template <class Space>
void check_cache_and_copies(const Space& exec) {
  using view      = view_t<double, 3, Kokkos::LayoutLeft, Space>;
  const extents e = {8, 6, 5};
  const view in = make_view<view>("in", e), out = make_view<view>("out", e);
  fill_bytes(in, 23);
  const auto calls = [&](int n, int dim, std::int64_t shift, cshift_strategy s) {
    return work_of(exec, n, out, in, dim, shift, s);
  };
  using loopnest::cshift_cache_tables;
  loopnest::cshift_cache_clear();
  EXPECT_EQ(cshift_cache_tables(), 0u);
  EXPECT_EQ(loopnest::cshift_cache_bytes(), 0u);
  EXPECT_EQ(calls(1, 1, 2, cshift_strategy::device_table), (work{0, 1}));
  EXPECT_EQ(cshift_cache_tables(), 1u);
  EXPECT_GT(loopnest::cshift_cache_bytes(), 0u);
  EXPECT_EQ(calls(3, 1, 2, cshift_strategy::device_table), (work{0, 0}));
  EXPECT_EQ(calls(3, 1, 2 + e[1], cshift_strategy::device_table), (work{0, 0}))
      << "shifts 2 and 2 + n share a table";
  EXPECT_EQ(cshift_cache_tables(), 1u);
  EXPECT_EQ(calls(2, 2, 2, cshift_strategy::device_table), (work{0, 1}));
  EXPECT_EQ(cshift_cache_tables(), 2u);
  EXPECT_EQ(calls(4, 1, 2, cshift_strategy::no_table), (work{0, 0}));
  EXPECT_EQ(cshift_cache_tables(), 2u);
  EXPECT_EQ(count_wrong(out, in, 1, 2), 0);

  const auto limit = loopnest::cshift_cache_limit();
  loopnest::cshift_cache_set_limit(0);
  EXPECT_EQ(cshift_cache_tables(), 0u) << "a lower limit evicts at once";
  fill_bytes(out, 0);
  EXPECT_EQ(calls(2, 0, -3, cshift_strategy::device_table), (work{0, 2}));
  EXPECT_EQ(cshift_cache_tables(), 0u);
  EXPECT_EQ(count_wrong(out, in, 0, -3), 0) << "a table dropped at once still served its call";
  loopnest::cshift_cache_set_limit(limit);
  calls(1, 0, 1, cshift_strategy::device_table);
  calls(1, 0, 2, cshift_strategy::device_table);
  loopnest::cshift_cache_set_limit(loopnest::cshift_cache_bytes() / 2 + 1);
  EXPECT_EQ(cshift_cache_tables(), 1u);
  EXPECT_EQ(calls(1, 0, 2, cshift_strategy::device_table), (work{0, 0}))
      << "the least recently used table goes first";
  EXPECT_EQ(calls(1, 0, 1, cshift_strategy::device_table), (work{0, 1}));
  loopnest::cshift_cache_set_limit(limit);
  loopnest::cshift_cache_clear();
  EXPECT_EQ(cshift_cache_tables(), 0u);

  // A call that names no strategy does the work of cshift_default_strategy, and its result.
  const auto unnamed = [&](int n, int dim, std::int64_t shift) {
    const loopnest_test::deep_copy_counter copies;
    const loopnest_test::region_counter tables(loopnest::cshift_table_region);
    for (int k = 0; k < n; ++k) {
      loopnest::cshift(exec, out, in, dim, shift);
    }
    exec.fence();
    return work{copies.copies(), tables.entries()};
  };
  fill_bytes(out, 0);
  const work by_default = unnamed(3, 2, -1);
  EXPECT_EQ(count_wrong(out, in, 2, -1), 0);
  loopnest::cshift_cache_clear();
  EXPECT_EQ(by_default, calls(3, 2, -1, loopnest::cshift_default_strategy<Space>))
      << "without a strategy cshift takes "
      << loopnest::name(loopnest::cshift_default_strategy<Space>);
  loopnest::cshift_cache_clear();
}

template <class View>
void expect_untouched(const View& v, const std::vector<unsigned char>& before,
                      const std::string& what) {
  EXPECT_TRUE(bytes_of(v) == before) << what << ": out was written";
}

template <class Space>
void check_errors(const Space& exec) {
  using view3 = view_t<double, 3, Kokkos::LayoutLeft, Space>;
  using view1 = view_t<double, 1, Kokkos::LayoutLeft, Space>;
  using view2 = view_t<double, 2, Kokkos::LayoutLeft, Space>;
  const view3 in("in", 4, 5, 6), out("out", 4, 5, 6), other("other", 4, 5, 7);
  fill_bytes(in, 3);
  fill_bytes(out, 0);
  const auto before = bytes_of(out);

  auto msg = error_of([&] { loopnest::cshift(exec, out, in, 3, 1); });
  expect_mentions(msg, "loopnest::cshift: dim = 3 but the views have rank 3");
  expect_untouched(out, before, "dim 3");
  msg = error_of([&] { loopnest::cshift(exec, out, in, -1, 1); });
  expect_mentions(msg, "dim = -1 but the views have rank 3");

  msg = error_of([&] { loopnest::cshift(exec, out, other, 0, 1); });
  expect_mentions(msg, "out and in have different extents: out is 4x5x6 but in is 4x5x7");
  expect_untouched(out, before, "extents");

  msg = error_of([&] { loopnest::cshift(exec, out, out, 0, 1); });
  expect_mentions(msg, "out aliases in (their memory overlaps)");
  expect_untouched(out, before, "out is in");

  const view1 buffer("buffer", 20);
  fill_bytes(buffer, 0);
  const auto buffer_before = bytes_of(buffer);
  const auto head          = Kokkos::subview(buffer, Kokkos::make_pair(0, 10));
  const auto tail          = Kokkos::subview(buffer, Kokkos::make_pair(5, 15));
  msg                      = error_of([&] { loopnest::cshift(exec, head, tail, 0, 1); });
  expect_mentions(msg, "out aliases in");
  expect_untouched(buffer, buffer_before, "overlapping subviews");

  const view2 wide("wide", 6, 4), narrow("narrow", 3, 4);
  fill_bytes(narrow, 0);
  const auto narrow_before = bytes_of(narrow);
  const view2 rows_0_to_2  = Kokkos::subview(wide, Kokkos::make_pair(0, 3), Kokkos::ALL);
  msg                      = error_of([&] { loopnest::cshift(exec, narrow, rows_0_to_2, 1, 1); });
  expect_mentions(msg, "in is not contiguous (12 elements over a span of ");
  expect_untouched(narrow, narrow_before, "strided in");

  const view3 empty_out("empty_out", 4, 0, 6), empty_in("empty_in", 4, 0, 6);
  EXPECT_EQ(error_of([&] { loopnest::cshift(exec, empty_out, empty_in, 1, 1); }), "no exception")
      << "an empty view is a no-op, even along its empty dimension";
}

template <class ExecutionSpace>
class cshift : public ::testing::Test {};
TYPED_TEST_SUITE(cshift, loopnest_test::execution_spaces);

// Every rank, layout, dim, shift and strategy for the floating-point types here; integers and
// structs in test_cshift_integers.cpp and test_cshift_structs.cpp, which compile in parallel.
TYPED_TEST(cshift, matches_a_host_loop_for_doubles_and_floats) {
  const TypeParam exec;
  check_type<double>(exec, "double", 1);
  check_type<float>(exec, "float", 2);
}

TYPED_TEST(cshift, composes_and_a_shift_by_the_extent_is_the_identity) {
  check_composition<Kokkos::LayoutLeft>(TypeParam());
  check_composition<Kokkos::LayoutRight>(TypeParam());
}

TYPED_TEST(cshift, four_cshifts_give_the_periodic_laplacian) {
  check_laplacian<Kokkos::LayoutLeft>(TypeParam());
  check_laplacian<Kokkos::LayoutRight>(TypeParam());
}

TYPED_TEST(cshift, device_tables_are_cached_and_never_copied) {
  check_cache_and_copies(TypeParam());
}

TYPED_TEST(cshift, bad_input_is_refused_and_nothing_is_written) {
  check_errors(TypeParam());
}

}  // namespace
