#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "poison.hpp"
#include "randomized_draws.hpp"
#include "schedules.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest::ghost_rule;
using loopnest::ghost_rules;
using loopnest::ghost_span;
using loopnest_test::draw;
using loopnest_test::error_of;
using loopnest_test::expect_mentions;
using loopnest_test::poison;
using loopnest_test::same_bits;

constexpr ghost_rule kinds[] = {ghost_rule::periodic, ghost_rule::extrapolation,
                                ghost_rule::reflection};

template <class T, class Layout, class ExecutionSpace>
using fields_t = loopnest::field_set<T, Layout, typename ExecutionSpace::memory_space>;

// The fields on the host, one mirror per variable, indexed in the grid's index space.
template <class Fields>
struct host_copy {
  using mirror = typename Fields::field_view::HostMirror;
  std::vector<mirror> v;
  loopnest::grid_shape shape;

  explicit host_copy(const Fields& f) : shape(static_cast<const loopnest::grid_shape&>(f)) {
    for (int n = 0; n < f.nvar(); ++n) {
      // A copy of its own, also where the fields are in host memory already.
      v.push_back(Kokkos::create_mirror(f.field(n)));
      Kokkos::deep_copy(v.back(), f.field(n));
    }
  }
  host_copy(const host_copy& other) : shape(other.shape) {
    for (const auto& m : other.v) {
      v.push_back(mirror(m.label(), m.extent(0), m.extent(1), m.extent(2)));
      Kokkos::deep_copy(v.back(), m);
    }
  }
  // A copy with mirrors of its own.
  host_copy clone() const { return host_copy(*this); }
  typename Fields::value_type& operator()(int n, int i, int j, int k) const {
    return v[static_cast<std::size_t>(n)](i - shape.lower(0), j - shape.lower(1),
                                          k - shape.lower(2));
  }
  void upload(const Fields& f) const {
    for (int n = 0; n < f.nvar(); ++n) {
      Kokkos::deep_copy(f.field(n), v[static_cast<std::size_t>(n)]);
    }
  }
  template <class F>
  void for_cells(const F& f) const {
    const auto b = shape.with_ghosts();
    for (int k = b.lower(2); k < b.upper(2); ++k) {
      for (int j = b.lower(1); j < b.upper(1); ++j) {
        for (int i = b.lower(0); i < b.upper(0); ++i) {
          f(i, j, k);
        }
      }
    }
  }
};

// Random values in the interior (both signs), poison in every ghost cell.
template <class Fields>
host_copy<Fields> random_interior(const Fields& f, std::mt19937& gen) {
  host_copy<Fields> h(f);
  using scalar = typename Fields::value_type;
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const auto in = f.interior();
  h.for_cells([&](int i, int j, int k) {
    const bool inside = i >= in.lower(0) && i < in.upper(0) && j >= in.lower(1) &&
                        j < in.upper(1) && k >= in.lower(2) && k < in.upper(2);
    for (int n = 0; n < f.nvar(); ++n) {
      h(n, i, j, k) = inside ? scalar(value(gen)) : poison<scalar>;
    }
  });
  return h;
}

// The fill as a plain host loop, from the rules' definitions: face by face, axis after axis
// from x, every cell of the grid that lies in the face's ghosts (and, across the other axes, in
// their interior, or with corners in any cell of an axis before) gets its source's value.
template <class Fields>
void reference_fill(const host_copy<Fields>& h, const ghost_rules& rules) {
  const auto& g = h.shape;
  for (int a = 0; a < g.dims(); ++a) {
    for (int s = 0; s < 2; ++s) {
      const ghost_rule r = rules.face[a][s];
      if (r == ghost_rule::none) {
        continue;
      }
      const int n = g.interior_extent(a);
      h.for_cells([&](int i, int j, int k) {
        const int c[3] = {i, j, k};
        bool in        = s == 0 ? c[a] < 0 : c[a] >= n;
        for (int e = 0; e < 3; ++e) {
          const bool inside = c[e] >= 0 && c[e] < g.interior_extent(e);
          in = in && (e == a || inside || (rules.span == ghost_span::with_corners && e < a));
        }
        if (!in) {
          return;
        }
        const int l = s == 0 ? -1 - c[a] : c[a] - n;
        int src[3]  = {i, j, k};
        src[a]      = r == ghost_rule::periodic        ? (s == 0 ? n - 1 - l : l)
                      : r == ghost_rule::extrapolation ? (s == 0 ? 0 : n - 1)
                                                       : (s == 0 ? l : n - 1 - l);
        for (int v = 0; v < g.nvar(); ++v) {
          const auto value = h(v, src[0], src[1], src[2]);
          h(v, i, j, k) =
              r == ghost_rule::reflection && v == rules.normal_variable[a] ? -value : value;
        }
      });
    }
  }
}

// Cells of the device fields whose bits differ from the expected host copy.
template <class Fields>
int differences(const Fields& f, const host_copy<Fields>& expected) {
  const host_copy<Fields> got(f);
  int wrong = 0;
  expected.for_cells([&](int i, int j, int k) {
    for (int v = 0; v < f.nvar(); ++v) {
      wrong += !same_bits(got(v, i, j, k), expected(v, i, j, k));
    }
  });
  return wrong;
}

std::string rules_text(const ghost_rules& r, int dims) {
  std::string s;
  for (int a = 0; a < dims; ++a) {
    s += std::string(a ? " | " : "") + loopnest::name(r.face[a][0]) + " " +
         loopnest::name(r.face[a][1]);
  }
  return s + (r.span == ghost_span::face ? " (face)" : " (with corners)");
}

// The rules with `kind` on the faces of `mask` (bit 2 * axis + side) and none elsewhere.
ghost_rules rules_for(ghost_rule kind, int mask, ghost_span span) {
  ghost_rules r;
  for (int a = 0; a < 3; ++a) {
    for (int s = 0; s < 2; ++s) {
      r.face[a][s] = (mask >> (2 * a + s)) & 1 ? kind : ghost_rule::none;
    }
  }
  r.normal_variable[0] = 1;
  r.normal_variable[1] = 2;
  r.normal_variable[2] = 0;
  r.span               = span;
  return r;
}

// Every kind on every subset of faces, with both spans, under Schedule: the fill against the
// reference, every cell of the grid compared (the faces left out must keep their poison).
template <class Schedule, class Fields, class ExecutionSpace>
void check_every_subset(const ExecutionSpace& exec, const Fields& f,
                        const host_copy<Fields>& initial) {
  SCOPED_TRACE(loopnest_test::kind_name<Schedule>());
  for (const ghost_rule kind : kinds) {
    for (int mask = 0; mask < 1 << (2 * f.dims()); ++mask) {
      for (const ghost_span span : {ghost_span::with_corners, ghost_span::face}) {
        const ghost_rules rules = rules_for(kind, mask, span);
        initial.upload(f);
        loopnest::fill_ghosts<Schedule>(exec, f, rules);
        const host_copy<Fields> expected = initial.clone();
        reference_fill(expected, rules);
        ASSERT_EQ(differences(f, expected), 0) << rules_text(rules, f.dims());
      }
    }
  }
}

template <class Tuple, class Fields, class ExecutionSpace, std::size_t... I>
void check_schedules(const ExecutionSpace& exec, const Fields& f, const host_copy<Fields>& initial,
                     std::index_sequence<I...>) {
  (check_every_subset<std::tuple_element_t<I, Tuple>>(exec, f, initial), ...);
}

template <class T, class Layout, class ExecutionSpace>
void check_grid(const ExecutionSpace& exec, std::initializer_list<int> interior, int ghost,
                unsigned seed) {
  SCOPED_TRACE("grid of " + std::to_string(interior.size()) + " dimensions, ghost " +
               std::to_string(ghost) + ", seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  const fields_t<T, Layout, ExecutionSpace> f(exec, "f", 3, interior, ghost);
  const auto initial = random_interior(f, gen);
  using all          = decltype(std::tuple_cat(loopnest_test::schedules_for_layout<Layout>{},
                                               loopnest_test::bounded_schedules<Layout>{},
                                               loopnest_test::strip_schedules<Layout>{}));
  check_schedules<all>(exec, f, initial, std::make_index_sequence<std::tuple_size<all>::value>{});
}

template <class ExecutionSpace>
class ghost_fill : public ::testing::Test {};
TYPED_TEST_SUITE(ghost_fill, loopnest_test::execution_spaces);

TYPED_TEST(ghost_fill, every_kind_and_subset_of_faces_matches_the_host_loop_3d) {
  check_grid<double, Kokkos::LayoutLeft>(TypeParam(), {5, 4, 3}, 2, 11);
  check_grid<double, Kokkos::LayoutRight>(TypeParam(), {3, 5, 4}, 3, 12);
}

TYPED_TEST(ghost_fill, every_kind_and_subset_of_faces_matches_the_host_loop_2d_1d) {
  check_grid<float, Kokkos::LayoutLeft>(TypeParam(), {6, 3}, 3, 13);
  check_grid<double, Kokkos::LayoutRight>(TypeParam(), {4, 7}, 1, 14);
  check_grid<double, Kokkos::LayoutLeft>(TypeParam(), {5}, 4, 15);
}

// Any rule on any face, drawn: random grids (1 to 3 dimensions, 0 to 3 ghost layers, interiors
// of at least the ghost width), random normal variables (-1 included) and spans; the whole fill
// and the fill axis by axis (as a solver that sweeps direction by direction calls it) both match
// the reference.
template <class ExecutionSpace>
void check_random_rules(const ExecutionSpace& exec) {
  using fields = fields_t<double, Kokkos::LayoutLeft, ExecutionSpace>;
  for (unsigned seed = 100; seed < 140; ++seed) {
    std::mt19937 gen(seed);
    const int dims  = draw(gen, 1, 3);
    const int ghost = draw(gen, 0, 3);
    const int nvar  = draw(gen, 1, 4);
    int n[3];
    for (int& e : n) {
      e = draw(gen, std::max(ghost, 1), 6);
    }
    const fields f(exec, "f", nvar,
                   dims == 1   ? std::initializer_list<int>{n[0]}
                   : dims == 2 ? std::initializer_list<int>{n[0], n[1]}
                               : std::initializer_list<int>{n[0], n[1], n[2]},
                   ghost);
    ghost_rules rules;
    for (int a = 0; a < dims; ++a) {
      for (auto& face : rules.face[a]) {
        face = static_cast<ghost_rule>(draw(gen, 0, 3));
      }
      rules.normal_variable[a] = draw(gen, -1, nvar - 1);
    }
    rules.span = draw(gen, 0, 1) ? ghost_span::face : ghost_span::with_corners;
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + rules_text(rules, dims) + ", ghost " +
                 std::to_string(ghost) + ", nvar " + std::to_string(nvar));
    const auto initial               = random_interior(f, gen);
    const host_copy<fields> expected = initial.clone();
    reference_fill(expected, rules);

    initial.upload(f);
    loopnest::fill_ghosts<loopnest::automatic>(exec, f, rules);
    EXPECT_EQ(differences(f, expected), 0) << "whole";

    initial.upload(f);
    for (int a = 0; a < dims; ++a) {
      loopnest::fill_ghosts<loopnest::flat>(exec, f, rules, a);
    }
    EXPECT_EQ(differences(f, expected), 0) << "axis by axis";
  }
}

TYPED_TEST(ghost_fill, random_rules_on_random_grids_match_the_host_loop) {
  check_random_rules(TypeParam());
}

// Filled axis after axis with corners, a periodic grid's ghosts are the periodic image of the
// interior everywhere, corners included, and an extrapolated grid's corners the corner cell.
template <class ExecutionSpace>
void check_corners(const ExecutionSpace& exec) {
  using fields = fields_t<double, Kokkos::LayoutLeft, ExecutionSpace>;
  const fields f(exec, "f", 1, {4, 3, 5}, 2);
  std::mt19937 gen(7);
  const auto initial = random_interior(f, gen);
  const auto wrap    = [](int i, int n) { return ((i % n) + n) % n; };
  for (const ghost_rule kind : {ghost_rule::periodic, ghost_rule::extrapolation}) {
    initial.upload(f);
    loopnest::fill_ghosts<loopnest::collapse3>(exec, f,
                                               rules_for(kind, 63, ghost_span::with_corners));
    const host_copy<fields> got(f);
    int wrong = 0;
    got.for_cells([&](int i, int j, int k) {
      const int src[3] = {i, j, k};
      int from[3];
      for (int e = 0; e < 3; ++e) {
        const int n = f.interior_extent(e);
        from[e] =
            kind == ghost_rule::periodic ? wrap(src[e], n) : std::min(std::max(src[e], 0), n - 1);
      }
      wrong += !same_bits(got(0, i, j, k), initial(0, from[0], from[1], from[2]));
    });
    EXPECT_EQ(wrong, 0) << loopnest::name(kind);
  }
}

TYPED_TEST(ghost_fill, corners_come_out_right_axis_after_axis) {
  check_corners(TypeParam());
}

// Bad rules are refused before any launch, naming the parameter and its value, and the ghosts
// keep their poison.
template <class ExecutionSpace>
void check_refusals(const ExecutionSpace& exec) {
  using fields = fields_t<double, Kokkos::LayoutLeft, ExecutionSpace>;
  const fields f(exec, "f", 2, {6, 2}, 3);
  std::mt19937 gen(3);
  const auto initial = random_interior(f, gen);
  initial.upload(f);
  const auto fill = [&](const ghost_rules& r) {
    return error_of([&] { loopnest::fill_ghosts<loopnest::collapse3>(exec, f, r); });
  };
  ghost_rules r;
  r.face[0][0] = ghost_rule::periodic;
  r.face[2][1] = ghost_rule::extrapolation;
  expect_mentions(fill(r), "face[2][1] is extrapolation but the grid has 2 dimensions");
  r             = ghost_rules{};
  r.face[0][0]  = ghost_rule::extrapolation;
  r.face[1][0]  = ghost_rule::periodic;
  const auto pm = fill(r);
  expect_mentions(pm, "loopnest::fill_ghosts: face[1][0] is periodic");
  expect_mentions(pm, "interior[1] = 2 is below ghost = 3");
  r.face[1][0] = ghost_rule::reflection;
  expect_mentions(fill(r), "face[1][0] is reflection but interior[1] = 2");
  r.face[1][0] = ghost_rule::extrapolation;
  r.face[0][1] = ghost_rule::reflection;
  for (const int bad : {2, -2}) {
    r.normal_variable[0] = bad;
    expect_mentions(fill(r), "normal_variable[0] = " + std::to_string(bad) +
                                 " but the fields have 2 variables");
  }
  r.normal_variable[0] = 1;
  r.face[2][0]         = static_cast<ghost_rule>(9);
  expect_mentions(fill(r), "face[2][0] = 9 is no loopnest::ghost_rule");
  r.face[2][0] = ghost_rule::none;
  r.span       = static_cast<ghost_span>(5);
  expect_mentions(fill(r), "span = 5 is no loopnest::ghost_span");
  r.span = ghost_span::face;
  for (const int axis : {-1, 2}) {
    expect_mentions(
        error_of([&] { loopnest::fill_ghosts<loopnest::collapse3>(exec, f, r, axis); }),
        "loopnest::fill_ghosts: axis = " + std::to_string(axis) + " but the grid has 2");
  }
  // One axis checks its own faces only: y's thin periodic face does not stop an x fill.
  r.face[1][1] = ghost_rule::periodic;
  expect_mentions(error_of([&] { loopnest::fill_ghosts<loopnest::collapse3>(exec, f, r, 1); }),
                  "face[1][1] is periodic");
  EXPECT_EQ(differences(f, initial), 0) << "a refused fill wrote the fields";
  loopnest::fill_ghosts<loopnest::collapse3>(exec, f, r, 0);
  EXPECT_NE(differences(f, initial), 0) << "the x fill ran";
}

TYPED_TEST(ghost_fill, bad_rules_are_refused_before_any_launch) {
  check_refusals(TypeParam());
}

}  // namespace
