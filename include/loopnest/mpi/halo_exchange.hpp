// loopnest::halo_exchange: fills the ghost layers of a rank's block from its neighbours on a
// loopnest::cartesian_decomposition, for a loopnest::field_set (every variable, the full ghost
// depth) or a 2D Kokkos::View with a one-cell halo. Packing and unpacking are one loopnest loop
// each over every face and variable, under the Schedule template argument; the bytes move by the
// transport chosen at run time. start() and finish() split an exchange around work that does not
// read the ghosts (overlap).
#ifndef LOOPNEST_MPI_HALO_EXCHANGE_HPP
#define LOOPNEST_MPI_HALO_EXCHANGE_HPP

#include <loopnest/field_set.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/detail/halo_mover.hpp>
#include <loopnest/mpi/detail/halo_plan.hpp>
#include <loopnest/mpi/detail/mpi_error.hpp>
#include <loopnest/mpi/detail/nccl_mover.hpp>
#include <loopnest/mpi/halo_transport.hpp>
#include <loopnest/schedule.hpp>

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace loopnest {

namespace Impl {

// A 2D View with a one-cell halo seen in the grid's index space: View index i is grid index
// i - 1, so the interior is [0, extent - 2).
template <class T>
struct halo_view_ref {
  T* data;
  std::ptrdiff_t base, s0, s1;
  KOKKOS_FORCEINLINE_FUNCTION T& operator()(int /*v*/, int i, int j, int /*k*/) const {
    return data[base + i * s0 + j * s1];
  }
};

// The axis of the smallest stride among the first `dims`: the one along which cells lie side
// by side in memory.
inline int fastest_axis(const std::ptrdiff_t (&stride)[3], int dims) {
  int fastest = 0;
  for (int e = 1; e < dims; ++e) {
    fastest = stride[e] < stride[fastest] ? e : fastest;
  }
  return fastest;
}

// What an exchange needs to know of the fields it moves: their shape (as a grid_shape too, whose
// ghost slabs the exchange fills), their stride-1 axis and a reference kernels can capture.
template <class Fields>
struct halo_fields {
  static constexpr bool supported = false;
};

template <class T, class Layout, class MemorySpace>
struct halo_fields<field_set<T, Layout, MemorySpace>> {
  static constexpr bool supported = true;
  using value_type                = T;
  using memory_space              = MemorySpace;
  using fields_type               = field_set<T, Layout, MemorySpace>;
  static int nvar(const fields_type& f) { return f.nvar(); }
  static int ghost(const fields_type& f) { return f.ghost(); }
  static int dims(const fields_type& f) { return f.dims(); }
  static int interior(const fields_type& f, int d) { return f.interior_extent(d); }
  static grid_shape shape(const fields_type& f) { return f; }
  static field_set_ref<T> ref(const fields_type& f) { return f.ref(); }
  static int fastest(const fields_type& f) {
    const auto r              = f.ref();
    const std::ptrdiff_t s[3] = {r.s0, r.s1, r.s2};
    return fastest_axis(s, f.dims());
  }
  static constexpr int layout_code = std::is_same<Layout, Kokkos::LayoutLeft>::value ? 0 : 1;
};

template <class T, class... Properties>
struct halo_fields<Kokkos::View<T**, Properties...>> {
  using fields_type               = Kokkos::View<T**, Properties...>;
  static constexpr bool supported = std::is_arithmetic<T>::value;
  using value_type                = T;
  using memory_space              = typename fields_type::memory_space;
  static int nvar(const fields_type&) { return 1; }
  static int ghost(const fields_type&) { return 1; }
  static int dims(const fields_type&) { return 2; }
  static int interior(const fields_type& f, int d) {
    return d < 2 ? static_cast<int>(f.extent(d)) - 2 : 1;
  }
  static grid_shape shape(const fields_type& f) {
    return grid_shape("loopnest::halo_exchange", 1, {interior(f, 0), interior(f, 1)}, 1);
  }
  static halo_view_ref<T> ref(const fields_type& f) {
    const auto s0 = static_cast<std::ptrdiff_t>(f.stride(0));
    const auto s1 = static_cast<std::ptrdiff_t>(f.stride(1));
    return {f.data(), s0 + s1, s0, s1};
  }
  static int fastest(const fields_type& f) {
    const std::ptrdiff_t s[3] = {static_cast<std::ptrdiff_t>(f.stride(0)),
                                 static_cast<std::ptrdiff_t>(f.stride(1)), 0};
    return fastest_axis(s, 2);
  }
  static constexpr int layout_code = 2;
};

}  // namespace Impl

// Schedule: how the pack and unpack loops run (collapse3 by default, as everywhere in loopnest).
// Fields: a loopnest::field_set, or a Kokkos::View<T**> of (nx + 2) x (ny + 2) cells whose
// outer ring is the one-cell halo.
template <class Schedule, class Fields,
          class ExecutionSpace = typename Impl::halo_fields<Fields>::memory_space::execution_space>
class halo_exchange {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::halo_exchange: the first template argument must be a loopnest "
                "schedule, such as loopnest::collapse3.");
  static_assert(Impl::halo_fields<Fields>::supported,
                "loopnest::halo_exchange: the fields must be a loopnest::field_set or a 2D "
                "Kokkos::View of an arithmetic type with a one-cell halo.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::halo_exchange: the execution space must be a Kokkos execution space.");
  using traits = Impl::halo_fields<Fields>;
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename traits::memory_space>::accessible,
      "loopnest::halo_exchange: the execution space must be able to access the "
      "memory space of the fields.");

 public:
  using value_type      = typename traits::value_type;
  using execution_space = ExecutionSpace;
  using memory_space    = typename ExecutionSpace::memory_space;

  // Prepares exchanges of fields shaped like `fields` over d, which must outlive the exchange:
  // the plan, the device buffers, the transport (the nccl communicator is made here).
  // Collective over d.comm(); every rank throws the same error when any rank finds one:
  // std::invalid_argument when the fields' interior is not this rank's block of d, when a rank
  // exchanges along an axis where it has fewer interior cells than the ghost depth, when the
  // fields' variables, ghost depth, dimensions, type or layout, or the transport or region,
  // differ across ranks, or when a face holds more than 2^31 - 1 bytes (MPI counts in int);
  // std::runtime_error naming the transport when it is not available here.
  halo_exchange(const ExecutionSpace& exec, const cartesian_decomposition& d, const Fields& fields,
                halo_transport transport = halo_transport::mpi_host,
                halo_region region       = halo_region::faces)
      : m_exec(exec),
        m_comm(d.comm()),
        m_nvar(traits::nvar(fields)),
        m_transport(transport),
        m_region(region) {
    constexpr const char* where = "loopnest::halo_exchange";
    Impl::throw_if_any_rank_failed(m_comm, check_shape(where, d, fields));
    const int signature[] = {m_nvar,
                             traits::ghost(fields),
                             traits::dims(fields),
                             static_cast<int>(sizeof(value_type)),
                             std::is_floating_point<value_type>::value ? 1 : 0,
                             traits::layout_code,
                             static_cast<int>(transport),
                             static_cast<int>(region)};
    Impl::check_same_on_every_rank(
        m_comm, where,
        "the fields (variables, ghost depth, dimensions, element type, layout) or the transport "
        "and region",
        signature);
    m_plan = Impl::make_halo_plan(d, traits::shape(fields), region);
    Impl::throw_if_any_rank_failed(m_comm, check_sizes(where));
    Impl::throw_if_any_rank_failed(
        m_comm, Impl::halo_transport_error<ExecutionSpace>(transport, m_comm, where));
    for (int e = 0; e < 3; ++e) {
      m_interior[e] = traits::interior(fields, e);
    }
    m_fastest      = traits::fastest(fields);
    const auto n   = static_cast<std::size_t>(m_plan.total);
    m_buffers.send = Kokkos::View<value_type*, memory_space>(
        Kokkos::view_alloc(exec, "loopnest::halo_exchange/send"), n);
    m_buffers.recv = Kokkos::View<value_type*, memory_space>(
        Kokkos::view_alloc(exec, "loopnest::halo_exchange/recv"), n);
    m_mover = make_mover();
  }

  // Posts the receives, packs the first (with faces only, the one) phase and sends it. Work the
  // caller enqueues on the execution space before finish() may read the interior but not the
  // ghosts, and must not write the cells sent. Every rank calls start() and finish() in turn.
  void start(const Fields& fields) {
    check_same_shape("loopnest::halo_exchange::start", fields);
    if (m_started) {
      throw std::logic_error(
          "loopnest::halo_exchange::start: the previous exchange was started "
          "and not finished");
    }
    m_started = true;
    if (!m_plan.phases.empty()) {
      start_phase(m_plan.phases.front(), traits::ref(fields));
    }
  }

  // Waits for the first phase and unpacks it into the ghosts, then runs the other phases (with
  // edges and corners, one per further axis) whole. The unpack is enqueued on the execution
  // space; work enqueued after finish() sees the ghosts filled.
  void finish(const Fields& fields) {
    check_same_shape("loopnest::halo_exchange::finish", fields);
    if (!m_started) {
      throw std::logic_error(
          "loopnest::halo_exchange::finish: no exchange was started (call start first)");
    }
    m_started      = false;
    const auto ref = traits::ref(fields);
    for (std::size_t p = 0; p < m_plan.phases.size(); ++p) {
      if (p > 0) {
        start_phase(m_plan.phases[p], ref);
      }
      finish_phase(m_plan.phases[p], ref);
    }
  }

  // start() then finish().
  void exchange(const Fields& fields) {
    start(fields);
    finish(fields);
  }

  halo_transport transport() const { return m_transport; }
  halo_region region() const { return m_region; }
  // Bytes this rank sends (and receives) per exchange.
  std::int64_t bytes_per_exchange() const {
    return m_plan.total * static_cast<std::int64_t>(sizeof(value_type));
  }

 private:
  Impl::rank_error check_shape(const char* where, const cartesian_decomposition& d,
                               const Fields& fields) const {
    const std::string w = std::string(where) + ": rank " + std::to_string(d.rank()) + ": ";
    const int dims = traits::dims(fields), ghost = traits::ghost(fields);
    if (dims != d.dims()) {
      return Impl::refuse(w + "the fields have " + std::to_string(dims) +
                          " dimensions but the decomposition has " + std::to_string(d.dims()));
    }
    for (int e = 0; e < dims; ++e) {
      if (traits::interior(fields, e) != d.local_extent(e)) {
        return Impl::refuse(w + "the fields have " + std::to_string(traits::interior(fields, e)) +
                            " interior cells along axis " + std::to_string(e) +
                            " but this rank's block has " + std::to_string(d.local_extent(e)));
      }
    }
    for (int e = 0; e < dims; ++e) {
      const bool exchanges =
          d.neighbour(e, 0) != MPI_PROC_NULL || d.neighbour(e, 1) != MPI_PROC_NULL;
      if (exchanges && d.local_extent(e) < ghost) {
        return Impl::refuse(w + "its block has " + std::to_string(d.local_extent(e)) +
                            " cells along axis " + std::to_string(e) +
                            ", fewer than the ghost depth " + std::to_string(ghost) +
                            " its neighbours need");
      }
    }
    return {};
  }

  Impl::rank_error check_sizes(const char* where) const {
    for (const auto& phase : m_plan.phases) {
      for (const auto& f : phase.faces) {
        if (f.elements > INT_MAX / static_cast<std::int64_t>(sizeof(value_type))) {
          return Impl::refuse(std::string(where) + ": a face of " + std::to_string(f.elements) +
                              " values exceeds the 2^31 - 1 bytes of one MPI message");
        }
      }
    }
    return {};
  }

  void check_same_shape(const char* where, const Fields& fields) const {
    for (int e = 0; e < 3; ++e) {
      if (traits::interior(fields, e) != m_interior[e] || traits::nvar(fields) != m_nvar) {
        Impl::throw_invalid_argument(where,
                                     "the fields are not shaped like those the exchange "
                                     "was made for");
      }
    }
  }

  template <class Ref>
  void start_phase(const Impl::halo_phase& phase, const Ref& ref) {
    m_mover->post(phase);
    Impl::halo_copy<Schedule, true>(m_exec,
                                    Impl::make_halo_face_table(phase, true, m_fastest, m_nvar), ref,
                                    m_buffers.send.data());
    m_mover->send(phase);
  }

  template <class Ref>
  void finish_phase(const Impl::halo_phase& phase, const Ref& ref) {
    m_mover->complete(phase);
    Impl::halo_copy<Schedule, false>(m_exec,
                                     Impl::make_halo_face_table(phase, false, m_fastest, m_nvar),
                                     ref, m_buffers.recv.data());
  }

  std::unique_ptr<Impl::halo_mover> make_mover() const {
    switch (m_transport) {
      case halo_transport::mpi_host:
        return std::make_unique<Impl::mpi_mover<value_type, ExecutionSpace, true>>(m_exec, m_comm,
                                                                                   m_buffers);
      case halo_transport::mpi_device:
        return std::make_unique<Impl::mpi_mover<value_type, ExecutionSpace, false>>(m_exec, m_comm,
                                                                                    m_buffers);
      case halo_transport::nccl:
#if defined(LOOPNEST_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
        if constexpr (std::is_same<ExecutionSpace, Kokkos::Cuda>::value) {
          return std::make_unique<Impl::nccl_mover<value_type, ExecutionSpace>>(m_exec, m_comm,
                                                                                m_buffers);
        }
#endif
        break;
    }
    // halo_transport_unavailable_reason refused it on every rank before this.
    throw std::logic_error("loopnest::halo_exchange: transport " + std::string(name(m_transport)) +
                           " has no implementation in this build");
  }

  ExecutionSpace m_exec;
  MPI_Comm m_comm;
  int m_nvar;
  int m_interior[3] = {1, 1, 1};
  int m_fastest     = 0;
  halo_transport m_transport;
  halo_region m_region;
  Impl::halo_plan m_plan;
  Impl::halo_buffers<value_type, memory_space> m_buffers;
  std::unique_ptr<Impl::halo_mover> m_mover;
  bool m_started = false;
};

}  // namespace loopnest

#endif
