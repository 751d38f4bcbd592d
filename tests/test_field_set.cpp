#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

KOKKOS_INLINE_FUNCTION double encode(int v, int i, int j, int k) {
  return 1e6 * v + 1e4 * (i + 50) + 1e2 * (j + 50) + (k + 50);
}

// Allocates on exec, writes every (variable, cell) of the ghost-inclusive grid through the device
// handle, then reads each field back through its own View: a wrong stride, offset or pointer
// shows.
template <class Layout, class ExecutionSpace>
void check_indexing(const ExecutionSpace& exec, std::initializer_list<int> interior, int ghost) {
  using set = loopnest::field_set<double, Layout, typename ExecutionSpace::memory_space>;
  const set fs(exec, "fs", 3, interior, ghost);
  const auto ref = fs.ref();
  loopnest::for_each_cell_var<loopnest::with_layout_t<loopnest::collapse3, Layout>>(
      exec, fs.with_ghosts(), fs.nvar(),
      KOKKOS_LAMBDA(int i, int j, int k, int v) { ref(v, i, j, k) = encode(v, i, j, k); });
  exec.fence();
  for (int v = 0; v < fs.nvar(); ++v) {
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), fs.field(v));
    ASSERT_EQ(static_cast<int>(h.extent(0)), fs.extent(0));
    ASSERT_EQ(static_cast<int>(h.extent(1)), fs.extent(1));
    ASSERT_EQ(static_cast<int>(h.extent(2)), fs.extent(2));
    int wrong = 0;
    for (int k = fs.lower(2); k < fs.upper(2); ++k) {
      for (int j = fs.lower(1); j < fs.upper(1); ++j) {
        for (int i = fs.lower(0); i < fs.upper(0); ++i) {
          wrong += h(i - fs.lower(0), j - fs.lower(1), k - fs.lower(2)) != encode(v, i, j, k);
        }
      }
    }
    EXPECT_EQ(wrong, 0) << "variable " << v << ", " << fs.dims() << "D, ghost " << ghost;
  }
}

template <class ExecutionSpace>
class field_set : public ::testing::Test {};
TYPED_TEST_SUITE(field_set, loopnest_test::execution_spaces);

TYPED_TEST(field_set, ghosts_only_in_active_dimensions) {
  using set = loopnest::field_set<float, Kokkos::LayoutLeft, typename TypeParam::memory_space>;
  const set three("three", 2, {5, 4, 3}, 2);
  EXPECT_EQ(three.dims(), 3);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(three.lower(d), -2);
  }
  EXPECT_EQ(three.upper(0), 7);
  EXPECT_EQ(three.upper(2), 5);
  EXPECT_EQ(three.interior().size(), 60);
  EXPECT_EQ(three.with_ghosts().size(), 9 * 8 * 7);

  const set two("two", 1, {7, 6}, 3);
  EXPECT_EQ(two.lower(1), -3);
  EXPECT_EQ(two.lower(2), 0);
  EXPECT_EQ(two.upper(2), 1);
  EXPECT_EQ(two.with_ghosts().size(), 13 * 12);

  const set one("one", 4, {9}, 4);
  EXPECT_EQ(one.extent(0), 17);
  EXPECT_EQ(one.extent(1), 1);
  EXPECT_EQ(one.extent(2), 1);
  EXPECT_NE(one.field(0).data(), one.field(1).data()) << "every variable is its own allocation";
}

TYPED_TEST(field_set, device_handle_indexes_every_field_with_ghosts) {
  const TypeParam exec;
  for (int ghost : {0, 1, 4}) {
    check_indexing<Kokkos::LayoutLeft>(exec, {6, 5, 3}, ghost);
    check_indexing<Kokkos::LayoutRight>(exec, {6, 5, 3}, ghost);
    check_indexing<Kokkos::LayoutLeft>(exec, {7, 4}, ghost);
    check_indexing<Kokkos::LayoutRight>(exec, {7, 4}, ghost);
    check_indexing<Kokkos::LayoutLeft>(exec, {11}, ghost);
  }
}

TYPED_TEST(field_set, bad_shapes_are_refused) {
  using set = loopnest::field_set<double, Kokkos::LayoutLeft, typename TypeParam::memory_space>;
  expect_mentions(error_of([] {
                    set("f", 0, {4, 4, 4}, 2);
                  }),
                  "nvar = 0 but it must be at least 1");
  expect_mentions(error_of([] {
                    set("f", 3, {4, 0, 4}, 2);
                  }),
                  "interior[1] = 0 but it must be at least 1");
  expect_mentions(error_of([] {
                    set("f", 3, {4, 4}, -1);
                  }),
                  "ghost = -1 but it must be at least 0");
  expect_mentions(error_of([] { set("f", 3, {4, 4, 4, 4}, 1); }), "4 interior extents given");
  expect_mentions(error_of([] { set("f", 3, {}, 1); }), "0 interior extents given");
  // The extent with ghosts, n + 2 ghost, would wrap in int.
  expect_mentions(error_of([] {
                    set("f", 1, {4, 4}, INT_MAX);
                  }),
                  "interior[0] = 4 with ghost = 2147483647 on both sides exceeds 2^31 - 1");
  expect_mentions(error_of([] { set("f", 1, {INT_MAX - 1}, 1); }),
                  "interior[0] = 2147483646 with ghost = 1 on both sides exceeds 2^31 - 1");
}

std::string text(const loopnest::box<3>& b) {
  std::string s;
  for (int d = 0; d < 3; ++d) {
    s += "[" + std::to_string(b.lower(d)) + ", " + std::to_string(b.upper(d)) + ")";
  }
  return s;
}

TEST(grid_shape, ghost_boxes_of_each_face) {
  using loopnest::ghost_span;
  const loopnest::grid_shape g("g", 1, {5, 4, 3}, 2);
  EXPECT_EQ(text(g.ghost_box(0, 0)), "[-2, 0)[0, 4)[0, 3)");
  EXPECT_EQ(text(g.ghost_box(0, 1)), "[5, 7)[0, 4)[0, 3)");
  EXPECT_EQ(text(g.ghost_box(1, 1)), "[-2, 7)[4, 6)[0, 3)") << "spans x's ghosts";
  EXPECT_EQ(text(g.ghost_box(2, 0)), "[-2, 7)[-2, 6)[-2, 0)") << "spans x's and y's ghosts";
  EXPECT_EQ(text(g.ghost_box(1, 0, ghost_span::face)), "[0, 5)[-2, 0)[0, 3)");
  EXPECT_EQ(text(g.ghost_box(2, 1, ghost_span::face)), "[0, 5)[0, 4)[3, 5)");
  // The cells a periodic axis copies in: the outermost layers on the other side.
  EXPECT_EQ(text(g.ghost_source_box(0, 0)), "[3, 5)[0, 4)[0, 3)");
  EXPECT_EQ(text(g.ghost_source_box(0, 1)), "[0, 2)[0, 4)[0, 3)");
  EXPECT_EQ(text(g.ghost_source_box(2, 0)), "[-2, 7)[-2, 6)[1, 3)");
  EXPECT_EQ(text(g.ghost_source_box(1, 1, ghost_span::face)), "[0, 5)[0, 2)[0, 3)");
  // Inactive axes keep their one cell.
  const loopnest::grid_shape flat("flat", 1, {6, 3}, 1);
  EXPECT_EQ(text(flat.ghost_box(1, 0)), "[-1, 7)[-1, 0)[0, 1)");
  EXPECT_TRUE(loopnest::grid_shape("none", 1, {4}, 0).ghost_box(0, 1).empty());
}

// With corners, the slabs of every face and the interior tile the grid: each cell lies in
// exactly one; with faces only, the edges and corners are in none.
TEST(grid_shape, ghost_boxes_with_corners_tile_the_grid) {
  for (const auto span : {loopnest::ghost_span::with_corners, loopnest::ghost_span::face}) {
    const loopnest::grid_shape g("g", 1, {4, 3, 2}, 2);
    const auto all = g.with_ghosts();
    std::vector<int> count(static_cast<std::size_t>(all.size()), 0);
    const auto mark = [&](const loopnest::box<3>& b) {
      for (int k = b.lower(2); k < b.upper(2); ++k) {
        for (int j = b.lower(1); j < b.upper(1); ++j) {
          for (int i = b.lower(0); i < b.upper(0); ++i) {
            const std::int64_t x = i - all.lower(0), y = j - all.lower(1), z = k - all.lower(2);
            ++count[static_cast<std::size_t>(x + all.extent(0) * (y + all.extent(1) * z))];
          }
        }
      }
    };
    mark(g.interior());
    for (int axis = 0; axis < 3; ++axis) {
      mark(g.ghost_box(axis, 0, span));
      mark(g.ghost_box(axis, 1, span));
    }
    int once = 0, more = 0;
    for (const int c : count) {
      once += c == 1;
      more += c > 1;
    }
    EXPECT_EQ(more, 0);
    const int face_ghosts = 2 * 2 * (3 * 2 + 4 * 2 + 4 * 3);  // two sides, two layers, per axis
    const auto faces_only = g.interior().size() + face_ghosts;
    EXPECT_EQ(once, span == loopnest::ghost_span::face ? faces_only : all.size());
  }
}

TEST(grid_shape, bad_faces_are_refused) {
  const loopnest::grid_shape g("g", 1, {5, 1}, 2);
  expect_mentions(error_of([&] { g.ghost_box(2, 0); }),
                  "loopnest::grid_shape::ghost_box: axis = 2 but the grid has 2 dimensions");
  expect_mentions(error_of([&] { g.ghost_box(-1, 0); }), "axis = -1");
  expect_mentions(error_of([&] { g.ghost_source_box(0, 2); }),
                  "loopnest::grid_shape::ghost_source_box: side = 2 but a face is side 0");
  expect_mentions(error_of([&] { g.ghost_source_box(1, 0); }),
                  "interior[1] = 1 is below ghost = 2");
  EXPECT_EQ(g.ghost_box(1, 0).size(), 9 * 2) << "a thin axis still has its ghosts";
}

// What a kernel captures stays 48 bytes (field_set.hpp), unless the bounds are carried for
// KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK (test_field_bounds_check.cpp).
#if !defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
TEST(field_set_ref, is_48_bytes_whatever_nvar_is) {
  EXPECT_EQ(sizeof(loopnest::field_set_ref<double>), 48u);
  EXPECT_EQ(sizeof(loopnest::field_set_ref<float>), 48u);
  EXPECT_EQ(sizeof(loopnest::packed_fields_ref<double>), 48u);
}
#endif

TYPED_TEST(field_set, a_box_past_the_ghosts_is_refused_naming_both) {
  using set = loopnest::field_set<double, Kokkos::LayoutLeft, typename TypeParam::memory_space>;
  const set f("f", 2, {6, 5, 4}, 2);
  EXPECT_EQ(error_of([&] { loopnest::check_box_fits("here", f, f.with_ghosts()); }),
            "no exception");
  EXPECT_EQ(error_of([&] { loopnest::check_box_fits("here", f, f.interior()); }), "no exception");
  EXPECT_EQ(error_of([&] {
              loopnest::check_box_fits("here", f, loopnest::box<3>{{-9, 0, 0}, {-9, 3, 3}});
            }),
            "no exception")
      << "an empty box touches nothing";
  EXPECT_EQ(error_of([&] {
              loopnest::check_box_fits("loopnest::k", f, loopnest::box<3>{{-2, -3, 0}, {8, 7, 6}});
            }),
            "loopnest::k: the box [-2, 8) x [-3, 7) x [0, 6) does not fit the index space with "
            "ghosts [-2, 8) x [-2, 7) x [-2, 6) (dimension 1)");
  expect_mentions(error_of([&] {
                    loopnest::check_box_fits("here", f, loopnest::box<3>{{0, 0, 0}, {9, 1, 1}});
                  }),
                  "(dimension 0)");
  expect_mentions(error_of([&] {
                    loopnest::check_box_fits("here", f, loopnest::box<3>{{0, 0, -3}, {1, 1, 1}});
                  }),
                  "(dimension 2)");
  // A 2D grid has k = 0 only.
  const set two("two", 1, {6, 5}, 1);
  expect_mentions(error_of([&] {
                    loopnest::check_box_fits("here", two, loopnest::box<3>{{0, 0, 0}, {6, 5, 2}});
                  }),
                  "the box [0, 6) x [0, 5) x [0, 2) does not fit the index space with ghosts "
                  "[-1, 7) x [-1, 6) x [0, 1)");
}

}  // namespace
