#include <loopnest/tools/precision.hpp>

#include <gtest/gtest.h>

#include <string>

#include "test_errors.hpp"

namespace {

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

TEST(precision, precision_names_and_spellings) {
  static_assert(loopnest::precision_of<float>() == loopnest::precision::fp32, "float is FP32");
  static_assert(loopnest::precision_of<double>() == loopnest::precision::fp64, "double is FP64");
  EXPECT_STREQ(loopnest::name(loopnest::precision::fp32), "FP32");
  EXPECT_STREQ(loopnest::name(loopnest::precision::fp64), "FP64");
  EXPECT_EQ(loopnest::parse_precision("fp32"), loopnest::precision::fp32);
  EXPECT_EQ(loopnest::parse_precision("FP32"), loopnest::precision::fp32);
  EXPECT_EQ(loopnest::parse_precision("fp64"), loopnest::precision::fp64);
  EXPECT_EQ(loopnest::parse_precision("FP64"), loopnest::precision::fp64);
}

TEST(precision, an_unknown_precision_names_the_value) {
  const std::string msg = error_of([] { loopnest::parse_precision("fp16"); });
  expect_mentions(msg, "loopnest::parse_precision: 'fp16' is not a precision");
  expect_mentions(error_of([] { loopnest::parse_precision("Fp32"); }), "'Fp32'");
}

}  // namespace
