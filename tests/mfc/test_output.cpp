// MFC's serial output byte for byte: Fortran's F edit descriptor, and whole files against the ones
// gfortran writes with s_write_serial_data_files' loops and formats (expected_output.f90). The VTK
// files: their header parsed back, and the appended blocks against the fields' and the grid's
// bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "output.hpp"

#include <unistd.h>

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

// A .vtr file's bytes as write_vtk_text writes them.
template <class Scalar>
std::string vtk_text_of(const grid& g, const int (&offset)[3], const std::vector<vtk_array>& a,
                        double time) {
  std::string out;
  write_vtk_text<Scalar>(g, offset, a, time,
                         [&](const char* data, std::size_t size) { out.append(data, size); });
  return out;
}

// The value of attribute `key` of the element with Name="name", or of the first element `name`
// when `name` starts with '<'.
std::string attribute(const std::string& head, const std::string& name, const std::string& key) {
  const std::size_t at = name[0] == '<' ? head.find(name) : head.find("Name=\"" + name + "\"");
  if (at == std::string::npos) {
    return "(no " + name + ")";
  }
  const std::size_t start = head.rfind('<', at);
  const std::size_t end   = head.find('>', at);
  const std::size_t value = head.find(" " + key + "=\"", start);
  if (value == std::string::npos || value > end) {
    return "(no " + key + " in " + name + ")";
  }
  const std::size_t from = value + key.size() + 3;
  return head.substr(from, head.find('"', from) - from);
}

// The bytes of the appended block of the DataArray named `name`: its UInt64 byte count checked
// against the bytes that follow in the file.
std::string block_of(const std::string& file, const std::string& name) {
  const std::size_t data = file.find('_', file.find("<AppendedData encoding=\"raw\">")) + 1;
  const std::size_t at   = data + std::stoull(attribute(file.substr(0, data), name, "offset"));
  std::uint64_t bytes    = 0;
  EXPECT_LE(at + sizeof(bytes), file.size()) << name;
  if (at + sizeof(bytes) > file.size()) {
    return "";
  }
  std::memcpy(&bytes, file.data() + at, sizeof(bytes));
  EXPECT_LE(at + sizeof(bytes) + bytes, file.size()) << name;
  return file.substr(at + sizeof(bytes), static_cast<std::size_t>(bytes));
}

template <class T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// A field of distinct values, variable v at cell (i, j, k) = 1000 v + 100 k + 10 j + i + 1/3.
host_fields distinct_fields(int nx, int ny, int nz, int nvar) {
  host_fields f(nx, ny, nz, nvar, 0.);
  for (int v = 0; v < nvar; ++v) {
    for (int k = 0; k < nz; ++k) {
      for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
          f(v, i, j, k) = 1000. * v + 100. * k + 10. * j + i + 1. / 3.;
        }
      }
    }
  }
  return f;
}

TEST(mfc_output, vtk_file_holds_the_extents_coordinates_and_field_bytes) {
  for (int num_dims = 1; num_dims <= 3; ++num_dims) {
    SCOPED_TRACE("num_dims = " + std::to_string(num_dims));
    const grid g                        = small_grid(num_dims);
    const int nx                        = 3;
    const int ny                        = num_dims > 1 ? 2 : 1;
    const int nz                        = num_dims > 2 ? 2 : 1;
    const host_fields f                 = distinct_fields(nx, ny, nz, 2);
    const std::vector<vtk_array> arrays = {{"first", &f.values[f.offset(0, 0, 0, 0)]},
                                           {"second", &f.values[f.offset(1, 0, 0, 0)]}};
    const int offset[3]                 = {4, 7, 9};
    const std::string file              = vtk_text_of<double>(g, offset, arrays, 0.25);
    const std::string head              = file.substr(0, file.find("<AppendedData"));
    const std::string extent[3]         = {"4 7 0 0 0 0", "4 7 7 9 0 0", "4 7 7 9 9 11"};
    EXPECT_EQ(attribute(head, "<VTKFile", "type"), "RectilinearGrid");
    EXPECT_EQ(attribute(head, "<VTKFile", "byte_order"), "LittleEndian");
    EXPECT_EQ(attribute(head, "<VTKFile", "header_type"), "UInt64");
    EXPECT_EQ(attribute(head, "<RectilinearGrid", "WholeExtent"), extent[num_dims - 1]);
    EXPECT_EQ(attribute(head, "<Piece", "Extent"), extent[num_dims - 1]);
    EXPECT_NE(head.find("Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">0.25<"),
              std::string::npos);
    EXPECT_EQ(attribute(head, "first", "type"), "Float64");
    // Each variable's cells are contiguous in host_fields, x fastest as VTK orders cells.
    const std::size_t cells = static_cast<std::size_t>(nx) * ny * nz;
    EXPECT_EQ(block_of(file, "first"),
              bytes_of(std::vector<double>(f.values.begin(), f.values.begin() + cells)));
    EXPECT_EQ(block_of(file, "second"),
              bytes_of(std::vector<double>(f.values.begin() + cells, f.values.end())));
    const char* names[3] = {"x", "y", "z"};
    for (int d = 0; d < 3; ++d) {
      std::vector<double> x_cb = {0.};
      if (d < num_dims) {
        x_cb.clear();
        for (int i = -1; i <= g.axis[d].m; ++i) {
          x_cb.push_back(g.axis[d].x_cb(i));
        }
      }
      EXPECT_EQ(attribute(head, names[d], "type"), "Float64");
      EXPECT_EQ(block_of(file, names[d]), bytes_of(x_cb)) << names[d];
    }
    // The last block ends where the closing tags begin.
    const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
    const std::size_t data = file.find('_', file.find("<AppendedData")) + 1;
    const std::size_t end =
        data + std::stoull(attribute(head, "z", "offset")) + 8 + block_of(file, "z").size();
    EXPECT_EQ(file.substr(end), tail);
  }
}

TEST(mfc_output, vtk_file_of_a_single_precision_run_holds_float32) {
  const grid g                        = small_grid(2);
  const host_fields f                 = distinct_fields(3, 2, 1, 1);
  const std::vector<vtk_array> arrays = {{"pres", f.values.data()}};
  const int offset[3]                 = {0, 0, 0};
  const std::string file              = vtk_text_of<float>(g, offset, arrays, 1.);
  EXPECT_EQ(attribute(file, "pres", "type"), "Float32");
  EXPECT_EQ(attribute(file, "x", "type"), "Float64");
  std::vector<float> expected(f.values.begin(), f.values.end());
  EXPECT_EQ(block_of(file, "pres"), bytes_of(expected));
}

TEST(mfc_output, vtk_arrays_have_mfcs_names) {
  case_config c;
  c.num_dims             = 2;
  c.num_fluids           = 2;
  const host_fields cons = distinct_fields(3, 2, 1, c.sys_size());
  const host_fields prim = distinct_fields(3, 2, 1, c.sys_size());
  std::vector<double> rho;
  const std::vector<vtk_array> arrays = vtk_arrays_of(c, cons, prim, rho);
  std::string names;
  for (const vtk_array& a : arrays) {
    names += a.name + " ";
  }
  EXPECT_EQ(names, "alpha_rho1 alpha_rho2 mom1 mom2 E alpha1 alpha2 rho vel1 vel2 pres ");
  ASSERT_EQ(arrays.size(), 11U);
  EXPECT_EQ(arrays[4].values, &cons.values[cons.offset(4, 0, 0, 0)]);   // E
  EXPECT_EQ(arrays[6].values, &cons.values[cons.offset(6, 0, 0, 0)]);   // alpha2
  EXPECT_EQ(arrays[9].values, &prim.values[prim.offset(3, 0, 0, 0)]);   // vel2
  EXPECT_EQ(arrays[10].values, &prim.values[prim.offset(4, 0, 0, 0)]);  // pres
  EXPECT_EQ(arrays[7].values[5], cons(0, 2, 1, 0) + cons(1, 2, 1, 0));
}

TEST(mfc_output, vtk_collection_lists_every_rank_at_each_step_and_time) {
  EXPECT_EQ(vtk_file_name(100, 3), "state.03.000100.vtr");
  EXPECT_EQ(vtk_collection_text({{0, 0.0}, {5, 2.5}}, 2),
            "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" "
            "byte_order=\"LittleEndian\">\n  <Collection>\n"
            "    <DataSet timestep=\"0\" part=\"0\" file=\"state.00.000000.vtr\"/>\n"
            "    <DataSet timestep=\"0\" part=\"1\" file=\"state.01.000000.vtr\"/>\n"
            "    <DataSet timestep=\"2.5\" part=\"0\" file=\"state.00.000005.vtr\"/>\n"
            "    <DataSet timestep=\"2.5\" part=\"1\" file=\"state.01.000005.vtr\"/>\n"
            "  </Collection>\n</VTKFile>\n");
}

TEST(mfc_output, output_formats_are_parsed_by_name) {
  output_format f = output_format::mfc;
  EXPECT_TRUE(parse_output_format("both", f));
  EXPECT_EQ(f, output_format::both);
  EXPECT_TRUE(writes_mfc(f) && writes_vtk(f));
  EXPECT_TRUE(parse_output_format("vtk", f));
  EXPECT_TRUE(!writes_mfc(f) && writes_vtk(f));
  EXPECT_FALSE(parse_output_format("VTK", f));
  EXPECT_EQ(f, output_format::vtk);
  EXPECT_TRUE(parse_output_format("mfc", f));
  EXPECT_TRUE(writes_mfc(f) && !writes_vtk(f) && !writes_binary(f));
  EXPECT_TRUE(parse_output_format("binary", f));
  EXPECT_TRUE(!writes_mfc(f) && !writes_vtk(f) && writes_binary(f));
}

// The records of a Fortran unformatted sequential file: each 4-byte marker checked against the
// one after the record.
std::vector<std::string> fortran_records(const std::string& path) {
  const std::string bytes = file_text(path);
  std::vector<std::string> records;
  for (std::size_t at = 0; at < bytes.size();) {
    std::int32_t head = 0, tail = -1;
    EXPECT_LE(at + 4, bytes.size()) << path;
    std::memcpy(&head, bytes.data() + at, 4);
    const std::size_t end = at + 4 + static_cast<std::size_t>(head);
    EXPECT_LE(end + 4, bytes.size()) << path;
    if (head < 0 || end + 4 > bytes.size()) {
      break;
    }
    std::memcpy(&tail, bytes.data() + end, 4);
    EXPECT_EQ(head, tail) << path;
    records.push_back(bytes.substr(at + 4, static_cast<std::size_t>(head)));
    at = end + 4;
  }
  return records;
}

TEST(mfc_output, serial_binary_files_are_one_fortran_record_each) {
  char dir[] = "/tmp/loopnest_mfc_binaryXXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const grid g                           = small_grid(2);
  const host_fields f                    = distinct_fields(3, 2, 1, 2);
  const std::vector<std::string> written = write_serial_binary_files<double>(dir, g, f, 7, 1);
  const std::string step                 = std::string(dir) + "/p_all/p1/7/";
  EXPECT_EQ(written, (std::vector<std::string>{step + "x_cb.dat", step + "y_cb.dat",
                                               step + "q_cons_vf1.dat", step + "q_cons_vf2.dat"}));
  for (int d = 0; d < 2; ++d) {
    std::vector<double> x_cb;
    for (int i = -1; i <= g.axis[d].m; ++i) {
      x_cb.push_back(g.axis[d].x_cb(i));
    }
    EXPECT_EQ(fortran_records(written[d]), std::vector<std::string>{bytes_of(x_cb)});
  }
  EXPECT_EQ(fortran_records(written[2]), std::vector<std::string>{bytes_of(std::vector<double>(
                                             f.values.begin(), f.values.begin() + 6))});
  EXPECT_EQ(fortran_records(written[3]), std::vector<std::string>{bytes_of(std::vector<double>(
                                             f.values.begin() + 6, f.values.end()))});
  // Single precision: MFC's wp is the run's.
  const std::vector<std::string> single = write_serial_binary_files<float>(dir, g, f, 8);
  EXPECT_EQ(
      fortran_records(single[3]),
      std::vector<std::string>{bytes_of(std::vector<float>(f.values.begin() + 6, f.values.end()))});
  for (const std::vector<std::string>* files : {&written, &single}) {
    for (const std::string& path : *files) {
      std::remove(path.c_str());
    }
  }
  for (const char* sub : {"/p_all/p1/7", "/p_all/p1", "/p_all/p0/8", "/p_all/p0", "/p_all", ""}) {
    ::rmdir((std::string(dir) + sub).c_str());
  }
}

}  // namespace
