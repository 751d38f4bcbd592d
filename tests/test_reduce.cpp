// loopnest::reduce_cell and reduce_cell_var: the same bits under every schedule, mapping and
// layout and from run to run, equal to the documented order (reduction_order.hpp) recomputed
// here on the host, for sums of values whose order matters, and the other Kokkos reducers and a
// custom one.
#include <loopnest/reduce.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "schedules.hpp"

namespace {

using space         = Kokkos::DefaultExecutionSpace;
using field         = Kokkos::View<double****, Kokkos::LayoutLeft, space>;
using plane         = Kokkos::View<double***, Kokkos::LayoutLeft, space>;
constexpr int ghost = 2;  // the boxes start at -ghost: the field's index is the cell's + ghost

// Values from 1e-8 to 1e8 of both signs, so that every order of a sum rounds differently.
field random_field(int nx, int ny, int nz, int nvar, unsigned seed) {
  field q("q", nx + 2 * ghost, ny + 2 * ghost, nz + 2 * ghost, nvar);
  auto host = Kokkos::create_mirror_view(q);
  std::mt19937_64 draw(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-8, 8);
  for (std::size_t n = 0; n < host.span(); ++n) {
    host.data()[n] = mantissa(draw) * std::pow(10.0, exponent(draw));
  }
  Kokkos::deep_copy(q, host);
  return q;
}

// What reduce_cell gives; the result starts poisoned, so that a call that writes nothing fails.
template <class Schedule>
double sum_cells(const field& q, const loopnest::box<3>& b) {
  double total = std::nan("");
  loopnest::reduce_cell<Schedule>(
      space(), b,
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        acc += q(i + ghost, j + ghost, k + ghost, 0);
      },
      Kokkos::Sum<double>(total));
  return total;
}

template <class Schedule>
double sum_cell_vars(const field& q, const loopnest::box<3>& b, int nvar) {
  double total = std::nan("");
  loopnest::reduce_cell_var<Schedule>(
      space(), b, nvar,
      KOKKOS_LAMBDA(int i, int j, int k, int v, double& acc) {
        acc += q(i + ghost, j + ghost, k + ghost, v);
      },
      Kokkos::Sum<double>(total));
  return total;
}

template <class Schedule>
double sum_plane(const plane& q, const loopnest::box<2>& b) {
  double total = std::nan("");
  loopnest::reduce_cell<Schedule>(
      space(), b, KOKKOS_LAMBDA(int i, int j, double& acc) { acc += q(i + ghost, j + ghost, 0); },
      Kokkos::Sum<double>(total));
  return total;
}

// The documented fold of values (reduction_order.hpp) with group and width for fold_group and
// fold_width, written out on the host without the library: levels while more than group *
// width values remain, value s of a level of m folding s, s + m, ...; width slices folded alike;
// the slices joined pairwise.
double ordered_fold(std::vector<double> values, std::size_t group, std::size_t width) {
  while (values.size() > group * width) {
    const std::size_t n = values.size(), m = (n + group - 1) / group;
    std::vector<double> next(m, 0.0);
    for (std::size_t s = 0; s < m; ++s) {
      for (std::size_t t = s; t < n; t += m) {
        next[s] += values[t];
      }
    }
    values = next;
  }
  std::vector<double> slice(width, 0.0);
  for (std::size_t s = 0; s < width; ++s) {
    for (std::size_t t = s; t < values.size(); t += width) {
      slice[s] += values[t];
    }
  }
  for (std::size_t stride = 1; stride < width; stride *= 2) {
    for (std::size_t s = 0; s + stride < width; s += 2 * stride) {
      slice[s] += slice[s + stride];
    }
  }
  return slice[0];
}

// The documented order, written out on the host without the library: tiles of one i and up to
// 8 j and 8 k (3D) or 32 j (2D), folded k outermost; partials numbered i fastest, then bj, bk,
// v; then the fold above with 64 and 1024.
double ordered_sum(const field& q, const loopnest::box<3>& b, int nvar) {
  auto host    = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  const int nx = b.extent(0), ny = b.extent(1), nz = b.extent(2);
  const int nbj = (ny + 7) / 8, nbk = (nz + 7) / 8;
  std::vector<double> partials;
  for (int v = 0; v < nvar; ++v) {
    for (int bk = 0; bk < nbk; ++bk) {
      for (int bj = 0; bj < nbj; ++bj) {
        for (int i = 0; i < nx; ++i) {
          double acc = 0.0;
          for (int k = 8 * bk; k < std::min(8 * bk + 8, nz); ++k) {
            for (int j = 8 * bj; j < std::min(8 * bj + 8, ny); ++j) {
              acc +=
                  host(b.lower(0) + i + ghost, b.lower(1) + j + ghost, b.lower(2) + k + ghost, v);
            }
          }
          partials.push_back(acc);
        }
      }
    }
  }
  return ordered_fold(partials, 64, 1024);
}

// The sum of the same cells in long double: what every order approximates.
long double exact_sum(const field& q, const loopnest::box<3>& b, int nvar) {
  auto host       = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  long double sum = 0.0L;
  for (int v = 0; v < nvar; ++v) {
    for (int k = b.lower(2); k < b.upper(2); ++k) {
      for (int j = b.lower(1); j < b.upper(1); ++j) {
        for (int i = b.lower(0); i < b.upper(0); ++i) {
          sum += host(i + ghost, j + ghost, k + ghost, v);
        }
      }
    }
  }
  return sum;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

using left_schedules  = loopnest_test::schedules_for_layout<Kokkos::LayoutLeft>;
using right_schedules = loopnest_test::schedules_for_layout<Kokkos::LayoutRight>;

TEST(reduce, a_sum_is_the_documented_order_under_every_schedule_and_run) {
  // Extents that are not multiples of the tiles, a box reaching into the ghost layers.
  const loopnest::box<3> b{{-2, -1, -2}, {29, 19, 13}};
  const field q         = random_field(31, 20, 15, 3, 1234);
  const double expected = ordered_sum(q, b, 1);
  ASSERT_NEAR(static_cast<double>(exact_sum(q, b, 1)), expected, 1e-3);
  const auto check = [&](auto schedule) {
    using schedule_type = decltype(schedule);
    for (int run = 0; run < 2; ++run) {
      const double got = sum_cells<schedule_type>(q, b);
      EXPECT_TRUE(same_bits(got, expected)) << loopnest_test::kind_name<schedule_type>() << " run "
                                            << run << ": " << got << " against " << expected;
    }
  };
  std::apply([&](auto... s) { (check(s), ...); }, left_schedules{});
  std::apply([&](auto... s) { (check(s), ...); }, right_schedules{});
}

// reduce_cell_var's sum of q over b under each schedule of Schedules is ordered_sum's bits.
template <class Schedules>
void expect_documented_cell_var_sums(const field& q, const loopnest::box<3>& b, int nvar) {
  const double expected = ordered_sum(q, b, nvar);
  ASSERT_NEAR(static_cast<double>(exact_sum(q, b, nvar)), expected, 1e-3);
  const auto check = [&](auto schedule) {
    using schedule_type = decltype(schedule);
    const double got    = sum_cell_vars<schedule_type>(q, b, nvar);
    EXPECT_TRUE(same_bits(got, expected))
        << loopnest_test::kind_name<schedule_type>() << ": " << got << " against " << expected;
  };
  std::apply([&](auto... s) { (check(s), ...); }, Schedules{});
}

TEST(reduce, a_sum_over_cells_and_variables_is_the_documented_order_under_every_schedule) {
  const loopnest::box<3> b{{-1, 0, -2}, {20, 17, 9}};
  const field q = random_field(23, 19, 13, 5, 99);
  expect_documented_cell_var_sums<left_schedules>(q, b, 5);
  expect_documented_cell_var_sums<right_schedules>(q, b, 5);
}

// More partials than one team folds (64 x 1024): one level before the last.
TEST(reduce, a_sum_with_a_fold_level_is_the_documented_order_under_every_schedule) {
  const loopnest::box<3> b{{0, -1, 0}, {4200, 8, 9}};
  expect_documented_cell_var_sums<left_schedules>(random_field(4200, 7, 9, 4, 4321), b, 4);
}

// The fold of values on the device with a group of Group and Width slices (in team scratch up
// to ScratchBytes), for each count.
template <int Group, int Width, std::size_t ScratchBytes>
std::vector<double> device_folds(const std::vector<std::size_t>& counts, unsigned seed,
                                 std::vector<std::vector<double>>& inputs) {
  using values_view = Kokkos::View<double*, space>;
  std::vector<double> results;
  std::mt19937_64 draw(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (const std::size_t n : counts) {
    std::vector<double> values(n);
    for (double& x : values) {
      x = value(draw) * std::pow(10.0, static_cast<int>(value(draw) * 8));
    }
    inputs.push_back(values);
    const values_view partials("partials", n);
    const values_view slices("slices", Width);
    const Kokkos::View<double, space> result("result");
    Kokkos::deep_copy(partials, Kokkos::View<const double*, Kokkos::HostSpace>(values.data(), n));
    Kokkos::deep_copy(result, std::nan(""));
    double sum = std::nan("");
    loopnest::Impl::fold_partials<Group, Width, ScratchBytes>(
        space(), Kokkos::Sum<double>(sum), partials, slices, result, "loopnest::test_reduce::fold");
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), result);
    results.push_back(host());
  }
  return results;
}

template <int Group, int Width, std::size_t ScratchBytes = loopnest::Impl::fold_scratch_bytes>
void expect_documented_folds(const std::vector<std::size_t>& counts, unsigned seed) {
  std::vector<std::vector<double>> inputs;
  const std::vector<double> got = device_folds<Group, Width, ScratchBytes>(counts, seed, inputs);
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const double expected = ordered_fold(inputs[c], Group, Width);
    EXPECT_TRUE(same_bits(got[c], expected))
        << counts[c] << " values, group " << Group << ", width " << Width << ": " << got[c]
        << " against " << expected;
  }
}

// A group of 4 and 8 slices: 1000 values take three levels before the last (250, 63, 16), and
// counts around each level's edge.
TEST(reduce, the_fold_of_partials_is_the_documented_levels_and_tree) {
  expect_documented_folds<4, 8>({0, 1, 7, 32, 33, 128, 129, 1000}, 2024);
}

// A group of 43 and 8 slices: a work item folds a chunk of 32 loads, one of 8 and 3 more, in
// levels and in the slices of the last.
TEST(reduce, the_fold_of_partials_keeps_its_order_across_the_chunks_of_loads) {
  expect_documented_folds<43, 8>({8, 33, 41, 256, 343, 344, 345, 5000, 15000}, 2025);
}

// The last level's slices in a View, as a value type too large for team scratch has them.
TEST(reduce, the_fold_of_partials_is_the_same_with_its_slices_in_memory) {
  expect_documented_folds<4, 8, 0>({0, 1, 7, 32, 33, 128, 129, 1000}, 2026);
}

TEST(reduce, a_2d_sum_is_the_same_under_every_schedule_and_near_the_exact_sum) {
  const loopnest::box<2> b{{-2, -2}, {70, 45}};
  const field volume = random_field(72, 47, 1, 1, 7);
  const plane q      = Kokkos::subview(volume, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL, 0);
  long double exact  = 0.0L;
  auto host          = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  for (int j = -2; j < 45; ++j) {
    for (int i = -2; i < 70; ++i) {
      exact += host(i + ghost, j + ghost, 0);
    }
  }
  const double first = sum_plane<loopnest::collapse3>(q, b);
  EXPECT_NEAR(first, static_cast<double>(exact), 1e-3);
  const auto check = [&](auto schedule) {
    using schedule_type = decltype(schedule);
    EXPECT_TRUE(same_bits(sum_plane<schedule_type>(q, b), first))
        << loopnest_test::kind_name<schedule_type>();
  };
  std::apply([&](auto... s) { (check(s), ...); }, left_schedules{});
}

// Kokkos' other reducers over one variable of q.
struct extrema {
  double max = 0, min = 0, minmax_min = 0, minmax_max = 0;
  Kokkos::MaxLoc<double, int>::value_type max_loc{};
  Kokkos::MinLoc<double, int>::value_type min_loc{};
};

template <class Schedule>
extrema extrema_of(const field& q, const loopnest::box<3>& b) {
  extrema e;
  const space exec;
  loopnest::reduce_cell<Schedule>(
      exec, b,
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        const double x = q(i + ghost, j + ghost, k + ghost, 1);
        acc            = x > acc ? x : acc;
      },
      Kokkos::Max<double>(e.max));
  loopnest::reduce_cell<Schedule>(
      exec, b,
      KOKKOS_LAMBDA(int i, int j, int k, double& acc) {
        const double x = q(i + ghost, j + ghost, k + ghost, 1);
        acc            = x < acc ? x : acc;
      },
      Kokkos::Min<double>(e.min));
  Kokkos::MinMax<double>::value_type minmax{};
  loopnest::reduce_cell<Schedule>(
      exec, b,
      KOKKOS_LAMBDA(int i, int j, int k, Kokkos::MinMax<double>::value_type& acc) {
        const double x = q(i + ghost, j + ghost, k + ghost, 1);
        acc.min_val    = x < acc.min_val ? x : acc.min_val;
        acc.max_val    = x > acc.max_val ? x : acc.max_val;
      },
      Kokkos::MinMax<double>(minmax));
  e.minmax_min = minmax.min_val;
  e.minmax_max = minmax.max_val;
  // A cell's number in the box, i fastest.
  const int nx = b.extent(0), ny = b.extent(1);
  const int i0 = b.lower(0), j0 = b.lower(1), k0 = b.lower(2);
  loopnest::reduce_cell<Schedule>(
      exec, b,
      KOKKOS_LAMBDA(int i, int j, int k, Kokkos::MaxLoc<double, int>::value_type& acc) {
        const double x = q(i + ghost, j + ghost, k + ghost, 1);
        if (x > acc.val) {
          acc.val = x;
          acc.loc = (i - i0) + nx * ((j - j0) + ny * (k - k0));
        }
      },
      Kokkos::MaxLoc<double, int>(e.max_loc));
  loopnest::reduce_cell<Schedule>(
      exec, b,
      KOKKOS_LAMBDA(int i, int j, int k, Kokkos::MinLoc<double, int>::value_type& acc) {
        const double x = q(i + ghost, j + ghost, k + ghost, 1);
        if (x < acc.val) {
          acc.val = x;
          acc.loc = (i - i0) + nx * ((j - j0) + ny * (k - k0));
        }
      },
      Kokkos::MinLoc<double, int>(e.min_loc));
  return e;
}

TEST(reduce, kokkos_reducers_find_the_extrema_and_where_they_are) {
  const loopnest::box<3> b{{-2, -2, 0}, {17, 12, 10}};
  const field q = random_field(21, 16, 14, 2, 5);
  auto host     = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
  double max    = -std::numeric_limits<double>::infinity();
  double min    = std::numeric_limits<double>::infinity();
  int max_at = -1, min_at = -1, n = 0;
  for (int k = 0; k < 10; ++k) {
    for (int j = -2; j < 12; ++j) {
      for (int i = -2; i < 17; ++i, ++n) {
        const double x = host(i + ghost, j + ghost, k + ghost, 1);
        if (x > max) {
          max    = x;
          max_at = n;
        }
        if (x < min) {
          min    = x;
          min_at = n;
        }
      }
    }
  }
  const auto check = [&](auto schedule) {
    using schedule_type = decltype(schedule);
    const extrema e     = extrema_of<schedule_type>(q, b);
    const auto where    = loopnest_test::kind_name<schedule_type>();
    EXPECT_EQ(e.max, max) << where;
    EXPECT_EQ(e.min, min) << where;
    EXPECT_EQ(e.minmax_max, max) << where;
    EXPECT_EQ(e.minmax_min, min) << where;
    EXPECT_EQ(e.max_loc.val, max) << where;
    EXPECT_EQ(e.max_loc.loc, max_at) << where;
    EXPECT_EQ(e.min_loc.val, min) << where;
    EXPECT_EQ(e.min_loc.loc, min_at) << where;
  };
  std::apply([&](auto... s) { (check(s), ...); }, left_schedules{});
}

// A reducer of the caller's own: the sum of squares and the count of the cells, as a CFL or a
// residual norm would need.
struct norm_and_count {
  struct value_type {
    double squares;
    long count;
  };
  value_type* result;
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.squares = 0;
    v.count   = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const {
    dest.squares += src.squares;
    dest.count += src.count;
  }
  value_type& reference() const { return *result; }
};

template <class Schedule>
norm_and_count::value_type norm_of(const field& q, const loopnest::box<3>& b, int nvar) {
  norm_and_count::value_type out{-1.0, -1};
  loopnest::reduce_cell_var<Schedule>(
      space(), b, nvar,
      KOKKOS_LAMBDA(int i, int j, int k, int v, norm_and_count::value_type& acc) {
        const double x = q(i + ghost, j + ghost, k + ghost, v);
        acc.squares += x * x;
        acc.count += 1;
      },
      norm_and_count{&out});
  return out;
}

TEST(reduce, a_custom_reducer_sums_squares_and_counts_under_every_schedule) {
  const loopnest::box<3> b{{0, 0, 0}, {13, 11, 9}};
  const field q                          = random_field(17, 15, 13, 2, 3);
  const norm_and_count::value_type first = norm_of<loopnest::flat>(q, b, 2);
  EXPECT_EQ(first.count, 13L * 11 * 9 * 2);
  const auto check = [&](auto schedule) {
    using schedule_type                  = decltype(schedule);
    const norm_and_count::value_type got = norm_of<schedule_type>(q, b, 2);
    EXPECT_TRUE(same_bits(got.squares, first.squares)) << loopnest_test::kind_name<schedule_type>();
    EXPECT_EQ(got.count, first.count) << loopnest_test::kind_name<schedule_type>();
  };
  std::apply([&](auto... s) { (check(s), ...); }, left_schedules{});
}

TEST(reduce, an_empty_box_gives_the_identity_and_nvar_below_one_is_refused) {
  const field q = random_field(4, 4, 4, 1, 1);
  EXPECT_EQ(sum_cells<loopnest::collapse3>(q, loopnest::box<3>{{0, 0, 0}, {4, 0, 4}}), 0.0);
  EXPECT_EQ(sum_cell_vars<loopnest::flat>(q, loopnest::box<3>{{0, 0, 0}, {0, 0, 0}}, 1), 0.0);
  try {
    sum_cell_vars<loopnest::collapse4>(q, loopnest::box<3>{{0, 0, 0}, {4, 4, 4}}, 0);
    ADD_FAILURE() << "nvar = 0 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "loopnest::reduce_cell_var: nvar = 0 must be at least 1");
  }
}

}  // namespace
