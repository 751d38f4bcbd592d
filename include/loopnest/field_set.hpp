// loopnest::field_set: nvar scalar fields of one structured grid, each its own allocation, with
// ghost layers, as MFC keeps them (v_vf(i)%sf(j, k, l)).
#ifndef LOOPNEST_FIELD_SET_HPP
#define LOOPNEST_FIELD_SET_HPP

#include <loopnest/detail/index_bounds.hpp>
#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/read_only.hpp>

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace loopnest {

namespace Impl {
template <class T>
struct field_pointer {
  T* data;
};
}  // namespace Impl

// What a kernel captures: a pointer table and the strides, 48 bytes whatever nvar is, so that
// kernels stay under Kokkos' 512-byte limit for passing arguments directly. Index (v, i, j, k)
// with i, j, k in the grid's index space, ghosts included (negative below the interior). Where
// KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK is defined (as for Kokkos' own View bounds checks) it also
// carries the index space (72 bytes) and every operator() and load checks v in [0, nvar) and
// i, j, k in it, aborting (Kokkos::abort) with the indices and the bounds on a violation.
template <class T>
struct field_set_ref {
  const Impl::field_pointer<T>* table;
  std::ptrdiff_t base, s0, s1, s2;
  int nvar;
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
  Impl::index_bounds bounds;
#endif

  KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t offset(int i, int j, int k) const {
    return base + i * s0 + j * s1 + k * s2;
  }
  // No kernel writes the table, so its entries load read-only: a store to one field then does
  // not force the next field's pointer to be fetched again after it.
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int v, int i, int j, int k) const {
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
    bounds.check("loopnest::field_set_ref", v, i, j, k);
#endif
    return load_read_only(table[v].data)[offset(i, j, k)];
  }
  // A read of an element that no other thread writes while the kernel runs and that this thread
  // writes, if at all, only after reading it (loopnest::load_read_only): an input field, or the
  // old value of a `+=`.
  KOKKOS_FORCEINLINE_FUNCTION T load(int v, int i, int j, int k) const {
    return load_read_only((*this)(v, i, j, k));
  }
};

// nvar fields on one grid (loopnest::grid_shape gives the index space and the errors), each its
// own allocation. Layout is the layout of each field (LayoutLeft, x fastest, is MFC's Fortran
// order).
template <class T, class Layout = Kokkos::LayoutLeft,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class field_set : public grid_shape {
  static_assert(std::is_arithmetic<T>::value,
                "loopnest::field_set: the element type must be arithmetic, such as float or "
                "double.");
  static_assert(std::is_same<Layout, Kokkos::LayoutLeft>::value ||
                    std::is_same<Layout, Kokkos::LayoutRight>::value,
                "loopnest::field_set: the layout must be Kokkos::LayoutLeft or "
                "Kokkos::LayoutRight.");

 public:
  using value_type   = T;
  using layout_type  = Layout;
  using memory_space = MemorySpace;
  using field_view   = Kokkos::View<T***, Layout, MemorySpace>;

  // The fields and their pointer table are allocated (and zeroed) on exec; the constructor
  // returns once they are.
  template <class ExecutionSpace>
  field_set(const ExecutionSpace& exec, const std::string& label, int nvar,
            std::initializer_list<int> interior, int ghost)
      : grid_shape("loopnest::field_set", nvar, interior, ghost) {
    static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                  "loopnest::field_set: the first argument must be a Kokkos execution space "
                  "instance, such as Kokkos::DefaultExecutionSpace().");
    static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                  "loopnest::field_set: the execution space must be able to access the memory "
                  "space of the fields.");
    Kokkos::View<Impl::field_pointer<T>*, MemorySpace> table(
        Kokkos::view_alloc(exec, label + "/table"), nvar);
    auto host_table = Kokkos::create_mirror_view(table);
    for (int v = 0; v < nvar; ++v) {
      m_fields.emplace_back(Kokkos::view_alloc(exec, label + "/" + std::to_string(v)), extent(0),
                            extent(1), extent(2));
      host_table(v).data = m_fields.back().data();
    }
    Kokkos::deep_copy(exec, table, host_table);
    // host_table goes out of scope here; the copy from it must be done first.
    exec.fence();
    m_table = table;
  }
  // On the default execution space of MemorySpace.
  field_set(const std::string& label, int nvar, std::initializer_list<int> interior, int ghost)
      : field_set(typename MemorySpace::execution_space{}, label, nvar, interior, ghost) {}

  // Variable v as a View indexed from 0 (index i of the View is grid index i + lower(0)).
  const field_view& field(int v) const { return m_fields.at(static_cast<std::size_t>(v)); }

  field_set_ref<T> ref() const {
    const auto& f = m_fields.front();
    field_set_ref<T> r;
    r.table = m_table.data();
    r.nvar  = nvar();
    r.s0    = static_cast<std::ptrdiff_t>(f.stride(0));
    r.s1    = static_cast<std::ptrdiff_t>(f.stride(1));
    r.s2    = static_cast<std::ptrdiff_t>(f.stride(2));
    r.base  = -(lower(0) * r.s0 + lower(1) * r.s1 + lower(2) * r.s2);
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
    r.bounds = Impl::index_bounds::of(*this);
#endif
    return r;
  }

 private:
  std::vector<field_view> m_fields;
  Kokkos::View<const Impl::field_pointer<T>*, MemorySpace> m_table;
};

namespace Impl {
template <class F>
struct is_field_set : std::false_type {};
template <class T, class Layout, class MemorySpace>
struct is_field_set<field_set<T, Layout, MemorySpace>> : std::true_type {};
template <class F>
constexpr bool is_field_set_v = is_field_set<F>::value;
}  // namespace Impl

}  // namespace loopnest

#endif
