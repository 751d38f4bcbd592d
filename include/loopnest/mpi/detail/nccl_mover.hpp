// loopnest::Impl::nccl_mover: the nccl transport of a halo exchange, for CUDA builds with
// LOOPNEST_ENABLE_NCCL. The communicator is bootstrapped through MPI (rank 0's unique id
// broadcast); every face's ncclSend and ncclRecv of a phase run in one group on the exchange's
// own CUDA stream, ordered after the pack and before the unpack by events, so that work the
// caller enqueues between start() and finish() (the interior update) runs beside them.
#ifndef LOOPNEST_MPI_DETAIL_NCCL_MOVER_HPP
#define LOOPNEST_MPI_DETAIL_NCCL_MOVER_HPP

#if defined(LOOPNEST_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)

#include <loopnest/kokkos_compat.hpp>
#include <loopnest/mpi/detail/halo_mover.hpp>
#include <loopnest/mpi/detail/mpi_error.hpp>

#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <stdexcept>
#include <string>

namespace loopnest::Impl {

inline void nccl_check(ncclResult_t rc, const char* call) {
  if (rc != ncclSuccess) {
    throw std::runtime_error(std::string("loopnest: ") + call +
                             " failed: " + ncclGetErrorString(rc));
  }
}

inline void cuda_check(cudaError_t rc, const char* call) {
  if (rc != cudaSuccess) {
    throw std::runtime_error(std::string("loopnest: ") + call +
                             " failed: " + cudaGetErrorString(rc));
  }
}

// An NCCL communicator over the ranks of an MPI communicator, same rank numbers. Collective.
class nccl_communicator {
 public:
  explicit nccl_communicator(MPI_Comm comm) {
    const int rank = comm_rank(comm), size = comm_size(comm);
    ncclUniqueId id{};
    rank_error failed;
    if (rank == 0) {
      const ncclResult_t rc = ncclGetUniqueId(&id);
      if (rc != ncclSuccess) {
        failed =
            unavailable(std::string("loopnest: ncclGetUniqueId failed: ") + ncclGetErrorString(rc));
      }
    }
    throw_if_any_rank_failed(comm, failed);
    mpi_check(MPI_Bcast(&id, static_cast<int>(sizeof(id)), MPI_BYTE, 0, comm), "MPI_Bcast");
    const ncclResult_t rc = ncclCommInitRank(&m_comm, size, id, rank);
    if (rc != ncclSuccess) {
      m_comm = nullptr;
      failed = unavailable(std::string("loopnest: ncclCommInitRank failed on rank ") +
                           std::to_string(rank) + ": " + ncclGetErrorString(rc));
    }
    throw_if_any_rank_failed(comm, failed);
  }
  nccl_communicator(const nccl_communicator&)            = delete;
  nccl_communicator& operator=(const nccl_communicator&) = delete;
  nccl_communicator(nccl_communicator&&)                 = delete;
  nccl_communicator& operator=(nccl_communicator&&)      = delete;
  ~nccl_communicator() {
    if (m_comm != nullptr) {
      // A destructor cannot report a failure; ncclCommDestroy frees what it can.
      static_cast<void>(ncclCommDestroy(m_comm));
    }
  }
  ncclComm_t get() const { return m_comm; }

 private:
  ncclComm_t m_comm = nullptr;
};

template <class T, class ExecutionSpace>
class nccl_mover final : public halo_mover {
  static_assert(std::is_same<ExecutionSpace, Kokkos::Cuda>::value,
                "loopnest::halo_exchange: the nccl transport runs on Kokkos::Cuda.");

 public:
  nccl_mover(const ExecutionSpace& exec, MPI_Comm comm,
             const halo_buffers<T, typename ExecutionSpace::memory_space>& device)
      : m_exec(exec), m_comm(comm), m_device(device) {
    cuda_check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking),
               "cudaStreamCreateWithFlags");
    cuda_check(cudaEventCreateWithFlags(&m_packed, cudaEventDisableTiming), "cudaEventCreate");
    cuda_check(cudaEventCreateWithFlags(&m_moved, cudaEventDisableTiming), "cudaEventCreate");
  }
  nccl_mover(const nccl_mover&)            = delete;
  nccl_mover& operator=(const nccl_mover&) = delete;
  nccl_mover(nccl_mover&&)                 = delete;
  nccl_mover& operator=(nccl_mover&&)      = delete;
  ~nccl_mover() override {
    // Nothing may be in flight on the stream when it goes; failures cannot be reported here.
    static_cast<void>(cudaStreamSynchronize(m_stream));
    static_cast<void>(cudaEventDestroy(m_moved));
    static_cast<void>(cudaEventDestroy(m_packed));
    static_cast<void>(cudaStreamDestroy(m_stream));
  }

  void post(const halo_phase&) override {}

  // Sends in face order; receives ordered by the face they come from (below's message was
  // packed from the peer's upper face), so that two faces exchanged with the same peer (two
  // ranks on a periodic axis, or one) pair up: NCCL matches sends and receives between two ranks
  // in the order they are issued and has no tags.
  void send(const halo_phase& phase) override {
    cuda_check(cudaEventRecord(m_packed, m_exec.cuda_stream()), "cudaEventRecord");
    cuda_check(cudaStreamWaitEvent(m_stream, m_packed, 0), "cudaStreamWaitEvent");
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (const auto& f : phase.faces) {
      nccl_check(ncclSend(m_device.send.data() + f.offset, bytes(f), ncclChar, f.peer, m_comm.get(),
                          m_stream),
                 "ncclSend");
    }
    for (std::size_t n = 0; n < phase.faces.size(); ++n) {
      const halo_face& f = receive_order(phase, n);
      nccl_check(ncclRecv(m_device.recv.data() + f.offset, bytes(f), ncclChar, f.peer, m_comm.get(),
                          m_stream),
                 "ncclRecv");
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    cuda_check(cudaEventRecord(m_moved, m_stream), "cudaEventRecord");
  }

  // The unpack, enqueued next on the execution space's stream, waits for the transfers there;
  // the host does not wait.
  void complete(const halo_phase&) override {
    cuda_check(cudaStreamWaitEvent(m_exec.cuda_stream(), m_moved, 0), "cudaStreamWaitEvent");
  }

 private:
  static std::size_t bytes(const halo_face& f) {
    return static_cast<std::size_t>(f.elements) * sizeof(T);
  }

  // The faces of a phase come in pairs per axis, below (side 0) then above; a rank sends its
  // lower face first, which its peer receives into its upper ghosts, so receives go above first.
  static const halo_face& receive_order(const halo_phase& phase, std::size_t n) {
    const auto& faces  = phase.faces;
    const halo_face& f = faces[n];
    const bool paired  = f.side == 0 ? n + 1 < faces.size() && faces[n + 1].axis == f.axis
                                     : n > 0 && faces[n - 1].axis == f.axis;
    return paired ? faces[f.side == 0 ? n + 1 : n - 1] : f;
  }

  ExecutionSpace m_exec;
  nccl_communicator m_comm;
  halo_buffers<T, typename ExecutionSpace::memory_space> m_device;
  cudaStream_t m_stream = nullptr;
  cudaEvent_t m_packed = nullptr, m_moved = nullptr;
};

}  // namespace loopnest::Impl

#endif

#endif
