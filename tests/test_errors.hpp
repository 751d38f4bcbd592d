// Helpers for tests of bad input: the message of the std::invalid_argument a call throws.
#ifndef LOOPNEST_TEST_ERRORS_HPP
#define LOOPNEST_TEST_ERRORS_HPP

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace loopnest_test {

// The what() of the std::invalid_argument that f throws, or "no exception".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

inline void expect_mentions(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nexpected: " << part;
}

}  // namespace loopnest_test

#endif
