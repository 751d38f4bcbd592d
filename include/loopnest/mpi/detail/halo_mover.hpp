// loopnest::Impl::halo_mover: what a transport does at the three points of a halo exchange, and
// the two MPI transports (mpi_host, mpi_device). The NCCL one is in nccl_mover.hpp.
#ifndef LOOPNEST_MPI_DETAIL_HALO_MOVER_HPP
#define LOOPNEST_MPI_DETAIL_HALO_MOVER_HPP

#include <loopnest/kokkos_compat.hpp>
#include <loopnest/mpi/detail/halo_plan.hpp>
#include <loopnest/mpi/detail/mpi_error.hpp>
#include <loopnest/mpi/halo_transport.hpp>

#include <mpi.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace loopnest::Impl {

// The device buffers of an exchange: what this rank packs and what it receives, every phase's
// faces one after the other.
template <class T, class MemorySpace>
struct halo_buffers {
  Kokkos::View<T*, MemorySpace> send, recv;
};

// A transport: post() before the pack kernel is enqueued (receives can be posted early), send()
// after it, complete() before the unpack kernel is enqueued. All three run on every rank for
// every phase, in the same order.
class halo_mover {
 public:
  halo_mover()                                   = default;
  halo_mover(const halo_mover&)                  = delete;
  halo_mover& operator=(const halo_mover&)       = delete;
  halo_mover(halo_mover&&)                       = delete;
  halo_mover& operator=(halo_mover&&)            = delete;
  virtual ~halo_mover()                          = default;
  virtual void post(const halo_phase& phase)     = 0;
  virtual void send(const halo_phase& phase)     = 0;
  virtual void complete(const halo_phase& phase) = 0;
};

// Point-to-point MPI on buffers MPI can read: Irecv at post, Isend once the pack is done, Waitall
// at complete. Staged (mpi_host): the buffers MPI sees are host copies of the device buffers.
template <class T, class ExecutionSpace, bool Staged>
class mpi_mover final : public halo_mover {
  using memory_space = typename ExecutionSpace::memory_space;
  using staging_space =
      std::conditional_t<Staged, typename halo_traits<ExecutionSpace>::staging_space, memory_space>;

 public:
  mpi_mover(const ExecutionSpace& exec, MPI_Comm comm, const halo_buffers<T, memory_space>& device)
      : m_exec(exec), m_comm(comm), m_device(device) {
    if constexpr (Staged) {
      const auto n = device.send.extent(0);
      m_send       = Kokkos::View<T*, staging_space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "loopnest::halo_exchange/host_send"), n);
      m_recv = Kokkos::View<T*, staging_space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "loopnest::halo_exchange/host_recv"), n);
    } else {
      m_send = device.send;
      m_recv = device.recv;
    }
  }

  void post(const halo_phase& phase) override {
    // What reads the receive buffer after the previous exchange (the copy out of the host
    // staging, or the unpack of device memory MPI writes into) may still be queued on the
    // execution space, and a message can land in that buffer as soon as it is posted.
    m_exec.fence();
    m_requests.clear();
    for (const auto& f : phase.faces) {
      m_requests.push_back(MPI_REQUEST_NULL);
      mpi_check(MPI_Irecv(m_recv.data() + f.offset, bytes(f), MPI_BYTE, f.peer, f.recv_tag(),
                          m_comm, &m_requests.back()),
                "MPI_Irecv");
    }
  }

  void send(const halo_phase& phase) override {
    if constexpr (Staged) {
      Kokkos::deep_copy(m_exec, range(m_send, phase), range(m_device.send, phase));
    }
    // MPI reads the buffer from the host: the pack (and the copy) must be done.
    m_exec.fence();
    for (const auto& f : phase.faces) {
      m_requests.push_back(MPI_REQUEST_NULL);
      mpi_check(MPI_Isend(m_send.data() + f.offset, bytes(f), MPI_BYTE, f.peer, f.send_tag(),
                          m_comm, &m_requests.back()),
                "MPI_Isend");
    }
  }

  void complete(const halo_phase& phase) override {
    mpi_check(
        MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall");
    m_requests.clear();
    if constexpr (Staged) {
      Kokkos::deep_copy(m_exec, range(m_device.recv, phase), range(m_recv, phase));
    }
  }

 private:
  // Checked to fit an int when the exchange was made.
  static int bytes(const halo_face& f) { return static_cast<int>(f.elements * sizeof(T)); }

  template <class View>
  static auto range(const View& v, const halo_phase& phase) {
    return Kokkos::subview(
        v, Kokkos::pair<std::int64_t, std::int64_t>(phase.begin, phase.begin + phase.size));
  }

  ExecutionSpace m_exec;
  MPI_Comm m_comm;
  halo_buffers<T, memory_space> m_device;
  Kokkos::View<T*, staging_space> m_send, m_recv;
  std::vector<MPI_Request> m_requests;
};

}  // namespace loopnest::Impl

#endif
