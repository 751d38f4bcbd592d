// loopnest::write_field_file and read_field_file: a 2D field as text, the file the diffusion tools
// write and loopnest-compare reads. Host code of the tools' layer, POSIX file calls.
#ifndef LOOPNEST_TOOLS_FIELD_FILE_HPP
#define LOOPNEST_TOOLS_FIELD_FILE_HPP

#include <loopnest/detail/error.hpp>
#include <loopnest/tools/precision.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
    throw_invalid_argument(
        where, std::string(name) + " = " + std::to_string(value) + " but it must be at least 1");
  }
}

[[noreturn]] inline void throw_file_error(const std::string& path, std::int64_t line,
                                          const std::string& why) {
  throw std::runtime_error("loopnest::read_field_file: " + path + ":" + std::to_string(line) +
                           ": " + why);
}

// The text in quotes, cut short so that a binary file does not make a message of megabytes, with
// every byte that is not printable ASCII as \xHH: a NUL would end the message where it is
// printed, and a byte-order mark would show as nothing.
inline std::string quoted(std::string_view text) {
  constexpr std::size_t longest = 40;
  constexpr const char* hex     = "0123456789ABCDEF";
  std::string out               = "'";
  for (const char c : text.substr(0, longest)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(c);
    } else {
      out += {'\\', 'x', hex[byte >> 4], hex[byte & 15]};
    }
  }
  return out + (text.size() > longest ? "...'" : "'");
}

// No line of a field file is longer: a value takes at most 24 characters, so a longer line is
// not a field file, and reading on would read a file without newlines whole.
inline constexpr std::streamsize longest_field_line = 4096;

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

// This host's name as a file name takes it (letters, digits and dots; anything else '_'): what
// tells this host's temporaries from those other hosts write into a shared directory.
inline std::string host_name_for_files() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) {
    return "host";
  }
  std::string out = name;
  for (char& ch : out) {
    const bool plain = std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '.';
    ch               = plain ? ch : '_';
  }
  return out;
}

// The process named in `name` = PREFIX + PID [+ "-" ...] if it ran on this host (PREFIX names
// the host) and has ended: its PID; 0 for this process, one that still runs, or a name of another
// shape. What a leftover of a killed writer is told by.
inline long ended_writer(const std::string& name, const std::string& prefix) {
  if (name.compare(0, prefix.size(), prefix) != 0) {
    return 0;
  }
  const std::size_t end = std::min(name.find('-', prefix.size()), name.size());
  const std::string pid = name.substr(prefix.size(), end - prefix.size());
  if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos) {
    return 0;
  }
  const long id    = std::stol(pid);
  const bool ended = id != static_cast<long>(::getpid()) &&
                     ::kill(static_cast<pid_t>(id), 0) != 0 && errno == ESRCH;
  return ended ? id : 0;
}

namespace Impl {

inline std::string parent_directory(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// The start of the temporaries this host's processes write: ".loopnest-HOST-".
inline std::string temporary_prefix() {
  return ".loopnest-" + host_name_for_files() + "-";
}

// Removes the temporaries in `dir` that processes of this host left when they died while
// writing (".loopnest-HOST-PID-N.tmp" of a PID that no longer runs); another host's, and a
// running process's, stay.
inline void remove_stale_temporaries(const std::string& dir) {
  const std::string prefix = temporary_prefix();
  DIR* d                   = ::opendir(dir.c_str());
  if (d == nullptr) {
    return;
  }
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 4 || name.compare(name.size() - 4, 4, ".tmp") != 0 ||
        ended_writer(name, prefix) == 0) {
      continue;
    }
    std::string path = dir;
    path.append("/").append(name);
    struct ::stat st;
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      ::unlink(path.c_str());
    }
  }
  ::closedir(d);
}

// A file in `dir` under a name no other writer uses (".loopnest-HOST-PID-N.tmp"), created with
// the permissions a new file gets (0666 less the umask); -1 with errno set when the directory
// takes no new file.
inline int create_temporary(const std::string& dir, std::string& name) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = dir + "/" + temporary_prefix() + std::to_string(::getpid()) + "-" +
           std::to_string(counter++) + ".tmp";
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) {
      return fd;
    }
  }
  return -1;
}

inline std::string errno_text(int error) {
  return std::error_code(error, std::generic_category()).message();
}

// Writes all of text to fd, through short writes and interrupted calls.
inline bool write_all(int fd, const char* text, std::size_t size) {
  while (size > 0) {
    const ::ssize_t n = ::write(fd, text, size);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    text += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Links followed in a row before the chain counts as a loop: Linux's own limit (MAXSYMLINKS).
inline constexpr int most_symbolic_links = 40;

// `path` with the symbolic links of its last component followed, a relative target being
// relative to the link's directory, so that a write replaces the link's target and the link
// stays; a dangling link gives the path its target will have. Empty for a chain of more than
// most_symbolic_links links (a loop).
inline std::string link_target(const std::string& path) {
  std::string target = path;
  for (int links = 0; links <= most_symbolic_links; ++links) {
    struct ::stat st;
    if (::lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      return target;
    }
    std::string link(PATH_MAX, '\0');
    const ::ssize_t n = ::readlink(target.c_str(), link.data(), link.size());
    if (n <= 0) {
      return target;
    }
    link.resize(static_cast<std::size_t>(n));
    const std::size_t slash = target.find_last_of('/');
    if (link[0] == '/' || slash == std::string::npos) {
      target = link;
    } else {
      target.resize(slash + 1);
      target += link;
    }
  }
  return "";
}

// Why a field file cannot be written at `path`, which is no symbolic link, or "" when it can
// (field_file_unwritable_reason).
inline std::string unwritable_reason(const std::string& path) {
  if (path.back() == '/') {
    return "'" + path + "' names a directory, not a file";
  }
  const std::string dir = parent_directory(path);
  struct ::stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return "directory '" + dir + "' does not exist";
  }
  const std::string name = path.substr(path.find_last_of('/') + 1);
  const long name_max    = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name_max > 0 && static_cast<long>(name.size()) > name_max) {
    return "the file name has " + std::to_string(name.size()) + " characters but directory '" +
           dir + "' allows at most " + std::to_string(name_max);
  }
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return "'" + path + "' is a directory, not a file";
    }
    if (!S_ISREG(st.st_mode)) {
      return "'" + path + "' exists and is not a regular file";
    }
    if ((st.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0) {
      return "'" + path + "' exists and is write-protected";
    }
  }
  std::string probe;
  const int fd = create_temporary(dir, probe);
  if (fd < 0) {
    return "directory '" + dir + "' does not take a new file (" + errno_text(errno) + ")";
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

// Where a write to `path` lands (link_target), and in `reason` why a field file cannot be
// written there, or "" when it can (field_file_unwritable_reason).
inline std::string writable_target(const std::string& path, std::string& reason) {
  if (path.empty()) {
    reason = "the file name is empty";
    return path;
  }
  std::string target = link_target(path);
  if (target.empty()) {
    reason = "'" + path + "' is a loop of symbolic links (more than " +
             std::to_string(most_symbolic_links) + " in a row)";
    return path;
  }
  reason = unwritable_reason(target);
  if (!reason.empty() && target != path) {
    reason = "'" + path + "' links to '" + target + "': " + reason;
  }
  return target;
}

}  // namespace Impl

// Why a field file cannot be written at `path`, or "" when it can: the name must not be empty nor
// end in '/', the directory must exist and take a new file (checked by creating and removing one),
// the name must fit the file system, and an existing file must be a regular file that is not
// write-protected (no write bit in its mode, which write_field_file honours even for root, as it
// replaces the file rather than writing into it). A symbolic link is followed to its target,
// which these conditions are then about (a dangling link's target need not exist); a loop of
// links is refused. The tools ask this before a run, so that a long run does not end in a
// refused write.
inline std::string field_file_unwritable_reason(const std::string& path) {
  std::string reason;
  Impl::writable_target(path, reason);
  return reason;
}

// Writes a file atomically: into a new file in the same directory, flushed to the disk, then
// renamed over `path`. A reader sees the old file or the whole new one; a failed write (a full
// disk, a file size limit) removes the new file and leaves the old one as it was, and a process
// killed while writing leaves at most a hidden `.loopnest-HOST-PID-N.tmp` beside it, which the
// next write into that directory on the same host removes. A symbolic link
// at `path` is written through: its target is replaced (a dangling link's target is created)
// and the link stays. The contents come from fill(write): fill calls write(data, size) with the
// pieces in order, so that a large file need not be held in memory whole; an exception fill
// throws is let through. Errors:
// - std::invalid_argument "WHERE: REASON", before anything is created, for a path that
//   field_file_unwritable_reason refuses (a loop of links included). `where` names the calling
//   function, as in every loopnest refusal, not a program.
// - std::runtime_error "writing 'PATH' failed: WHY; the file is as it was before" when a write
//   fails ("creating", "flushing", "closing" or "replacing" for the other steps), ending
//   "; nothing was written" instead when there was no file. PATH is the path as given, followed
//   by " (a link to 'TARGET')" for a link, and never the new file's name. The message does not
//   start with `where`, so that a program printing "program: " before it names itself once.
template <class Fill>
void write_file_atomically(const std::string& path, Fill&& fill,
                           const char* where = "loopnest::write_file_atomically") {
  std::string refused;
  const std::string target = Impl::writable_target(path, refused);
  if (!refused.empty()) {
    Impl::throw_invalid_argument(where, refused);
  }
  struct ::stat st;
  const bool existed = ::stat(target.c_str(), &st) == 0;
  const std::string name =
      "'" + path + "'" + (target == path ? "" : " (a link to '" + target + "')");
  const auto error = [&](const char* what, int number) {
    return std::runtime_error(
        std::string(what) + " " + name + " failed: " + Impl::errno_text(number) +
        (existed ? "; the file is as it was before" : "; nothing was written"));
  };
  std::string temporary;
  Impl::remove_stale_temporaries(Impl::parent_directory(target));
  const int fd = Impl::create_temporary(Impl::parent_directory(target), temporary);
  if (fd < 0) {
    throw error("creating", errno);
  }
  bool released   = false;
  const auto fail = [&](const char* what) {
    const int number = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    released = true;
    throw error(what, number);
  };
  const auto write = [&](const char* data, std::size_t size) {
    if (!Impl::write_all(fd, data, size)) {
      fail("writing");
    }
  };
  try {
    fill(write);
  } catch (...) {
    // An exception of fill's own leaves no temporary either (a failed write has removed it).
    if (!released) {
      ::close(fd);
      ::unlink(temporary.c_str());
    }
    throw;
  }
  if (::fsync(fd) != 0) {
    fail("flushing");
  }
  if (::close(fd) != 0) {
    const int number = errno;
    ::unlink(temporary.c_str());
    throw error("closing", number);
  }
  if (::rename(temporary.c_str(), target.c_str()) != 0) {
    const int number = errno;
    ::unlink(temporary.c_str());
    throw error(existed ? "replacing" : "creating", number);
  }
}

// Makes a write past the file size limit (ulimit -f) fail with EFBIG, which write_file_atomically
// reports as a failed write and cleans up after, instead of letting SIGXFSZ kill the process and
// leave the new file behind. For a program's main, before it writes: the signal's disposition is
// the whole process's.
inline void ignore_file_size_signal() {
  std::signal(SIGXFSZ, SIG_IGN);
}

// Writes a field file atomically (write_file_atomically). std::invalid_argument
// "loopnest::write_field_file: ...", before anything is created, for nx or ny below 1, a null
// `values` or a path that field_file_unwritable_reason refuses; write_file_atomically's
// std::runtime_error when a write, the flush or the rename fails.
template <class T>
void write_field_file(const std::string& path, int nx, int ny, const T* values) {
  static_assert(Impl::is_fp32_or_fp64_v<T>,
                "loopnest::write_field_file: the scalar type must be float or double.");
  constexpr const char* where = "loopnest::write_field_file";
  Impl::check_field_extent(where, "nx", nx);
  Impl::check_field_extent(where, "ny", ny);
  if (values == nullptr) {
    Impl::throw_invalid_argument(where, "values is null");
  }
  const auto fill = [&](const auto& write) {
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
        write(buffer.data(), buffer.size());
        buffer.clear();
      }
    }
  };
  write_file_atomically(path, fill, where);
}

// Reads a field file. Errors are std::runtime_error messages "loopnest::read_field_file:
// PATH:LINE: why" (LINE 1-based): a file that cannot be opened or read, a header that is not two
// integers of at least 1, a value that is not a number, fewer or more than nx * ny values. A
// value is whatever std::from_chars reads as a double, so "inf" and "nan" are numbers: checking
// that a field is finite is the caller's (a comparison counts NaN cells as failures). Blank lines
// after the last value are ignored; a blank line where a value is due is an error, and so is a
// line longer than 4096 characters (found without reading past it).
inline field_data read_field_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("loopnest::read_field_file: cannot open '" + path + "' for reading");
  }
  std::string buffer(static_cast<std::size_t>(Impl::longest_field_line) + 1, '\0');
  std::string_view line;
  std::int64_t line_number = 0;
  const auto next_line     = [&] {
    in.getline(buffer.data(), Impl::longest_field_line + 1);
    // A directory opens but cannot be read; that sets badbit, not just eof.
    if (in.bad()) {
      Impl::throw_file_error(path, line_number + 1, "cannot read the file");
    }
    const std::streamsize got = in.gcount();
    if (in.fail() && !in.eof()) {
      Impl::throw_file_error(path, line_number + 1,
                                 "the line is longer than " + std::to_string(Impl::longest_field_line) +
                                     " characters, found " +
                                     Impl::quoted(std::string_view(buffer.data(), 64)));
    }
    if (got == 0 && in.eof()) {
      return false;
    }
    ++line_number;
    // gcount counts the newline, which getline does not store.
    line = std::string_view(buffer.data(), static_cast<std::size_t>(in.eof() ? got : got - 1));
    return true;
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
