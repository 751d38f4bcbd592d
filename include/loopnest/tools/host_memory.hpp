// loopnest::host_memory_headroom and is_allocation_failure: how much memory the host can still
// give this process, so that a tool refuses a run too large for it before allocating anything,
// and which exceptions say that an allocation failed all the same. Host code of the tools'
// layer; Linux's /proc.
#ifndef LOOPNEST_TOOLS_HOST_MEMORY_HPP
#define LOOPNEST_TOOLS_HOST_MEMORY_HPP

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include <sys/resource.h>

namespace loopnest {

// The bytes this process can still allocate on the host, and what bounds them, as a message
// goes on: "... but only BYTES bytes are available BOUND".
struct memory_headroom {
  std::uint64_t bytes = std::numeric_limits<std::uint64_t>::max();
  std::string bound;  // empty when nothing bounds the bytes that could be read
};

namespace Impl {

// The value of the line "key: N kB" of a /proc file such as /proc/meminfo, in bytes; false when
// the file or the line is missing.
inline bool proc_kilobytes(const char* file, std::string_view key, std::uint64_t& bytes) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 &&
        line[key.size()] == ':') {
      bytes = std::strtoull(line.c_str() + key.size() + 1, nullptr, 10) * 1024;
      return true;
    }
  }
  return false;
}

}  // namespace Impl

// The smaller of the address-space limit (ulimit -v) less what the process maps already
// (VmSize), and the memory the host has available (MemAvailable and SwapFree in
// /proc/meminfo). A bound that cannot be read is left out; with neither, bytes is the largest
// std::uint64_t and bound is empty. Limits this does not read (ulimit -d, a cgroup's, a device's
// own memory) can still make an allocation fail: see is_allocation_failure.
inline memory_headroom host_memory_headroom() {
  memory_headroom h;
  rlimit address_space{};
  if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    std::uint64_t mapped = 0;
    Impl::proc_kilobytes("/proc/self/status", "VmSize", mapped);
    const std::uint64_t limit = address_space.rlim_cur;
    h = {limit > mapped ? limit - mapped : 0, "under the address-space limit (ulimit -v)"};
  }
  std::uint64_t available = 0, swap = 0;
  if (Impl::proc_kilobytes("/proc/meminfo", "MemAvailable", available)) {
    Impl::proc_kilobytes("/proc/meminfo", "SwapFree", swap);
    if (available + swap < h.bytes) {
      h = {available + swap, "on the host (MemAvailable and SwapFree in /proc/meminfo)"};
    }
  }
  return h;
}

// Whether e says that memory could not be allocated: std::bad_alloc (operator new, and Kokkos'
// RawMemoryAllocationFailure where it derives from it), or the std::runtime_error Kokkos throws
// for a View it cannot allocate ("Kokkos failed to allocate memory for label ..." in Kokkos 3,
// "Kokkos ERROR: Host memory space failed to allocate ..." in Kokkos 4).
inline bool is_allocation_failure(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) != nullptr ||
         (dynamic_cast<const std::runtime_error*>(&e) != nullptr &&
          std::string_view(e.what()).find("failed to allocate") != std::string_view::npos);
}

}  // namespace loopnest

#endif
