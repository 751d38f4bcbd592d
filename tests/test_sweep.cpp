#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "field_kernel_checks.hpp"
#include "poison.hpp"
#include "sweep_update.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::difference_from_memory;
using loopnest_test::error_of;
using loopnest_test::expect_mentions;
using loopnest_test::faces_to_memory;
using loopnest_test::poison;
using loopnest_test::same_bits;
using loopnest_test::sweep_difference;

template <class T, class Layout, class ExecutionSpace>
using fields_t = loopnest::field_set<T, Layout, typename ExecutionSpace::memory_space>;

// Block shapes: the backend's own, and shapes whose blocks leave partial pencils and segments
// on the test grids, one cell long included, on a team as wide as the backend's default.
template <class ExecutionSpace>
std::vector<loopnest::sweep_shape> shapes() {
  const loopnest::sweep_shape own = loopnest::sweep_traits<ExecutionSpace>::shape;
  return {own, {3, 4, own.team_size}, {2, 1, own.team_size}, {5, 7, own.team_size}};
}

// Every element of out, ghosts included, has want's bits.
template <class Host, class Fields>
void expect_output(Host& want, const Fields& out) {
  Host got(out);
  int wrong = 0;
  for (int v = 0; v < out.nvar(); ++v) {
    for (int k = out.lower(2); k < out.upper(2); ++k) {
      for (int j = out.lower(1); j < out.upper(1); ++j) {
        for (int i = out.lower(0); i < out.upper(0); ++i) {
          if (!same_bits(got.at(v, i, j, k), want.at(v, i, j, k)) && ++wrong <= 3) {
            ADD_FAILURE() << "(v, i, j, k) = (" << v << ", " << i << ", " << j << ", " << k
                          << "): " << got.at(v, i, j, k) << " against " << want.at(v, i, j, k);
          }
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

// The box the tests sweep: the interior, or the interior less its first cell along every
// dimension but the sweep's, so that blocks start off the index space's origin.
template <class T, class Layout, class ExecutionSpace, int Axis>
void check_axis(const ExecutionSpace& exec, const loopnest_test::grid& g, bool offset) {
  SCOPED_TRACE(std::string("axis ") + std::to_string(Axis) + (offset ? ", offset box" : ""));
  const int nvar      = 3;
  using fields        = fields_t<T, Layout, ExecutionSpace>;
  const auto q        = loopnest_test::on_grid<fields>("q", nvar, g);
  const auto face     = loopnest_test::on_grid<fields>("face", nvar, g);
  const auto expected = loopnest_test::on_grid<fields>("expected", nvar, g);
  const auto out      = loopnest_test::on_grid<fields>("out", nvar, g);
  loopnest_test::fill(q, 2027, true);
  loopnest_test::fill(expected, 0, false);
  const auto in = q.interior();
  int lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = in.lower(d) + (offset && d != Axis && d < q.dims() ? 1 : 0);
    hi[d] = in.upper(d);
  }
  const loopnest::box<3> cells{{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  int flo[3] = {lo[0], lo[1], lo[2]}, fhi[3] = {hi[0], hi[1], hi[2]};
  fhi[Axis] += 1;
  const loopnest::box<3> faces{{flo[0], flo[1], flo[2]}, {fhi[0], fhi[1], fhi[2]}};
  const T inv = T(1) / T(0.37);
  using ref   = loopnest::field_set_ref<T>;
  loopnest::for_each_cell<loopnest::collapse3>(
      exec, faces, faces_to_memory<Axis, T, ref>{q.ref(), face.ref(), nvar});
  loopnest::for_each_cell<loopnest::collapse3>(
      exec, cells, difference_from_memory<Axis, T, ref>{face.ref(), expected.ref(), nvar, inv});
  loopnest_test::host_fields<T, Layout, typename ExecutionSpace::memory_space> want(expected);
  const sweep_difference<Axis, T, ref> body{out.ref(), nvar, inv};
  const auto own = loopnest::sweep_traits<ExecutionSpace>::shape;
  for (const loopnest::sweep_shape& s : shapes<ExecutionSpace>()) {
    // The backend's own shape once more under launch bounds that cap the registers.
    for (const bool bounded : {false, true}) {
      if (bounded && (s.pencils != own.pencils || s.length != own.length)) {
        continue;
      }
      SCOPED_TRACE("shape " + std::to_string(s.pencils) + " x " + std::to_string(s.length) +
                   (bounded ? ", launch bounds" : ""));
      loopnest_test::fill(out, 0, false);
      if (bounded) {
        loopnest::sweep<Axis, loopnest::launch_bounds<256, 2>>(exec, cells, q, 2, {{nvar, 0, 1}},
                                                               body, "test::sweep", s);
      } else {
        loopnest::sweep<Axis>(exec, cells, q, 2, {{nvar, 0, 1}}, body, "test::sweep", s);
      }
      expect_output(want, out);
    }
  }
}

template <class T, class Layout, class ExecutionSpace>
void check_every_axis(const ExecutionSpace& exec) {
  for (const bool offset : {false, true}) {
    check_axis<T, Layout, ExecutionSpace, 0>(exec, {{13, 6, 5}, 2}, offset);
    check_axis<T, Layout, ExecutionSpace, 1>(exec, {{13, 6, 5}, 2}, offset);
    check_axis<T, Layout, ExecutionSpace, 2>(exec, {{13, 6, 5}, 2}, offset);
    check_axis<T, Layout, ExecutionSpace, 0>(exec, {{17, 5}, 3}, offset);
    check_axis<T, Layout, ExecutionSpace, 1>(exec, {{17, 5}, 3}, offset);
  }
  check_axis<T, Layout, ExecutionSpace, 0>(exec, {{23}, 2}, false);
}

template <class ExecutionSpace>
class sweep : public ::testing::Test {};
TYPED_TEST_SUITE(sweep, loopnest_test::execution_spaces);

// Every axis, both layouts and precisions, every block shape: the sweep's bits are the two
// loops' through memory, and no cell outside the box is written.
TYPED_TEST(sweep, matches_the_loops_through_memory_bit_for_bit) {
  check_every_axis<double, Kokkos::LayoutLeft>(TypeParam());
  check_every_axis<double, Kokkos::LayoutRight>(TypeParam());
  check_every_axis<float, Kokkos::LayoutLeft>(TypeParam());
  check_every_axis<float, Kokkos::LayoutRight>(TypeParam());
}

// What the body of the refusals' calls would have written.
template <class ExecutionSpace>
struct write_everything {
  loopnest::field_set_ref<double> out;
  template <class Block>
  KOKKOS_INLINE_FUNCTION void operator()(const Block& block) const {
    block.for_each_cell(0, 0, [&](int i, int j, int k) { out(0, i, j, k) = 1.0; });
  }
};

template <class ExecutionSpace>
void check_refusals(const ExecutionSpace& exec) {
  const fields_t<double, Kokkos::LayoutLeft, ExecutionSpace> q("q", 2, {8, 6}, 2);
  const fields_t<double, Kokkos::LayoutLeft, ExecutionSpace> out("out", 1, {8, 6}, 2);
  loopnest_test::fill(q, 7, true);
  loopnest_test::fill(out, 0, false);
  const write_everything<ExecutionSpace> body{out.ref()};
  const auto in   = q.interior();
  const auto call = [&](auto axis, const loopnest::box<3>& b, int halo,
                        std::initializer_list<loopnest::sweep_array> arrays,
                        loopnest::sweep_shape s) {
    return error_of([&] {
      loopnest::sweep<decltype(axis)::value>(exec, b, q, halo, arrays, body, "test::sweep", s);
    });
  };
  using x                 = std::integral_constant<int, 0>;
  using z                 = std::integral_constant<int, 2>;
  const auto own          = loopnest::sweep_traits<ExecutionSpace>::shape;
  const std::string not_z = call(z{}, in, 0, {}, own);
  expect_mentions(not_z, "loopnest::sweep");
  expect_mentions(not_z, "the axis 2 is not one of the fields' 2 dimensions");
  expect_mentions(call(x{}, in, -1, {}, own), "halo = -1 is negative");
  const std::string wide = call(x{}, in, 3, {}, own);
  expect_mentions(wide, "the box [-3, 11) x [0, 6) x [0, 1)");
  expect_mentions(wide, "does not fit the index space with ghosts [-2, 10) x [-2, 8) x [0, 1)");
  expect_mentions(call(x{}, in, 1, {{0, 0, 1}}, own), "array 0 has nvar = 0, below = 0, above = 1");
  expect_mentions(call(x{}, in, 1, {{1, -1, 0}}, own), "below = -1");
  expect_mentions(call(x{}, in, 1, {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}}, own),
                  "5 scratch arrays; at most 4");
  expect_mentions(call(x{}, in, 1, {}, {0, 4, own.team_size}), "shape has pencils = 0");
  expect_mentions(error_of([&] {
                    loopnest::sweep<0, loopnest::launch_bounds<1, 1>>(exec, in, q, 1, {}, body,
                                                                      "test::sweep", {1, 4, 2});
                  }),
                  "shape.team_size = 2 is more than the launch bounds' 1 threads");
  const std::string big = call(x{}, in, 1, {}, {1000, 1000, own.team_size});
  expect_mentions(big, "a block of 1000 x 1000 cells needs");
  expect_mentions(big, "bytes of team scratch; the backend gives");
  const loopnest_test::host_fields<double, Kokkos::LayoutLeft,
                                   typename ExecutionSpace::memory_space>
      after(out);
  for (const auto& view : after.h) {
    for (std::size_t e = 0; e < view.span(); ++e) {
      ASSERT_TRUE(same_bits(view.data()[e], poison<double>)) << "element " << e << " written";
    }
  }
  // An empty box is a no-op, after the same checks.
  const loopnest::box<3> none{{0, 0, 0}, {0, 6, 1}};
  EXPECT_EQ(call(x{}, none, 1, {}, own), "no exception");
  expect_mentions(call(x{}, none, -2, {}, own), "halo = -2 is negative");
}

// Each bad argument is refused by name before any launch, and nothing is written.
TYPED_TEST(sweep, bad_arguments_are_refused_before_any_launch) {
  check_refusals(TypeParam());
}

}  // namespace
