#include <loopnest/tools/field_compare.hpp>
#include <loopnest/tools/field_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_errors.hpp"

namespace {

using loopnest_test::error_of;
using loopnest_test::expect_mentions;

namespace fs = std::filesystem;

fs::path test_dir() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::path(::testing::TempDir()) / (std::string("loopnest_field_file_") + test->name());
}

// Every test works in a directory of its own under gtest's temporary directory, removed with
// everything in it when the test ends, so that tests neither share nor leave files.
class field_file : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::remove_all(test_dir());
    fs::create_directories(test_dir());
  }
  void TearDown() override { fs::remove_all(test_dir()); }
};

std::string temp_path() {
  return (test_dir() / "field.txt").string();
}

// The names in the test's directory: a write that failed must leave no temporary behind.
std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

std::string write_text(const std::string& text) {
  std::string path = temp_path();
  std::ofstream(path) << text;
  return path;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

bool exists(const std::string& path) {
  return std::ifstream(path).good();
}

std::string read_error(const std::string& path) {
  return error_of<std::runtime_error>([&] { loopnest::read_field_file(path); });
}

// The message of reading `text` names the file and the line, then says `why`.
void expect_read_error(const std::string& text, int line, const std::string& why) {
  const std::string path = write_text(text);
  const std::string msg  = read_error(path);
  expect_mentions(msg, "loopnest::read_field_file: " + path + ":" + std::to_string(line) + ": ");
  expect_mentions(msg, why);
}

TEST_F(field_file, doubles_round_trip_bit_for_bit) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values{0.1,
                                   1.0 / 3.0,
                                   -0.0,
                                   std::nextafter(1.0, 2.0),
                                   std::numeric_limits<double>::denorm_min(),
                                   std::numeric_limits<double>::min(),
                                   std::numeric_limits<double>::max(),
                                   std::numeric_limits<double>::lowest(),
                                   3.141592653589793,
                                   1e-300,
                                   inf,
                                   -inf};
  const std::string path = temp_path();
  loopnest::write_field_file(path, 4, 3, values.data());
  const loopnest::field_data f = loopnest::read_field_file(path);
  EXPECT_EQ(f.nx, 4);
  EXPECT_EQ(f.ny, 3);
  ASSERT_EQ(f.values.size(), values.size());
  EXPECT_TRUE(loopnest::bitwise_equal(f.values.data(), values.data(), values.size()));
}

TEST_F(field_file, floats_round_trip_through_double) {
  const std::vector<float> values{0.1f, 1.0f / 3.0f, -0.0f, 16777217.0f, 1e-40f, 0.5f};
  const std::string path = temp_path();
  loopnest::write_field_file(path, 2, 3, values.data());
  const loopnest::field_data f = loopnest::read_field_file(path);
  ASSERT_EQ(f.values.size(), values.size());
  std::vector<float> back(f.values.begin(), f.values.end());
  EXPECT_TRUE(loopnest::bitwise_equal(back.data(), values.data(), values.size()));
  EXPECT_EQ(f.values[0], static_cast<double>(0.1f)) << "written as the double it converts to";
}

TEST_F(field_file, header_then_one_value_per_line_i_fastest_with_17_digits) {
  // Cell (i, j) of a 3 x 2 grid holds 10 j + i, except 0.1 at (1, 1).
  const std::vector<double> values{0.0, 1.0, 2.0, 10.0, 0.1, 12.0};
  const std::string path = temp_path();
  loopnest::write_field_file(path, 3, 2, values.data());
  const std::vector<std::string> lines = lines_of(path);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], "3 2");
  EXPECT_EQ(lines[1], "0");
  EXPECT_EQ(lines[3], "2");
  EXPECT_EQ(lines[4], "10");
  EXPECT_EQ(lines[5], "0.10000000000000001") << "cell (1, 1) is on line 2 + i + nx j = 6";
}

TEST_F(field_file, a_refused_write_leaves_no_file) {
  const double v[1]      = {0.5};
  const std::string path = temp_path();
  std::remove(path.c_str());
  expect_mentions(error_of([&] { loopnest::write_field_file(path, 0, 4, v); }),
                  "loopnest::write_field_file: nx = 0 but it must be at least 1");
  expect_mentions(error_of([&] { loopnest::write_field_file(path, 4, -1, v); }),
                  "ny = -1 but it must be at least 1");
  expect_mentions(error_of([&] { loopnest::write_field_file<double>(path, 1, 1, nullptr); }),
                  "values is null");
  EXPECT_FALSE(exists(path));
}

TEST_F(field_file, an_unwritable_path_is_refused_before_anything_is_written) {
  const double v[1]  = {0.5};
  const auto refused = [&](const std::string& path) {
    std::string reason = loopnest::field_file_unwritable_reason(path);
    EXPECT_NE(reason, "") << path;
    EXPECT_EQ(error_of([&] { loopnest::write_field_file(path, 1, 1, v); }),
              "loopnest::write_field_file: " + reason);
    return reason;
  };
  const std::string dir = test_dir().string();
  EXPECT_EQ(refused(dir + "/no_such_directory/field.txt"),
            "directory '" + dir + "/no_such_directory' does not exist");
  EXPECT_EQ(refused(dir), "'" + dir + "' is a directory, not a file");
  EXPECT_EQ(refused(dir + "/"), "'" + dir + "/' names a directory, not a file");
  EXPECT_EQ(refused(""), "the file name is empty");
  expect_mentions(refused(dir + "/" + std::string(300, 'f')),
                  "the file name has 300 characters but directory '" + dir + "' allows at most");
  EXPECT_EQ(refused("/dev/null"), "'/dev/null' exists and is not a regular file");
  // Write-protected by its mode: refused even for root, which could write it.
  const std::string protected_file = dir + "/protected.txt";
  std::ofstream(protected_file) << "1 1\n0.25\n";
  fs::permissions(protected_file, fs::perms::owner_read | fs::perms::group_read);
  EXPECT_EQ(refused(protected_file), "'" + protected_file + "' exists and is write-protected");
  EXPECT_EQ(lines_of(protected_file), (std::vector<std::string>{"1 1", "0.25"}));
  EXPECT_EQ(files_in(test_dir()), std::vector<std::string>{"protected.txt"});
  EXPECT_EQ(loopnest::field_file_unwritable_reason(dir + "/fresh.txt"), "");
  EXPECT_EQ(files_in(test_dir()), std::vector<std::string>{"protected.txt"})
      << "the check leaves nothing behind";
}

// Runs f under a file size limit of `bytes`, with the signal a write past it raises ignored so
// that the write fails with EFBIG instead.
template <class F>
void with_file_size_limit(rlim_t bytes, F&& f) {
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited         = old;
  limited.rlim_cur       = bytes;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  f();
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
}

TEST_F(field_file, a_failed_write_leaves_the_old_file_and_no_temporary) {
  const std::string path = temp_path();
  const std::vector<double> old_values{0.25, 0.5};
  loopnest::write_field_file(path, 2, 1, old_values.data());
  const std::vector<double> v(100000, 0.1);
  std::string msg;
  with_file_size_limit(4096, [&] {
    msg = error_of<std::runtime_error>(
        [&] { loopnest::write_field_file(path, 1000, 100, v.data()); });
  });
  EXPECT_EQ(msg, "writing '" + path + "' failed: File too large; the file is as it was before");
  const loopnest::field_data f = loopnest::read_field_file(path);
  EXPECT_EQ(f.nx, 2);
  EXPECT_EQ(f.values, old_values);
  EXPECT_EQ(files_in(test_dir()), std::vector<std::string>{"field.txt"});
}

// A process of this host that no longer runs (a child that has exited and been waited for).
long dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) {
    ::_exit(0);
  }
  ::waitpid(child, nullptr, 0);
  return static_cast<long>(child);
}

// What a process killed while writing left is removed by the next write into the directory; a
// running process's temporary and another host's stay.
TEST_F(field_file, a_write_removes_the_temporaries_of_dead_processes_of_this_host) {
  const std::string host  = loopnest::host_name_for_files();
  const std::string dead  = ".loopnest-" + host + "-" + std::to_string(dead_pid()) + "-0.tmp";
  const std::string live  = ".loopnest-" + host + "-" + std::to_string(::getppid()) + "-0.tmp";
  const std::string other = ".loopnest-another.host-" + std::to_string(dead_pid()) + "-0.tmp";
  for (const std::string& name : {dead, live, other}) {
    std::ofstream(test_dir() / name) << "partial";
  }
  const std::vector<double> v{1.0, 2.0};
  loopnest::write_field_file(temp_path(), 2, 1, v.data());
  std::vector<std::string> left = files_in(test_dir());
  std::sort(left.begin(), left.end());
  std::vector<std::string> expected{live, other, "field.txt"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(left, expected);
}

// Where there was no file, a failed write says that nothing was written, and leaves nothing.
TEST_F(field_file, a_failed_write_of_a_new_file_says_nothing_was_written) {
  const std::string path = temp_path();
  const std::vector<double> v(100000, 0.1);
  std::string msg;
  with_file_size_limit(4096, [&] {
    msg = error_of<std::runtime_error>(
        [&] { loopnest::write_field_file(path, 1000, 100, v.data()); });
  });
  EXPECT_EQ(msg, "writing '" + path + "' failed: File too large; nothing was written");
  EXPECT_EQ(files_in(test_dir()), std::vector<std::string>{});
}

// `where` starts a refusal only: a program that passes its name and prints "name: " before any
// message names itself once. A failed write through a link names the link and its target.
TEST_F(field_file, where_starts_refusals_and_a_failed_write_names_the_link) {
  const fs::path dir = test_dir();
  const auto fill    = [](const auto& write) {
    const std::string text(100000, '1');
    write(text.data(), text.size());
  };
  EXPECT_EQ(error_of([&] { loopnest::write_file_atomically("", fill, "program"); }),
            "program: the file name is empty");
  fs::create_symlink("target.txt", dir / "link");
  const std::string link = (dir / "link").string();
  std::string msg;
  with_file_size_limit(4096, [&] {
    msg = error_of<std::runtime_error>(
        [&] { loopnest::write_file_atomically(link, fill, "program"); });
  });
  EXPECT_EQ(msg, "writing '" + link + "' (a link to '" + dir.string() +
                     "/target.txt') failed: File too large; nothing was written");
  EXPECT_EQ(files_in(dir), std::vector<std::string>{"link"});
}

TEST_F(field_file, a_write_replaces_the_old_file_whole) {
  const std::string path = temp_path();
  const std::vector<double> long_field(50, 0.125), short_field{0.5};
  loopnest::write_field_file(path, 10, 5, long_field.data());
  loopnest::write_field_file(path, 1, 1, short_field.data());
  EXPECT_EQ(lines_of(path), (std::vector<std::string>{"1 1", "0.5"}));
  EXPECT_EQ(files_in(test_dir()), std::vector<std::string>{"field.txt"});
}

// Any text goes through the same atomic write, in pieces; an exception of the filler's own
// leaves the old file and no temporary.
TEST_F(field_file, write_file_atomically_writes_the_pieces_in_order_or_nothing) {
  const std::string path = temp_path();
  loopnest::write_file_atomically(path, [](const auto& write) {
    write("one\n", 4);
    write("two\n", 4);
  });
  EXPECT_EQ(lines_of(path), (std::vector<std::string>{"one", "two"}));
  const std::string msg = error_of<std::logic_error>([&] {
    loopnest::write_file_atomically(path, [](const auto& write) {
      write("three\n", 6);
      throw std::logic_error("the filler gave up");
    });
  });
  EXPECT_EQ(msg, "the filler gave up");
  EXPECT_EQ(lines_of(path), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(files_in(test_dir()), std::vector<std::string>{"field.txt"});
}

// A symbolic link is written through: its target gets the new field and the link stays a link,
// whether the target is relative (to the link's directory) or absolute, and behind a chain.
TEST_F(field_file, a_write_through_a_link_replaces_its_target) {
  const fs::path dir = test_dir();
  fs::create_directory(dir / "data");
  std::ofstream(dir / "data" / "field.txt") << "1 1\n0.25\n";
  fs::create_symlink("data/field.txt", dir / "relative");
  fs::create_symlink(dir / "relative", dir / "chain");
  const std::vector<double> v{0.5};
  for (const char* link : {"relative", "chain"}) {
    loopnest::write_field_file((dir / link).string(), 1, 1, v.data());
    EXPECT_TRUE(fs::is_symlink(dir / link)) << link;
    EXPECT_EQ(loopnest::read_field_file((dir / "data" / "field.txt").string()).values, v) << link;
  }
  EXPECT_EQ(fs::read_symlink(dir / "relative"), "data/field.txt");
  EXPECT_EQ(files_in(dir / "data"), std::vector<std::string>{"field.txt"});
}

TEST_F(field_file, a_write_through_a_dangling_link_creates_its_target) {
  const fs::path dir = test_dir();
  fs::create_directory(dir / "data");
  fs::create_symlink("data/new.txt", dir / "link");
  const std::vector<double> v{0.5, 0.25};
  EXPECT_EQ(loopnest::field_file_unwritable_reason((dir / "link").string()), "");
  loopnest::write_field_file((dir / "link").string(), 2, 1, v.data());
  EXPECT_TRUE(fs::is_symlink(dir / "link"));
  EXPECT_EQ(loopnest::read_field_file((dir / "data" / "new.txt").string()).values, v);
  // A link into a directory that does not exist says where it leads.
  fs::create_symlink("missing/new.txt", dir / "nowhere");
  const std::string nowhere = (dir / "nowhere").string();
  EXPECT_EQ(loopnest::field_file_unwritable_reason(nowhere),
            "'" + nowhere + "' links to '" + dir.string() + "/missing/new.txt': directory '" +
                dir.string() + "/missing' does not exist");
}

TEST_F(field_file, a_loop_of_links_is_refused_and_nothing_is_written) {
  const fs::path dir = test_dir();
  fs::create_symlink("b", dir / "a");
  fs::create_symlink("a", dir / "b");
  fs::create_symlink("self", dir / "self");
  const double v[1] = {0.5};
  for (const char* link : {"a", "self"}) {
    const std::string path = (dir / link).string();
    EXPECT_EQ(error_of<std::invalid_argument>([&] { loopnest::write_field_file(path, 1, 1, v); }),
              "loopnest::write_field_file: '" + path +
                  "' is a loop of symbolic links (more than 40 in a row)");
  }
  std::vector<std::string> names = files_in(dir);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "self"})) << "the links, and nothing else";
  EXPECT_TRUE(fs::is_symlink(dir / "a") && fs::is_symlink(dir / "self"));
}

TEST_F(field_file, blanks_crlf_trailing_blank_lines_and_non_finite_values_are_read) {
  const std::string path       = write_text(" 2\t1 \r\n  0.5\r\n-nan\n\n \n");
  const loopnest::field_data f = loopnest::read_field_file(path);
  EXPECT_EQ(f.nx, 2);
  EXPECT_EQ(f.ny, 1);
  ASSERT_EQ(f.values.size(), 2u);
  EXPECT_EQ(f.values[0], 0.5);
  EXPECT_TRUE(std::isnan(f.values[1]));
}

TEST_F(field_file, a_missing_file_is_named) {
  const std::string path = temp_path();
  std::remove(path.c_str());
  expect_mentions(read_error(path), "loopnest::read_field_file: cannot open '" + path + "'");
}

TEST_F(field_file, a_directory_cannot_be_read) {
  expect_mentions(read_error(::testing::TempDir()), ":1: cannot read the file");
}

TEST_F(field_file, malformed_headers_name_line_1) {
  expect_read_error("", 1, "the file is empty; expected the header 'nx ny'");
  const std::string expected = "expected the header 'nx ny' (two integers of at least 1), found ";
  expect_read_error("4\n1\n", 1, expected + "'4'");
  expect_read_error("4 x\n", 1, expected + "'4 x'");
  expect_read_error("0 3\n", 1, expected + "'0 3'");
  expect_read_error("-2 3\n", 1, expected + "'-2 3'");
  expect_read_error("3 3 3\n", 1, expected + "'3 3 3'");
  expect_read_error("2.5 3\n", 1, expected + "'2.5 3'");
  expect_read_error("99999999999 3\n", 1, expected + "'99999999999 3'");
}

TEST_F(field_file, a_long_bad_line_is_quoted_in_part) {
  expect_read_error(std::string(100, 'x') + "\n", 1, "found '" + std::string(40, 'x') + "...'");
}

TEST_F(field_file, bytes_that_do_not_print_are_shown_as_hex) {
  // A NUL would end the message where it is printed; a byte-order mark would show as nothing.
  expect_read_error(std::string("2 2\n0.5\n0.2\0 5\n", 15), 3, R"('0.2\x00 5' is not a number)");
  expect_read_error(
      "\xEF\xBB\xBF"
      "2 2\n",
      1, R"(found '\xEF\xBB\xBF2 2')");
}

TEST_F(field_file, a_line_without_end_is_refused_without_reading_it_whole) {
  expect_read_error(std::string(5000, '1'), 1, "the line is longer than 4096 characters, found '");
  expect_read_error("1 2\n0.5\n" + std::string(4097, '2') + "\n", 3,
                    "the line is longer than 4096");
  // 4096 characters are still a line.
  const std::string path = write_text("1 1\n" + std::string(4095, ' ') + "1\n");
  EXPECT_EQ(loopnest::read_field_file(path).values, std::vector<double>{1.0});
}

TEST_F(field_file, a_value_that_is_not_a_number_names_its_line) {
  expect_read_error("2 2\n0.5\nabc\n", 3, "'abc' is not a number");
  expect_read_error("2 2\n0.5\n0.25\n1.0x\n", 4, "'1.0x' is not a number");
  expect_read_error("2 2\n0.5 0.25\n", 2, "'0.5 0.25' is not a number");
  expect_read_error("1 1\n1e999\n", 2, "'1e999' is out of range for a double");
}

TEST_F(field_file, too_few_values_name_the_last_line) {
  expect_read_error("2 2\n1\n2\n3\n", 4, "the file ends before value 4 of nx * ny = 4");
  expect_read_error("2 2\n", 1, "the file ends before value 1 of nx * ny = 4");
}

TEST_F(field_file, a_blank_line_where_a_value_is_due_is_an_error) {
  expect_read_error("2 1\n1\n\n2\n", 3, "empty line where value 2 of nx * ny = 2 is due");
}

TEST_F(field_file, too_many_values_name_the_first_extra_line) {
  expect_read_error("1 2\n1\n2\n\n3\n", 5, "more values than nx * ny = 2: found '3'");
}

}  // namespace
