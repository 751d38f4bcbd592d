// loopnest::write_field_file and read_field_file: a 2D field as text, the file the diffusion tools
// write and loopnest-compare reads. Host code only.
#ifndef LOOPNEST_FIELD_FILE_HPP
#define LOOPNEST_FIELD_FILE_HPP

#include <loopnest/field_compare.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace loopnest {

// The format: line 1 is "nx ny"; then nx * ny lines of one value each, i fastest (cell (i, j),
// 0-based, is on line 2 + i + nx * j), printed with 17 significant digits so that a double reads
// back bit for bit. Values are in double whatever precision wrote them.
struct field_data {
  int nx;
  int ny;
  std::vector<double> values;
};

namespace Impl {

inline void check_field_extent(const char* where, const char* name, int value) {
  if (value < 1) {
    throw std::invalid_argument(std::string(where) + ": " + name + " = " + std::to_string(value) +
                                " but it must be at least 1");
  }
}

[[noreturn]] inline void throw_file_error(const std::string& path, std::int64_t line,
                                          const std::string& why) {
  throw std::runtime_error("loopnest::read_field_file: " + path + ":" + std::to_string(line) +
                           ": " + why);
}

// The text in quotes, cut short so that a binary file does not make a message of megabytes.
inline std::string quoted(std::string_view text) {
  constexpr std::size_t longest = 40;
  return "'" + std::string(text.substr(0, longest)) + (text.size() > longest ? "...'" : "'");
}

inline std::string_view trimmed(std::string_view text) {
  constexpr const char* blank = " \t\r";
  const std::size_t first     = text.find_first_not_of(blank);
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(blank) - first + 1);
}

// The header "nx ny": two integers of at least 1 separated by blanks, nothing else.
inline bool parse_header(std::string_view text, int& nx, int& ny) {
  const char* p         = text.data();
  const char* const end = p + text.size();
  for (int* extent : {&nx, &ny}) {
    while (p != end && (*p == ' ' || *p == '\t')) {
      ++p;
    }
    const auto [next, ec] = std::from_chars(p, end, *extent);
    if (ec != std::errc() || next == p || *extent < 1) {
      return false;
    }
    p = next;
  }
  return trimmed(std::string_view(p, static_cast<std::size_t>(end - p))).empty();
}

}  // namespace Impl

// Writes the file only after checking the arguments (nx, ny >= 1, values not null:
// std::invalid_argument), so that a refused call leaves no file behind. Throws std::runtime_error
// naming the path when the file cannot be opened or written; a failed write may leave a partial
// file.
template <class T>
void write_field_file(const std::string& path, int nx, int ny, const T* values) {
  static_assert(Impl::is_fp32_or_fp64_v<T>,
                "loopnest::write_field_file: the scalar type must be float or double.");
  constexpr const char* where = "loopnest::write_field_file";
  Impl::check_field_extent(where, "nx", nx);
  Impl::check_field_extent(where, "ny", ny);
  if (values == nullptr) {
    throw std::invalid_argument(std::string(where) + ": values is null");
  }
  std::ofstream out(path);
  if (!out) {
    throw std::runtime_error(std::string(where) + ": cannot open '" + path + "' for writing");
  }
  // std::to_chars, unlike a stream, ignores the locale and is several times faster on the
  // hundreds of millions of values of a large grid.
  std::string buffer  = std::to_string(nx) + ' ' + std::to_string(ny) + '\n';
  const std::size_t n = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  for (std::size_t k = 0; k < n; ++k) {
    char text[32];
    char* const end = std::to_chars(text, text + sizeof(text), static_cast<double>(values[k]),
                                    std::chars_format::general, 17)
                          .ptr;
    buffer.append(text, end).push_back('\n');
    if (buffer.size() >= (std::size_t(1) << 16) || k + 1 == n) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  if (!out.flush()) {
    throw std::runtime_error(std::string(where) + ": writing '" + path + "' failed");
  }
}

// Reads a field file. Errors are std::runtime_error messages "loopnest::read_field_file:
// PATH:LINE: why" (LINE 1-based): a file that cannot be opened or read, a header that is not two
// integers of at least 1, a value that is not a number, fewer or more than nx * ny values. A
// value is whatever std::from_chars reads as a double, so "inf" and "nan" are numbers: checking
// that a field is finite is the caller's (a comparison counts NaN cells as failures). Blank lines
// after the last value are ignored; a blank line where a value is due is an error.
inline field_data read_field_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("loopnest::read_field_file: cannot open '" + path + "' for reading");
  }
  std::string line;
  std::int64_t line_number = 0;
  // A directory opens but cannot be read; that sets badbit, not just eof.
  const auto next_line = [&] {
    if (std::getline(in, line)) {
      ++line_number;
      return true;
    }
    if (in.bad()) {
      Impl::throw_file_error(path, line_number + 1, "cannot read the file");
    }
    return false;
  };

  field_data field{0, 0, {}};
  if (!next_line()) {
    Impl::throw_file_error(path, 1, "the file is empty; expected the header 'nx ny'");
  }
  if (!Impl::parse_header(line, field.nx, field.ny)) {
    Impl::throw_file_error(
        path, 1,
        "expected the header 'nx ny' (two integers of at least 1), found " + Impl::quoted(line));
  }
  const std::int64_t count = std::int64_t(field.nx) * field.ny;
  const auto due           = [&] {
    return "value " + std::to_string(field.values.size() + 1) +
           " of nx * ny = " + std::to_string(count);
  };
  while (static_cast<std::int64_t>(field.values.size()) < count) {
    if (!next_line()) {
      Impl::throw_file_error(path, line_number, "the file ends before " + due());
    }
    const std::string_view text = Impl::trimmed(line);
    if (text.empty()) {
      Impl::throw_file_error(path, line_number, "empty line where " + due() + " is due");
    }
    double value          = 0.0;
    const auto [next, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) {
      Impl::throw_file_error(path, line_number,
                             Impl::quoted(text) + " is out of range for a double");
    }
    if (ec != std::errc() || next != text.data() + text.size()) {
      Impl::throw_file_error(path, line_number, Impl::quoted(text) + " is not a number");
    }
    field.values.push_back(value);
  }
  while (next_line()) {
    if (!Impl::trimmed(line).empty()) {
      Impl::throw_file_error(path, line_number,
                             "more values than nx * ny = " + std::to_string(count) + ": found " +
                                 Impl::quoted(Impl::trimmed(line)));
    }
  }
  return field;
}

}  // namespace loopnest

#endif
