// Checks of loopnest's field kernels (copy_fields, flux_difference, finalize_flux, pack_weno)
// under one schedule against host loops written from their formulas, on any grid and variable
// count; shared by the deterministic and the randomized tests. Output starts as poison, and
// every element the kernel must not write has to keep it.
#ifndef LOOPNEST_TEST_FIELD_KERNEL_CHECKS_HPP
#define LOOPNEST_TEST_FIELD_KERNEL_CHECKS_HPP

#include <loopnest/field_kernels.hpp>
#include <loopnest/loopnest.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "poison.hpp"
#include "schedules.hpp"

namespace loopnest_test {

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

// The interior extents (1 to 3 of them) and the ghost width of a grid.
struct grid {
  std::vector<int> interior;
  int ghost;
};

inline std::ostream& operator<<(std::ostream& os, const grid& g) {
  os << "interior ";
  for (std::size_t d = 0; d < g.interior.size(); ++d) {
    os << (d ? "x" : "") << g.interior[d];
  }
  return os << " ghost " << g.ghost;
}

// A field_set or packed_fields (extra: its axis order) on grid g.
template <class Shape, class... Extra>
Shape on_grid(const std::string& label, int nvar, const grid& g, Extra... extra) {
  const auto& n = g.interior;
  switch (n.size()) {
    case 1:
      return Shape(label, nvar, {n.at(0)}, g.ghost, extra...);
    case 2:
      return Shape(label, nvar, {n.at(0), n.at(1)}, g.ghost, extra...);
    default:
      return Shape(label, nvar, {n.at(0), n.at(1), n.at(2)}, g.ghost, extra...);
  }
}

template <class Schedule>
std::string describe_kernel(const std::string& what, const grid& g, int nvar) {
  std::ostringstream os;
  os << what << " " << kind_name<Schedule>() << "/" << loopnest::name(typename Schedule::mapping{})
     << " " << g << " nvar " << nvar;
  return os.str();
}

// ---------------------------------------------------------------------------------------

template <class Schedule, class T, class Layout, class ExecutionSpace>
void check_copy(const ExecutionSpace& exec, const grid& g, int nvar, unsigned seed) {
  using set     = loopnest::field_set<T, Layout, typename ExecutionSpace::memory_space>;
  const set src = on_grid<set>("src", nvar, g), dst = on_grid<set>("dst", nvar, g);
  fill(src, seed, true);
  fill(dst, seed, false);
  loopnest::copy_fields<Schedule>(exec, dst, src);
  exec.fence();
  host_fields<T, Layout, typename ExecutionSpace::memory_space> hs(src), hd(dst);
  int wrong = 0;
  for (int v = 0; v < nvar; ++v) {
    for (std::size_t e = 0; e < hs.h[v].span(); ++e) {
      wrong += !same_bits(hs.h[v].data()[e], hd.h[v].data()[e]);
    }
  }
  EXPECT_EQ(wrong, 0) << describe_kernel<Schedule>("copy_fields", g, nvar);
}

// rhs after the flux differences along `first`, first + 1, ... (every direction once, in turn),
// the first assigned and the others accumulated, from a plain host loop over the formulas.
template <class T, class Layout, class Space>
void reference_rhs(host_fields<T, Layout, Space>& r, host_fields<T, Layout, Space>& f,
                   const std::vector<std::vector<T>>& inv_d, int dims, int first) {
  const auto& fs = *r.fs;
  for (int n = 0; n < dims; ++n) {
    const int dir = (first + n) % dims;
    for (int v = 0; v < fs.nvar(); ++v) {
      for (int k = 0; k < fs.interior_extent(2); ++k) {
        for (int j = 0; j < fs.interior_extent(1); ++j) {
          for (int i = 0; i < fs.interior_extent(0); ++i) {
            const int c = dir == 0 ? i : dir == 1 ? j : k;
            const T diff =
                f.at(v, i - (dir == 0), j - (dir == 1), k - (dir == 2)) - f.at(v, i, j, k);
            r.at(v, i, j, k) = n == 0 ? inv_d[dir][c] * diff
                                      : loopnest::fma(inv_d[dir][c], diff, r.at(v, i, j, k));
          }
        }
      }
    }
  }
}

template <class Schedule, class T, class Layout, class ExecutionSpace>
void check_flux_difference(const ExecutionSpace& exec, const grid& g, int nvar, unsigned seed) {
  using space    = typename ExecutionSpace::memory_space;
  using set      = loopnest::field_set<T, Layout, space>;
  const set flux = on_grid<set>("flux", nvar, g), rhs = on_grid<set>("rhs", nvar, g);
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
  // The directions in turn from one the seed picks: the first assigns, the others accumulate.
  const int dims = flux.dims(), first = static_cast<int>(seed % static_cast<unsigned>(dims));
  loopnest::flux_difference<Schedule>(exec, first, loopnest::assign, rhs, flux, inv_d[first]);
  for (int n = 1; n < dims; ++n) {
    const int d = (first + n) % dims;
    loopnest::flux_difference<Schedule>(exec, d, loopnest::accumulate, rhs, flux, inv_d[d]);
  }
  exec.fence();
  host_fields<T, Layout, space> hf(flux), hr(rhs);
  const set expected_set = on_grid<set>("expected", nvar, g);
  fill(expected_set, seed, false);
  host_fields<T, Layout, space> he(expected_set);
  reference_rhs(he, hf, inv, dims, first);
  int wrong = 0;
  for (int v = 0; v < nvar; ++v) {
    for (std::size_t e = 0; e < hr.h[v].span(); ++e) {
      wrong += !same_bits(hr.h[v].data()[e], he.h[v].data()[e]);
    }
  }
  EXPECT_EQ(wrong, 0) << describe_kernel<Schedule>(
                             "flux_difference from direction " + std::to_string(first), g, nvar)
                      << " (ghost cells must keep their poison)";

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
    EXPECT_LE(worst, T(32) * std::numeric_limits<T>::epsilon())
        << describe_kernel<Schedule>("x+y+z", g, nvar);
  }
}

// Every element of the packed buffer, read in storage order, against the field at its grid
// index: the pack covers the ghosts too, so no poison may remain.
template <class Schedule, class T, class Layout, class PackedLayout = Kokkos::LayoutLeft,
          class ExecutionSpace>
void check_pack(const ExecutionSpace& exec, const grid& g, int nvar, unsigned seed,
                loopnest::axis_order order) {
  using space       = typename ExecutionSpace::memory_space;
  using packed_type = loopnest::packed_fields<T, PackedLayout, space>;
  const auto fields = on_grid<loopnest::field_set<T, Layout, space>>("fields", nvar, g);
  const auto packed = on_grid<packed_type>("packed", nvar, g, order);
  fill(fields, seed, true);
  Kokkos::deep_copy(packed.view(), poison<T>);
  loopnest::pack_weno<Schedule>(exec, packed, fields);
  exec.fence();
  host_fields<T, Layout, space> hf(fields);
  const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), packed.view());
  int wrong     = 0;
  int grid_index[3];
  for (int v = 0; v < nvar; ++v) {
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
  EXPECT_EQ(wrong, 0) << describe_kernel<Schedule>("pack_weno", g, nvar) << " order "
                      << loopnest::name(order);
}

// The faces of one direction copied from the packed buffer (in any axis order), every other cell
// still poison.
template <class Schedule, class T, class Layout, class PackedLayout = Kokkos::LayoutLeft,
          class ExecutionSpace>
void check_finalize(const ExecutionSpace& exec, const grid& g, int nvar, unsigned seed,
                    loopnest::axis_order order = loopnest::axis_order::xyz) {
  using space        = typename ExecutionSpace::memory_space;
  using packed_type  = loopnest::packed_fields<T, PackedLayout, space>;
  const auto flux_rs = on_grid<packed_type>("flux_rs", nvar, g, order);
  const auto flux    = on_grid<loopnest::field_set<T, Layout, space>>("flux", nvar, g);
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
    for (int v = 0; v < nvar; ++v) {
      for (int k = flux.lower(2); k < flux.upper(2); ++k) {
        for (int j = flux.lower(1); j < flux.upper(1); ++j) {
          for (int i = flux.lower(0); i < flux.upper(0); ++i) {
            const int c[3] = {i, j, k};
            bool face      = true;
            for (int d = 0; d < 3; ++d) {
              face = face && c[d] >= (d == dir ? -1 : 0) && c[d] < flux.interior_extent(d);
            }
            int s[3];
            for (int e = 0; e < 3; ++e) {
              s[e] = c[flux_rs.storage_dim(e)] - flux_rs.lower(flux_rs.storage_dim(e));
            }
            const T expect = face ? hp(s[0], s[1], s[2], v) : poison<T>;
            wrong += !same_bits(hf.at(v, i, j, k), expect);
          }
        }
      }
    }
    EXPECT_EQ(wrong, 0) << describe_kernel<Schedule>("finalize_flux", g, nvar) << " order "
                        << loopnest::name(order) << " direction " << dir;
  }
}

}  // namespace loopnest_test

#endif
