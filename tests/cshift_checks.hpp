// Helpers for tests of loopnest::cshift: Views of any rank from a list of extents, their bytes,
// the elements of a result that differ from the host's circular shift, and the check of every
// strategy against it.
#ifndef LOOPNEST_TEST_CSHIFT_CHECKS_HPP
#define LOOPNEST_TEST_CSHIFT_CHECKS_HPP

#include <loopnest/cshift.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace loopnest_test {

// 12 bytes in 4-byte words: an element of an odd number of words.
struct three_floats {
  float x, y, z;
};

template <class T, int Rank>
struct data_type {
  using type = typename data_type<T*, Rank - 1>::type;
};
template <class T>
struct data_type<T, 0> {
  using type = T;
};

template <class T, int Rank, class Layout, class Space>
using view_t =
    Kokkos::View<typename data_type<T, Rank>::type, Layout, typename Space::memory_space>;

using extents = std::vector<int>;
using index   = std::array<int, 4>;

template <class View>
View make_view(const std::string& label, const extents& e) {
  constexpr int rank = static_cast<int>(View::rank);
  if constexpr (rank == 1) {
    return View(label, e[0]);
  } else if constexpr (rank == 2) {
    return View(label, e[0], e[1]);
  } else if constexpr (rank == 3) {
    return View(label, e[0], e[1], e[2]);
  } else {
    return View(label, e[0], e[1], e[2], e[3]);
  }
}

template <class View>
auto& at(const View& v, const index& x) {
  constexpr int rank = static_cast<int>(View::rank);
  if constexpr (rank == 1) {
    return v(x[0]);
  } else if constexpr (rank == 2) {
    return v(x[0], x[1]);
  } else if constexpr (rank == 3) {
    return v(x[0], x[1], x[2]);
  } else {
    return v(x[0], x[1], x[2], x[3]);
  }
}

template <class F>
void for_each_index(const extents& e, const F& f) {
  index n{1, 1, 1, 1};
  for (std::size_t d = 0; d < e.size(); ++d) {
    n[d] = e[d];
  }
  index x{};
  for (x[3] = 0; x[3] < n[3]; ++x[3]) {
    for (x[2] = 0; x[2] < n[2]; ++x[2]) {
      for (x[1] = 0; x[1] < n[1]; ++x[1]) {
        for (x[0] = 0; x[0] < n[0]; ++x[0]) {
          f(x);
        }
      }
    }
  }
}

template <class View>
extents extents_of(const View& v) {
  extents e;
  for (int d = 0; d < static_cast<int>(View::rank); ++d) {
    e.push_back(static_cast<int>(v.extent(d)));
  }
  return e;
}

// A host copy of v in its own allocation (a mirror view could be v itself on a host backend).
template <class View>
auto host_copy(const View& v) {
  auto h = Kokkos::create_mirror(v);
  Kokkos::deep_copy(h, v);
  return h;
}

template <class View>
std::vector<unsigned char> bytes_of(const View& v) {
  const auto h  = host_copy(v);
  const auto* p = reinterpret_cast<const unsigned char*>(h.data());
  return std::vector<unsigned char>(p, p + h.span() * sizeof(typename View::value_type));
}

// Random bytes (seed != 0) or the poison byte 0xA5 (seed == 0) in every element.
template <class View>
void fill_bytes(const View& v, unsigned seed) {
  auto h = Kokkos::create_mirror_view(v);
  std::mt19937 gen(seed);
  auto* p = reinterpret_cast<unsigned char*>(h.data());
  for (std::size_t b = 0; b < h.span() * sizeof(typename View::value_type); ++b) {
    p[b] = seed ? static_cast<unsigned char>(gen()) : 0xA5;
  }
  Kokkos::deep_copy(v, h);
}

// Elements of out that differ, byte for byte, from in(x + shift * e_dim) with periodic wrap.
template <class View>
int count_wrong(const View& out, const View& in, int dim, std::int64_t shift) {
  const auto ho = host_copy(out), hi = host_copy(in);
  const std::int64_t n = in.extent(dim);
  const std::int64_t s = (shift % n + n) % n;  // any int64_t shift, without overflow
  int wrong            = 0;
  for_each_index(extents_of(in), [&](const index& x) {
    index y = x;
    y[dim]  = static_cast<int>((x[dim] + s) % n);
    wrong += std::memcmp(&at(ho, x), &at(hi, y), sizeof(typename View::value_type)) != 0;
  });
  return wrong;
}

// Every strategy of loopnest::cshift.
inline std::vector<loopnest::cshift_strategy> strategies() {
  return {loopnest::cshift_strategy::device_table, loopnest::cshift_strategy::no_table};
}

inline std::vector<std::int64_t> shifts_for(std::int64_t n) {
  return {0, 1, -1, n - 1, -(n - 1), n, -n, n + 1, -(n + 1), 3 * n + 2, -(3 * n + 2)};
}

template <class Layout>
const char* layout_name() {
  return std::is_same<Layout, Kokkos::LayoutLeft>::value ? "LayoutLeft" : "LayoutRight";
}

inline std::string extents_text(const extents& e) {
  std::string s;
  for (std::size_t d = 0; d < e.size(); ++d) {
    s += (d ? "x" : "") + std::to_string(e[d]);
  }
  return s;
}

// Every dim and shift (shifts[dim], or shifts_for(extent) when shifts is empty) under every
// strategy: the host loop's bytes, and the same bytes from every strategy.
template <class T, int Rank, class Layout, class Space>
void check_against_host(const Space& exec, const char* type, const extents& e, unsigned seed,
                        const std::vector<std::vector<std::int64_t>>& shifts = {}) {
  using view     = view_t<T, Rank, Layout, Space>;
  const view in  = make_view<view>("in", e);
  const view out = make_view<view>("out", e);
  fill_bytes(in, seed);
  for (int dim = 0; dim < Rank; ++dim) {
    for (const auto shift : shifts.empty() ? shifts_for(e[dim]) : shifts.at(dim)) {
      std::vector<unsigned char> first;
      for (const auto strategy : strategies()) {
        fill_bytes(out, 0);
        loopnest::cshift(exec, out, in, dim, shift, strategy);
        exec.fence();
        const std::string what = std::string(type) + " " + layout_name<Layout>() + " " +
                                 std::to_string(Rank) + "D extents " + extents_text(e) + " dim " +
                                 std::to_string(dim) + " shift " + std::to_string(shift) + " " +
                                 loopnest::name(strategy);
        EXPECT_EQ(count_wrong(out, in, dim, shift), 0) << what;
        const auto bytes = bytes_of(out);
        if (first.empty()) {
          first = bytes;
        } else {
          EXPECT_TRUE(bytes == first)
              << what << " differs from " << loopnest::name(strategies()[0]);
        }
      }
    }
  }
}

// Small shapes, and long rows that need several blocks (table entries) per row on every
// backend.
template <class T, class Layout, class Space>
void check_every_rank(const Space& exec, const char* type, unsigned seed) {
  check_against_host<T, 1, Layout>(exec, type, {7}, seed);
  check_against_host<T, 1, Layout>(exec, type, {5000}, seed + 1);
  check_against_host<T, 2, Layout>(exec, type, {5, 6}, seed + 2);
  check_against_host<T, 2, Layout>(exec, type, {300, 7}, seed + 3);
  check_against_host<T, 3, Layout>(exec, type, {4, 5, 3}, seed + 4);
  check_against_host<T, 3, Layout>(exec, type, {33, 2, 40}, seed + 5);
  check_against_host<T, 4, Layout>(exec, type, {3, 4, 2, 5}, seed + 6);
  check_against_host<T, 4, Layout>(exec, type, {6, 2, 3, 40}, seed + 7);
}

template <class T, class Space>
void check_type(const Space& exec, const char* type, unsigned seed) {
  check_every_rank<T, Kokkos::LayoutLeft>(exec, type, seed);
  check_every_rank<T, Kokkos::LayoutRight>(exec, type, seed + 100);
}

}  // namespace loopnest_test

#endif
