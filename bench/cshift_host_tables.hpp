// Grid's host-filled offset tables for loopnest::cshift, kept only to be compared with loopnest's
// strategies (device_table, no_table) in the cshift family: filled on the host and copied to the
// device on every call (Grid today), or filled on the host in managed memory on every call (Grid
// before its PR 421). They run through loopnest's cshift and its table cache and profiling region.
#ifndef LOOPNEST_BENCH_CSHIFT_HOST_TABLES_HPP
#define LOOPNEST_BENCH_CSHIFT_HOST_TABLES_HPP

#include <loopnest/cshift.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace loopnest_bench {

enum class host_table { copied, managed };

// The managed memory space of a backend, void where it has none.
template <class ExecutionSpace>
struct managed_space_of {
  using type = void;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct managed_space_of<Kokkos::Cuda> {
  using type = Kokkos::CudaUVMSpace;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct managed_space_of<Kokkos::HIP> {
  using type = Kokkos::HIPManagedSpace;
};
#endif
template <class ExecutionSpace>
inline constexpr bool has_managed_memory_v =
    !std::is_void<typename managed_space_of<ExecutionSpace>::type>::value;

template <class View>
void fill_on_host(const View& table, const loopnest::Impl::table_shape& s) {
  for (std::int64_t e = 0; e < s.blocks(); ++e) {
    const auto entry = loopnest::Impl::entry_of(e, s.row, s.shift, s.block);
    table(e, 0)      = entry.dest;
    table(e, 1)      = entry.src;
  }
}

// What the cache keeps of a copied host table: the host table and its device copy.
template <class ExecutionSpace>
struct copied_tables : loopnest::Impl::cached_tables {
  loopnest::Impl::table_view<typename ExecutionSpace::memory_space> device;
  loopnest::Impl::table_view<Kokkos::HostSpace> host;
  std::size_t bytes() const override {
    return sizeof(std::int64_t) * 2 * (device.extent(0) + host.extent(0));
  }
};

// What the cache keeps of a managed table.
template <class ExecutionSpace>
struct managed_tables : loopnest::Impl::cached_tables {
  using space =
      std::conditional_t<has_managed_memory_v<ExecutionSpace>,
                         typename managed_space_of<ExecutionSpace>::type, Kokkos::HostSpace>;
  loopnest::Impl::table_view<space> managed;
  std::size_t bytes() const override { return sizeof(std::int64_t) * 2 * managed.extent(0); }
};

// A source of table entries for loopnest::Impl::cshift_with (see loopnest::Impl::strategy_entries).
struct host_table_entries {
  host_table kind;

  template <class Index, class ExecutionSpace, class Launch>
  void with_entries(const ExecutionSpace& exec, const loopnest::Impl::table_shape& shape,
                    const Launch& launch) const {
    using loopnest::Impl::allocate_table;
    using loopnest::Impl::table_entries;
    using loopnest::Impl::tables_for;
    if (kind == host_table::copied) {
      // Filled on the host and copied on every call, ordered after earlier launches on exec.
      using tables = copied_tables<ExecutionSpace>;
      const auto t = tables_for<tables>(
                         shape, true,
                         [&](tables& c) {
                           c.device = allocate_table<decltype(c.device)>(exec, shape);
                           c.host   = allocate_table<decltype(c.host)>(exec, shape);
                         },
                         [&](tables& c) {
                           fill_on_host(c.host, shape);
                           Kokkos::deep_copy(exec, c.device, c.host);
                         })
                         ->device;
      launch(table_entries<Index, decltype(t)>{t});
    } else if constexpr (has_managed_memory_v<ExecutionSpace>) {
      // Filled on the host in managed memory on every call; the device pages it in at the next
      // launch. The host may write managed memory only while no kernel reads it, hence the fence.
      using tables = managed_tables<ExecutionSpace>;
      exec.fence();
      const auto t =
          tables_for<tables>(
              shape, true,
              [&](tables& c) { c.managed = allocate_table<decltype(c.managed)>(exec, shape); },
              [&](tables& c) { fill_on_host(c.managed, shape); })
              ->managed;
      launch(table_entries<Index, decltype(t)>{t});
    }
  }
};

// loopnest::cshift with a host-filled table. Throws std::invalid_argument, before any launch, for
// a managed table on a backend without managed memory.
template <class ExecutionSpace, class Out, class In>
void cshift_host_table(const ExecutionSpace& exec, const Out& out, const In& in, int dim,
                       std::int64_t shift, host_table kind) {
  if (kind == host_table::managed && !has_managed_memory_v<ExecutionSpace>) {
    throw std::invalid_argument(std::string("cshift_host_table: a managed table needs managed "
                                            "memory, which ") +
                                ExecutionSpace::name() + " does not have");
  }
  loopnest::Impl::cshift_with(exec, out, in, dim, shift, host_table_entries{kind});
}

}  // namespace loopnest_bench

#endif
