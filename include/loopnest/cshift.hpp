// loopnest::cshift: the circular shift of a View along one dimension, as Fortran's CSHIFT and
// Grid's Cshift, through a table of contiguous blocks built and cached on the device.
#ifndef LOOPNEST_CSHIFT_HPP
#define LOOPNEST_CSHIFT_HPP

#include <loopnest/detail/cshift_table.hpp>
#include <loopnest/detail/error.hpp>
#include <loopnest/detail/overlap.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/read_only.hpp>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace loopnest {

// Where cshift's offset table comes from. device_table: built by a device kernel once per
// table shape and cached in device memory. no_table: every team computes its offsets itself.
// (The benchmarks compare both with Grid's host-filled tables, bench/cshift_host_tables.hpp.)
enum class cshift_strategy { device_table, no_table };

inline const char* name(cshift_strategy s) {
  switch (s) {
    case cshift_strategy::device_table:
      return "device_table";
    default:
      return "no_table";
  }
}

// The strategy cshift takes when the caller names none, per backend (a specialisation for one
// execution space changes it there): the one place to change when measurements favour another.
template <class ExecutionSpace>
inline constexpr cshift_strategy cshift_default_strategy = cshift_strategy::device_table;

#if defined(KOKKOS_ENABLE_CUDA)
// CUDA: with no_table a team computes its entry in a few integer operations, where with a table
// it waits for one load before its first copy; that wait shows where teams are short (rows that
// move as single elements). On the H200 the table lost far more there than it won anywhere else
// (docs/results/h200/cshift/).
template <>
inline constexpr cshift_strategy cshift_default_strategy<Kokkos::Cuda> = cshift_strategy::no_table;
#endif

// The Kokkos profiling region around all table work: a device build and its fence (and, in the
// benchmarks, a host fill and its copy). Profiling tools and the benchmarks time the tables
// through it.
inline constexpr const char* cshift_table_region = Impl::cshift_table_label;

// The cache of device-built cshift tables, shared by every execution space. It holds at most
// cshift_cache_limit() bytes (64 MiB unless set), dropping the least recently used tables
// first, and is emptied by Kokkos::finalize.
inline void cshift_cache_clear() {
  Impl::table_cache::locked([](auto& cache) { cache.drop_all(); });
}
inline void cshift_cache_set_limit(std::size_t bytes) {
  Impl::table_cache::locked([=](auto& cache) { cache.set_limit(bytes); });
}
inline std::size_t cshift_cache_limit() {
  return Impl::table_cache::locked([](const auto& cache) { return cache.limit(); });
}
inline std::size_t cshift_cache_bytes() {
  return Impl::table_cache::locked([](const auto& cache) { return cache.bytes(); });
}
inline std::size_t cshift_cache_tables() {
  return Impl::table_cache::locked([](const auto& cache) { return cache.tables(); });
}

namespace Impl {

// What the cache keeps of device_table: the table in the space's memory.
template <class ExecutionSpace>
struct device_tables : cached_tables {
  table_view<typename ExecutionSpace::memory_space> device;
  std::size_t bytes() const override { return sizeof(std::int64_t) * 2 * device.extent(0); }
};

// Built by a device kernel on the first call for a shape, then reused: no host work and no
// copy. The fence lets other execution space instances use the table at once.
template <class ExecutionSpace>
table_view<typename ExecutionSpace::memory_space> device_table(const ExecutionSpace& exec,
                                                               const table_shape& shape) {
  using tables = device_tables<ExecutionSpace>;
  return tables_for<tables>(
             shape, false,
             [&](tables& t) { t.device = allocate_table<decltype(t.device)>(exec, shape); },
             [&](tables& t) {
               fill_on_device(exec, t.device, shape);
               exec.fence();
             })
      ->device;
}

// cshift moves an element as the machine words it is made of: the widest word that divides
// the element and its alignment, so that adjacent threads move adjacent words even for a
// 192-byte spinor, and a double or a 16-byte complex is one load and one store. Where a whole
// row and its rotation are multiples of a wider word (up to cshift_traits::widest_word), the
// row moves as those: a float cube shifted along any index but its stride-1 one moves as 16-byte
// words.
struct alignas(16) word16 {
  std::uint64_t lo, hi;
};
template <std::size_t Bytes>
using word_of_t = std::conditional_t<
    Bytes == 16, word16,
    std::conditional_t<
        Bytes == 8, std::uint64_t,
        std::conditional_t<Bytes == 4, std::uint32_t,
                           std::conditional_t<Bytes == 2, std::uint16_t, std::uint8_t>>>>;
template <class T>
constexpr std::size_t word_bytes() {
  std::size_t bytes = 16;
  while (bytes > 1 && (sizeof(T) % bytes != 0 || alignof(T) < bytes)) {
    bytes /= 2;
  }
  return bytes;
}
template <class T>
using word_t = word_of_t<word_bytes<T>()>;

// Words each thread loads before it stores any: 64 bytes in flight, 4 to 16 words.
template <class Word>
inline constexpr int unroll_v = sizeof(Word) >= 16  ? 4
                                : sizeof(Word) <= 4 ? 16
                                                    : 64 / sizeof(Word);

// Entries from a table in memory.
template <class Index, class View>
struct table_entries {
  View table;
  KOKKOS_INLINE_FUNCTION table_entry<Index> operator()(int e) const {
    return {static_cast<Index>(table(e, 0)), static_cast<Index>(table(e, 1))};
  }
};

// Entries computed by each team (no_table).
template <class Index>
struct computed_entries {
  Index row, shift, block;
  KOKKOS_INLINE_FUNCTION table_entry<Index> operator()(int e) const {
    return entry_of<Index>(e, row, shift, block);
  }
};

// out[r][c] = in[r][(c + shift) mod row] on rows of words. A team moves one block of one row
// (rows_per_team == 1) or several whole short rows; per word the work is an add and a
// compare, everything else is done once per team or comes from the table. in and out do not
// overlap (checked), so in is read-only while the kernel runs.
template <class Word, class Index, class Entries>
struct cshift_copy {
  static constexpr int unroll = unroll_v<Word>;
  Word* out;
  const Word* in;
  Entries entries;
  Index rows, row, block;
  int blocks, rows_per_team;

  KOKKOS_FORCEINLINE_FUNCTION Index wrap(Index s) const { return s < row ? s : s - row; }

  template <class Member>
  KOKKOS_FUNCTION void operator()(const Member& m) const {
    if (rows_per_team > 1) {
      copy_rows(m);
    } else {
      copy_block(m);
    }
  }

  // to[u * step] = from[source(u)] for u < count (at most unroll): every load before any store,
  // so that each thread keeps `count` loads in flight.
  template <class Source>
  KOKKOS_FORCEINLINE_FUNCTION static void move(int count, Word* to, Index step, const Word* from,
                                               const Source& source) {
    Word v[unroll] = {};
    for (int u = 0; u < unroll; ++u) {
      if (u < count) {
        v[u] = load_read_only(from[source(u)]);
      }
    }
    for (int u = 0; u < unroll; ++u) {
      if (u < count) {
        to[u * step] = v[u];
      }
    }
  }

  // Adjacent threads take adjacent columns, `unroll` columns a team apart at a time.
  template <class Member>
  KOKKOS_FUNCTION void copy_block(const Member& m) const {
    const int r       = m.league_rank() / blocks;
    const auto e      = entries(m.league_rank() - r * blocks);
    const Index cols  = row - e.dest < block ? row - e.dest : block;
    const Word* from  = in + static_cast<Index>(r) * row;
    Word* to          = out + static_cast<Index>(r) * row + e.dest;
    const int threads = m.team_size();
    for (Index c = m.team_rank(); c < cols; c += unroll * threads) {
      const int count = c + (unroll - 1) * threads < cols
                            ? unroll
                            : static_cast<int>((cols - c + threads - 1) / threads);
      move(count, to + c, threads, from, [&](int u) { return wrap(e.src + c + u * threads); });
    }
  }

  // A thread keeps one column's source offset and moves that column of `unroll` rows at a time.
  template <class Member>
  KOKKOS_FUNCTION void copy_rows(const Member& m) const {
    const Index first = static_cast<Index>(m.league_rank()) * rows_per_team;
    const int n = rows - first < rows_per_team ? static_cast<int>(rows - first) : rows_per_team;
    const Index shift = entries(0).src;
    const Word* from  = in + first * row;
    Word* to          = out + first * row;
    for (Index c = m.team_rank(); c < row; c += m.team_size()) {
      const Index s = wrap(shift + c);
      for (int r = 0; r < n; r += unroll) {
        move(n - r < unroll ? n - r : unroll, to + r * row + c, row, from + r * row,
             [&](int u) { return u * row + s; });
      }
    }
  }
};

// Teams and blocks for `rows` rows of `row` words on ExecutionSpace.
struct copy_plan {
  table_shape shape;
  std::int64_t rows;
  int team_size;
  int rows_per_team;
  std::int64_t league;
};

template <class Word, class ExecutionSpace>
copy_plan plan_copy(std::int64_t rows, std::int64_t row, std::int64_t shift) {
  using traits         = cshift_traits<ExecutionSpace>;
  const std::int64_t g = traits::team_granularity;
  const int team_size =
      static_cast<int>(std::min<std::int64_t>(traits::team_size, (row + g - 1) / g * g));
  const std::int64_t block    = std::int64_t(team_size) * unroll_v<Word> * traits::passes;
  const std::int64_t per_team = std::min(block / row, rows);
  copy_plan p{{row, shift, block}, rows, team_size, 1, 0};
  if (per_team > 1) {
    p.rows_per_team = static_cast<int>(per_team);
    p.league        = (rows + per_team - 1) / per_team;
  } else {
    p.league = rows * p.shape.blocks();
  }
  return p;
}

template <class Word, class Index, class ExecutionSpace, class Entries>
void launch_copy(const ExecutionSpace& exec, Word* out, const Word* in, const Entries& entries,
                 const copy_plan& p) {
  Kokkos::parallel_for(
      "loopnest::cshift",
      Kokkos::TeamPolicy<ExecutionSpace>(exec, static_cast<int>(p.league), p.team_size),
      cshift_copy<Word, Index, Entries>{
          out, in, entries, static_cast<Index>(p.rows), static_cast<Index>(p.shape.row),
          static_cast<Index>(p.shape.block), static_cast<int>(p.shape.blocks()), p.rows_per_team});
}

// The entries of loopnest's strategies. A source of entries is any type whose
// with_entries<Index>(exec, shape, launch) calls launch(entries) once, entries(e) giving the
// table_entry of block e (the benchmarks bring Grid's host-filled tables this way).
struct strategy_entries {
  cshift_strategy strategy;

  template <class Index, class ExecutionSpace, class Launch>
  void with_entries(const ExecutionSpace& exec, const table_shape& shape,
                    const Launch& launch) const {
    if (strategy == cshift_strategy::device_table) {
      const auto t = device_table(exec, shape);
      launch(table_entries<Index, decltype(t)>{t});
    } else {
      launch(computed_entries<Index>{static_cast<Index>(shape.row), static_cast<Index>(shape.shift),
                                     static_cast<Index>(shape.block)});
    }
  }
};

template <class Word, class Index, class ExecutionSpace, class Source>
void copy_with(const ExecutionSpace& exec, const Source& source, Word* out, const Word* in,
               const copy_plan& p) {
  source.template with_entries<Index>(exec, p.shape, [&](const auto& entries) {
    launch_copy<Word, Index>(exec, out, in, entries, p);
  });
}

// rows rows of `row` bytes, each rotated by `shift` bytes.
struct byte_rows {
  std::int64_t rows, row, shift;
};

template <class View>
std::string extents_text(const View& v);

// The rows moved as words of Word, which divides the row, the rotation and both addresses. The
// plan is checked before anything is launched.
template <class Word, class ExecutionSpace, class Source, class View>
void cshift_words(const ExecutionSpace& exec, const Source& source, Word* out, const Word* in,
                  const byte_rows& b, const View& in_view) {
  constexpr auto w = static_cast<std::int64_t>(sizeof(Word));
  const auto plan  = plan_copy<Word, ExecutionSpace>(b.rows, b.row / w, b.shift / w);
  if (plan.league > INT_MAX) {
    throw_invalid_argument("loopnest::cshift", "the views (" + extents_text(in_view) +
                                                   ") need more teams than one launch takes");
  }
  // 32-bit offsets while a row and a half-wrapped source offset (< 2 rows) both fit.
  if (b.rows * (b.row / w) <= INT_MAX / 2) {
    copy_with<Word, int>(exec, source, out, in, plan);
  } else {
    copy_with<Word, std::int64_t>(exec, source, out, in, plan);
  }
}

template <class View>
std::string extents_text(const View& v) {
  std::string s;
  for (int d = 0; d < static_cast<int>(View::rank); ++d) {
    s += (d ? "x" : "") + std::to_string(v.extent(d));
  }
  return s;
}

template <class Out, class In>
void check_cshift(const Out& out, const In& in, int dim) {
  constexpr int rank = static_cast<int>(Out::rank);
  if (dim < 0 || dim >= rank) {
    throw_invalid_argument("loopnest::cshift", "dim = " + std::to_string(dim) +
                                                   " but the views have rank " +
                                                   std::to_string(rank) + " (dim counts from 0)");
  }
  for (int d = 0; d < rank; ++d) {
    if (out.extent(d) != in.extent(d)) {
      throw_invalid_argument("loopnest::cshift", "out and in have different extents: out is " +
                                                     extents_text(out) + " but in is " +
                                                     extents_text(in));
    }
  }
  const auto check_contiguous = [](const char* name, const auto& v) {
    if (!v.span_is_contiguous()) {
      throw_invalid_argument("loopnest::cshift",
                             std::string(name) + " is not contiguous (" + std::to_string(v.size()) +
                                 " elements over a span of " + std::to_string(v.span()) +
                                 "); cshift needs contiguous views");
    }
  };
  check_contiguous("out", out);
  check_contiguous("in", in);
  if (views_overlap(out, in)) {
    throw_invalid_argument("loopnest::cshift",
                           "out aliases in (their memory overlaps); the result needs a view of its "
                           "own");
  }
}

// loopnest::cshift with the table entries of `source` (see strategy_entries).
template <class ExecutionSpace, class Out, class In, class Source>
void cshift_with(const ExecutionSpace& exec, const Out& out, const In& in, int dim,
                 std::int64_t shift, const Source& source) {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::cshift: the first argument must be a Kokkos execution space instance, "
                "such as Kokkos::DefaultExecutionSpace().");
  static_assert(Kokkos::is_view<Out>::value && Kokkos::is_view<In>::value,
                "loopnest::cshift: out and in must be Kokkos::Views.");
  static_assert(static_cast<int>(Out::rank) == static_cast<int>(In::rank),
                "loopnest::cshift: out and in must have the same rank.");
  static_assert(Out::rank >= 1 && Out::rank <= 4,
                "loopnest::cshift: the views must have rank 1 to 4.");
  static_assert(
      std::is_same<typename Out::non_const_value_type, typename In::non_const_value_type>::value,
      "loopnest::cshift: out and in must have the same element type.");
  static_assert(!std::is_const<typename Out::value_type>::value,
                "loopnest::cshift: out must not have a const element type; it is written.");
  static_assert(std::is_trivially_copyable<typename Out::value_type>::value,
                "loopnest::cshift: the element type must be trivially copyable; cshift moves "
                "its bytes.");
  static_assert(std::is_same<typename Out::array_layout, typename In::array_layout>::value,
                "loopnest::cshift: out and in must have the same layout.");
  static_assert(std::is_same<typename Out::array_layout, Kokkos::LayoutLeft>::value ||
                    std::is_same<typename Out::array_layout, Kokkos::LayoutRight>::value,
                "loopnest::cshift: the views must be LayoutLeft or LayoutRight.");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename Out::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename In::memory_space>::accessible,
      "loopnest::cshift: out and in must live in memory the execution space can access.");
  check_cshift(out, in, dim);
  const profiling_region region("loopnest::cshift");
  if (out.size() == 0) {
    return;
  }
  // In memory the views are [outer][n][inner]: a row of n * inner elements rotates by
  // shift * inner.
  constexpr int rank  = static_cast<int>(Out::rank);
  constexpr bool left = std::is_same<typename Out::array_layout, Kokkos::LayoutLeft>::value;
  std::int64_t n = 1, inner = 1, outer = 1;
  for (int d = 0; d < rank; ++d) {
    const auto e = static_cast<std::int64_t>(in.extent(d));
    if (d == dim) {
      n = e;
    } else {
      ((d < dim) == left ? inner : outer) *= e;
    }
  }
  using value_type     = typename Out::value_type;
  constexpr auto bytes = static_cast<std::int64_t>(sizeof(value_type));
  const std::int64_t s = (shift % n + n) % n;
  const byte_rows rows{outer, n * inner * bytes, s * inner * bytes};
  // A word of w bytes fits where it divides a row, its rotation and both views' addresses.
  const auto fits = [&](std::int64_t w) {
    return w <= cshift_traits<ExecutionSpace>::widest_word && rows.row % w == 0 &&
           rows.shift % w == 0 && reinterpret_cast<std::uintptr_t>(out.data()) % w == 0 &&
           reinterpret_cast<std::uintptr_t>(in.data()) % w == 0;
  };
  constexpr std::size_t word = word_bytes<value_type>();
  const auto move            = [&](auto as_word) {
    using w = decltype(as_word);
    cshift_words<w>(exec, source, reinterpret_cast<w*>(out.data()),
                    reinterpret_cast<const w*>(in.data()), rows, in);
  };
  if constexpr (word < 16) {
    if (fits(16)) {
      move(word16{});
      return;
    }
  }
  if constexpr (word < 8) {
    if (fits(8)) {
      move(std::uint64_t{});
      return;
    }
  }
  if constexpr (word < 4) {
    if (fits(4)) {
      move(std::uint32_t{});
      return;
    }
  }
  move(word_t<value_type>{});
}

}  // namespace Impl

// out(x) = in(x + shift * e_dim) with periodic wrap along dimension `dim` (0-based): shift 1
// on [1, 2, 3, 4, 5] gives [2, 3, 4, 5, 1], as Fortran's CSHIFT and Grid's Cshift; any shift,
// negative or beyond the extent. out and in: contiguous Views of rank 1 to 4, the same
// extents, layout (LayoutLeft or LayoutRight) and trivially copyable element type, in memory
// exec can reach, out not overlapping in. The copy runs on exec, asynchronously; its offset
// table comes from `strategy`, cshift_default_strategy unless given (see cshift_strategy;
// device_table builds it once per shape and caches it, see cshift_cache_clear). Throws
// std::invalid_argument, before anything is launched or written, for a dim outside the rank,
// different extents, a non-contiguous view and overlapping views.
template <class ExecutionSpace, class Out, class In>
void cshift(const ExecutionSpace& exec, const Out& out, const In& in, int dim, std::int64_t shift,
            cshift_strategy strategy = cshift_default_strategy<ExecutionSpace>) {
  Impl::cshift_with(exec, out, in, dim, shift, Impl::strategy_entries{strategy});
}

}  // namespace loopnest

#endif
