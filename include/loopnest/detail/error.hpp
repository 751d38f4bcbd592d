// loopnest::Impl::throw_invalid_argument: the one way loopnest refuses an argument, so that every
// message reads "loopnest::<function>: <what the caller got wrong>".
#ifndef LOOPNEST_DETAIL_ERROR_HPP
#define LOOPNEST_DETAIL_ERROR_HPP

#include <stdexcept>
#include <string>

namespace loopnest::Impl {

[[noreturn]] inline void throw_invalid_argument(const char* where, const std::string& what) {
  throw std::invalid_argument(std::string(where) + ": " + what);
}

}  // namespace loopnest::Impl

#endif
