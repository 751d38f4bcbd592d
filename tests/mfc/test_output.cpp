// MFC's serial output byte for byte: Fortran's F edit descriptor, and whole files against the ones
// gfortran writes with s_write_serial_data_files' loops and formats (expected_output.f90).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "output.hpp"

namespace {

using namespace loopnest_mfc;

const std::string data_dir = LOOPNEST_MFC_TEST_DATA;

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(mfc_output, the_f_edit_descriptor_is_gfortrans) {
  EXPECT_EQ(fortran_f(0.5, 40, 14), std::string(24, ' ') + "0.50000000000000");
  EXPECT_EQ(fortran_f(-0.0, 40, 14), std::string(23, ' ') + "-0.00000000000000");
  EXPECT_EQ(fortran_f(-1e-20, 40, 14), std::string(23, ' ') + "-0.00000000000000");
  EXPECT_EQ(fortran_f(1.0 / 32768, 40, 14), std::string(24, ' ') + "0.00003051757812");
  EXPECT_EQ(fortran_f(0.0625, 30, 3), std::string(25, ' ') + "0.062");
  EXPECT_EQ(fortran_f(1e30, 40, 14), std::string(40, '*'));
  EXPECT_EQ(fortran_f(-1e24, 40, 14), "-999999999999999983222784.00000000000000");
  EXPECT_EQ(fortran_f(0.5, 4, 3), ".500");
  EXPECT_EQ(fortran_f(-0.5, 4, 3), "****");
  EXPECT_EQ(fortran_f(1.0 / 0.0, 40, 14), std::string(32, ' ') + "Infinity");
  EXPECT_EQ(fortran_f(-1.0 / 0.0, 40, 14), std::string(31, ' ') + "-Infinity");
  EXPECT_EQ(fortran_f(std::nan(""), 40, 14), std::string(37, ' ') + "NaN");
}

TEST(mfc_output, file_names_are_mfcs) {
  EXPECT_EQ(serial_file_name("cons", 3, 0), "cons.3.00.000000.dat");
  EXPECT_EQ(serial_file_name("prim", 12, 4500), "prim.12.00.004500.dat");
}

// The grid and values of expected_output.f90.
const double table[12] = {1. / 3., -1.e-20, 2.5e6,  -0.,    123.456,     -7. / 3.,
                          1.e25,   0.1,     -1.e24, 5.e-15, 1. / 32768., -2.};

grid small_grid(int num_dims) {
  grid g;
  g.num_dims          = num_dims;
  const double beg[3] = {0., 0., -1.}, end[3] = {0.75, 1., 0.};
  const int m[3] = {2, 1, 1};
  for (int d = 0; d < 3; ++d) {
    axis_config a;
    a.cells_minus_one = d < num_dims ? m[d] : 0;
    a.beg             = beg[d];
    a.end             = end[d];
    g.axis[d]         = generate_axis(a, 4);
  }
  return g;
}

std::string text_of(const grid& g, int precision, const host_fields& f) {
  std::string out;
  write_serial_text(g, precision, f, 0,
                    [&](const char* data, std::size_t size) { out.append(data, size); });
  return out;
}

TEST(mfc_output, files_match_gfortrans_byte_for_byte) {
  const grid g1 = small_grid(1);
  host_fields f1(3, 1, 1, 1, 0.);
  for (int i = 0; i < 3; ++i) {
    f1(0, i, 0, 0) = table[i];
  }
  EXPECT_EQ(text_of(g1, 2, f1), file_text(data_dir + "/expected_1d.dat"));
  EXPECT_EQ(text_of(g1, 1, f1), file_text(data_dir + "/expected_1d_precision_1.dat"));

  const grid g2 = small_grid(2);
  host_fields f2(3, 2, 1, 1, 0.);
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 2; ++k) {
      f2(0, j, k, 0) = table[j + 3 * k];
    }
  }
  EXPECT_EQ(text_of(g2, 2, f2), file_text(data_dir + "/expected_2d.dat"));

  const grid g3 = small_grid(3);
  host_fields f3(3, 2, 2, 1, 0.);
  for (int j = 0; j < 3; ++j) {
    for (int k = 0; k < 2; ++k) {
      for (int l = 0; l < 2; ++l) {
        f3(0, j, k, l) = table[(j + 3 * k + 6 * l) % 12];
      }
    }
  }
  EXPECT_EQ(text_of(g3, 2, f3), file_text(data_dir + "/expected_3d.dat"));
}

// run_time.inf as gfortran writes MFC's statements (expected_output.f90): the header, with the
// en dashes of MFC's source, and rows of I9 and F10.6 past their widths.
TEST(mfc_output, run_time_information_matches_gfortrans_byte_for_byte) {
  std::string text = run_time_information_header("20261205");
  for (int i = 0; i <= 4; ++i) {
    text += run_time_information_row(i, std::fabs(table[i]) * 1.e-3, table[i + 5],
                                     std::fabs(table[i + 7]));
  }
  text += run_time_information_row(1234567890, 1.e-9, 1234.5, -0.0);
  EXPECT_EQ(text, file_text(data_dir + "/expected_run_time.inf"));
}

// The file: the header's ten lines, then a row for each step written, each flushed as written.
TEST(mfc_output, run_time_information_file_has_the_header_and_a_row_per_step) {
  const std::string path = ::testing::TempDir() + "/run_time_information_test.inf";
  {
    run_time_information file(path);
    for (int step = 0; step < 3; ++step) {
      file.write_row(step, 1.e-3, 1.e-3 * (step + 1), 0.5);
      EXPECT_EQ(
          file_text(path).find(run_time_information_row(step, 1.e-3, 1.e-3 * (step + 1), 0.5)),
          file_text(path).size() - 92)
          << step;
    }
  }
  std::istringstream lines(file_text(path));
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) {
    all.push_back(line);
  }
  ASSERT_EQ(all.size(), 13u);
  EXPECT_EQ(all[0].rfind("Description: Stability information", 0), 0u);
  EXPECT_EQ(all[6].rfind("Date: ", 0), 0u);
  EXPECT_EQ(all[9], std::string(13, ' ') + "Time-step" + std::string(21, ' ') + "dt" +
                        std::string(19, ' ') + "Time" + std::string(15, ' ') + "ICFL Max");
  EXPECT_EQ(all[12], std::string(21, ' ') + "2" + std::string(15, ' ') + "0.001000" +
                         std::string(15, ' ') + "0.003000" + std::string(15, ' ') + "0.500000");
  std::remove(path.c_str());
  // A file that cannot be made is named.
  try {
    run_time_information bad("/nonexistent-directory/run_time.inf");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'/nonexistent-directory/run_time.inf'"),
              std::string::npos);
  }
}

}  // namespace
