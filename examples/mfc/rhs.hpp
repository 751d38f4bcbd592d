// MFC's right-hand side for the five-equation model (src/simulation/m_rhs.fpp, s_compute_rhs)
// and its SSP-RK3 step (m_time_steppers.fpp, s_3rd_order_tvd_rk) on loopnest's loops, the
// schedule a template argument of every loop:
//   conservative -> primitive on the interior; boundary conditions on the primitive variables;
//   per direction: WENO (order 5, 3 or 1) of every variable at both boundaries of every cell
//   (a (cell, variable) loop, s_reconstruct_cell_boundary_values), the HLLC or HLL flux at every
//   boundary (a cell loop, s_riemann_solver), each direction's fluxes kept; on the domain's
//   faces whose bc is characteristic (-5 .. -12) the fluxes and u* next to the face replaced as
//   MFC's s_cbc replaces them (cbc.hpp, a loop over the face's cells); then the flux
//   differences and volume-fraction source terms of all directions (MFC's per-direction loops
//   and s_compute_advection_source_term) in one (cell, variable) loop.
// Each value is computed by MFC's arithmetic in MFC's order (but for the WENO weights, normalised
// with fewer divisions: weno.hpp says why). The reconstructed values and the fluxes keep the
// grid's own order in every direction, so MFC's reshapes for y and z (v_rs_ws) and its finalize
// (the copy back) have nothing to do.
#ifndef LOOPNEST_MFC_RHS_HPP
#define LOOPNEST_MFC_RHS_HPP

#include "case.hpp"
#include "eos.hpp"
#include "grid.hpp"
#include "patches.hpp"
#include "riemann.hpp"
#include "weno.hpp"

#include <loopnest/box.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/ghost_fill.hpp>
#include <loopnest/sweep.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Loops over a cell's variables are unrolled on GPUs so that their per-variable arrays stay in
// registers (the bodies are long enough that nvcc would otherwise keep them in local memory).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define LOOPNEST_MFC_UNROLL _Pragma("unroll")
#else
#define LOOPNEST_MFC_UNROLL
#endif

namespace loopnest_mfc {

// Where each of the kernels' fixed places (slot_index) is in the case's variables, -1 when the
// case does not have it.
struct slot_map {
  int var[max_equations];

  static slot_map of(const equation_index& ix) {
    slot_map s{};
    for (int& v : s.var) {
      v = -1;
    }
    for (int k = 0; k < ix.num_fluids; ++k) {
      s.var[slot_index::cont(k)] = ix.cont(k);
      s.var[slot_index::adv(k)]  = ix.adv(k);
    }
    for (int d = 0; d < ix.num_dims; ++d) {
      s.var[slot_index::mom(d)] = ix.mom(d);
    }
    s.var[slot_index::energy()] = ix.energy();
    return s;
  }

  // A cell's variables of `fields` in slot order; slots the case has no variable for keep their
  // value.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION void load(const loopnest::field_set_ref<T>& fields, int i, int j,
                                        int k, T (&slots)[max_equations]) const {
    for (int s = 0; s < max_equations; ++s) {
      if (var[s] >= 0) {
        slots[s] = fields.load(var[s], i, j, k);
      }
    }
  }
  // The slots' values into a cell of `fields`.
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION void store(const loopnest::field_set_ref<T>& fields, int i, int j,
                                         int k, const T (&slots)[max_equations]) const {
    for (int s = 0; s < max_equations; ++s) {
      if (var[s] >= 0) {
        fields(var[s], i, j, k) = slots[s];
      }
    }
  }
};

// Kernel time per loop when profiling (each loop fenced); nothing otherwise.
class kernel_profile {
 public:
  struct entry {
    double seconds = 0.0;
    double bytes   = 0.0;  // what the loop must move, once per call
    long calls     = 0;
  };

  explicit kernel_profile(bool on) : m_on(on) {}
  bool on() const { return m_on; }

  template <class ExecutionSpace, class Launch>
  void run(const ExecutionSpace& exec, const std::string& name, double bytes,
           const Launch& launch) {
    if (!m_on) {
      launch();
      return;
    }
    exec.fence();
    const auto start = std::chrono::steady_clock::now();
    launch();
    exec.fence();
    entry& e = m_entries[name];
    e.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    e.bytes += bytes;
    ++e.calls;
  }
  const std::map<std::string, entry>& entries() const { return m_entries; }

 private:
  bool m_on;
  std::map<std::string, entry> m_entries;
};

namespace detail {

template <int D>
KOKKOS_FORCEINLINE_FUNCTION int along(int i, int j, int k) {
  return D == 0 ? i : D == 1 ? j : k;
}
template <int D>
KOKKOS_FORCEINLINE_FUNCTION void shifted(int& i, int& j, int& k, int by) {
  (D == 0 ? i : D == 1 ? j : k) += by;
}

// The WENO coefficient records C of one direction's cells -1 .. m + 1 stored one column per
// coefficient: entry c + 1 gathers cell c's record. Along x a warp's threads are consecutive
// cells, each with its own record, and read each coefficient from consecutive addresses; along
// y and z a warp's cells share one record, which the records themselves serve better.
template <class T, class C>
struct coefficient_columns {
  static constexpr int count = static_cast<int>(sizeof(C) / sizeof(T));
  static_assert(sizeof(C) == count * sizeof(T), "a record holds nothing but its coefficients");
  Kokkos::View<const T**, Kokkos::LayoutLeft> columns;  // (entry, coefficient)

  KOKKOS_FORCEINLINE_FUNCTION C operator[](int entry) const {
    C record;
    T* out = reinterpret_cast<T*>(&record);
    LOOPNEST_MFC_UNROLL
    for (int q = 0; q < count; ++q) {
      out[q] = columns(entry, q);
    }
    return record;
  }
};

// s_weno along D for one variable of one cell c (c = -1 .. m): the values at its lower
// boundary (MFC's vL_rs, poly_coef_cbL) and its upper one (vR_rs, cbR), sharing one stencil of
// 2*Order/2 + 1 cells; Order 1 copies the cell's value to both. Coefficients: the records
// (entry c + 1 is cell c), or their coefficient_columns. In and Out: fields in memory, or a
// sweep's team scratch (loopnest::scratch_ref), read and written by the same calls.
template <class T, int D, int Order, class Coefficients, class In = loopnest::field_set_ref<T>,
          class Out = loopnest::field_set_ref<T>>
struct reconstruct {
  using coefficients_type =
      std::conditional_t<Order == 5, weno5_coefficients<T>, weno3_coefficients<T>>;
  static constexpr int width = Order / 2 * 2 + 1;

  In prim;
  Out lower, upper;
  Coefficients coefficients;
  T weno_eps;
  bool mapped;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k, int v) const {
    T s[width];
    LOOPNEST_MFC_UNROLL
    for (int o = 0; o < width; ++o) {
      int a = i, b = j, c = k;
      shifted<D>(a, b, c, o - width / 2);
      s[o] = prim.load(v, a, b, c);
    }
    if constexpr (Order == 1) {
      lower(v, i, j, k) = s[0];
      upper(v, i, j, k) = s[0];
    } else {
      const coefficients_type& w = coefficients[along<D>(i, j, k) + 1];
      using stencil_type = std::conditional_t<Order == 5, weno5_stencil<T>, weno3_stencil<T>>;
      const stencil_type stencil(s, w.beta, weno_eps);
      lower(v, i, j, k) = stencil.at(w.poly_l, w.d_l, mapped);
      upper(v, i, j, k) = stencil.at(w.poly_r, w.d_r, mapped);
    }
  }
};

// MFC's riemann_solver values the port implements.
enum class riemann_solver_kind { hll = 1, hllc = 2 };

// s_hllc_riemann_solver or s_hll_riemann_solver at the boundary between cells f and f + 1 of
// direction D (f = -1 .. m): its left state is cell f's upper value (MFC passes qR_rs as the
// solver's qL), its right state cell f + 1's lower value; writes the fluxes and the source values
// (MFC's flux_src: HLLC's u*, HLL's volume fractions at the boundary) in the grid's order (MFC's
// finalize). In: the reconstructed values in memory, or in a sweep's team scratch.
template <class T, int D, riemann_solver_kind Solver, class In = loopnest::field_set_ref<T>>
struct riemann {
  In lower, upper;
  loopnest::field_set_ref<T> flux, flux_src;
  stiffened_gas<T, slot_index> eos;
  slot_map slots;
  bool mixture_err;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k) const {
    int a = i, b = j, c = k;
    shifted<D>(a, b, c, 1);
    T ql[max_equations] = {};
    T qr[max_equations] = {};
    LOOPNEST_MFC_UNROLL
    for (int s = 0; s < max_equations; ++s) {
      if (slots.var[s] >= 0) {
        ql[s] = upper.load(slots.var[s], i, j, k);
        qr[s] = lower.load(slots.var[s], a, b, c);
      }
    }
    T fl[max_equations] = {};
    if constexpr (Solver == riemann_solver_kind::hll) {
      T alpha_face[eos_max_fluids] = {};
      hll_flux<D>(eos, mixture_err, ql, qr, fl, alpha_face);
      for (int f = 0; f < eos_max_fluids && f < eos.index.num_fluids; ++f) {
        flux_src(f, i, j, k) = alpha_face[f];
      }
    } else {
      T us = T(0);
      hllc_flux<D>(eos, mixture_err, ql, qr, fl, us);
      flux_src(0, i, j, k) = us;
    }
    LOOPNEST_MFC_UNROLL
    for (int s = 0; s < max_equations; ++s) {
      if (slots.var[s] >= 0) {
        flux(slots.var[s], i, j, k) = fl[s];
      }
    }
  }
};

// A cell's inverse widths along each direction (MFC's 1._wp/dx(k)), read once per cell.
template <class T>
struct inverse_widths {
  T at[3];
};
template <class T>
struct inverse_widths_of {
  Kokkos::View<const T*> inv[3];
  int dims;
  KOKKOS_FORCEINLINE_FUNCTION inverse_widths<T> operator()(int i, int j, int k) const {
    const int cell[3] = {i, j, k};
    inverse_widths<T> w{};
    for (int d = 0; d < dims; ++d) {
      w.at[d] = inv[d](cell[d]);
    }
    return w;
  }
};

// m_rhs's flux difference and volume-fraction source of every direction in one (cell, variable)
// loop, per value in MFC's order: for each direction, rhs = (1/dx)*(F(j - 1) - F(j)), added to
// the directions before, then for a volume fraction + (1/dx)*alpha*(u*(j) - u*(j - 1)) after HLLC,
// or + (1/dx)*u*(alpha_k(j - 1) - alpha_k(j)) after HLL, u the cell's primitive velocity along the
// direction and alpha_k(j) HLL's volume fraction at boundary j (s_add_directional_advection_
// source_terms, whose "use_standard_riemann" branch is riemann_solver = 1). MFC runs
// one such loop per direction, storing rhs and reading it back between them; here the sum stays
// in a register, with the same operations in the same order (a compiler may still fuse other
// multiply-adds into FMAs here than in MFC's three loops: results agree to rounding).
template <class T>
struct flux_differences {
  loopnest::field_set_ref<T> q_cons, q_prim, rhs;
  loopnest::field_set_ref<T> flux[3], flux_src[3];
  int dims, first_adv;
  bool hll;
  int mom[3];  // the velocities' variables, which HLL's source term reads

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k, int v,
                                              const inverse_widths<T>& inv_d) const {
    const bool source = v >= first_adv;
    const T alpha     = source && !hll ? q_cons.load(v, i, j, k) : T(0);
    // x alone starts the sum: MFC's x loop assigns rhs, and each later one adds to it.
    T r = inv_d.at[0] * flux_jump(0, i, j, k, v);
    if (source) {
      r = r + source_term(0, i, j, k, v, inv_d.at[0], alpha);
    }
    for (int d = 1; d < dims; ++d) {
      r = r + inv_d.at[d] * flux_jump(d, i, j, k, v);
      if (source) {
        r = r + source_term(d, i, j, k, v, inv_d.at[d], alpha);
      }
    }
    rhs(v, i, j, k) = r;
  }

  // Volume fraction v's source term along d: HLLC's (1/dx)*alpha*(u*(j) - u*(j - 1)), HLL's
  // (1/dx)*u*(alpha_k(j - 1) - alpha_k(j)).
  KOKKOS_FORCEINLINE_FUNCTION T source_term(int d, int i, int j, int k, int v, T inv,
                                            T alpha) const {
    if (hll) {
      const int f = v - first_adv;
      return inv * q_prim.load(mom[d], i, j, k) *
             (src_at(d, f, i - (d == 0 ? 1 : 0), j - (d == 1 ? 1 : 0), k - (d == 2 ? 1 : 0)) -
              src_at(d, f, i, j, k));
    }
    return inv * alpha *
           (src_at(d, 0, i, j, k) -
            src_at(d, 0, i - (d == 0 ? 1 : 0), j - (d == 1 ? 1 : 0), k - (d == 2 ? 1 : 0)));
  }

  // F(j - 1) - F(j) along d; direction d's source value f at a boundary.
  KOKKOS_FORCEINLINE_FUNCTION T flux_jump(int d, int i, int j, int k, int v) const {
    return flux[d].load(v, i - (d == 0 ? 1 : 0), j - (d == 1 ? 1 : 0), k - (d == 2 ? 1 : 0)) -
           flux[d].load(v, i, j, k);
  }
  KOKKOS_FORCEINLINE_FUNCTION T src_at(int d, int f, int i, int j, int k) const {
    return flux_src[d].load(f, i, j, k);
  }
};

// s_convert_conservative_to_primitive_variables on one cell (simulation's variant).
template <class T>
struct to_primitive {
  loopnest::field_set_ref<T> cons, prim;
  stiffened_gas<T, slot_index> eos;
  slot_map slots;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k) const {
    T c[max_equations] = {};
    T p[max_equations] = {};
    slots.load(cons, i, j, k, c);
    conservative_to_primitive(eos, c, p, conversion_site::simulation);
    slots.store(prim, i, j, k, p);
  }
};

// The stages of s_3rd_order_tvd_rk, in its association: q1 = q0 + dt L(q0);
// q1 = (3 q0 + q1 + dt L(q1))/4; q0 = (q0 + 2 q1 + 2 dt L(q1))/3.
template <class T, int Stage>
struct rk3_stage {
  T dt;
  KOKKOS_FORCEINLINE_FUNCTION T operator()(T q0, T q1, T r) const {
    if constexpr (Stage == 1) {
      (void)q1;
      return q0 + dt * r;
    } else if constexpr (Stage == 2) {
      return (T(3) * q0 + q1 + dt * r) / T(4);
    } else {
      return (q0 + T(2) * q1 + T(2) * dt * r) / T(3);
    }
  }
};

// out = rule(q0, q1, rhs) per value: one stage of SSP-RK3.
template <class T, class Rule>
struct rk_update {
  loopnest::field_set_ref<T> out, q0, q1, rhs;
  Rule rule;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int i, int j, int k, int v) const {
    out(v, i, j, k) = rule(q0.load(v, i, j, k), q1.load(v, i, j, k), rhs.load(v, i, j, k));
  }
};

}  // namespace detail

// Launch bounds of the loops whose bodies need more registers than loopnest's default for CUDA
// MDRange kernels (32, made for copy-like bodies) gives them. Each loop's blocks per SM (of 256
// threads: 65536 / (256 * blocks) registers a thread) is the one that ran fastest on the H200
// (docs/results/h200/mfc/README.md): fewer registers spill, more leave too few warps to hide the
// latency of a long body. HLLC and the conversion hold every variable of a cell, WENO and the flux
// difference a few values of one variable (WENO along x a cell's coefficient record besides,
// coefficient_columns), and the SSP-RK3 update three loads for each of a group of variables. The
// state check, which runs once per saved step, keeps the bounds the conversion had.
template <class Schedule, unsigned BlocksPerSM>
using bounded = loopnest::with_launch_bounds_t<Schedule, 256, BlocksPerSM>;
// WENO, and HLLC in FP32, run under collapse3 in blocks of up to 512 threads at the same
// registers a thread, whose tile loopnest picks to fill the SM from the kernel's register count:
// a row's half or third over several rows, where blocks of one row would leave lanes idle in a
// row's last warp and warps unused (four blocks of seven warps where 64 registers allow 32
// warps). Other schedules (automatic runs these bounded loops flat), and Fill false, launch as
// bounded does.
constexpr unsigned filling_blocks(unsigned blocks_per_sm) {
  return blocks_per_sm % 2 == 0 ? blocks_per_sm / 2 : blocks_per_sm == 3 ? 2 : blocks_per_sm;
}
template <class Schedule, unsigned BlocksPerSM, bool Fill = true>
using filling = std::conditional_t<
    Fill && Schedule::kind == loopnest::schedule_kind::collapse3,
    loopnest::with_launch_bounds_t<Schedule, 256 * BlocksPerSM / filling_blocks(BlocksPerSM),
                                   filling_blocks(BlocksPerSM)>,
    bounded<Schedule, BlocksPerSM>>;

template <class T>
struct blocks_per_sm {
  static constexpr unsigned convert     = 4;
  static constexpr unsigned state_check = 2;
  static constexpr unsigned riemann     = sizeof(T) >= 8 ? 3 : 4;
  // FP64 HLLC's registers leave an SM no more cells in halves of rows, and it ran slower in thirds
  // (docs/results/h200/mfc/README.md).
  static constexpr bool riemann_filled   = sizeof(T) < 8;
  static constexpr unsigned weno         = 4;
  static constexpr unsigned weno_columns = sizeof(T) >= 8 ? 3 : 4;
  static constexpr unsigned difference   = sizeof(T) >= 8 ? 5 : 6;
  static constexpr unsigned update       = 4;
  // A characteristic face holds a cell's derivatives and wave amplitudes for every variable: under
  // the default bounds' register cap (collapse3's) the faces ran well behind flat without bounds
  // (docs/results/h100/experiments.md). A face holds too few cells to fill the SMs, so a bound
  // of few blocks costs no occupancy; it was chosen, not tuned.
  static constexpr unsigned cbc = 2;
  // A fused sweep (--sweep) runs WENO and the Riemann solver in one kernel, whose registers left
  // room for two teams of 128 threads an SM: capped at 128 a thread, twice as many fit.
  static constexpr unsigned sweep = 2;
};

// The state of a run on the device: q0 and q1 (MFC's q_cons_ts(1:2)), the right-hand side, the
// primitive variables with MFC's buff_size ghost layers, for one direction at a time the
// reconstructed boundary values (MFC's qL_rs, qR_rs), and for each direction its fluxes and source
// values (MFC's flux_src: HLLC's u*, or HLL's volume fractions at the boundaries, one per fluid).
template <class T>
class five_equation_solver {
 public:
  using execution_space = Kokkos::DefaultExecutionSpace;
  using fields          = loopnest::field_set<T>;

  five_equation_solver(const execution_space& exec, const case_config& c, const grid& g,
                       bool profile)
      : m_exec(exec),
        m_case(c),
        m_dims(c.num_dims),
        m_q0(make_fields(exec, "loopnest_mfc::q_cons_ts1", c, c.sys_size())),
        m_q1(make_fields(exec, "loopnest_mfc::q_cons_ts2", c, c.sys_size())),
        m_rhs(make_fields(exec, "loopnest_mfc::rhs", c, c.sys_size())),
        m_prim(make_fields(exec, "loopnest_mfc::q_prim", c, c.sys_size())),
        m_lower(make_fields(exec, "loopnest_mfc::qL_rs", c, c.sys_size())),
        m_upper(make_fields(exec, "loopnest_mfc::qR_rs", c, c.sys_size())),
        m_profile(profile) {
    const equation_index ix = equations_of(c);
    m_slots                 = slot_map::of(ix);
    m_eos                   = eos_of<T, slot_index>(c);
    for (int d = 0; d < m_dims; ++d) {
      const std::string axis = std::to_string(d);
      m_flux.push_back(make_fields(exec, "loopnest_mfc::flux" + axis, c, c.sys_size()));
      m_flux_src.push_back(make_fields(exec, "loopnest_mfc::flux_src" + axis, c,
                                       c.riemann_solver == 1 ? c.num_fluids : 1));
      const axis_grid& a = g.axis[d];
      // Along x the coefficients go in columns, along y and z as records (coefficient_columns).
      if (c.weno_order == 5 && d == 0) {
        m_weno5_x = columns_on_device(weno5_coefficients_of<T>(a));
      } else if (c.weno_order == 5) {
        m_weno5[d] = coefficients_on_device(weno5_coefficients_of<T>(a), d);
      } else if (c.weno_order == 3 && d == 0) {
        m_weno3_x = columns_on_device(weno3_coefficients_of<T>(a));
      } else if (c.weno_order == 3) {
        m_weno3[d] = coefficients_on_device(weno3_coefficients_of<T>(a), d);
      }
      std::vector<T> inv(static_cast<std::size_t>(a.m) + 1);
      for (int i = 0; i <= a.m; ++i) {
        // MFC's 1._wp/dx(k), in its working precision.
        inv[static_cast<std::size_t>(i)] = T(1) / static_cast<T>(a.dx(i));
      }
      Kokkos::View<T*> v(Kokkos::view_alloc(exec, "loopnest_mfc::inv_d" + std::to_string(d)),
                         inv.size());
      copy_to_device(inv, v);
      m_inv_d[d] = v;
      for (int i = 0; i <= buff_size; ++i) {
        m_edge_widths[d][0][i] = a.dx(i);
        m_edge_widths[d][1][i] = a.dx(a.m - i);
      }
      m_widest[d] = *std::max_element(a.d.begin(), a.d.end());
    }
    exec.fence();
  }

  // The bytes of the fields the constructor allocates (its coefficient tables and inverse widths
  // grow only with m + n + p): what a case is checked against before anything is allocated.
  static double field_bytes(const case_config& c) {
    double cells = 1.0;
    for (int d = 0; d < c.num_dims; ++d) {
      cells *= c.axis[d].cells_minus_one + 1.0 + 2.0 * buff_size;
    }
    return cells * static_cast<double>(sizeof(T)) *
           ((6.0 + c.num_dims) * c.sys_size() +
            c.num_dims * (c.riemann_solver == 1 ? c.num_fluids : 1.0));
  }

  // Whether each direction's WENO and Riemann solver run as one loopnest::sweep (on) or as two
  // loops through the reconstructed values in memory (off, the default): the same bits.
  void sweep_directions(bool on) { m_sweep = on; }

  const fields& state() const { return m_q0; }
  const kernel_profile& profile() const { return m_profile; }
  int sys_size() const { return m_q0.nvar(); }

  // Puts the interior of host fields (MFC's order) into q0.
  void load(const host_fields& cons) {
    for (int v = 0; v < cons.nvar; ++v) {
      auto device = m_q0.field(v);
      auto mirror = Kokkos::create_mirror_view(device);
      for_interior([&](int i, int j, int k) {
        mirror(i + buff_size, j + lower(1), k + lower(2)) = static_cast<T>(cons(v, i, j, k));
      });
      Kokkos::deep_copy(m_exec, device, mirror);
      m_exec.fence();
    }
  }

  // The interior of q0 as host fields.
  host_fields conservative() const {
    host_fields out(m_case.m() + 1, m_case.n() + 1, m_case.p() + 1, sys_size(), 0.0);
    for (int v = 0; v < sys_size(); ++v) {
      auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_q0.field(v));
      for_interior([&](int i, int j, int k) {
        out(v, i, j, k) = static_cast<double>(mirror(i + buff_size, j + lower(1), k + lower(2)));
      });
    }
    return out;
  }

  // Fills the ghost layers of the primitive variables that neighbouring ranks hold (the sides
  // whose bc is a rank, >= 0); the boundary conditions fill the others.
  void set_halo_exchange(std::function<void(const fields&)> exchange) {
    m_exchange = std::move(exchange);
  }

  // MFC's s_compute_rhs(q): rhs from the conservative variables q.
  template <class Schedule>
  void compute_rhs(const fields& q, const fields& rhs) {
    convert_to_primitive<Schedule>(q);
    for (int d = 0; d < m_dims; ++d) {
      fill_ghost_cells<Schedule>(d);
    }
    if (m_exchange) {
      m_profile.run(m_exec, "halo_exchange", 0.0, [&] { m_exchange(m_prim); });
    }
    for (int d = 0; d < m_dims; ++d) {
      direction<Schedule>(d);
    }
    for (int d = 0; d < m_dims; ++d) {
      characteristic_boundaries<Schedule>(d);
    }
    flux_differences<Schedule>(q, rhs);
  }

  // The stages of one step: what MFC times one by one for its grind time.
  static constexpr int stages = 3;

  // Stage s (1 to 3) of an SSP-RK3 step of dt (s_3rd_order_tvd_rk): one right-hand side, with
  // its boundaries and halo, and one stage update. Launches only; the caller fences to time it.
  // Defined in stage.hpp and compiled once per precision and schedule (loopnest_mfc_solver).
  template <class Schedule>
  void stage(int s);

  // Sets the dt of the steps that follow: MFC's cfl_adap_dt and cfl_const_dt set it from the
  // state (s_compute_dt) and shorten the last step to end at t_stop (s_perform_time_step).
  void set_dt(double dt) { m_case.dt = dt; }

  // One SSP-RK3 step of dt: its three stages.
  template <class Schedule>
  void step() {
    for (int s = 1; s <= stages; ++s) {
      stage<Schedule>(s);
    }
  }

 private:
  execution_space m_exec;
  case_config m_case;
  int m_dims;
  fields m_q0, m_q1, m_rhs, m_prim, m_lower, m_upper;
  bool m_sweep = false;
  std::vector<fields> m_flux, m_flux_src;  // one of each per direction
  stiffened_gas<T, slot_index> m_eos;
  slot_map m_slots{};
  Kokkos::View<weno5_coefficients<T>*> m_weno5[3];  // y and z
  Kokkos::View<weno3_coefficients<T>*> m_weno3[3];
  detail::coefficient_columns<T, weno5_coefficients<T>> m_weno5_x;
  detail::coefficient_columns<T, weno3_coefficients<T>> m_weno3_x;
  Kokkos::View<const T*> m_inv_d[3];
  // The widths of the buff_size + 1 cells next to each face, from the face inward (MFC's ds of
  // s_associate_cbc_coefficients_pointers), [direction][0 beginning, 1 end][cell].
  double m_edge_widths[3][2][buff_size + 1] = {};
  // MFC's maxval(dx) per direction, ghost layers included: GRCBC's Del_in and Del_out.
  double m_widest[3] = {};
  kernel_profile m_profile;
  std::function<void(const fields&)> m_exchange;

  static fields make_fields(const execution_space& exec, const std::string& label,
                            const case_config& c, int nvar) {
    if (c.num_dims == 1) {
      return fields(exec, label, nvar, {c.m() + 1}, buff_size);
    }
    if (c.num_dims == 2) {
      return fields(exec, label, nvar, {c.m() + 1, c.n() + 1}, buff_size);
    }
    return fields(exec, label, nvar, {c.m() + 1, c.n() + 1, c.p() + 1}, buff_size);
  }

  int lower(int d) const { return -m_q0.lower(d); }

  template <class F>
  void for_interior(const F& f) const {
    for (int k = 0; k <= m_case.p(); ++k) {
      for (int j = 0; j <= m_case.n(); ++j) {
        for (int i = 0; i <= m_case.m(); ++i) {
          f(i, j, k);
        }
      }
    }
  }

  template <class C>
  Kokkos::View<C*> coefficients_on_device(const std::vector<C>& host, int d) {
    Kokkos::View<C*> device(Kokkos::view_alloc(m_exec, "loopnest_mfc::weno" + std::to_string(d)),
                            host.size());
    copy_to_device(host, device);
    return device;
  }

  template <class C>
  detail::coefficient_columns<T, C> columns_on_device(const std::vector<C>& host) {
    constexpr int count = detail::coefficient_columns<T, C>::count;
    Kokkos::View<T**, Kokkos::LayoutLeft> device(
        Kokkos::view_alloc(m_exec, "loopnest_mfc::weno_columns0"), host.size(), count);
    auto mirror = Kokkos::create_mirror_view(device);
    for (std::size_t e = 0; e < host.size(); ++e) {
      const T* values = reinterpret_cast<const T*>(&host[e]);
      for (int q = 0; q < count; ++q) {
        mirror(e, q) = values[q];
      }
    }
    Kokkos::deep_copy(m_exec, device, mirror);
    m_exec.fence();
    return {device};
  }

  template <class V, class Host>
  void copy_to_device(const Host& host, const V& device) {
    auto mirror = Kokkos::create_mirror_view(device);
    for (std::size_t e = 0; e < host.size(); ++e) {
      mirror(e) = host[e];
    }
    Kokkos::deep_copy(m_exec, device, mirror);
    m_exec.fence();
  }

  double cells() const { return static_cast<double>(m_q0.interior().size()); }
  double sweep() const { return cells() * sys_size() * sizeof(T); }

  template <class Schedule>
  void convert_to_primitive(const fields& q) {
    const auto cons                        = q.ref();
    const auto prim                        = m_prim.ref();
    const stiffened_gas<T, slot_index> eos = m_eos;
    const slot_map slots                   = m_slots;
    m_profile.run(m_exec, "convert", 2 * sweep(), [&] {
      loopnest::for_each_cell<bounded<Schedule, blocks_per_sm<T>::convert>>(
          m_exec, m_q0.interior(), detail::to_primitive<T>{cons, prim, eos, slots},
          "loopnest_mfc::convert");
    });
  }

  // Boundary conditions -1, -2, -3 of direction d on the primitive variables (MFC's
  // s_populate_variables_buffers, which extrapolates as -3 on the characteristic faces, -5 to
  // -12, too): loopnest::fill_ghosts over the faces whose bc is not a
  // neighbouring rank's. Faces only (the other axes over their interior): no WENO sweep reads an
  // edge or corner, and the halo exchange, which fills the faces ranks share, runs after them.
  template <class Schedule>
  void fill_ghost_cells(int d) {
    const axis_config& a = m_case.axis[d];
    loopnest::ghost_rules rules;
    rules.span               = loopnest::ghost_span::face;
    rules.normal_variable[d] = equations_of(m_case).mom(d);
    double cells             = 0.0;
    const int bc[2]          = {a.bc_beg, a.bc_end};
    for (int side = 0; side < 2; ++side) {
      rules.face[d][side] = bc[side] >= 0    ? loopnest::ghost_rule::none
                            : bc[side] == -1 ? loopnest::ghost_rule::periodic
                            : bc[side] == -2 ? loopnest::ghost_rule::reflection
                                             : loopnest::ghost_rule::extrapolation;
      if (bc[side] < 0) {
        cells += static_cast<double>(m_prim.ghost_box(d, side, rules.span).size());
      }
    }
    if (cells == 0.0) {
      return;
    }
    const double bytes = 2.0 * cells * sys_size() * sizeof(T);
    m_profile.run(m_exec, "boundaries", bytes,
                  [&] { loopnest::fill_ghosts<Schedule>(m_exec, m_prim, rules, d); });
  }

  template <class Schedule>
  void direction(int d) {
    if (d == 0) {
      direction_along<Schedule, 0>();
    } else if (d == 1) {
      direction_along<Schedule, 1>();
    } else {
      direction_along<Schedule, 2>();
    }
  }

  // run(order, coefficients) with the case's WENO order (an integral_constant) and its
  // coefficients along D.
  template <int D, class Run>
  void with_weno(const Run& run) const {
    if (m_case.weno_order == 5) {
      if constexpr (D == 0) {
        run(std::integral_constant<int, 5>{}, m_weno5_x);
      } else {
        run(std::integral_constant<int, 5>{}, m_weno5[D].data());
      }
    } else if (m_case.weno_order == 3) {
      if constexpr (D == 0) {
        run(std::integral_constant<int, 3>{}, m_weno3_x);
      } else {
        run(std::integral_constant<int, 3>{}, m_weno3[D].data());
      }
    } else {
      run(std::integral_constant<int, 1>{}, static_cast<const weno3_coefficients<T>*>(nullptr));
    }
  }

  // WENO and the Riemann solver along D: the fluxes and source values of direction D. Defined in
  // direction.hpp and compiled once per precision, schedule and axis (loopnest_mfc_solver).
  template <class Schedule, int D>
  void direction_along();

  // The Riemann solver's loop over direction D's boundaries, profiled as `name`.
  template <class Schedule, int D, detail::riemann_solver_kind Solver>
  void riemann_sweep(const loopnest::box<3>& boundaries, const std::string& name, double bytes);

  // WENO and the Riemann solver along D as one loopnest::sweep per direction, whatever the loops'
  // schedule. Defined in direction_sweep.hpp and compiled once per precision and axis
  // (loopnest_mfc_solver).
  template <int D>
  void sweep_along(const loopnest::box<3>& boundaries, const loopnest::box<3>& cells_around);

  // WENO and the Riemann solver along D as one loopnest::sweep, profiled as `name`: the
  // reconstructed values stay in team scratch. Defined in direction_sweep.hpp.
  template <int D, int Order, detail::riemann_solver_kind Solver, class C>
  void sweep_direction(const loopnest::box<3>& boundaries, const C& coefficients,
                       const std::string& name, double bytes);

  // The backend's sweep shape with half the pencils (and threads), as often as it takes for a
  // block's staged cells (halo on either side) and its two arrays of reconstructed values to fit
  // the team scratch the backend gives.
  loopnest::sweep_shape sweep_shape_for(int halo) const {
    loopnest::sweep_shape shape = loopnest::sweep_traits<execution_space>::shape;
    const int most              = Kokkos::TeamPolicy<execution_space>::scratch_size_max(0);
    const auto bytes            = [&](const loopnest::sweep_shape& s) {
      const double cells = static_cast<double>(s.pencils) * (3 * s.length + 2 * halo + 2);
      return cells * sys_size() * sizeof(T) + 3 * 8;
    };
    while (shape.pencils > 1 && bytes(shape) > most) {
      shape.pencils /= 2;
      shape.team_size = shape.team_size > 1 ? shape.team_size / 2 : 1;
    }
    return shape;
  }

  // MFC's s_cbc on the faces of direction d whose bc is characteristic (-5 .. -12): the fluxes
  // and u* at the face and at the first faces inside it replaced. Defined in cbc.hpp and compiled
  // with the stage (loopnest_mfc_solver).
  template <class Schedule>
  void characteristic_boundaries(int d);

  // rhs from every direction's fluxes (detail::flux_differences).
  template <class Schedule>
  void flux_differences(const fields& q, const fields& rhs) {
    const equation_index ix = equations_of(m_case);
    detail::flux_differences<T> body{q.ref(), m_prim.ref(), rhs.ref(), {},
                                     {},      m_dims,       ix.adv(0), m_case.riemann_solver == 1,
                                     {}};
    detail::inverse_widths_of<T> widths{{}, m_dims};
    for (int d = 0; d < m_dims; ++d) {
      body.flux[d]     = m_flux[static_cast<std::size_t>(d)].ref();
      body.flux_src[d] = m_flux_src[static_cast<std::size_t>(d)].ref();
      body.mom[d]      = ix.mom(d);
      widths.inv[d]    = m_inv_d[d];
    }
    // Reads each direction's fluxes and source values, and alpha (HLLC) or the velocities (HLL);
    // writes rhs.
    const double sources = m_case.riemann_solver == 1
                               ? m_dims * (m_case.num_fluids + 1.0)
                               : m_dims + static_cast<double>(m_case.num_fluids);
    const double bytes   = cells() * sizeof(T) * ((m_dims + 1.0) * sys_size() + sources);
    m_profile.run(m_exec, "flux_difference", bytes, [&] {
      loopnest::for_each_cell_var<bounded<Schedule, blocks_per_sm<T>::difference>>(
          m_exec, m_q0.interior(), sys_size(), loopnest::per_cell(widths), body,
          "loopnest_mfc::flux_difference");
    });
  }

  template <class Schedule, int D, int Order, class C>
  void reconstruct(const loopnest::box<3>& cells, const C& coefficients, const std::string& axis) {
    const detail::reconstruct<T, D, Order, C> weno{m_prim.ref(),
                                                   m_lower.ref(),
                                                   m_upper.ref(),
                                                   coefficients,
                                                   static_cast<T>(m_case.weno_eps),
                                                   m_case.mapped_weno};
    loopnest::for_each_cell_var<
        filling<Schedule, std::is_pointer<C>::value ? blocks_per_sm<T>::weno
                                                    : blocks_per_sm<T>::weno_columns>>(
        m_exec, cells, sys_size(), weno, "loopnest_mfc::weno_" + axis);
  }

  template <class Schedule, class Rule>
  void update(const char* name, const fields& out, const fields& a, const fields& b,
              const Rule& rule) {
    const auto o  = out.ref();
    const auto q0 = a.ref();
    const auto q1 = b.ref();
    const auto r  = m_rhs.ref();
    m_profile.run(m_exec, name, (std::strcmp(name, "rk3_stage1") == 0 ? 3.0 : 4.0) * sweep(), [&] {
      loopnest::for_each_cell_var<bounded<Schedule, blocks_per_sm<T>::update>>(
          m_exec, m_q0.interior(), sys_size(), detail::rk_update<T, Rule>{o, q0, q1, r, rule},
          std::string("loopnest_mfc::") + name);
    });
  }
};

}  // namespace loopnest_mfc

#endif
