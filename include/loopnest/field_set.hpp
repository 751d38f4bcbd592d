// loopnest::field_set: nvar scalar fields of one structured grid, each its own allocation, with
// ghost layers, as MFC keeps them (v_vf(i)%sf(j, k, l)).
#ifndef LOOPNEST_FIELD_SET_HPP
#define LOOPNEST_FIELD_SET_HPP

#include <loopnest/box.hpp>
#include <loopnest/kokkos_compat.hpp>

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

// What a kernel captures: a pointer table and the strides, 64 bytes whatever nvar is, so that
// kernels stay under Kokkos' 512-byte limit for passing arguments directly. Index (v, i, j, k)
// with i, j, k in the grid's index space, ghosts included (negative below the interior).
template <class T>
struct field_set_ref {
  const Impl::field_pointer<T>* table;
  std::ptrdiff_t base, s0, s1, s2;
  int nvar;

  KOKKOS_FORCEINLINE_FUNCTION std::ptrdiff_t offset(int i, int j, int k) const {
    return base + i * s0 + j * s1 + k * s2;
  }
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int v, int i, int j, int k) const {
    return table[v].data[offset(i, j, k)];
  }
};

// nvar fields of an nx [x ny [x nz]] grid whose active dimensions carry `ghost` layers: index d
// runs over [-ghost, n_d + ghost) when d is active and over [0, 1) when it is not (a 2D grid
// has one cell along z, a 1D grid one along y and z). Layout is the layout of each field
// (LayoutLeft, x fastest, is MFC's Fortran order). Throws std::invalid_argument for nvar < 1,
// an interior extent below 1, a negative ghost width or 0 or more than 3 extents.
template <class T, class Layout = Kokkos::LayoutLeft,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class field_set {
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

  field_set(const std::string& label, int nvar, std::initializer_list<int> interior, int ghost)
      : m_nvar(nvar), m_ghost(ghost), m_dims(static_cast<int>(interior.size())) {
    check("nvar", nvar, 1);
    check("ghost", ghost, 0);
    if (m_dims < 1 || m_dims > 3) {
      throw std::invalid_argument("loopnest::field_set: " + std::to_string(m_dims) +
                                  " interior extents given; a grid has 1 to 3");
    }
    int d = 0;
    for (int n : interior) {
      check(("interior[" + std::to_string(d) + "]").c_str(), n, 1);
      m_interior[d++] = n;
    }
    for (int e = 0; e < 3; ++e) {
      m_lower[e] = e < m_dims ? -ghost : 0;
      m_upper[e] = e < m_dims ? m_interior[e] + ghost : 1;
    }
    Kokkos::View<Impl::field_pointer<T>*, MemorySpace> table(label + "/table", nvar);
    auto host_table = Kokkos::create_mirror_view(table);
    for (int v = 0; v < nvar; ++v) {
      m_fields.emplace_back(label + "/" + std::to_string(v), extent(0), extent(1), extent(2));
      host_table(v).data = m_fields.back().data();
    }
    Kokkos::deep_copy(table, host_table);
    m_table = table;
  }

  int nvar() const { return m_nvar; }
  int ghost() const { return m_ghost; }
  int dims() const { return m_dims; }
  int interior_extent(int d) const { return m_interior[d]; }
  // Index bounds of dimension d, ghosts included.
  int lower(int d) const { return m_lower[d]; }
  int upper(int d) const { return m_upper[d]; }
  int extent(int d) const { return m_upper[d] - m_lower[d]; }

  box<3> interior() const { return {{0, 0, 0}, {m_interior[0], m_interior[1], m_interior[2]}}; }
  box<3> with_ghosts() const {
    return {{m_lower[0], m_lower[1], m_lower[2]}, {m_upper[0], m_upper[1], m_upper[2]}};
  }

  // Variable v as a View indexed from 0 (index i of the View is grid index i + lower(0)).
  const field_view& field(int v) const { return m_fields.at(static_cast<std::size_t>(v)); }

  field_set_ref<T> ref() const {
    const auto& f = m_fields.front();
    field_set_ref<T> r{m_table.data(), 0, 1, 1, 1, m_nvar};
    r.s0   = static_cast<std::ptrdiff_t>(f.stride(0));
    r.s1   = static_cast<std::ptrdiff_t>(f.stride(1));
    r.s2   = static_cast<std::ptrdiff_t>(f.stride(2));
    r.base = -(m_lower[0] * r.s0 + m_lower[1] * r.s1 + m_lower[2] * r.s2);
    return r;
  }

 private:
  static void check(const char* name, int value, int least) {
    if (value < least) {
      throw std::invalid_argument(std::string("loopnest::field_set: ") + name + " = " +
                                  std::to_string(value) + " but it must be at least " +
                                  std::to_string(least));
    }
  }

  int m_nvar, m_ghost, m_dims;
  int m_interior[3] = {1, 1, 1};
  int m_lower[3]    = {};
  int m_upper[3]    = {};
  std::vector<field_view> m_fields;
  Kokkos::View<const Impl::field_pointer<T>*, MemorySpace> m_table;
};

}  // namespace loopnest

#endif
