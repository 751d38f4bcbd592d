// The strict JSON reader: what it accepts, and where it says an error is.
#include <gtest/gtest.h>

#include <string>

#include "json.hpp"

namespace {

using loopnest_mfc::json_error;
using loopnest_mfc::json_value;
using loopnest_mfc::parse_json;

std::string error_of(const std::string& text) {
  try {
    parse_json(text, "case.json");
  } catch (const json_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(mfc_json, reads_a_case_object_with_every_kind_of_value) {
  const json_value v = parse_json(
      "{\n  \"m\": 399,\n  \"dt\": -2.5e-4,\n  \"a\": \"T\",\n  \"s\": "
      "\"q\\\"\\\\\\/\\n\\u00e9\\ud83d\\ude00\",\n"
      "  \"t\": true, \"f\": false, \"z\": null, \"l\": [1, [], {}]\n}",
      "case.json");
  ASSERT_EQ(v.type, json_value::kind::object);
  ASSERT_EQ(v.members.size(), 8u);
  EXPECT_EQ(v.members[0].first, "m");
  EXPECT_TRUE(v.members[0].second.is_integer_literal());
  EXPECT_EQ(v.members[0].second.number, 399.0);
  EXPECT_EQ(v.members[0].second.where.line, 2);
  EXPECT_EQ(v.members[0].second.where.column, 8);
  EXPECT_EQ(v.key_positions[1].line, 3);
  EXPECT_EQ(v.key_positions[1].column, 3);
  EXPECT_FALSE(v.members[1].second.is_integer_literal());
  EXPECT_EQ(v.members[1].second.number, -2.5e-4);
  EXPECT_EQ(v.members[2].second.text, "T");
  EXPECT_EQ(v.members[3].second.text, "q\"\\/\n\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_TRUE(v.members[4].second.boolean);
  EXPECT_FALSE(v.members[5].second.boolean);
  EXPECT_EQ(v.members[6].second.type, json_value::kind::null);
  EXPECT_EQ(v.members[7].second.elements.size(), 3u);
}

TEST(mfc_json, errors_name_the_line_and_column) {
  EXPECT_EQ(error_of("{\n  \"m\": 1,\n}"),
            "case.json:3:1: a comma before '}' (trailing commas are not JSON)");
  EXPECT_EQ(error_of("{\"m\" 1}"), "case.json:1:6: expected ':' after a member name, found '1'");
  EXPECT_EQ(error_of("{\"m\": 1\n \"n\": 2}"),
            "case.json:2:2: expected '}' or ',' after an object member, found '\"'");
  EXPECT_EQ(error_of("{\"m\": \"abc}"), "case.json:1:7: the string starting here is not closed");
  EXPECT_EQ(error_of("{\"m\": \"a\\qb\"}"), "case.json:1:9: '\\q' is not a JSON escape");
  EXPECT_EQ(error_of("{\"m\": 012}"), "case.json:1:7: a number with a leading zero is not JSON");
  EXPECT_EQ(error_of("{\"m\": 1.}"),
            "case.json:1:9: expected a digit after the decimal point, found '}'");
  EXPECT_EQ(error_of("{\"dt\": NaN}"),
            "case.json:1:8: 'NaN' is not JSON (a value of case.py that is not finite?)");
  EXPECT_EQ(error_of("{\"m\": 1, \"m\": 2}"),
            "case.json:1:10: duplicate member 'm' (first at line 1, column 2)");
  EXPECT_EQ(error_of("{\"m\": \"a\tb\"}"),
            "case.json:1:9: a control character (byte 0x09) inside a string must be escaped");
  EXPECT_EQ(error_of("{} x"), "case.json:1:4: unexpected 'x' after the end of the top-level value");
  EXPECT_EQ(error_of(""), "case.json:1:1: expected a value, found end of file");
  EXPECT_EQ(error_of("{'m': 1}"),
            "case.json:1:2: expected a member name in double quotes, found '''");
  EXPECT_EQ(error_of("{\"m\": True}"),
            "case.json:1:7: 'True' is not a JSON value (true, false or null)");
  EXPECT_EQ(error_of("{\"m\": 1e999}"),
            "case.json:1:7: the number 1e999 is out of range for a double");
  EXPECT_EQ(error_of("{\"s\": \"\\ud83d\"}"),
            "case.json:1:8: a \\u high surrogate without the low surrogate after it");
  EXPECT_EQ(error_of(std::string(70, '[') + std::string(70, ']')),
            "case.json:1:66: values nested deeper than 64 levels");
}

}  // namespace
