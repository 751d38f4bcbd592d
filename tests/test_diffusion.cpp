#include <loopnest/diffusion.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <limits>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "diffusion_checks.hpp"
#include "test_errors.hpp"
#include "test_spaces.hpp"

namespace {

using loopnest::diffusion_variant;
using loopnest_test::check_against_reference;
using loopnest_test::error_of;
using loopnest_test::expect_mentions;
using loopnest_test::random_field;
using loopnest_test::run;

template <class ExecutionSpace>
class diffusion : public ::testing::Test {};
TYPED_TEST_SUITE(diffusion, loopnest_test::execution_spaces);

const std::pair<int, int> grids[] = {{5, 5}, {8, 8}, {13, 6}, {6, 13}, {33, 17}, {64, 40}};
const int step_counts[]           = {7, 8, 31, 32, 300};

// NaN in every interior cell of a solver's array: a cell a kernel leaves unwritten stays NaN.
template <class View>
void poison_interior(const View& v, int nx, int ny) {
  using value = typename View::value_type;
  const value nan =
      std::numeric_limits<value>::quiet_NaN();  // a host function: not callable in kernels
  Kokkos::parallel_for(
      "poison",
      Kokkos::MDRangePolicy<typename View::execution_space, Kokkos::Rank<2>>({1, 1},
                                                                             {nx - 1, ny - 1}),
      KOKKOS_LAMBDA(int i, int j) { v(i, j) = nan; });
}

// One step from a random field into an output whose interior is NaN: a cell the step leaves
// unwritten fails the comparison.
template <class T, diffusion_variant V, class ExecutionSpace>
void check_one_poisoned_step(int nx, int ny, unsigned seed) {
  const auto initial = random_field<T>(nx, ny, seed);
  loopnest::diffusion_solver<T, V, ExecutionSpace> s(ExecutionSpace(), nx, ny);
  s.set_field(initial);
  poison_interior(s.next(), nx, ny);
  s.advance(1);
  const auto got       = s.field();
  const auto reference = loopnest::diffusion_reference<T>(nx, ny, 1, initial);
  const auto p         = loopnest::precision_of<T>();
  const auto c         = loopnest::compare_fields(got.data(), reference.data(), reference.size(),
                                                  loopnest::default_tolerance(p, p));
  EXPECT_EQ(c.failures, 0) << loopnest::name(V) << " " << nx << "x" << ny;
}

template <class T, class ExecutionSpace>
void check_poisoned_steps() {
  unsigned seed = 100;
  for (const auto& [nx, ny] : grids) {
    check_one_poisoned_step<T, diffusion_variant::baseline, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::contiguous, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::strided, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::collapse, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::flat, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::kokkos_default, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::vectorized, ExecutionSpace>(nx, ny, ++seed);
    check_one_poisoned_step<T, diffusion_variant::temporal, ExecutionSpace>(nx, ny, ++seed);
  }
}

TYPED_TEST(diffusion, every_variant_writes_every_interior_cell) {
  check_poisoned_steps<float, TypeParam>();
  check_poisoned_steps<double, TypeParam>();
}

template <class T, class ExecutionSpace>
void check_initial_condition_runs() {
  for (const auto& [nx, ny] : grids) {
    for (const int steps : step_counts) {
      check_against_reference<T, ExecutionSpace>(nx, ny, steps,
                                                 loopnest::diffusion_initial_condition<T>(nx, ny));
    }
  }
}

TYPED_TEST(diffusion, fp64_variants_match_the_reference_and_each_other) {
  check_initial_condition_runs<double, TypeParam>();
}

TYPED_TEST(diffusion, fp32_variants_match_the_reference_and_each_other) {
  check_initial_condition_runs<float, TypeParam>();
}

TYPED_TEST(diffusion, random_fields_keep_their_edges_and_match_the_reference) {
  unsigned seed = 7;
  for (const auto& [nx, ny] : grids) {
    const auto initial = random_field<double>(nx, ny, ++seed);
    check_against_reference<double, TypeParam>(nx, ny, 31, initial);
    const auto out = run<double, diffusion_variant::vectorized, TypeParam>(nx, ny, 31, initial);
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
          const auto c = static_cast<std::size_t>(i) + std::size_t(nx) * j;
          ASSERT_EQ(out[c], initial[c]) << "edge cell (" << i << ", " << j << ")";
        }
      }
    }
  }
}

TYPED_TEST(diffusion, collapse_tiles_change_no_bit) {
  const int nx = 37, ny = 29;
  const auto initial = random_field<double>(nx, ny, 3);
  // Against the vectorized variant, whose launch has no tile at all.
  const auto expected = run<double, diffusion_variant::vectorized, TypeParam>(nx, ny, 9, initial);
  for (const auto& t : {loopnest::tile{}, loopnest::tile{8, 4}, loopnest::tile{1, 16}}) {
    const auto u = run<double, diffusion_variant::collapse, TypeParam>(nx, ny, 9, initial, 0.1, t);
    EXPECT_TRUE(loopnest::bitwise_equal(u.data(), expected.data(), u.size())) << t.to_string();
  }
}

TYPED_TEST(diffusion, fp32_matches_fp64_within_the_mixed_tolerance) {
  for (const auto& [nx, ny] : grids) {
    const auto r = run<double, diffusion_variant::collapse, TypeParam>(
        nx, ny, 300, loopnest::diffusion_initial_condition<double>(nx, ny));
    const auto c = run<float, diffusion_variant::vectorized, TypeParam>(
        nx, ny, 300, loopnest::diffusion_initial_condition<float>(nx, ny));
    const auto cmp = loopnest::compare_fields(
        c.data(), r.data(), r.size(),
        loopnest::default_tolerance(loopnest::precision::fp32, loopnest::precision::fp64));
    EXPECT_EQ(cmp.failures, 0) << nx << "x" << ny << ": max |c - r| = " << cmp.max_abs;
    EXPECT_GT(cmp.max_abs, 0.0) << "FP32 and FP64 cannot agree to the last bit here";
  }
}

// The temporal variant against the vectorized one, bit for bit, for every depth K the tests
// name and step counts around it (none, fewer than K, K, a multiple of K, a remainder, odd and
// even), on grids down to a single interior cell and strips narrower than a team's.
template <class T, class ExecutionSpace>
void check_temporal_depths() {
  constexpr int most = loopnest::diffusion_temporal_traits<ExecutionSpace, T>::max_steps_per_pass;
  const std::pair<int, int> shapes[] = {{3, 3}, {3, 17}, {17, 3},  {4, 4},
                                        {5, 9}, {13, 6}, {70, 37}, {131, 5}};
  unsigned seed                      = 500;
  for (const auto& [nx, ny] : shapes) {
    const auto initial = random_field<T>(nx, ny, ++seed);
    for (const int k : {1, 2, 3, 5, 8, most}) {
      for (const int steps : {0, 1, k - 1, k, k + 1, 2 * k, 2 * k + 3}) {
        const auto expected =
            run<T, diffusion_variant::vectorized, ExecutionSpace>(nx, ny, steps, initial);
        const auto got = run<T, diffusion_variant::temporal, ExecutionSpace>(nx, ny, steps, initial,
                                                                             T(0.1), {}, k);
        EXPECT_TRUE(loopnest::bitwise_equal(got.data(), expected.data(), got.size()))
            << nx << "x" << ny << ", " << steps << " steps, " << k << " per pass";
      }
    }
  }
}

TYPED_TEST(diffusion, temporal_gives_the_stepwise_bits_at_every_depth) {
  check_temporal_depths<double, TypeParam>();
  check_temporal_depths<float, TypeParam>();
}

// The nx * ny cells of a solver array (pitch, ny) on the host, i fastest.
template <class View>
std::vector<typename View::non_const_value_type> cells_of(const View& v, int nx, int ny) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<typename View::non_const_value_type> out(static_cast<std::size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      out[static_cast<std::size_t>(i) + std::size_t(nx) * j] = host(i, j);
    }
  }
  return out;
}

// One pass of K steps under an explicit plan into an output whose interior is NaN, nx * ny host
// values of that output.
template <class T, int K, class ExecutionSpace>
std::vector<T> planned_pass(int nx, int ny, const std::vector<T>& initial,
                            const loopnest::Impl::diffusion_temporal_plan& p) {
  loopnest::diffusion_solver<T, diffusion_variant::temporal, ExecutionSpace> s(ExecutionSpace(), nx,
                                                                               ny, T(0.1), {}, K);
  s.set_field(initial);
  poison_interior(s.next(), nx, ny);
  loopnest::Impl::diffusion_temporal_pass<K>(
      ExecutionSpace(), p, loopnest::Impl::diffusion_step_args<T>{T(0.1), nx, ny},
      s.current().data(), s.next().data(), static_cast<std::size_t>(s.current().extent(0)));
  return cells_of(s.next(), nx, ny);
}

// Strips from one column wide to a full team's, segments from one row long to the whole
// interior, at the smallest team size and the streaming planner's: every interior cell written,
// with the bits of K single steps (a halo shrunk one column or row too far reads a cell no level
// kept).
template <class T, int K, class ExecutionSpace>
void check_planned_passes(int nx, int ny, unsigned seed) {
  using traits        = loopnest::diffusion_temporal_traits<ExecutionSpace, T>;
  const auto initial  = random_field<T>(nx, ny, seed);
  const auto expected = run<T, diffusion_variant::vectorized, ExecutionSpace>(nx, ny, K, initial);
  const int planned =
      loopnest::Impl::plan_diffusion_stream<T>(ExecutionSpace(), nx, ny, K).team_size;
  for (const int team_size : {traits::team_size_step, planned}) {
    const int full = team_size * traits::columns_per_thread - 2 * K;
    for (const int width : {1, 2, 5, full}) {
      for (const int length : {1, 2, 7, ny - 2}) {
        if (width < 1 || width > full) {
          continue;
        }
        const int strips = (nx - 2 + width - 1) / width, segments = (ny - 2 + length - 1) / length;
        const auto got = planned_pass<T, K, ExecutionSpace>(
            nx, ny, initial, {team_size, strips, segments, width, length});
        EXPECT_TRUE(loopnest::bitwise_equal(got.data(), expected.data(), got.size()))
            << nx << "x" << ny << ", K " << K << ", team size " << team_size << ", strips of "
            << width << ", segments of " << length;
      }
    }
  }
}

TYPED_TEST(diffusion, temporal_plans_of_any_shape_give_the_stepwise_bits) {
  check_planned_passes<double, 1, TypeParam>(19, 23, 11);
  check_planned_passes<double, 3, TypeParam>(41, 9, 12);
  check_planned_passes<float, 8, TypeParam>(37, 44, 13);
  check_planned_passes<float, 5, TypeParam>(3, 20, 14);
}

// Small-grid passes (each team's whole region in team scratch) with regions from 2K + 1 rows to
// the planner's, on grids narrower and wider than one region: every interior cell written, with
// the bits of K single steps.
template <class T, int K, class ExecutionSpace>
void check_tile_passes(int nx, int ny, unsigned seed) {
  using traits        = loopnest::diffusion_temporal_traits<ExecutionSpace, T>;
  const auto initial  = random_field<T>(nx, ny, seed);
  const auto expected = run<T, diffusion_variant::vectorized, ExecutionSpace>(nx, ny, K, initial);
  const auto planned  = loopnest::Impl::plan_diffusion_tiles<T>(ExecutionSpace(), nx, ny, K);
  ASSERT_GT(planned.team_size, 0) << nx << "x" << ny << ", K " << K;
  const int width = traits::tile_columns - 2 * K;
  for (const int rows : {2 * K + 1, 2 * K + 2, 2 * K + 5, planned.tile_rows}) {
    const int length = rows - 2 * K, segments = (ny - 2 + length - 1) / length;
    const auto got = planned_pass<T, K, ExecutionSpace>(
        nx, ny, initial,
        {planned.team_size, (nx - 2 + width - 1) / width, segments, width, length, rows});
    EXPECT_TRUE(loopnest::bitwise_equal(got.data(), expected.data(), got.size()))
        << nx << "x" << ny << ", K " << K << ", regions of " << rows << " rows";
  }
}

TYPED_TEST(diffusion, small_grid_passes_give_the_stepwise_bits) {
  check_tile_passes<double, 1, TypeParam>(3, 3, 31);
  check_tile_passes<double, 4, TypeParam>(70, 29, 32);
  check_tile_passes<double, 12, TypeParam>(131, 40, 33);
  check_tile_passes<float, 8, TypeParam>(50, 61, 34);
  check_tile_passes<float, 3, TypeParam>(200, 5, 35);
}

// The planner's cut covers the interior with no empty team, fits the team scratch, and on large
// grids fills whole waves of concurrent teams to 90% (on a GPU: every SM busy, at any grid
// width; on smaller grids the plan may trade a partly filled wave for shorter teams).
template <class T, class ExecutionSpace>
void check_plans(int k) {
  using traits = loopnest::diffusion_temporal_traits<ExecutionSpace, T>;
  for (const int nx : {3, 100, 1000, 7700, 8192}) {
    for (const int ny : {3, 1000, 8192}) {
      const auto p = loopnest::Impl::plan_diffusion_temporal<T>(ExecutionSpace(), nx, ny, k);
      const std::string where =
          std::to_string(nx) + "x" + std::to_string(ny) + ", K " + std::to_string(k);
      ASSERT_GT(p.team_size, 0) << where;
      EXPECT_EQ(p.width, p.tiles() ? traits::tile_columns - 2 * k
                                   : p.team_size * traits::columns_per_thread - 2 * k)
          << where;
      EXPECT_GE(p.strips * p.width, nx - 2) << where;
      EXPECT_LT((p.strips - 1) * p.width, nx - 2) << where;
      EXPECT_GE(p.segments * p.length, ny - 2) << where;
      EXPECT_LT((p.segments - 1) * p.length, ny - 2) << where;
      const auto scratch =
          p.tiles()
              ? loopnest::Impl::diffusion_tiles_scratch_bytes<T, ExecutionSpace>(p.tile_rows)
              : loopnest::Impl::diffusion_temporal_scratch_bytes<T, ExecutionSpace>(k, p.team_size);
      EXPECT_LE(scratch, std::size_t(Kokkos::TeamPolicy<ExecutionSpace>::scratch_size_max(0)));
      if (p.tiles()) {
        EXPECT_EQ(p.tile_rows, p.length + 2 * k) << where;
      }
      if (nx >= 4096 && ny >= 4096) {
        EXPECT_FALSE(p.tiles()) << where << ": a large grid streams";
        const int slots = traits::concurrent_teams(
            ExecutionSpace(), p.team_size, scratch,
            loopnest::Impl::diffusion_temporal_resident_threads<T>(ExecutionSpace(), k));
        const int waves = (p.teams() + slots - 1) / slots;
        EXPECT_GE(p.teams(), 0.9 * waves * slots)
            << where << ": " << p.teams() << " teams in " << waves << " waves of " << slots;
      }
    }
  }
}

// A solver given no steps per pass takes the traits' tile_steps_per_pass where the small-grid
// pass takes the grid at that depth, default_steps_per_pass elsewhere; one given K keeps it.
template <class T, class ExecutionSpace>
void check_default_depth(int n) {
  using traits = loopnest::diffusion_temporal_traits<ExecutionSpace, T>;
  using solver = loopnest::diffusion_solver<T, diffusion_variant::temporal, ExecutionSpace>;
  const bool tiles =
      traits::small_grid_tiles && loopnest::Impl::plan_diffusion_temporal<T>(
                                      ExecutionSpace(), n, n, traits::tile_steps_per_pass)
                                      .tiles();
  const solver s(ExecutionSpace(), n, n);
  EXPECT_EQ(s.steps_per_pass(),
            tiles ? traits::tile_steps_per_pass : traits::default_steps_per_pass)
      << n << "x" << n;
  EXPECT_EQ(s.temporal_plan().tiles(), tiles) << n << "x" << n;
  EXPECT_EQ(solver(ExecutionSpace(), n, n, T(0.1), {}, 3).steps_per_pass(), 3) << n << "x" << n;
}

TYPED_TEST(diffusion, temporal_default_depth_follows_the_pass) {
  check_default_depth<double, TypeParam>(256);
  check_default_depth<float, TypeParam>(256);
  check_default_depth<double, TypeParam>(1024);
}

TYPED_TEST(diffusion, temporal_plans_cover_the_grid_and_fill_the_machine) {
  check_plans<double, TypeParam>(8);
  check_plans<double, TypeParam>(1);
  check_plans<float, TypeParam>(12);
}

// A barrier for threads of the host.
struct thread_barrier {
  std::mutex mutex;
  std::condition_variable cv;
  int size, waiting = 0, generation = 0;

  // Host and device, as the kernel's team handle: the device pass sees an empty body.
  KOKKOS_FUNCTION void wait() {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
    std::unique_lock<std::mutex> lock(mutex);
    const int g = generation;
    if (++waiting == size) {
      waiting = 0;
      ++generation;
      cv.notify_all();
    } else {
      cv.wait(lock, [&] { return generation != g; });
    }
#endif
  }
};

// A team of host threads with a real barrier, for the temporal kernel: a host backend runs one
// thread per team, so only this team of several threads exercises the exchange of each
// thread's outer columns through team scratch, as a GPU team does.
class host_thread_team {
 public:
  using scratch_space = Kokkos::DefaultHostExecutionSpace::scratch_memory_space;

  host_thread_team(int league_rank, int team_rank, int team_size, void* scratch, std::size_t bytes,
                   thread_barrier& barrier)
      : m_league_rank(league_rank),
        m_team_rank(team_rank),
        m_team_size(team_size),
        m_scratch(scratch, bytes),
        m_barrier(barrier) {}
  // Callable where the kernel is (host and device); run on the host only.
  KOKKOS_FUNCTION int league_rank() const { return m_league_rank; }
  KOKKOS_FUNCTION int team_rank() const { return m_team_rank; }
  KOKKOS_FUNCTION int team_size() const { return m_team_size; }
  KOKKOS_FUNCTION const scratch_space& team_scratch(int) const { return m_scratch; }
  KOKKOS_FUNCTION void team_barrier() const;

 private:
  int m_league_rank, m_team_rank, m_team_size;
  scratch_space m_scratch;
  thread_barrier& m_barrier;
};

KOKKOS_FUNCTION void host_thread_team::team_barrier() const {
  m_barrier.wait();
}

// Kernel k for league ranks 0 to teams - 1, one team after another, each on team_size host
// threads sharing `bytes` of team scratch.
template <class Kernel>
void run_thread_teams(const Kernel& k, int teams, int team_size, std::size_t bytes) {
  std::vector<char> scratch(bytes);
  for (int league_rank = 0; league_rank < teams; ++league_rank) {
    thread_barrier barrier{{}, {}, team_size};
    std::vector<std::thread> threads;
    threads.reserve(team_size);
    for (int q = 0; q < team_size; ++q) {
      threads.emplace_back([&, q] {
        k(host_thread_team(league_rank, q, team_size, scratch.data(), bytes, barrier));
      });
    }
    for (auto& t : threads) {
      t.join();
    }
  }
}

// One pass of K steps by teams of team_size host threads, C columns each, every team on its own
// threads in turn, against K stepwise steps, for strips and segments of several sizes.
template <class T, int K, int C>
void check_thread_teams(int nx, int ny, int team_size, unsigned seed) {
  using space         = Kokkos::DefaultHostExecutionSpace;
  using kernel        = loopnest::Impl::diffusion_temporal_kernel<T, K, C, space>;
  const auto initial  = random_field<T>(nx, ny, seed);
  const auto expected = run<T, diffusion_variant::vectorized, space>(nx, ny, K, initial);
  const std::size_t bytes =
      loopnest::Impl::diffusion_temporal_scratch_bytes<T, space>(K, team_size);
  const int full = team_size * C - 2 * K;
  for (const int width : {1, 3, full}) {
    for (const int length : {1, 4, ny - 2}) {
      loopnest::diffusion_solver<T, diffusion_variant::temporal, space> s(space(), nx, ny, T(0.1),
                                                                          {}, K);
      s.set_field(initial);
      poison_interior(s.next(), nx, ny);
      const int strips = (nx - 2 + width - 1) / width, segments = (ny - 2 + length - 1) / length;
      const kernel k{s.current().data(),
                     s.next().data(),
                     s.current().extent(0),
                     nx,
                     ny,
                     T(0.1),
                     strips,
                     width,
                     length};
      run_thread_teams(k, strips * segments, team_size, bytes);
      const auto got = cells_of(s.next(), nx, ny);
      EXPECT_TRUE(loopnest::bitwise_equal(got.data(), expected.data(), got.size()))
          << nx << "x" << ny << ", K " << K << ", " << team_size << " threads of " << C
          << " columns, strips of " << width << ", segments of " << length;
    }
  }
}

// The small-grid kernel by teams of team_size host threads, each updating runs of R rows: a
// level that a thread starts before the others finished the level below reads cells not yet
// written.
template <class T, int K, int R>
void check_tile_thread_teams(int nx, int ny, int team_size, unsigned seed) {
  using space         = Kokkos::DefaultHostExecutionSpace;
  constexpr int cols  = loopnest::diffusion_temporal_traits<space, T>::tile_columns;
  using kernel        = loopnest::Impl::diffusion_tiles_kernel<T, K, cols, R, space>;
  const auto initial  = random_field<T>(nx, ny, seed);
  const auto expected = run<T, diffusion_variant::vectorized, space>(nx, ny, K, initial);
  for (const int rows : {2 * K + 1, 2 * K + 6}) {
    loopnest::diffusion_solver<T, diffusion_variant::temporal, space> s(space(), nx, ny, T(0.1), {},
                                                                        K);
    s.set_field(initial);
    poison_interior(s.next(), nx, ny);
    const int tiles_x = (nx - 2 + cols - 2 * K - 1) / (cols - 2 * K);
    const int tiles_y = (ny - 2 + rows - 2 * K - 1) / (rows - 2 * K);
    const kernel k{
        s.current().data(), s.next().data(), s.current().extent(0), nx, ny, T(0.1), tiles_x, rows};
    run_thread_teams(k, tiles_x * tiles_y, team_size, kernel::scratch_bytes(rows));
    const auto got = cells_of(s.next(), nx, ny);
    EXPECT_TRUE(loopnest::bitwise_equal(got.data(), expected.data(), got.size()))
        << nx << "x" << ny << ", K " << K << ", " << team_size << " threads of runs of " << R
        << " rows, regions of " << rows << " rows";
  }
}

TEST(diffusion_temporal, small_grid_teams_of_several_threads_wait_for_each_level) {
  check_tile_thread_teams<double, 3, 1>(90, 21, 7, 41);
  check_tile_thread_teams<double, 3, 4>(90, 21, 7, 43);
  check_tile_thread_teams<float, 5, 3>(60, 33, 4, 42);
  check_tile_thread_teams<float, 2, 8>(70, 26, 64, 44);
}

TEST(diffusion_temporal, teams_of_several_threads_exchange_their_outer_columns) {
  check_thread_teams<double, 3, 2>(29, 13, 5, 21);
  check_thread_teams<float, 4, 4>(40, 9, 3, 22);
  check_thread_teams<double, 1, 2>(7, 6, 4, 23);
}

TYPED_TEST(diffusion, bad_input_names_the_parameter) {
  using solver = loopnest::diffusion_solver<float, diffusion_variant::flat, TypeParam>;
  expect_mentions(error_of([] { solver(TypeParam(), 2, 10); }), "nx = 2");
  expect_mentions(error_of([] { solver(TypeParam(), 10, -1); }), "ny = -1");
  expect_mentions(error_of([] { solver(TypeParam(), 10, 10, 0.3f); }), "alpha = 0.3");
  expect_mentions(error_of([] { solver(TypeParam(), 100000, 100000); }),
                  "loopnest::diffusion_solver: a grid of nx = 100000 by ny = 100000 cells");
  // Rows of 46340 FP32 cells are padded to 46368: 46368 x 46340 > 2^31 - 1 > 46340^2, while
  // 46336 needs no padding and fits.
  expect_mentions(error_of([] { loopnest::check_diffusion_grid_size<float>(46340, 46340); }),
                  "loopnest::check_diffusion_grid_size: a grid of nx = 46340 by ny = 46340 cells, "
                  "rows padded to 128 bytes, exceeds the 2^31 - 1");
  EXPECT_EQ(error_of([] { loopnest::check_diffusion_grid_size<float>(46336, 46340); }),
            "no exception");
  // Rounding nx = INT_MAX up to a whole line must not wrap.
  expect_mentions(error_of([] { loopnest::check_diffusion_grid_size<double>(INT_MAX, 3); }),
                  "a grid of nx = 2147483647 by ny = 3");
  expect_mentions(error_of([] { loopnest::check_diffusion_grid_size<float>(2, 3); }), "nx = 2");
  expect_mentions(error_of([] {
                    solver(TypeParam(), 10, 10, 0.1f, loopnest::tile{32, 8});
                  }),
                  "tile 32x8 was given to variant flat; only collapse takes a tile");
  using collapse = loopnest::diffusion_solver<float, diffusion_variant::collapse, TypeParam>;
  expect_mentions(error_of([] {
                    collapse(TypeParam(), 10, 10, 0.1f, loopnest::tile{8, 4, 2});
                  }),
                  "tile 8x4x2 has 3 sizes");
  using temporal = loopnest::diffusion_solver<float, diffusion_variant::temporal, TypeParam>;
  const int most = temporal::temporal_traits::max_steps_per_pass;
  expect_mentions(error_of([] { temporal(TypeParam(), 10, 10, 0.1f, {}, -1); }),
                  "steps_per_pass = -1 is outside [1, " + std::to_string(most) + "]");
  expect_mentions(error_of([&] { temporal(TypeParam(), 10, 10, 0.1f, {}, most + 1); }),
                  "steps_per_pass = " + std::to_string(most + 1) + " is outside");
  expect_mentions(
      error_of([] { solver(TypeParam(), 10, 10, 0.1f, {}, 4); }),
      "steps_per_pass = 4 was given to variant flat; only temporal takes steps_per_pass");
  expect_mentions(error_of([] {
                    temporal(TypeParam(), 10, 10, 0.1f, loopnest::tile{4, 4});
                  }),
                  "tile 4x4 was given to variant temporal");
  solver s(TypeParam(), 6, 5);
  expect_mentions(error_of([&] { s.advance(-2); }), "steps = -2");
  expect_mentions(error_of([&] { s.set_field(std::vector<float>(29)); }), "values has 29");
  expect_mentions(error_of([] { loopnest::diffusion_reference<double>(5, 5, 1, {1.0}); }),
                  "initial has 1 values");
}

}  // namespace
