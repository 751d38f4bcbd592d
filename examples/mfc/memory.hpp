// loopnest_mfc::memory_problem: whether a case fits in the memory the run can have, asked before
// anything of the case's size is allocated, so that a grid too large for the machine is refused
// with a message naming m, n and p instead of ending in std::bad_alloc.
#ifndef LOOPNEST_MFC_MEMORY_HPP
#define LOOPNEST_MFC_MEMORY_HPP

#include "case.hpp"

#include <loopnest/tools/host_memory.hpp>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace loopnest_mfc {

// The bytes of the grid alone (built before the case is split over ranks).
inline double grid_bytes(const case_config& c) {
  double points = 0.0;
  for (const axis_config& a : c.axis) {
    points += a.cells_minus_one + 1.0 + 2.0 * buff_size;
  }
  return 4.0 * sizeof(double) * points;
}

// The bytes a run's host side holds at once, besides the device's fields: the primitive initial
// condition and its conservative form (held for the whole run), the conservative and primitive
// copies an output step makes, the patch id and coverage of each cell, and the grid.
inline double host_bytes_of_run(const case_config& c) {
  const double cells = (c.m() + 1.0) * (c.n() + 1.0) * (c.p() + 1.0);
  return cells * (4.0 * sizeof(double) * c.sys_size() + sizeof(int) + 1.0) + grid_bytes(c);
}

// Why a case with `host` bytes on the host and `device` bytes on the device does not fit in what
// the host (loopnest::host_memory_headroom) and the device have ("" when it fits). With a device
// that is the host (a host-only Kokkos), both count against the host.
inline std::string memory_problem(const case_config& c, double host, double device,
                                  const loopnest::memory_headroom& host_available,
                                  double device_available, bool device_is_host) {
  if (device_is_host) {
    host += device;
  }
  const auto gb = [](double bytes) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.3g GB", bytes * 1e-9);
    return std::string(text);
  };
  char cells[160];
  std::snprintf(cells, sizeof(cells), "m = %d, n = %d, p = %d: %.4g cells of %d equations", c.m(),
                c.n(), c.p(), (c.m() + 1.0) * (c.n() + 1.0) * (c.p() + 1.0), c.sys_size());
  if (host > static_cast<double>(host_available.bytes)) {
    return "the case needs " + gb(host) + " of host memory (" + cells + "), more than the " +
           gb(static_cast<double>(host_available.bytes)) + " available " + host_available.bound;
  }
  if (!device_is_host && device > device_available) {
    return "the case needs " + gb(device) + " of device memory (" + cells + "), more than the " +
           gb(device_available) + " free on the device";
  }
  return "";
}

// An allocation that failed on some rank, reported on every rank.
class allocation_failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether an exception is a failed allocation: allocation_failure, or what
// loopnest::is_allocation_failure counts (std::bad_alloc, Kokkos' failed Views).
inline bool is_allocation_failure(const std::exception& e) {
  return dynamic_cast<const allocation_failure*>(&e) != nullptr ||
         loopnest::is_allocation_failure(e);
}

}  // namespace loopnest_mfc

#endif
