// loopnest::packed_fields: nvar variables of one grid in a single 4D buffer, variable index
// last, as MFC packs them for WENO reconstruction and Riemann solves.
#ifndef LOOPNEST_PACKED_FIELDS_HPP
#define LOOPNEST_PACKED_FIELDS_HPP

#include <loopnest/detail/index_bounds.hpp>
#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/read_only.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <type_traits>

namespace loopnest {

// Which grid index the buffer stores first: xyz is (x, y, z, var); yxz and zyx move the sweep
// direction y or z to the front, as MFC's transposed WENO buffers do.
enum class axis_order { xyz, yxz, zyx };

constexpr const char* name(axis_order order) {
  return order == axis_order::xyz ? "xyz" : order == axis_order::yxz ? "yxz" : "zyx";
}

// The device handle: indexed (v, i, j, k) in grid indices whatever the axis order. Where
// KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK is defined it also carries nvar and the index space, and every
// operator() and load checks the indices as field_set_ref does.
template <class T>
struct packed_fields_ref {
  T* data;
  std::ptrdiff_t base, s0, s1, s2, sv;
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
  Impl::index_bounds bounds;
#endif

  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int v, int i, int j, int k) const {
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
    bounds.check("loopnest::packed_fields_ref", v, i, j, k);
#endif
    return data[base + i * s0 + j * s1 + k * s2 + v * sv];
  }
  // A read of an element that the kernel does not write (loopnest::load_read_only).
  KOKKOS_FORCEINLINE_FUNCTION T load(int v, int i, int j, int k) const {
    return load_read_only((*this)(v, i, j, k));
  }
};

// A (first, second, third, var) buffer over the index space of loopnest::grid_shape, the first
// three indices in `order`. Layout is the layout of the 4D View (LayoutLeft: first index
// fastest).
template <class T, class Layout = Kokkos::LayoutLeft,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class packed_fields : public grid_shape {
  static_assert(std::is_arithmetic<T>::value,
                "loopnest::packed_fields: the element type must be arithmetic, such as float or "
                "double.");
  static_assert(std::is_same<Layout, Kokkos::LayoutLeft>::value ||
                    std::is_same<Layout, Kokkos::LayoutRight>::value,
                "loopnest::packed_fields: the layout must be Kokkos::LayoutLeft or "
                "Kokkos::LayoutRight.");

 public:
  using value_type   = T;
  using layout_type  = Layout;
  using memory_space = MemorySpace;
  using view_type    = Kokkos::View<T****, Layout, MemorySpace>;

  // The buffer is allocated (and zeroed) on exec; the constructor returns once it is.
  template <class ExecutionSpace>
  packed_fields(const ExecutionSpace& exec, const std::string& label, int nvar,
                std::initializer_list<int> interior, int ghost, axis_order order = axis_order::xyz)
      : grid_shape("loopnest::packed_fields", nvar, interior, ghost), m_order(order) {
    static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                  "loopnest::packed_fields: the first argument must be a Kokkos execution space "
                  "instance, such as Kokkos::DefaultExecutionSpace().");
    static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                  "loopnest::packed_fields: the execution space must be able to access the "
                  "memory space of the buffer.");
    m_view = view_type(Kokkos::view_alloc(exec, label), extent(storage_dim(0)),
                       extent(storage_dim(1)), extent(storage_dim(2)), nvar);
    exec.fence();
  }
  // On the default execution space of MemorySpace.
  packed_fields(const std::string& label, int nvar, std::initializer_list<int> interior, int ghost,
                axis_order order = axis_order::xyz)
      : packed_fields(typename MemorySpace::execution_space{}, label, nvar, interior, ghost,
                      order) {}

  axis_order order() const { return m_order; }
  // Storage position s holds grid dimension storage_dim(s).
  int storage_dim(int s) const {
    return m_order == axis_order::xyz   ? s
           : m_order == axis_order::zyx ? 2 - s
                                        : (s < 2 ? 1 - s : 2);
  }
  // The buffer as a 0-based View in storage order.
  const view_type& view() const { return m_view; }

  packed_fields_ref<T> ref() const {
    std::ptrdiff_t stride[3];
    for (int s = 0; s < 3; ++s) {
      stride[storage_dim(s)] = static_cast<std::ptrdiff_t>(m_view.stride(s));
    }
    packed_fields_ref<T> r;
    r.data = m_view.data();
    r.s0   = stride[0];
    r.s1   = stride[1];
    r.s2   = stride[2];
    r.sv   = static_cast<std::ptrdiff_t>(m_view.stride(3));
    r.base = -(lower(0) * r.s0 + lower(1) * r.s1 + lower(2) * r.s2);
#if defined(KOKKOS_ENABLE_DEBUG_BOUNDS_CHECK)
    r.bounds = Impl::index_bounds::of(*this);
#endif
    return r;
  }

 private:
  axis_order m_order;
  view_type m_view;
};

}  // namespace loopnest

#endif
