#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "schedules.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

template <class T>
constexpr T poison = T(-1.0e30);

// Host copies of every field of a set, indexed by grid indices through `at`.
template <class T, class Layout, class Space>
struct host_fields {
  const loopnest::field_set<T, Layout, Space>* fs;
  std::vector<typename Kokkos::View<T***, Layout, Space>::HostMirror> h;

  explicit host_fields(const loopnest::field_set<T, Layout, Space>& f) : fs(&f) {
    for (int v = 0; v < f.nvar(); ++v) {
      h.push_back(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.field(v)));
    }
  }
  T& at(int v, int i, int j, int k) {
    return h[v](i - fs->lower(0), j - fs->lower(1), k - fs->lower(2));
  }
  void upload() const {
    for (int v = 0; v < fs->nvar(); ++v) {
      Kokkos::deep_copy(fs->field(v), h[v]);
    }
  }
};

template <class T, class Layout, class Space>
void fill(const loopnest::field_set<T, Layout, Space>& f, unsigned seed, bool random) {
  host_fields<T, Layout, Space> h(f);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (auto& view : h.h) {
    for (std::size_t e = 0; e < view.span(); ++e) {
      view.data()[e] = random ? static_cast<T>(dist(gen)) : poison<T>;
    }
  }
  h.upload();
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class Schedule>
std::string describe(const std::string& what) {
  return what + " " + loopnest::name(Schedule::kind) + "/" +
         loopnest::name(typename Schedule::mapping{});
}

struct grid {
  std::initializer_list<int> interior;
  int ghost;
};
const grid grids[] = {{{13, 6, 5}, 1}, {{9, 7, 3}, 4}, {{17, 5}, 2}, {{23}, 3}};

// ---------------------------------------------------------------------------------------

template <class Schedule, class T, class Layout, class ExecutionSpace>
void check_copy(const ExecutionSpace& exec, const grid& g, unsigned seed) {
  using set = loopnest::field_set<T, Layout, typename ExecutionSpace::memory_space>;
  const set src("src", 4, g.interior, g.ghost), dst("dst", 4, g.interior, g.ghost);
  fill(src, seed, true);
  fill(dst, seed, false);
  loopnest::copy_fields<Schedule>(exec, dst, src);
  exec.fence();
  host_fields<T, Layout, typename ExecutionSpace::memory_space> hs(src), hd(dst);
  int wrong = 0;
  for (int v = 0; v < 4; ++v) {
    for (std::size_t e = 0; e < hs.h[v].span(); ++e) {
      wrong += !same_bits(hs.h[v].data()[e], hd.h[v].data()[e]);
    }
  }
  EXPECT_EQ(wrong, 0) << describe<Schedule>("copy_fields") << " " << src.dims() << "D";
}

// rhs after x, then y, then z flux differences, from a plain host loop over the formulas.
template <class T, class Layout, class Space>
void reference_rhs(host_fields<T, Layout, Space>& r, host_fields<T, Layout, Space>& f,
                   const std::vector<std::vector<T>>& inv_d, int upto) {
  const auto& fs = *r.fs;
  for (int dir = 0; dir <= upto; ++dir) {
    for (int v = 0; v < fs.nvar(); ++v) {
      for (int k = 0; k < fs.interior_extent(2); ++k) {
        for (int j = 0; j < fs.interior_extent(1); ++j) {
          for (int i = 0; i < fs.interior_extent(0); ++i) {
            const int c = dir == 0 ? i : dir == 1 ? j : k;
            const T diff =
                f.at(v, i - (dir == 0), j - (dir == 1), k - (dir == 2)) - f.at(v, i, j, k);
            r.at(v, i, j, k) = dir == 0 ? inv_d[0][c] * diff
                                        : loopnest::fma(inv_d[dir][c], diff, r.at(v, i, j, k));
          }
        }
      }
    }
  }
}

template <class Schedule, class T, class Layout, class ExecutionSpace>
void check_flux_difference(const ExecutionSpace& exec, const grid& g, unsigned seed) {
  using space    = typename ExecutionSpace::memory_space;
  using set      = loopnest::field_set<T, Layout, space>;
  const int nvar = 8;
  const set flux("flux", nvar, g.interior, g.ghost), rhs("rhs", nvar, g.interior, g.ghost);
  fill(flux, seed, true);
  fill(rhs, seed, false);
  std::mt19937 gen(seed + 7);
  std::uniform_real_distribution<double> dist(0.5, 2.0);
  std::vector<std::vector<T>> inv(3);
  std::vector<Kokkos::View<T*, space>> inv_d;
  for (int d = 0; d < flux.dims(); ++d) {
    Kokkos::View<T*, space> view("inv_d", flux.interior_extent(d));
    auto h = Kokkos::create_mirror_view(view);
    for (int c = 0; c < flux.interior_extent(d); ++c) {
      inv[d].push_back(h(c) = static_cast<T>(dist(gen)));
    }
    Kokkos::deep_copy(view, h);
    inv_d.push_back(view);
  }
  for (int d = 0; d < flux.dims(); ++d) {
    loopnest::flux_difference<Schedule>(exec, d, rhs, flux, inv_d[d]);
  }
  exec.fence();
  host_fields<T, Layout, space> hf(flux), hr(rhs);
  const set expected_set("expected", nvar, g.interior, g.ghost);
  fill(expected_set, seed, false);
  host_fields<T, Layout, space> he(expected_set);
  reference_rhs(he, hf, inv, flux.dims() - 1);
  int wrong = 0;
  for (int v = 0; v < nvar; ++v) {
    for (std::size_t e = 0; e < hr.h[v].span(); ++e) {
      wrong += !same_bits(hr.h[v].data()[e], he.h[v].data()[e]);
    }
  }
  EXPECT_EQ(wrong, 0) << describe<Schedule>("flux_difference x, y, z") << " " << flux.dims()
                      << "D ghost " << g.ghost << " (ghost cells must keep their poison)";

  // The three directions in sequence equal the sum of three one-direction results, each
  // started from zero, to within the rounding of the two extra additions.
  if (flux.dims() == 3) {
    T worst = 0;
    for (int v = 0; v < nvar; ++v) {
      for (int k = 0; k < flux.interior_extent(2); ++k) {
        for (int j = 0; j < flux.interior_extent(1); ++j) {
          for (int i = 0; i < flux.interior_extent(0); ++i) {
            T sum = 0;
            for (int d = 0; d < 3; ++d) {
              const int c = d == 0 ? i : d == 1 ? j : k;
              sum += inv[d][c] *
                     (hf.at(v, i - (d == 0), j - (d == 1), k - (d == 2)) - hf.at(v, i, j, k));
            }
            worst = std::max(worst, std::abs(sum - hr.at(v, i, j, k)));
          }
        }
      }
    }
    EXPECT_LE(worst, T(32) * std::numeric_limits<T>::epsilon()) << describe<Schedule>("x+y+z");
  }
}

// Every element of the packed buffer, read in storage order, against the field at its grid
// index: the pack covers the ghosts too, so no poison may remain.
template <class Schedule, class T, class Layout, class ExecutionSpace>
void check_pack(const ExecutionSpace& exec, const grid& g, unsigned seed,
                loopnest::axis_order order) {
  using space = typename ExecutionSpace::memory_space;
  const loopnest::field_set<T, Layout, space> fields("fields", 5, g.interior, g.ghost);
  const loopnest::packed_fields<T, Kokkos::LayoutLeft, space> packed("packed", 5, g.interior,
                                                                     g.ghost, order);
  fill(fields, seed, true);
  Kokkos::deep_copy(packed.view(), poison<T>);
  loopnest::pack_weno<Schedule>(exec, packed, fields);
  exec.fence();
  host_fields<T, Layout, space> hf(fields);
  const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), packed.view());
  int wrong     = 0;
  int grid_index[3];
  for (int v = 0; v < 5; ++v) {
    for (int s2 = 0; s2 < static_cast<int>(hp.extent(2)); ++s2) {
      for (int s1 = 0; s1 < static_cast<int>(hp.extent(1)); ++s1) {
        for (int s0 = 0; s0 < static_cast<int>(hp.extent(0)); ++s0) {
          const int s[3] = {s0, s1, s2};
          for (int e = 0; e < 3; ++e) {
            grid_index[packed.storage_dim(e)] = s[e] + packed.lower(packed.storage_dim(e));
          }
          wrong +=
              !same_bits(hp(s0, s1, s2, v), hf.at(v, grid_index[0], grid_index[1], grid_index[2]));
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0) << describe<Schedule>("pack_weno") << " order " << loopnest::name(order)
                      << " " << fields.dims() << "D";
}

// The faces of one direction copied from the packed buffer, every other cell still poison.
template <class Schedule, class T, class Layout, class ExecutionSpace>
void check_finalize(const ExecutionSpace& exec, const grid& g, unsigned seed) {
  using space = typename ExecutionSpace::memory_space;
  const loopnest::packed_fields<T, Kokkos::LayoutLeft, space> flux_rs("flux_rs", 6, g.interior,
                                                                      g.ghost);
  const loopnest::field_set<T, Layout, space> flux("flux", 6, g.interior, g.ghost);
  {
    auto h = Kokkos::create_mirror_view(flux_rs.view());
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (std::size_t e = 0; e < h.span(); ++e) {
      h.data()[e] = static_cast<T>(dist(gen));
    }
    Kokkos::deep_copy(flux_rs.view(), h);
  }
  const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), flux_rs.view());
  for (int dir = 0; dir < flux.dims(); ++dir) {
    fill(flux, seed, false);
    loopnest::finalize_flux<Schedule>(exec, dir, flux, flux_rs);
    exec.fence();
    host_fields<T, Layout, space> hf(flux);
    int wrong = 0;
    for (int v = 0; v < 6; ++v) {
      for (int k = flux.lower(2); k < flux.upper(2); ++k) {
        for (int j = flux.lower(1); j < flux.upper(1); ++j) {
          for (int i = flux.lower(0); i < flux.upper(0); ++i) {
            const int c[3] = {i, j, k};
            bool face      = true;
            for (int d = 0; d < 3; ++d) {
              face = face && c[d] >= (d == dir ? -1 : 0) && c[d] < flux.interior_extent(d);
            }
            const T expect =
                face ? hp(i - flux.lower(0), j - flux.lower(1), k - flux.lower(2), v) : poison<T>;
            wrong += !same_bits(hf.at(v, i, j, k), expect);
          }
        }
      }
    }
    EXPECT_EQ(wrong, 0) << describe<Schedule>("finalize_flux") << " direction " << dir << " "
                        << flux.dims() << "D";
  }
}

template <class T, class Layout, class ExecutionSpace, class... Schedules>
void check_all(const ExecutionSpace& exec, std::tuple<Schedules...>*) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const auto& g : grids) {
    (check_copy<Schedules, T, Layout>(exec, g, seed), ...);
    (check_flux_difference<Schedules, T, Layout>(exec, g, seed), ...);
    (check_finalize<Schedules, T, Layout>(exec, g, seed), ...);
    for (const auto order :
         {loopnest::axis_order::xyz, loopnest::axis_order::yxz, loopnest::axis_order::zyx}) {
      (check_pack<Schedules, T, Layout>(exec, g, seed, order), ...);
    }
  }
}

// The kernels take the layout from the field set, so the schedules' own layout is irrelevant.
using all_schedules = loopnest_test::schedules_for_layout<Kokkos::LayoutLeft>;

template <class ExecutionSpace>
class field_kernels : public ::testing::Test {};
TYPED_TEST_SUITE(field_kernels, loopnest_test::execution_spaces);

TYPED_TEST(field_kernels, match_the_host_loop_bit_for_bit_fp64) {
  check_all<double, Kokkos::LayoutLeft>(TypeParam(), static_cast<all_schedules*>(nullptr));
  check_all<double, Kokkos::LayoutRight>(TypeParam(), static_cast<all_schedules*>(nullptr));
}

TYPED_TEST(field_kernels, match_the_host_loop_bit_for_bit_fp32) {
  check_all<float, Kokkos::LayoutLeft>(TypeParam(), static_cast<all_schedules*>(nullptr));
  check_all<float, Kokkos::LayoutRight>(TypeParam(), static_cast<all_schedules*>(nullptr));
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
  expect_mentions(
      error_of([&] { loopnest::flux_difference<collapse3>(exec, 3, rhs, flux, inv_x); }),
      "direction = 3 but the grid has 3 dimensions");
  expect_mentions(
      error_of([&] { loopnest::flux_difference<collapse3>(exec, 2, flat2d, flat2d, inv_x); }),
      "direction = 2 but the grid has 2 dimensions");
  expect_mentions(
      error_of([&] { loopnest::flux_difference<collapse3>(exec, 0, rhs, no_ghost, inv_x); }),
      "flux has ghost = 0 but needs at least 1");
  expect_mentions(
      error_of([&] { loopnest::flux_difference<collapse3>(exec, 0, rhs, flux, inv_wrong); }),
      "inv_d has 7 entries but the interior has 8 cells along direction 0");
  expect_mentions(
      error_of([&] { loopnest::flux_difference<collapse3>(exec, 1, rhs, other_nvar, inv_x); }),
      "rhs has nvar = 5 but flux has nvar = 4");
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
