#include <loopnest/tools/host_memory.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>

#include <sys/resource.h>

namespace {

// AddressSanitizer aborts on an allocation it cannot make instead of failing it, and maps far
// more address space than any limit these tests set.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool with_address_sanitizer = true;
#elif defined(__has_feature)
constexpr bool with_address_sanitizer = __has_feature(address_sanitizer);
#else
constexpr bool with_address_sanitizer = false;
#endif

TEST(host_memory, allocation_failures_are_told_from_other_errors) {
  EXPECT_TRUE(loopnest::is_allocation_failure(std::bad_alloc()));
  EXPECT_FALSE(loopnest::is_allocation_failure(std::runtime_error("the mass is outside [0, 1]")));
  // Only a runtime_error's text counts: an argument refused is no failed allocation.
  EXPECT_FALSE(loopnest::is_allocation_failure(std::invalid_argument("failed to allocate")));
  if (with_address_sanitizer) {
    GTEST_SKIP() << "AddressSanitizer aborts on a View it cannot allocate";
  }
  // Whatever this Kokkos throws for a View larger than any memory.
  try {
    const Kokkos::View<char*, Kokkos::HostSpace> huge("huge", std::size_t(1) << 60);
    FAIL() << "a View of 2^60 bytes was allocated";
  } catch (const std::exception& e) {
    EXPECT_TRUE(loopnest::is_allocation_failure(e)) << e.what();
  }
}

TEST(host_memory, the_host_bounds_the_headroom) {
  std::uint64_t available = 0;
  if (!loopnest::Impl::proc_kilobytes("/proc/meminfo", "MemAvailable", available)) {
    GTEST_SKIP() << "no MemAvailable in /proc/meminfo";
  }
  const loopnest::memory_headroom h = loopnest::host_memory_headroom();
  EXPECT_GT(h.bytes, 0u);
  EXPECT_LT(h.bytes, std::numeric_limits<std::uint64_t>::max());
  EXPECT_FALSE(h.bound.empty());
}

// Under an address-space limit 64 MiB above what the process maps, about 64 MiB are left, not
// the limit itself.
TEST(host_memory, the_address_space_limit_less_what_is_mapped_bounds_the_headroom) {
  if (with_address_sanitizer) {
    GTEST_SKIP() << "AddressSanitizer's own mappings do not fit a limit";
  }
  std::uint64_t mapped = 0;
  ASSERT_TRUE(loopnest::Impl::proc_kilobytes("/proc/self/status", "VmSize", mapped));
  constexpr std::uint64_t room = std::uint64_t(64) << 20;
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_AS, &old), 0);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < mapped + room) {
    GTEST_SKIP() << "the address-space limit is lower already";
  }
  rlimit limited   = old;
  limited.rlim_cur = mapped + room;
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &limited), 0);
  const loopnest::memory_headroom h = loopnest::host_memory_headroom();
  ::setrlimit(RLIMIT_AS, &old);
  EXPECT_LE(h.bytes, room);
  EXPECT_GT(h.bytes, room / 2);
  EXPECT_EQ(h.bound, "under the address-space limit (ulimit -v)");
}

}  // namespace
