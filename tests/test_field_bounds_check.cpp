// field_set_ref, packed_fields_ref and scratch_ref under KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK (this
// translation unit, and its test_main, are compiled with it): every index in the index space with
// ghosts passes, one past it aborts through Kokkos::abort with the indices and the bounds.
#include <loopnest/field_kernels.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#if !defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
#error "test_field_bounds_check.cpp must be compiled with -DKOKKOS_ENABLE_DEBUG_BOUNDS_CHECK"
#endif

namespace {

using space = Kokkos::DefaultExecutionSpace;

// Writes ref(v, i, j, k) = 1 in a kernel on the default execution space, then sums ref.load over
// the same indices: a check that aborts does so inside a device loop.
template <class Ref>
double write_and_read(const Ref& ref, int v, int i, int j, int k) {
  Kokkos::parallel_for(
      "loopnest::test_field_bounds_check", Kokkos::RangePolicy<space>(0, 1),
      KOKKOS_LAMBDA(int) { ref(v, i, j, k) = 1.0; });
  double sum = 0.0;
  Kokkos::parallel_reduce(
      "loopnest::test_field_bounds_check", Kokkos::RangePolicy<space>(0, 1),
      KOKKOS_LAMBDA(int, double& s) { s += ref.load(v, i, j, k); }, sum);
  return sum;
}

// Every corner of the index space with ghosts, and its first and last variable.
template <class Ref, class Shape>
void expect_corners_pass(const Ref& ref, const Shape& shape) {
  for (const int v : {0, shape.nvar() - 1}) {
    for (const int k : {shape.lower(2), shape.upper(2) - 1}) {
      for (const int j : {shape.lower(1), shape.upper(1) - 1}) {
        for (const int i : {shape.lower(0), shape.upper(0) - 1}) {
          EXPECT_EQ(write_and_read(ref, v, i, j, k), 1.0);
        }
      }
    }
  }
}

using fields = loopnest::field_set<double, Kokkos::LayoutLeft, space::memory_space>;
using packed = loopnest::packed_fields<double, Kokkos::LayoutLeft, space::memory_space>;

TEST(field_bounds_check, the_handles_carry_the_index_space) {
  EXPECT_EQ(sizeof(loopnest::field_set_ref<double>), 72u);
  const fields f("f", 3, {5, 4}, 2);
  const auto r = f.ref();
  EXPECT_EQ(r.bounds.nvar, 3);
  EXPECT_EQ(r.bounds.lower[1], -2);
  EXPECT_EQ(r.bounds.upper[1], 6);
  EXPECT_EQ(r.bounds.lower[2], 0);
  EXPECT_EQ(r.bounds.upper[2], 1);
}

TEST(field_bounds_check, every_index_with_ghosts_passes) {
  const fields f("f", 3, {5, 4, 3}, 2);
  expect_corners_pass(f.ref(), f);
  const fields two("two", 2, {6, 4}, 1);
  expect_corners_pass(two.ref(), two);
  for (const auto order :
       {loopnest::axis_order::xyz, loopnest::axis_order::yxz, loopnest::axis_order::zyx}) {
    const packed p("p", 4, {5, 4, 3}, 2, order);
    expect_corners_pass(p.ref(), p);
  }
}

// The field kernels index only inside the index space: under the checks they run through, under
// every schedule kind, a strip schedule, both layouts and every axis order.
template <class Schedule, class Layout>
void run_field_kernels() {
  using set    = loopnest::field_set<double, Layout, space::memory_space>;
  using buffer = loopnest::packed_fields<double, Layout, space::memory_space>;
  const space exec;
  const set q("q", 3, {9, 5, 4}, 2), rhs("rhs", 3, {9, 5, 4}, 2), flux("flux", 3, {9, 5, 4}, 2);
  loopnest::copy_fields<Schedule>(exec, rhs, q);
  for (int d = 0; d < 3; ++d) {
    const Kokkos::View<double*, space::memory_space> inv_d("inv_d", q.interior_extent(d));
    if (d == 0) {
      loopnest::flux_difference<Schedule>(exec, d, loopnest::assign, rhs, flux, inv_d);
    } else {
      loopnest::flux_difference<Schedule>(exec, d, loopnest::accumulate, rhs, flux, inv_d);
    }
  }
  for (const auto order :
       {loopnest::axis_order::xyz, loopnest::axis_order::yxz, loopnest::axis_order::zyx}) {
    const buffer packed("packed", 3, {9, 5, 4}, 2, order);
    loopnest::pack_weno<Schedule>(exec, packed, q);
    for (int d = 0; d < 3; ++d) {
      loopnest::finalize_flux<Schedule>(exec, d, flux, packed);
    }
  }
  exec.fence();
}

template <class Layout>
void run_field_kernels_all() {
  run_field_kernels<loopnest::with_layout_t<loopnest::collapse4, Layout>, Layout>();
  run_field_kernels<loopnest::with_layout_t<loopnest::collapse3, Layout>, Layout>();
  run_field_kernels<loopnest::with_layout_t<loopnest::flat, Layout>, Layout>();
  run_field_kernels<loopnest::with_layout_t<loopnest::kokkos_default, Layout>, Layout>();
  run_field_kernels<loopnest::with_layout_t<loopnest::automatic, Layout>, Layout>();
  run_field_kernels<
      loopnest::with_cells_per_thread_t<loopnest::with_layout_t<loopnest::collapse3, Layout>, 4>,
      Layout>();
}

TEST(field_bounds_check, the_field_kernels_stay_inside_the_index_space) {
  run_field_kernels_all<Kokkos::LayoutLeft>();
  run_field_kernels_all<Kokkos::LayoutRight>();
}

// The death tests run the statement in a child process, which aborts; the parent checks its
// message. "threadsafe" starts the child afresh, which holds with any host backend's threads.
TEST(field_bounds_check_DeathTest, field_set_ref_aborts_past_the_ghosts_naming_the_indices) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  const fields f("f", 3, {5, 4, 3}, 2);
  const auto r       = f.ref();
  const char* bounds = R"(v in \[0, 3\), i in \[-2, 7\), j in \[-2, 6\), k in \[-2, 5\))";
  EXPECT_DEATH(write_and_read(r, 0, 7, 0, 0),
               std::string("loopnest::field_set_ref: index \\(v, i, j, k\\) = \\(0, 7, 0, 0\\) "
                           "is out of bounds: ") +
                   bounds);
  EXPECT_DEATH(write_and_read(r, 0, 0, -3, 0), "\\(v, i, j, k\\) = \\(0, 0, -3, 0\\)");
  EXPECT_DEATH(write_and_read(r, 0, 0, 0, 5), "\\(v, i, j, k\\) = \\(0, 0, 0, 5\\)");
  EXPECT_DEATH(write_and_read(r, 3, 0, 0, 0), "\\(v, i, j, k\\) = \\(3, 0, 0, 0\\)");
  EXPECT_DEATH(write_and_read(r, -1, 0, 0, 0), "\\(v, i, j, k\\) = \\(-1, 0, 0, 0\\)");
  // A 2D grid has k = 0 only.
  const fields two("two", 2, {6, 4}, 1);
  EXPECT_DEATH(write_and_read(two.ref(), 1, 0, 0, 1),
               "field_set_ref: index \\(v, i, j, k\\) = \\(1, 0, 0, 1\\) is out of bounds: v in "
               "\\[0, 2\\), i in \\[-1, 7\\), j in \\[-1, 5\\), k in \\[0, 1\\)");
}

// A port's commonest slip: the body's (i, j, k, v) handed to ref in that order, where ref takes
// the variable first. With more cells along x than variables, the first cell past nvar aborts.
template <class Schedule>
void write_in_loop_order(const fields& f) {
  const auto ref = f.ref();
  loopnest::for_each_cell_var<Schedule>(
      space(), f.interior(), f.nvar(),
      KOKKOS_LAMBDA(int i, int j, int k, int v) { ref(i, j, k, v) = 1.0; },
      "loopnest::test_field_bounds_check");
  space().fence();
}

TEST(field_bounds_check_DeathTest, a_body_in_loop_order_aborts_at_once) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  const fields f("f", 3, {5, 4, 3}, 2);
  const char* message =
      "loopnest::field_set_ref: index \\(v, i, j, k\\) = \\([34], [0-9-]+, "
      "[0-9-]+, [0-9-]+\\) is out of bounds: v in \\[0, 3\\)";
  EXPECT_DEATH(write_in_loop_order<loopnest::collapse4>(f), message);
  EXPECT_DEATH(write_in_loop_order<loopnest::collapse3>(f), message);
  EXPECT_DEATH(write_in_loop_order<loopnest::flat>(f), message);
  EXPECT_DEATH(write_in_loop_order<loopnest::kokkos_default>(f), message);
}

TEST(field_bounds_check_DeathTest, packed_fields_ref_aborts_past_the_ghosts_naming_the_indices) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  // In grid indices whatever the axis order: j past its bound in a buffer that stores y first.
  const packed p("p", 4, {5, 4, 3}, 2, loopnest::axis_order::yxz);
  const auto r = p.ref();
  EXPECT_DEATH(write_and_read(r, 0, 0, 6, 0),
               "loopnest::packed_fields_ref: index \\(v, i, j, k\\) = \\(0, 0, 6, 0\\) is out of "
               "bounds: v in \\[0, 4\\), i in \\[-2, 7\\), j in \\[-2, 6\\), k in \\[-2, 5\\)");
  EXPECT_DEATH(write_and_read(r, 4, 0, 0, 0), "\\(v, i, j, k\\) = \\(4, 0, 0, 0\\)");
  EXPECT_DEATH(write_and_read(r, 0, -3, 0, 0), "\\(v, i, j, k\\) = \\(0, -3, 0, 0\\)");
}

// A sweep body that reads one cell further below than the halo it declared: the staged
// scratch_ref aborts, naming the indices and the block's staged region.
struct reads_past_the_halo {
  loopnest::field_set_ref<double> out;
  template <class Block>
  KOKKOS_INLINE_FUNCTION void operator()(const Block& block) const {
    const auto q = block.staged();
    block.for_each_cell(0, 0,
                        [&](int i, int j, int k) { out(0, i, j, k) = q.load(0, i - 2, j, k); });
  }
};

void sweep_past_the_halo(const fields& q, const fields& out) {
  loopnest::sweep<0>(space(), q.interior(), q, 1, {}, reads_past_the_halo{out.ref()},
                     "loopnest::test_field_bounds_check", {1, 8, 1});
  space().fence();
}

TEST(field_bounds_check_DeathTest, scratch_ref_aborts_past_the_staged_halo) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  const fields q("q", 2, {5, 4, 3}, 2);
  const fields out("out", 1, {5, 4, 3}, 2);
  EXPECT_DEATH(sweep_past_the_halo(q, out),
               "loopnest::scratch_ref: index \\(v, i, j, k\\) = \\(0, -2, [0-3], [0-2]\\) is out "
               "of bounds: v in \\[0, 2\\), i in \\[-1, 6\\)");
}

}  // namespace
