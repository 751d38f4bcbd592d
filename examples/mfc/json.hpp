// loopnest_mfc::parse_json: a strict JSON reader (RFC 8259) for the dictionary an MFC case.py
// prints. Every value keeps the line and column where it starts, so that a refused parameter can be
// named where it is written; every error names the line and column of the offending character.
#ifndef LOOPNEST_MFC_JSON_HPP
#define LOOPNEST_MFC_JSON_HPP

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace loopnest_mfc {

// A position in the text, both 1-based; columns count bytes.
struct text_position {
  int line   = 1;
  int column = 1;
};

// A syntax error: what() is "SOURCE:LINE:COLUMN: why".
struct json_error : std::runtime_error {
  json_error(const std::string& source, text_position at, const std::string& why)
      : std::runtime_error(source + ":" + std::to_string(at.line) + ":" +
                           std::to_string(at.column) + ": " + why),
        where(at) {}
  text_position where;
};

struct json_value {
  enum class kind { null, boolean, number, string, array, object };
  kind type     = kind::null;
  bool boolean  = false;
  double number = 0.0;
  // A string's value, or a number's literal as written (kept so that "2" and "2.0" differ).
  std::string text;
  std::vector<json_value> elements;
  std::vector<std::pair<std::string, json_value>> members;  // in the order written
  std::vector<text_position> key_positions;                 // one per member
  text_position where;

  // True for a number written without fraction or exponent, as Python prints an int.
  bool is_integer_literal() const {
    return type == kind::number && text.find_first_of(".eE") == std::string::npos;
  }
};

const char* kind_name(json_value::kind k);

namespace detail {

class json_parser {
 public:
  json_parser(std::string_view text, std::string source)
      : m_text(text), m_source(std::move(source)) {}

  json_value parse_document() {
    skip_blank();
    json_value v = parse_value(0);
    skip_blank();
    if (m_pos != m_text.size()) {
      fail("unexpected " + describe_here() + " after the end of the top-level value");
    }
    return v;
  }

 private:
  // Deeper nesting than this is no case file; the limit keeps recursion off the stack's end.
  static constexpr int max_depth = 64;

  std::string_view m_text;
  std::string m_source;
  std::size_t m_pos = 0;
  text_position m_at;

  [[noreturn]] void fail(const std::string& why) const { throw json_error(m_source, m_at, why); }
  [[noreturn]] void fail_at(text_position at, const std::string& why) const {
    throw json_error(m_source, at, why);
  }

  bool done() const { return m_pos >= m_text.size(); }
  char peek() const { return m_text[m_pos]; }

  void advance() {
    if (m_text[m_pos] == '\n') {
      ++m_at.line;
      m_at.column = 1;
    } else {
      ++m_at.column;
    }
    ++m_pos;
  }

  std::string describe_here() const {
    if (done()) {
      return "end of file";
    }
    const auto byte = static_cast<unsigned char>(peek());
    if (byte >= 0x20 && byte < 0x7f) {
      return std::string("'") + peek() + "'";
    }
    constexpr const char* hex = "0123456789ABCDEF";
    return std::string("byte 0x") + hex[byte >> 4] + hex[byte & 15];
  }

  void skip_blank() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
      advance();
    }
  }

  void expect(char c, const char* context) {
    if (done() || peek() != c) {
      fail(std::string("expected '") + c + "' " + context + ", found " + describe_here());
    }
    advance();
  }

  // Recursive over nested values, as JSON is; max_depth bounds the recursion.
  // NOLINTNEXTLINE(misc-no-recursion)
  json_value parse_value(int depth) {
    if (depth > max_depth) {
      fail("values nested deeper than " + std::to_string(max_depth) + " levels");
    }
    if (done()) {
      fail("expected a value, found end of file");
    }
    json_value v;
    v.where      = m_at;
    const char c = peek();
    if (c == '{') {
      parse_object(v, depth);
    } else if (c == '[') {
      parse_array(v, depth);
    } else if (c == '"') {
      v.type = json_value::kind::string;
      v.text = parse_string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      parse_number(v);
    } else if (c >= 'a' && c <= 'z') {
      parse_word(v);
    } else if (c >= 'A' && c <= 'Z') {
      // Python's json.dumps writes NaN and Infinity for values that are not finite.
      const std::string word = read_word();
      if (word == "NaN" || word == "Infinity") {
        fail_at(v.where, "'" + word + "' is not JSON (a value of case.py that is not finite?)");
      }
      fail_at(v.where, "'" + word + "' is not a JSON value (true, false or null)");
    } else {
      fail("expected a value, found " + describe_here());
    }
    return v;
  }

  std::string read_word() {
    std::string word;
    while (!done() && ((peek() >= 'a' && peek() <= 'z') || (peek() >= 'A' && peek() <= 'Z'))) {
      word.push_back(peek());
      advance();
    }
    return word;
  }

  void parse_word(json_value& v) {
    const std::string word = read_word();
    if (word == "true" || word == "false") {
      v.type    = json_value::kind::boolean;
      v.boolean = word == "true";
    } else if (word == "null") {
      v.type = json_value::kind::null;
    } else {
      fail_at(v.where, "'" + word + "' is not a JSON value (true, false or null)");
    }
  }

  // NOLINTNEXTLINE(misc-no-recursion): through parse_value, bounded by max_depth.
  void parse_object(json_value& v, int depth) {
    v.type = json_value::kind::object;
    advance();  // {
    skip_blank();
    if (!done() && peek() == '}') {
      advance();
      return;
    }
    while (true) {
      skip_blank();
      if (done() || peek() != '"') {
        fail("expected a member name in double quotes, found " + describe_here());
      }
      const text_position key_at = m_at;
      std::string key            = parse_string();
      for (std::size_t k = 0; k < v.members.size(); ++k) {
        if (v.members[k].first == key) {
          fail_at(key_at, "duplicate member '" + key + "' (first at line " +
                              std::to_string(v.key_positions[k].line) + ", column " +
                              std::to_string(v.key_positions[k].column) + ")");
        }
      }
      skip_blank();
      expect(':', "after a member name");
      skip_blank();
      json_value member = parse_value(depth + 1);
      v.members.emplace_back(std::move(key), std::move(member));
      v.key_positions.push_back(key_at);
      skip_blank();
      if (!done() && peek() == ',') {
        advance();
        skip_blank();
        if (!done() && peek() == '}') {
          fail("a comma before '}' (trailing commas are not JSON)");
        }
        continue;
      }
      expect('}', "or ',' after an object member");
      return;
    }
  }

  // NOLINTNEXTLINE(misc-no-recursion): through parse_value, bounded by max_depth.
  void parse_array(json_value& v, int depth) {
    v.type = json_value::kind::array;
    advance();  // [
    skip_blank();
    if (!done() && peek() == ']') {
      advance();
      return;
    }
    while (true) {
      skip_blank();
      v.elements.push_back(parse_value(depth + 1));
      skip_blank();
      if (!done() && peek() == ',') {
        advance();
        skip_blank();
        if (!done() && peek() == ']') {
          fail("a comma before ']' (trailing commas are not JSON)");
        }
        continue;
      }
      expect(']', "or ',' after an array element");
      return;
    }
  }

  unsigned read_hex4() {
    unsigned code = 0;
    for (int k = 0; k < 4; ++k) {
      if (done()) {
        fail("the file ends inside a \\u escape");
      }
      const char c = peek();
      unsigned digit;
      if (c >= '0' && c <= '9') {
        digit = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<unsigned>(c - 'A' + 10);
      } else {
        fail("expected a hexadecimal digit in a \\u escape, found " + describe_here());
      }
      code = code * 16 + digit;
      advance();
    }
    return code;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  std::string parse_string() {
    const text_position start = m_at;
    advance();  // opening quote
    std::string out;
    while (true) {
      if (done()) {
        fail_at(start, "the string starting here is not closed");
      }
      const char c = peek();
      if (c == '"') {
        advance();
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("a control character (" + describe_here() + ") inside a string must be escaped");
      }
      if (c != '\\') {
        out.push_back(c);
        advance();
        continue;
      }
      advance();  // backslash
      if (done()) {
        fail_at(start, "the string starting here is not closed");
      }
      const char e = peek();
      const text_position escape_at{m_at.line, m_at.column - 1};
      advance();
      switch (e) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          unsigned code = read_hex4();
          if (code >= 0xD800 && code < 0xDC00) {
            // A high surrogate must be followed by a low one: together they are one character.
            if (m_pos + 1 >= m_text.size() || m_text[m_pos] != '\\' || m_text[m_pos + 1] != 'u') {
              fail_at(escape_at, "a \\u high surrogate without the low surrogate after it");
            }
            advance();
            advance();
            const unsigned low = read_hex4();
            if (low < 0xDC00 || low >= 0xE000) {
              fail_at(escape_at, "a \\u high surrogate followed by something else than a low one");
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          } else if (code >= 0xDC00 && code < 0xE000) {
            fail_at(escape_at, "a \\u low surrogate without a high surrogate before it");
          }
          append_utf8(out, code);
          break;
        }
        default:
          fail_at(escape_at, std::string("'\\") + e + "' is not a JSON escape");
      }
    }
  }

  void parse_number(json_value& v) {
    const std::size_t begin = m_pos;
    const auto digits       = [&] {
      std::size_t count = 0;
      while (!done() && peek() >= '0' && peek() <= '9') {
        advance();
        ++count;
      }
      return count;
    };
    if (peek() == '-') {
      advance();
    }
    if (done() || peek() < '0' || peek() > '9') {
      fail("expected a digit, found " + describe_here());
    }
    if (peek() == '0') {
      advance();
      if (!done() && peek() >= '0' && peek() <= '9') {
        fail_at(v.where, "a number with a leading zero is not JSON");
      }
    } else {
      digits();
    }
    if (!done() && peek() == '.') {
      advance();
      if (digits() == 0) {
        fail("expected a digit after the decimal point, found " + describe_here());
      }
    }
    if (!done() && (peek() == 'e' || peek() == 'E')) {
      advance();
      if (!done() && (peek() == '+' || peek() == '-')) {
        advance();
      }
      if (digits() == 0) {
        fail("expected a digit in the exponent, found " + describe_here());
      }
    }
    v.type               = json_value::kind::number;
    v.text               = std::string(m_text.substr(begin, m_pos - begin));
    const auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), v.number);
    if (ec == std::errc::result_out_of_range &&
        std::fabs(std::strtod(v.text.c_str(), nullptr)) > 1) {
      fail_at(v.where, "the number " + v.text + " is out of range for a double");
    }
    if (ec == std::errc::result_out_of_range) {
      // An underflow reads as the nearest representable value, as Python's float() does.
      v.number = std::strtod(v.text.c_str(), nullptr);
    } else if (ec != std::errc() || end != v.text.data() + v.text.size()) {
      fail_at(v.where, "'" + v.text + "' is not a number");
    }
  }
};

}  // namespace detail

// Parses a whole JSON text; `source` (a file name) prefixes error messages.
inline json_value parse_json(std::string_view text, const std::string& source) {
  return detail::json_parser(text, source).parse_document();
}

inline const char* kind_name(json_value::kind k) {
  switch (k) {
    case json_value::kind::null:
      return "null";
    case json_value::kind::boolean:
      return "a boolean";
    case json_value::kind::number:
      return "a number";
    case json_value::kind::string:
      return "a string";
    case json_value::kind::array:
      return "an array";
    case json_value::kind::object:
      return "an object";
  }
  return "?";
}

}  // namespace loopnest_mfc

#endif
