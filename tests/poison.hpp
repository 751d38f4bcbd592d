// The value a test writes where a kernel must not, and the byte-for-byte comparison that finds
// it (or any other difference) afterwards.
#ifndef LOOPNEST_TEST_POISON_HPP
#define LOOPNEST_TEST_POISON_HPP

#include <cstring>

namespace loopnest_test {

template <class T>
constexpr T poison = T(-1.0e30);

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace loopnest_test

#endif
