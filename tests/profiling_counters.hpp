// Counters on Kokkos' profiling callbacks, for the tests and benchmarks that check what moves
// between host and device and what table work a call does. One counter of a kind at a time;
// each puts back the callback that was there before (a profiling tool's, or none).
#ifndef LOOPNEST_TEST_PROFILING_COUNTERS_HPP
#define LOOPNEST_TEST_PROFILING_COUNTERS_HPP

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace loopnest_test {

// Every Kokkos::deep_copy from construction to destruction.
class deep_copy_counter {
 public:
  deep_copy_counter() : m_previous(Kokkos::Tools::Experimental::get_callbacks().begin_deep_copy) {
    count() = 0;
    Kokkos::Tools::Experimental::set_begin_deep_copy_callback(&on_deep_copy);
  }
  ~deep_copy_counter() { Kokkos::Tools::Experimental::set_begin_deep_copy_callback(m_previous); }
  deep_copy_counter(const deep_copy_counter&)            = delete;
  deep_copy_counter& operator=(const deep_copy_counter&) = delete;

  long long copies() const { return count(); }

 private:
  static long long& count() {
    static long long n = 0;
    return n;
  }
  static void on_deep_copy(Kokkos_Profiling_SpaceHandle, const char*, const void*,
                           Kokkos_Profiling_SpaceHandle, const char*, const void*, std::uint64_t) {
    ++count();
  }

  Kokkos_Profiling_beginDeepCopyFunction m_previous;
};

// The profiling regions of one name (not nested in each other): how often they were entered
// and the host wall time spent inside them.
class region_counter {
 public:
  explicit region_counter(const char* name)
      : m_previous_push(Kokkos::Tools::Experimental::get_callbacks().push_region),
        m_previous_pop(Kokkos::Tools::Experimental::get_callbacks().pop_region) {
    state() = {name, 0, 0, 0, 0.0, {}};
    Kokkos::Tools::Experimental::set_push_region_callback(&on_push);
    Kokkos::Tools::Experimental::set_pop_region_callback(&on_pop);
  }
  ~region_counter() {
    Kokkos::Tools::Experimental::set_push_region_callback(m_previous_push);
    Kokkos::Tools::Experimental::set_pop_region_callback(m_previous_pop);
  }
  region_counter(const region_counter&)            = delete;
  region_counter& operator=(const region_counter&) = delete;

  long long entries() const { return state().entries; }
  double seconds() const { return state().seconds; }

 private:
  using clock = std::chrono::steady_clock;
  struct counts {
    std::string name;
    int depth;
    int matched_depth;
    long long entries;
    double seconds;
    clock::time_point start;
  };
  static counts& state() {
    static counts c;
    return c;
  }
  static void on_push(const char* name) {
    auto& s = state();
    ++s.depth;
    if (s.matched_depth == 0 && s.name == name) {
      s.matched_depth = s.depth;
      ++s.entries;
      s.start = clock::now();
    }
  }
  static void on_pop() {
    auto& s = state();
    if (s.depth == s.matched_depth) {
      s.seconds += std::chrono::duration<double>(clock::now() - s.start).count();
      s.matched_depth = 0;
    }
    --s.depth;
  }

  Kokkos_Profiling_pushFunction m_previous_push;
  Kokkos_Profiling_popFunction m_previous_pop;
};

}  // namespace loopnest_test

#endif
