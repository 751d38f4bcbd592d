// loopnest::halo_transport: how a halo exchange moves its buffers between ranks, chosen at run
// time, and whether this build and this MPI library can use each one.
#ifndef LOOPNEST_MPI_HALO_TRANSPORT_HPP
#define LOOPNEST_MPI_HALO_TRANSPORT_HPP

#include <loopnest/kokkos_compat.hpp>

#include <mpi.h>
// Open MPI declares its CUDA query in its extensions header.
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#include <stdexcept>
#include <string>

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

}  // namespace Impl

// Whether transport t can run with ExecutionSpace's buffers in this build and MPI library.
template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
bool halo_transport_available(halo_transport t) {
  return Impl::halo_transport_unavailable_reason<ExecutionSpace>(t).empty();
}

}  // namespace loopnest

#endif
