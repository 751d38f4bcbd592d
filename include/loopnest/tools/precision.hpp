// loopnest::precision: FP32 or FP64, as the tools name it (--precision fp32|fp64) and as field
// comparisons choose their tolerances by it. Host code of the tools' layer.
#ifndef LOOPNEST_TOOLS_PRECISION_HPP
#define LOOPNEST_TOOLS_PRECISION_HPP

#include <loopnest/detail/error.hpp>

#include <string>
#include <type_traits>

namespace loopnest {

enum class precision { fp32, fp64 };

namespace Impl {

template <class T>
constexpr bool is_fp32_or_fp64_v = std::is_same<T, float>::value || std::is_same<T, double>::value;

}  // namespace Impl

template <class T>
constexpr precision precision_of() {
  static_assert(Impl::is_fp32_or_fp64_v<T>,
                "loopnest::precision_of: the scalar type must be float (FP32) or double (FP64).");
  return std::is_same<T, float>::value ? precision::fp32 : precision::fp64;
}

inline const char* name(precision p) {
  return p == precision::fp32 ? "FP32" : "FP64";
}

// "fp32" or "fp64", in lower or upper case (the spellings of --precision and of name()).
inline precision parse_precision(const std::string& s) {
  if (s == "fp32" || s == "FP32") {
    return precision::fp32;
  }
  if (s == "fp64" || s == "FP64") {
    return precision::fp64;
  }
  Impl::throw_invalid_argument("loopnest::parse_precision",
                               "'" + s + "' is not a precision; expected fp32 or fp64");
}

}  // namespace loopnest

#endif
