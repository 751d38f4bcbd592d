// The (destination, source) offset tables behind loopnest::cshift: table shapes and entries, the
// per-backend choices, filling on the device, and the cache that keeps tables across calls, keyed
// by the tables' type (execution space and strategy) and shape.
#ifndef LOOPNEST_DETAIL_CSHIFT_TABLE_HPP
#define LOOPNEST_DETAIL_CSHIFT_TABLE_HPP

#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/kokkos_compat.hpp>

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>

namespace loopnest::Impl {

// The Kokkos profiling region around all table work, and the label of the tables' Views
// (loopnest::cshift_table_region).
inline constexpr const char* cshift_table_label = "loopnest::cshift_table";

// Per-backend choices for cshift. Host backends: one thread per team, which walks its block
// in order; 64 passes of 64 bytes keep the block (4 KiB) in L1 and the teams few. widest_word:
// the widest word (bytes, up to 16) a row whose size and rotation allow it moves as; the
// element's own word where it is wider or equal.
template <class ExecutionSpace>
struct cshift_traits {
  static constexpr int team_size        = 1;
  static constexpr int team_granularity = 1;
  static constexpr int passes           = 64;
  static constexpr int widest_word      = 16;
};

// GPU backends: 256 threads per team, each with 64 bytes in flight in one pass. A row shorter
// than the team gets a team of whole warps just covering it, so that no warp idles. 4-byte
// elements move as 16-byte words where rows allow, four times the bytes per instruction.
template <int Warp>
struct gpu_cshift_traits {
  static constexpr int team_size        = 256;
  static constexpr int team_granularity = Warp;
  static constexpr int passes           = 1;
  static constexpr int widest_word      = 16;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct cshift_traits<Kokkos::Cuda> : gpu_cshift_traits<32> {};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct cshift_traits<Kokkos::HIP> : gpu_cshift_traits<64> {};
#endif

// A cshift seen as rows of machine words: out[r][c] = in[r][(c + shift) mod row] for every
// row r. Each row is cut into blocks of `block` words (the last one may be shorter), one
// table entry per block; the entries are the same for every row apart from the row's base.
struct table_shape {
  std::int64_t row;
  std::int64_t shift;
  std::int64_t block;
  std::int64_t blocks() const { return (row + block - 1) / block; }
};

template <class Index>
struct table_entry {
  Index dest;
  Index src;
};

// Entry e of a row: where block e starts in out, and where its first word comes from in.
template <class Index>
KOKKOS_INLINE_FUNCTION table_entry<Index> entry_of(Index e, Index row, Index shift, Index block) {
  const Index dest = e * block;
  const Index src  = dest + shift;
  return {dest, src < row ? src : src - row};
}

// Entry e as (dest, src), the pair adjacent in memory so a team reads it in one load.
template <class MemorySpace>
using table_view = Kokkos::View<std::int64_t* [2], Kokkos::LayoutRight, MemorySpace>;

template <class ExecutionSpace>
void fill_on_device(const ExecutionSpace& exec,
                    const table_view<typename ExecutionSpace::memory_space>& table,
                    const table_shape& s) {
  const std::int64_t row = s.row, shift = s.shift, block = s.block;
  Kokkos::parallel_for(
      cshift_table_label,
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(exec, 0, s.blocks()),
      KOKKOS_LAMBDA(std::int64_t e) {
        const auto entry = entry_of(e, row, shift, block);
        table(e, 0)      = entry.dest;
        table(e, 1)      = entry.src;
      });
}

// What the cache holds for one key: a strategy's tables of one shape on one execution space.
struct cached_tables {
  virtual ~cached_tables()          = default;
  virtual std::size_t bytes() const = 0;
};

// Tables is the type of what is cached (a cached_tables), so that it names the execution space
// and the strategy.
struct table_key {
  std::type_index tables;
  std::int64_t row, shift, block;
  bool operator<(const table_key& o) const {
    return std::tie(tables, row, shift, block) < std::tie(o.tables, o.row, o.shift, o.block);
  }
};

// Least recently used tables first out, bounded in bytes. One mutex covers a lookup and the
// table work that follows it, so concurrent callers never fill one table at the same time.
class table_cache {
 public:
  static table_cache& instance() {
    static table_cache cache;
    return cache;
  }

  // f(cache) under the cache's lock.
  template <class F>
  static decltype(auto) locked(const F& f) {
    auto& cache = instance();
    const std::lock_guard<std::mutex> lock(cache.m_mutex);
    return f(cache);
  }

  template <class Tables>
  std::shared_ptr<Tables> find(const table_key& key) {
    const auto it = m_index.find(key);
    if (it == m_index.end()) {
      return nullptr;
    }
    m_lru.splice(m_lru.begin(), m_lru, it->second);
    return std::static_pointer_cast<Tables>(it->second->tables);
  }

  // Keeps the tables unless they alone exceed the limit; the caller's pointer stays valid
  // either way.
  void insert(const table_key& key, std::shared_ptr<cached_tables> tables, std::size_t bytes) {
    if (!m_released_at_finalize) {
      // Kokkos must not free device memory after finalize, and the cache lives until exit.
      Kokkos::push_finalize_hook([] {
        locked([](table_cache& cache) {
          cache.drop_all();
          cache.m_released_at_finalize = false;
        });
      });
      m_released_at_finalize = true;
    }
    m_lru.push_front({key, std::move(tables), bytes});
    m_index[key] = m_lru.begin();
    m_bytes += bytes;
    evict();
  }

  void drop_all() {
    m_lru.clear();
    m_index.clear();
    m_bytes = 0;
  }

  void set_limit(std::size_t bytes) {
    m_limit = bytes;
    evict();
  }
  std::size_t limit() const { return m_limit; }
  std::size_t bytes() const { return m_bytes; }
  std::size_t tables() const { return m_lru.size(); }

 private:
  struct entry {
    table_key key;
    std::shared_ptr<cached_tables> tables;
    std::size_t bytes;
  };

  void evict() {
    while (m_bytes > m_limit && !m_lru.empty()) {
      m_bytes -= m_lru.back().bytes;
      m_index.erase(m_lru.back().key);
      m_lru.pop_back();
    }
  }

  std::mutex m_mutex;
  std::list<entry> m_lru;
  std::map<table_key, std::list<entry>::iterator> m_index;
  std::size_t m_bytes         = 0;
  std::size_t m_limit         = std::size_t(64) << 20;
  bool m_released_at_finalize = false;
};

// The Tables (a cached_tables) of one shape: from the cache, or allocated by `allocate` and
// cached. `work` fills them, inside the profiling region and under the cache's lock so that
// concurrent callers never fill one table at once: on every call, or only when just allocated.
template <class Tables, class Allocate, class Work>
std::shared_ptr<Tables> tables_for(const table_shape& shape, bool work_every_call,
                                   const Allocate& allocate, const Work& work) {
  static_assert(std::is_base_of<cached_tables, Tables>::value,
                "loopnest::Impl::tables_for: the tables must derive from cached_tables.");
  return table_cache::locked([&](table_cache& cache) {
    const table_key key{typeid(Tables), shape.row, shape.shift, shape.block};
    auto found            = cache.find<Tables>(key);
    const bool new_tables = found == nullptr;
    if (new_tables) {
      found = std::make_shared<Tables>();
      allocate(*found);
    }
    if (new_tables || work_every_call) {
      const profiling_region region(cshift_table_label);
      work(*found);
    }
    if (new_tables) {
      cache.insert(key, found, found->bytes());
    }
    return found;
  });
}

// On exec where it can reach the table's memory; a host table for a device is allocated on the
// host.
template <class View, class ExecutionSpace>
View allocate_table(const ExecutionSpace& exec, const table_shape& shape) {
  const std::string label(cshift_table_label);
  if constexpr (Kokkos::SpaceAccessibility<ExecutionSpace,
                                           typename View::memory_space>::accessible) {
    return View(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label), shape.blocks());
  } else {
    return View(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), shape.blocks());
  }
}

}  // namespace loopnest::Impl

#endif
