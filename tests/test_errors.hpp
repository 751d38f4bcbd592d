// Helpers for tests of bad input: the message of the exception a call throws.
#ifndef LOOPNEST_TEST_ERRORS_HPP
#define LOOPNEST_TEST_ERRORS_HPP

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace loopnest_test {

// The what() of the Exception (std::invalid_argument unless named: std::runtime_error for I/O)
// that f throws, or "no exception". Any other exception escapes and fails the test.
template <class Exception = std::invalid_argument, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Exception& e) {
    return e.what();
  }
  return "no exception";
}

inline void expect_mentions(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "message: " << msg << "\nexpected: " << part;
}

}  // namespace loopnest_test

#endif
