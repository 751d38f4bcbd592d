#include <loopnest/field_kernels.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <string>

#include "field_kernel_checks.hpp"
#include "field_kernel_runs.hpp"
#include "poison.hpp"
#include "profiling_counters.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::error_of;
using loopnest_test::expect_mentions;
using loopnest_test::fill;
using loopnest_test::host_fields;
using loopnest_test::poison;
using loopnest_test::same_bits;

template <class ExecutionSpace>
class field_kernels : public ::testing::Test {};
TYPED_TEST_SUITE(field_kernels, loopnest_test::execution_spaces);

// Grids of 1 to 3 dimensions and several ghost widths; variable counts with and without a
// remainder group. A fixed seed, printed on failure, so that a failure reproduces.
const loopnest_test::grid grids[] = {{{13, 6, 5}, 1}, {{9, 7, 3}, 4}, {{17, 5}, 2}, {{23}, 3}};

template <class T, class Layout, class ExecutionSpace>
void check_on_every_grid(const ExecutionSpace& exec) {
  const unsigned seed = 2024;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const auto& g : grids) {
    for (const int nvar : {7, 8}) {
      loopnest_test::check_kernels<T, Layout, Kokkos::LayoutLeft>(
          exec, {g, nvar, seed, loopnest::axis_order::xyz});
    }
  }
}

TYPED_TEST(field_kernels, match_the_host_loop_bit_for_bit_fp64) {
  check_on_every_grid<double, Kokkos::LayoutLeft>(TypeParam());
  check_on_every_grid<double, Kokkos::LayoutRight>(TypeParam());
  for (const auto& g : grids) {
    loopnest_test::check_kernels_bounded(TypeParam(), {g, 8, 2025, loopnest::axis_order::xyz});
  }
}

TYPED_TEST(field_kernels, match_the_host_loop_bit_for_bit_fp32) {
  check_on_every_grid<float, Kokkos::LayoutLeft>(TypeParam());
  check_on_every_grid<float, Kokkos::LayoutRight>(TypeParam());
}

// Transposing packs and finalizes run in tiles of a plane (32 x 32 on host backends, 32 x 64 on
// GPUs): grids of several of the space's tiles along every index, none a multiple of the tile, so
// that every team meets full and partial tiles, in both precisions and every layout of fields and
// buffer. (Sized by the space's tile, the host grids stay small enough for the sanitizer build.)
template <class T, class Layout, class ExecutionSpace>
void check_transposes(const ExecutionSpace& exec) {
  using shape = loopnest::Impl::transpose_traits<ExecutionSpace>;
  const int x = shape::tile + 5, y = shape::rows + 6, z = shape::rows + 3;
  // The last grid's arrays are 72 x 72 x 32 elements: its FP32 rows all start on a 32-byte
  // sector, where a backend with sectors (CUDA) moves the tiles in teams of another shape; the
  // others have one shape, which the first two grids cover.
  const loopnest_test::grid tiled[] = {{{x, y, z}, 2}, {{x + 8, y}, 1}, {{64, 64, 24}, 4}};
  const int grids                   = shape::sector_bytes > 0 ? 3 : 2;
  for (int n = 0; n < grids; ++n) {
    const loopnest_test::grid& g = tiled[n];
    for (const auto order : {loopnest::axis_order::yxz, loopnest::axis_order::zyx}) {
      const loopnest_test::kernel_case c{g, 2, 2026, order};
      loopnest_test::check_transposing_kernels<T, Layout, Kokkos::LayoutLeft>(exec, c);
      loopnest_test::check_transposing_kernels<T, Layout, Kokkos::LayoutRight>(exec, c);
    }
  }
}

TYPED_TEST(field_kernels, transposing_copies_over_many_tiles_match_bit_for_bit) {
  check_transposes<double, Kokkos::LayoutLeft>(TypeParam());
  check_transposes<double, Kokkos::LayoutRight>(TypeParam());
  check_transposes<float, Kokkos::LayoutLeft>(TypeParam());
  check_transposes<float, Kokkos::LayoutRight>(TypeParam());
}

// Rows start on a sector of 8 elements where the box's first element, every stride but the
// stride-1 index's and a packed buffer's variable stride are multiples of 8: whole arrays of 72
// elements along each index do, the same arrays' interiors (4 ghost layers) and arrays of 209 do
// not; an index of one element and a field_set's separate variables need no multiple.
TEST(rows_start_on, a_sector_where_every_row_of_every_variable_does) {
  using loopnest::Impl::rows_start_on;
  const auto whole = [](int n) { return loopnest::box<3>{{-4, -4, -4}, {n - 4, n - 4, n - 4}}; };
  const std::ptrdiff_t n = 72, plane = n * n, base = 4 * (1 + n + plane);
  const loopnest::field_set_ref<float> fields{nullptr, base, 1, n, plane, 8};
  EXPECT_TRUE(rows_start_on(whole(72), 0, fields, 8));
  EXPECT_FALSE(rows_start_on(loopnest::box<3>{{0, 0, 0}, {64, 64, 64}}, 0, fields, 8));
  const std::ptrdiff_t m = 209;
  const loopnest::field_set_ref<float> odd{nullptr, 4 * (1 + m + m * m), 1, m, m * m, 8};
  EXPECT_FALSE(rows_start_on(whole(209), 0, odd, 8));
  // A packed buffer in (y, x, z) order: y has stride 1.
  const loopnest::packed_fields_ref<float> packed{nullptr, base, n, 1, plane, n * plane};
  EXPECT_TRUE(rows_start_on(whole(72), 1, packed, 8));
  auto shifted = packed;
  shifted.sv += 4;
  EXPECT_FALSE(rows_start_on(whole(72), 1, shifted, 8));
  auto odd_plane = packed;
  odd_plane.s2 += 1;
  EXPECT_FALSE(rows_start_on(whole(72), 1, odd_plane, 8));
  EXPECT_TRUE(rows_start_on(loopnest::box<3>{{-4, -4, 0}, {68, 68, 1}}, 1, odd_plane, 8));
}

// Boxes that are one run of memory: whole arrays in either layout, the whole rows of one plane,
// part of one row; not a box that leaves part of its rows or planes out, nor one whose index runs
// backwards.
TEST(span_length, counts_the_elements_of_a_box_that_is_one_run_of_memory) {
  using loopnest::Impl::span_length;
  using b3                          = loopnest::box<3>;
  const std::ptrdiff_t left[3]      = {1, 10, 60};  // 10 x 6 x 7 arrays from index 0
  const std::ptrdiff_t right[3]     = {42, 7, 1};
  const std::ptrdiff_t backwards[3] = {-1, 10, 60};
  EXPECT_EQ(span_length(b3{{0, 0, 0}, {10, 6, 7}}, left), 420);
  EXPECT_EQ(span_length(b3{{0, 0, 0}, {10, 6, 7}}, right), 420);
  EXPECT_EQ(span_length(b3{{0, 0, 3}, {10, 6, 4}}, left), 60);
  EXPECT_EQ(span_length(b3{{2, 4, 3}, {7, 5, 4}}, left), 5);
  EXPECT_EQ(span_length(b3{{0, 0, 0}, {10, 5, 7}}, left), 0);
  EXPECT_EQ(span_length(b3{{1, 0, 0}, {9, 6, 7}}, left), 0);
  EXPECT_EQ(span_length(b3{{0, 0, 0}, {10, 6, 7}}, backwards), 0);
  EXPECT_EQ(span_length(b3{{0, 0, 0}, {0, 6, 7}}, left), 0);
}

// Whole arrays of the same strides run as one flat copy per variable under collapse3, here into a
// packed buffer whose variables start on other phases of a line than the fields; collapse4, and a
// box that leaves the ghosts out, launch nothing through it.
template <class ExecutionSpace>
void check_span_copies(const ExecutionSpace& exec) {
  using space = typename ExecutionSpace::memory_space;
  const loopnest::field_set<float, Kokkos::LayoutLeft, space> fields(exec, "fields", 3, {37, 5, 4},
                                                                     2);
  const loopnest::packed_fields<float, Kokkos::LayoutLeft, space> packed(exec, "packed", 3,
                                                                         {37, 5, 4}, 2);
  fill(fields, 2027, true);
  Kokkos::deep_copy(packed.view(), poison<float>);
  const auto run = [&](auto schedule, const loopnest::box<3>& cells) {
    return loopnest::Impl::span_copy_cells<decltype(schedule)>(exec, cells, 3, packed.ref(),
                                                               fields.ref(), "span_copy");
  };
  EXPECT_FALSE(run(loopnest::collapse4{}, fields.with_ghosts()));
  EXPECT_FALSE(run(loopnest::collapse3{}, fields.interior()));
  exec.fence();
  const auto untouched = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), packed.view());
  int written          = 0;
  for (std::size_t e = 0; e < untouched.span(); ++e) {
    written += !same_bits(untouched.data()[e], poison<float>);
  }
  EXPECT_EQ(written, 0);
  EXPECT_TRUE(run(loopnest::collapse3{}, fields.with_ghosts()));
  exec.fence();
  host_fields<float, Kokkos::LayoutLeft, space> hf(fields);
  const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), packed.view());
  int wrong     = 0;
  for (int v = 0; v < 3; ++v) {
    for (int k = fields.lower(2); k < fields.upper(2); ++k) {
      for (int j = fields.lower(1); j < fields.upper(1); ++j) {
        for (int i = fields.lower(0); i < fields.upper(0); ++i) {
          wrong += !same_bits(hp(i - fields.lower(0), j - fields.lower(1), k - fields.lower(2), v),
                              hf.at(v, i, j, k));
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

TYPED_TEST(field_kernels, whole_arrays_of_the_same_strides_copy_as_one_span_per_variable) {
  check_span_copies(TypeParam());
}

// Each kernel call is one Kokkos profiling region named after the kernel, around its launches.
template <class ExecutionSpace>
void check_profiling_regions(const ExecutionSpace& exec) {
  using space  = typename ExecutionSpace::memory_space;
  using set    = loopnest::field_set<double, Kokkos::LayoutLeft, space>;
  using packed = loopnest::packed_fields<double, Kokkos::LayoutLeft, space>;
  const set a("a", 3, {6, 5, 4}, 1), b("b", 3, {6, 5, 4}, 1);
  const packed p("p", 3, {6, 5, 4}, 1);
  Kokkos::View<double*, space> inv("inv", 6);
  using loopnest::collapse3;
  const auto entries = [&](const char* region, auto&& call) {
    const loopnest_test::region_counter counter(region);
    call();
    exec.fence();
    return counter.entries();
  };
  EXPECT_EQ(entries("loopnest::copy_fields", [&] { loopnest::copy_fields<collapse3>(exec, a, b); }),
            1);
  EXPECT_EQ(
      entries("loopnest::flux_difference",
              [&] { loopnest::flux_difference<collapse3>(exec, 0, loopnest::assign, a, b, inv); }),
      1);
  EXPECT_EQ(entries("loopnest::finalize_flux",
                    [&] { loopnest::finalize_flux<collapse3>(exec, 1, a, p); }),
            1);
  EXPECT_EQ(entries("loopnest::pack_weno", [&] { loopnest::pack_weno<collapse3>(exec, p, a); }), 1);
}

TYPED_TEST(field_kernels, each_kernel_is_a_profiling_region_of_its_name) {
  check_profiling_regions(TypeParam());
}

TYPED_TEST(field_kernels, bad_shapes_are_refused_and_nothing_is_written) {
  using space = typename TypeParam::memory_space;
  using set   = loopnest::field_set<double, Kokkos::LayoutLeft, space>;
  const TypeParam exec;
  const set rhs("rhs", 5, {8, 6, 4}, 2), flux("flux", 5, {8, 6, 4}, 2);
  const set other_nvar("o", 4, {8, 6, 4}, 2), other_grid("g", 5, {8, 7, 4}, 2),
      no_ghost("n", 5, {8, 6, 4}, 0), flat2d("f", 5, {8, 6}, 2);
  fill(rhs, 1, false);
  Kokkos::View<double*, space> inv_x("inv_x", 8), inv_wrong("inv_wrong", 7);
  using loopnest::collapse3;
  expect_mentions(error_of([&] { loopnest::copy_fields<collapse3>(exec, rhs, other_nvar); }),
                  "dst has nvar = 5 but src has nvar = 4");
  expect_mentions(error_of([&] { loopnest::copy_fields<collapse3>(exec, rhs, other_grid); }),
                  "interior extent 1 is 6 and 7");
  expect_mentions(error_of([&] { loopnest::copy_fields<collapse3>(exec, rhs, no_ghost); }),
                  "dst has ghost = 2 but src has ghost = 0");
  const set three_d_thin("t", 5, {8, 6, 1}, 2);
  expect_mentions(error_of([&] { loopnest::copy_fields<collapse3>(exec, flat2d, three_d_thin); }),
                  "dst is 2D but src is 3D");
  expect_mentions(error_of([&] {
                    loopnest::flux_difference<collapse3>(exec, 3, loopnest::assign, rhs, flux,
                                                         inv_x);
                  }),
                  "direction = 3 but the grid has 3 dimensions");
  expect_mentions(error_of([&] {
                    loopnest::flux_difference<collapse3>(exec, 2, loopnest::assign, flat2d, flat2d,
                                                         inv_x);
                  }),
                  "direction = 2 but the grid has 2 dimensions");
  expect_mentions(error_of([&] {
                    loopnest::flux_difference<collapse3>(exec, 0, loopnest::assign, rhs, no_ghost,
                                                         inv_x);
                  }),
                  "flux has ghost = 0 but needs at least 1");
  expect_mentions(error_of([&] {
                    loopnest::flux_difference<collapse3>(exec, 0, loopnest::assign, rhs, flux,
                                                         inv_wrong);
                  }),
                  "inv_d has 7 entries but the interior has 8 cells along direction 0");
  expect_mentions(error_of([&] {
                    loopnest::flux_difference<collapse3>(exec, 1, loopnest::assign, rhs, other_nvar,
                                                         inv_x);
                  }),
                  "rhs has nvar = 5 but flux has nvar = 4");
  // An output that shares memory with an input: the same set, or a copy that shares its fields.
  const set rhs_copy = rhs;
  for (int direction = 0; direction < 3; ++direction) {
    expect_mentions(error_of([&] {
                      loopnest::flux_difference<collapse3>(exec, direction, loopnest::assign, rhs,
                                                           rhs, inv_x);
                    }),
                    "rhs aliases flux: variable 0 of rhs and variable 0 of flux share memory");
  }
  expect_mentions(error_of([&] {
                    loopnest::flux_difference<collapse3>(exec, 0, loopnest::assign, rhs, rhs_copy,
                                                         inv_x);
                  }),
                  "rhs aliases flux");
  expect_mentions(error_of([&] { loopnest::copy_fields<collapse3>(exec, rhs, rhs_copy); }),
                  "dst aliases src");
  using packed = loopnest::packed_fields<double, Kokkos::LayoutLeft, space>;
  const packed rs("rs", 5, {8, 6, 4}, 2), rs_no_ghost("rs0", 5, {8, 6, 4}, 0),
      rs_other_ghost("rs1", 5, {8, 6, 4}, 1);
  expect_mentions(error_of([&] { loopnest::finalize_flux<collapse3>(exec, 3, rhs, rs); }),
                  "direction = 3 but the grid has 3 dimensions");
  expect_mentions(error_of([&] { loopnest::finalize_flux<collapse3>(exec, 0, rhs, rs_no_ghost); }),
                  "flux has ghost = 2 and flux_rs ghost = 0; both need at least 1");
  expect_mentions(error_of([&] { loopnest::pack_weno<collapse3>(exec, rs_other_ghost, rhs); }),
                  "packed has ghost = 1 but fields has ghost = 2");
  exec.fence();
  host_fields<double, Kokkos::LayoutLeft, space> h(rhs);
  int touched = 0;
  for (auto& view : h.h) {
    for (std::size_t e = 0; e < view.span(); ++e) {
      touched += !same_bits(view.data()[e], poison<double>);
    }
  }
  EXPECT_EQ(touched, 0);
}

}  // namespace
