// loopnest::halo_transport: how a halo exchange moves its buffers between ranks, chosen at run
// time, and whether this build and this MPI library can use each one.
#ifndef LOOPNEST_MPI_HALO_TRANSPORT_HPP
#define LOOPNEST_MPI_HALO_TRANSPORT_HPP

#include <loopnest/kokkos_compat.hpp>
#include <loopnest/mpi/detail/mpi_error.hpp>

#include <mpi.h>
// Open MPI declares its CUDA query in its extensions header.
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopnest {

enum class halo_transport {
  mpi_host,    // device buffers copied to and from host (pinned where the backend has it), MPI
  mpi_device,  // device buffers handed to MPI: needs an MPI that reads device memory
  nccl         // ncclSend/ncclRecv on the device: CUDA builds with LOOPNEST_ENABLE_NCCL
};

inline constexpr halo_transport halo_transports[] = {
    halo_transport::mpi_host, halo_transport::mpi_device, halo_transport::nccl};

constexpr const char* name(halo_transport t) {
  switch (t) {
    case halo_transport::mpi_host:
      return "mpi_host";
    case halo_transport::mpi_device:
      return "mpi_device";
    case halo_transport::nccl:
      return "nccl";
  }
  return "unknown";
}

// Throws std::invalid_argument naming s and the transports for a name that is none of them.
inline halo_transport parse_halo_transport(const std::string& s) {
  std::string known;
  for (const auto t : halo_transports) {
    if (s == name(t)) {
      return t;
    }
    known += std::string(known.empty() ? "" : ", ") + name(t);
  }
  throw std::invalid_argument("loopnest::parse_halo_transport: transport '" + s +
                              "' is unknown; the transports are " + known);
}

// Which cells of the ghost layers an exchange fills: the faces of each axis only (a star
// stencil's reach), or the edges and corners too (a stencil that reads diagonal neighbours),
// which takes one exchange per axis in turn, each carrying the ghosts the previous axes filled.
enum class halo_region { faces, faces_edges_corners };

namespace Impl {

// Per backend: where mpi_host stages device buffers (pinned host memory where the backend has
// it, so that the copies run at full speed and asynchronously) and whether the backend's device
// memory is host memory (then mpi_device hands it to any MPI).
template <class ExecutionSpace>
struct halo_traits {
  using staging_space = Kokkos::HostSpace;
  static constexpr bool device_memory_is_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                 typename ExecutionSpace::memory_space>::accessible;
  // mpi_device on a device backend needs the MPI library's word that it reads device memory.
  static bool mpi_reads_device_memory() { return device_memory_is_host; }
  static constexpr bool has_nccl = false;
  // The device this process runs on, -1 for none.
  static int device() { return -1; }
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct halo_traits<Kokkos::Cuda> {
  using staging_space                         = Kokkos::CudaHostPinnedSpace;
  static constexpr bool device_memory_is_host = false;
  // Open MPI says at run time (MPIX_Query_cuda_support); other libraries are not asked, so
  // mpi_device refuses them rather than hand device pointers to an MPI that may not read them.
  static bool mpi_reads_device_memory() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return false;
#endif
  }
#if defined(LOOPNEST_ENABLE_NCCL)
  static constexpr bool has_nccl = true;
#else
  static constexpr bool has_nccl = false;
#endif
  // The current CUDA device, which Kokkos set at initialisation and NCCL binds a rank to.
  static int device() {
    int d = -1;
    return cudaGetDevice(&d) == cudaSuccess ? d : -1;
  }
};
#endif

// Why transport t cannot run here on ExecutionSpace, or "" when it can.
template <class ExecutionSpace>
std::string halo_transport_unavailable_reason(halo_transport t) {
  using traits = halo_traits<ExecutionSpace>;
  switch (t) {
    case halo_transport::mpi_host:
      return "";
    case halo_transport::mpi_device:
      if (traits::mpi_reads_device_memory()) {
        return "";
      }
      return "transport mpi_device is not available: the MPI library does not report that it "
             "reads device memory (Open MPI's MPIX_Query_cuda_support; other MPI libraries are "
             "not asked); use mpi_host or nccl";
    case halo_transport::nccl:
      if (traits::has_nccl) {
        return "";
      }
      return std::string("transport nccl is not available: this build ") +
             (std::is_same<ExecutionSpace, Kokkos::DefaultHostExecutionSpace>::value ||
                      traits::device_memory_is_host
                  ? "runs on a host backend, and NCCL moves CUDA device memory"
                  : "has no NCCL (configure with LOOPNEST_ENABLE_NCCL=ON where nccl.h and "
                    "libnccl are found)") +
             "; use mpi_host";
  }
  return "transport is unknown";
}

// Collective over comm: the error of transport t on these ranks, "where: " and the reason. Beside
// what halo_transport_unavailable_reason says of the build, nccl needs a device of its own on
// every rank (NCCL refuses a communicator in which two ranks share a GPU).
template <class ExecutionSpace>
rank_error halo_transport_error(halo_transport t, MPI_Comm comm, const std::string& where) {
  const std::string reason = halo_transport_unavailable_reason<ExecutionSpace>(t);
  if (!reason.empty() || t != halo_transport::nccl) {
    return reason.empty() ? rank_error{} : unavailable(where + ": " + reason);
  }
  MPI_Comm node = MPI_COMM_NULL;
  mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  const int mine[2] = {comm_rank(comm), halo_traits<ExecutionSpace>::device()};
  std::vector<int> all(2 * static_cast<std::size_t>(comm_size(node)));
  const int rc = MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, node);
  mpi_check(MPI_Comm_free(&node), "MPI_Comm_free");
  mpi_check(rc, "MPI_Allgather");
  for (std::size_t n = 0; n < all.size(); n += 2) {
    if (mine[1] >= 0 && all[n + 1] == mine[1] && all[n] != mine[0]) {
      return unavailable(where + ": transport nccl needs a GPU of its own on every rank, and " +
                         "ranks " + std::to_string(std::min(all[n], mine[0])) + " and " +
                         std::to_string(std::max(all[n], mine[0])) + " run on device " +
                         std::to_string(mine[1]) +
                         " of one node; start as many ranks per node as it has GPUs, or use "
                         "mpi_host");
    }
  }
  return {};
}

}  // namespace Impl

// Whether transport t can run with ExecutionSpace's buffers in this build and MPI library.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
bool halo_transport_available(halo_transport t) {
  return Impl::halo_transport_unavailable_reason<ExecutionSpace>(t).empty();
}

// Collective over comm: whether transport t can run on these ranks: as above, and for nccl no
// two ranks of a node on one GPU.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
bool halo_transport_available(halo_transport t, MPI_Comm comm) {
  const int ok =
      Impl::halo_transport_error<ExecutionSpace>(t, comm, "").kind == Impl::rank_error_kind::none;
  int all = 0;
  Impl::mpi_check(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  return all == 1;
}

}  // namespace loopnest

#endif
