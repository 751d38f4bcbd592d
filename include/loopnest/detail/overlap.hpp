// loopnest::Impl::views_overlap: whether two Views share memory, for the kernels whose output
// must not alias their input.
#ifndef LOOPNEST_DETAIL_OVERLAP_HPP
#define LOOPNEST_DETAIL_OVERLAP_HPP

#include <cstddef>
#include <functional>

namespace loopnest::Impl {

// Compares addresses as integers through std::less, which orders any two pointers (the built-in
// < does not across allocations). A View's span covers every element it can reach.
template <class A, class B>
bool views_overlap(const A& a, const B& b) {
  const std::size_t a_bytes = a.span() * sizeof(typename A::value_type);
  const std::size_t b_bytes = b.span() * sizeof(typename B::value_type);
  if (a_bytes == 0 || b_bytes == 0) {
    return false;
  }
  const auto* a_begin = reinterpret_cast<const char*>(a.data());
  const auto* b_begin = reinterpret_cast<const char*>(b.data());
  const std::less<> before;
  return before(a_begin, b_begin + b_bytes) && before(b_begin, a_begin + a_bytes);
}

}  // namespace loopnest::Impl

#endif
