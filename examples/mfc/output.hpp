// loopnest_mfc::write_serial_data_files: MFC's serial text output D/cons.<v>.<rank>.<step>.dat
// (and D/prim.*) for the interior cells, byte for byte as simulation writes it
// (src/simulation/m_data_output.fpp @d91cb687, s_write_serial_data_files): the right cell boundary
// x_cb(j) (and y_cb(k), z_cb(l)) then the value, each in Fortran's F40.14 (precision 2) or
// F30.3/F30.7 (precision 1), x outermost. Each file is written atomically.
// loopnest_mfc::write_vtk_file and write_vtk_collection: the same state as VTK XML files that
// ParaView opens, D/state.<rank>.<step>.vtr (a rectilinear grid of the cells, one array per
// variable under MFC's post_process names) and D/state.pvd (the saved steps and their times).
#ifndef LOOPNEST_MFC_OUTPUT_HPP
#define LOOPNEST_MFC_OUTPUT_HPP

#include "case.hpp"
#include "grid.hpp"
#include "patches.hpp"

#include <loopnest/tools/field_file.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/stat.h>

namespace loopnest_mfc {

// Fortran's Fw.d edit descriptor as gfortran writes it: right-justified in w characters, d
// decimals rounded to nearest (ties to even on the exact binary value, as printf does), a minus
// sign whenever the sign bit is set (-0.0 and values that round to zero included), the leading
// zero dropped when only that makes the number fit, w asterisks when nothing does, and NaN,
// Infinity and -Infinity right-justified.
inline std::string fortran_f(double value, int width, int decimals) {
  std::string text;
  if (std::isnan(value)) {
    text = "NaN";
  } else if (std::isinf(value)) {
    text = value < 0 ? (width >= 9 ? "-Infinity" : "-Inf") : (width >= 8 ? "Infinity" : "Inf");
  } else {
    char buffer[400];
    std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
    text = buffer;
    if (static_cast<int>(text.size()) > width) {
      if (text.compare(0, 2, "0.") == 0) {
        text.erase(0, 1);
      } else if (text.compare(0, 3, "-0.") == 0) {
        text.erase(1, 1);
      }
    }
  }
  if (static_cast<int>(text.size()) > width) {
    // Fortran fills a field too narrow for its value with asterisks.
    std::string stars(static_cast<std::size_t>(width), '*');
    return stars;
  }
  return std::string(static_cast<std::size_t>(width) - text.size(), ' ') + text;
}

// The edit descriptor of one column: F40.14 with precision 2; F30.3 in 1D and F30.7 in 2D and 3D
// with precision 1 (MFC's FMT strings "(2F30.3)", "(3F30.7)", "(4F30.7)", "(nF40.14)").
struct column_format {
  int width, decimals;
};

inline column_format column_format_of(int precision, int num_dims) {
  if (precision == 1) {
    return {30, num_dims == 1 ? 3 : 7};
  }
  return {40, 14};
}

// MFC's file name: '(A,I0,A,I2.2,A,I6.6,A)' with the writing rank, e.g. "cons.3.00.000100.dat".
inline std::string serial_file_name(const std::string& kind, int variable, int step, int rank = 0) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%s.%d.%02d.%06d.dat", kind.c_str(), variable, rank, step);
  return buffer;
}

// The text of one variable's file, handed to `write` in pieces: lines of the cell's upper
// boundaries and the value, x outermost; an empty record (Fortran's write(2, *)) after each y
// row in 2D, and after each z column and each y row in 3D.
template <class Write>
void write_serial_text(const grid& g, int precision, const host_fields& f, int variable,
                       const Write& write) {
  const column_format fmt = column_format_of(precision, g.num_dims);
  std::string buffer;
  const auto flush = [&](bool force) {
    if (force || buffer.size() >= (std::size_t(1) << 16)) {
      write(buffer.data(), buffer.size());
      buffer.clear();
    }
  };
  const auto field = [&](double v) { buffer += fortran_f(v, fmt.width, fmt.decimals); };
  for (int j = 0; j <= g.axis[0].m; ++j) {
    if (g.num_dims == 1) {
      field(g.axis[0].x_cb(j));
      field(f(variable, j, 0, 0));
      buffer += '\n';
      flush(false);
      continue;
    }
    for (int k = 0; k <= g.axis[1].m; ++k) {
      if (g.num_dims == 2) {
        field(g.axis[0].x_cb(j));
        field(g.axis[1].x_cb(k));
        field(f(variable, j, k, 0));
        buffer += '\n';
        flush(false);
        continue;
      }
      for (int l = 0; l <= g.axis[2].m; ++l) {
        field(g.axis[0].x_cb(j));
        field(g.axis[1].x_cb(k));
        field(g.axis[2].x_cb(l));
        field(f(variable, j, k, l));
        buffer += '\n';
        flush(false);
      }
      buffer += '\n';
    }
    buffer += '\n';
  }
  flush(true);
}

// Why the output directory DIR/D cannot be made or used, or "" (asked before anything runs).
inline std::string output_directory_problem(const std::string& case_dir) {
  struct ::stat st;
  if (::stat(case_dir.c_str(), &st) != 0) {
    return "the case directory '" + case_dir + "' does not exist";
  }
  if (!S_ISDIR(st.st_mode)) {
    return "'" + case_dir + "' is not a directory";
  }
  const std::string d = case_dir + "/D";
  if (::stat(d.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    return "'" + d + "' exists and is not a directory";
  }
  return "";
}

// CASE_DIR/D, made when missing (as MFC does); throws std::runtime_error when it cannot be.
inline std::string make_output_directory(const std::string& case_dir) {
  std::string dir = case_dir + "/D";
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    throw std::runtime_error("cannot create '" + dir +
                             "': " + std::error_code(errno, std::generic_category()).message());
  }
  return dir;
}

// Writes step `step`'s files into CASE_DIR/D (made when missing, as MFC does): cons.<v> for every
// variable; prim.<v> in 1D (model_eqns = 2 always) and with prim_vars_wrt, where the partial
// densities (2D and 3D only) and volume fractions are the conservative values, as MFC writes
// them. Returns the paths written.
inline std::vector<std::string> write_serial_data_files(const std::string& case_dir,
                                                        const case_config& c, const grid& g,
                                                        const host_fields& cons,
                                                        const host_fields& prim, int step,
                                                        int rank = 0) {
  const std::string dir = make_output_directory(case_dir);
  std::vector<std::string> written;
  const equation_index ix = equations_of(c);
  const auto write_one    = [&](const std::string& kind, const host_fields& f, int v) {
    const std::string path = dir + "/" + serial_file_name(kind, v + 1, step, rank);
    loopnest::write_file_atomically(
           path, [&](const auto& write) { write_serial_text(g, c.precision, f, v, write); },
           "loopnest_mfc::write_serial_data_files");
    written.push_back(path);
  };
  if (c.num_dims == 1 || c.prim_vars_wrt) {
    for (int v = 0; v < c.sys_size(); ++v) {
      const bool is_adv  = v >= ix.adv(0);
      const bool is_cont = v < ix.mom(0);
      write_one("prim", (is_adv || (is_cont && c.num_dims > 1)) ? cons : prim, v);
    }
  }
  for (int v = 0; v < c.sys_size(); ++v) {
    write_one("cons", cons, v);
  }
  return written;
}

// MFC's run_time.inf header (s_open_run_time_information_file, m_data_output.fpp @d91cb687) for
// the inviscid case, `date` as date_and_time gives it ("YYYYMMDD"): the description, the date as
// MM/DD/YY, two empty lines and the column titles, each right-justified after 13 blanks.
inline std::string run_time_information_header(const std::string& date) {
  const std::string indent(13, ' ');
  std::string text =
      "Description: Stability information at each time-step of the simulation. This\n";
  // MFC's source spells Courant-Friedrichs-Lewy with en dashes (UTF-8 E2 80 93).
  text += indent +
          "data is composed of the inviscid Courant\xE2\x80\x93"
          "Friedrichs\xE2\x80\x93"
          "Lewy (ICFL)\n";
  text += indent + "number, the viscous CFL (VCFL) number, the capillary CFL (CCFL)\n";
  text += indent + "number and the cell Reynolds (Rc) number. Please note that only\n";
  text += indent + "those stability conditions pertinent to the physics included in\n";
  text += indent + "the current computation are displayed.\n";
  text +=
      "Date: " + date.substr(4, 2) + "/" + date.substr(6, 2) + "/" + date.substr(2, 2) + "\n\n\n";
  // '(13X,A9,13X,A10,13X,A10,13X,A10)': A10 right-justifies a shorter text.
  const auto column = [&](const std::string& title, std::size_t width) {
    return indent + std::string(width - title.size(), ' ') + title;
  };
  return text + column("Time-step", 9) + column("dt", 10) + column("Time", 10) +
         column("ICFL Max", 10) + "\n";
}

// One row of run_time.inf (s_write_run_time_information): '(13X,I9,13X,F10.6,13X,F10.6,13X,F10.6)'
// of MFC's t_step, dt, the time at the end of the step and the largest ICFL.
inline std::string run_time_information_row(int t_step, double dt, double time, double icfl) {
  char step[32];
  std::snprintf(step, sizeof(step), "%9d", t_step);
  const std::string indent(13, ' ');
  const std::string digits = std::strlen(step) > 9 ? std::string(9, '*') : std::string(step);
  return indent + digits + indent + fortran_f(dt, 10, 6) + indent + fortran_f(time, 10, 6) +
         indent + fortran_f(icfl, 10, 6) + "\n";
}

// CASE_DIR/run_time.inf as MFC writes it with run_time_info = T: replaced when the run starts,
// a row per step, each flushed, so that a run stopped by its ICFL shows the steps up to it.
class run_time_information {
 public:
  // Creates (or replaces) the file and writes its header; throws naming the file when it cannot.
  explicit run_time_information(std::string path) : m_path(std::move(path)) {
    m_file = std::fopen(m_path.c_str(), "w");
    if (m_file == nullptr) {
      throw std::runtime_error("cannot create '" + m_path + "': " + std::strerror(errno));
    }
    char date[16];
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    std::strftime(date, sizeof(date), "%Y%m%d", &local);
    put(run_time_information_header(date));
  }
  run_time_information(const run_time_information&)            = delete;
  run_time_information& operator=(const run_time_information&) = delete;
  ~run_time_information() { std::fclose(m_file); }

  // Appends one step's row; throws naming the file when it cannot be written.
  void write_row(int t_step, double dt, double time, double icfl) {
    put(run_time_information_row(t_step, dt, time, icfl));
  }

 private:
  std::string m_path;
  std::FILE* m_file = nullptr;

  void put(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), m_file) != text.size() ||
        std::fflush(m_file) != 0) {
      throw std::runtime_error("writing '" + m_path + "' failed: " + std::strerror(errno));
    }
  }
};

// What a run writes (--output-format): MFC's text files, VTK files, both, or MFC's serial binary
// files (p_all/, what MFC's post_process reads).
enum class output_format { mfc, vtk, both, binary };

inline bool writes_mfc(output_format f) {
  return f == output_format::mfc || f == output_format::both;
}
inline bool writes_vtk(output_format f) {
  return f == output_format::vtk || f == output_format::both;
}
inline bool writes_binary(output_format f) {
  return f == output_format::binary;
}

// The format named `text` ("mfc", "vtk", "both" or "binary") into `out`; false, `out`
// untouched, for any other text.
inline bool parse_output_format(const std::string& text, output_format& out) {
  if (text != "mfc" && text != "vtk" && text != "both" && text != "binary") {
    return false;
  }
  out = text == "mfc"    ? output_format::mfc
        : text == "vtk"  ? output_format::vtk
        : text == "both" ? output_format::both
                         : output_format::binary;
  return true;
}

// One cell array of a VTK file: its name and its cells' values, x fastest.
struct vtk_array {
  std::string name;
  const double* values;
};

// The arrays of one saved state under MFC's post_process names: the conservative variables
// (alpha_rho<i>, mom<d>, E, alpha<i>) and the primitive ones the conservative ones do not hold
// (rho, the mixture density; vel<d>; pres). `rho` receives the mixture density the "rho" array
// points to.
inline std::vector<vtk_array> vtk_arrays_of(const case_config& c, const host_fields& cons,
                                            const host_fields& prim, std::vector<double>& rho) {
  const equation_index ix = equations_of(c);
  const std::size_t cells = static_cast<std::size_t>(cons.nx) * cons.ny * cons.nz;
  const auto of = [&](const host_fields& f, int v) { return &f.values[f.offset(v, 0, 0, 0)]; };
  std::vector<vtk_array> arrays;
  arrays.reserve(static_cast<std::size_t>(c.sys_size()) + c.num_dims + 2);
  for (int k = 0; k < c.num_fluids; ++k) {
    arrays.push_back({"alpha_rho" + std::to_string(k + 1), of(cons, ix.cont(k))});
  }
  for (int d = 0; d < c.num_dims; ++d) {
    arrays.push_back({"mom" + std::to_string(d + 1), of(cons, ix.mom(d))});
  }
  arrays.push_back({"E", of(cons, ix.energy())});
  for (int k = 0; k < c.num_fluids; ++k) {
    arrays.push_back({"alpha" + std::to_string(k + 1), of(cons, ix.adv(k))});
  }
  // MFC's mixture density of the five-equation model: the sum of the partial densities.
  rho.assign(cells, 0.0);
  for (int k = 0; k < c.num_fluids; ++k) {
    const double* partial = of(cons, ix.cont(k));
    for (std::size_t n = 0; n < cells; ++n) {
      rho[n] += partial[n];
    }
  }
  arrays.push_back({"rho", rho.data()});
  for (int d = 0; d < c.num_dims; ++d) {
    arrays.push_back({"vel" + std::to_string(d + 1), of(prim, ix.mom(d))});
  }
  arrays.push_back({"pres", of(prim, ix.energy())});
  return arrays;
}

// MFC's file names of the VTK output: one file per rank and step, and the collection of them.
inline std::string vtk_file_name(int step, int rank = 0) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "state.%02d.%06d.vtr", rank, step);
  return buffer;
}
inline constexpr const char* vtk_collection_name = "state.pvd";

namespace detail {

// The byte order VTK is told the binary data has: the host's, whose bytes are written as they
// are (little endian on every host the port runs on).
inline const char* host_byte_order() {
  const std::uint16_t one = 1;
  unsigned char first     = 0;
  std::memcpy(&first, &one, 1);
  return first == 1 ? "LittleEndian" : "BigEndian";
}

// The shortest text that reads back as `value` (0.0002, not 0.00020000000000000001).
inline std::string vtk_number(double value) {
  char buffer[32];
  return {buffer, std::to_chars(buffer, buffer + sizeof(buffer), value).ptr};
}

}  // namespace detail

// The bytes of a VTK XML RectilinearGrid file (.vtr) of the interior cells of `g`, handed to
// `write` in pieces. The extent counts cell boundaries from `offset` (the block's first global
// cell, so that the ranks' files tile the case): 0 0 in a direction the case does not have. The
// arrays are cell data in Scalar (Float64 for double, Float32 for float), the coordinates the
// cell boundaries x_cb(-1 .. m) in Float64 (one 0 in an absent direction), the time field data
// TimeValue; all binary data is raw and appended, each block a UInt64 byte count then the
// values in the host's byte order, at the offset its DataArray names (from the byte after '_').
template <class Scalar, class Write>
void write_vtk_text(const grid& g, const int (&offset)[3], const std::vector<vtk_array>& arrays,
                    double time, const Write& write) {
  static_assert(std::is_same_v<Scalar, double> || std::is_same_v<Scalar, float>,
                "loopnest_mfc::write_vtk_text: the scalar type must be float or double.");
  const char* const type = std::is_same_v<Scalar, double> ? "Float64" : "Float32";
  std::size_t cells      = 1;
  std::string extent;
  std::vector<double> coordinates[3];
  for (int d = 0; d < 3; ++d) {
    const bool present = d < g.num_dims;
    const int n        = present ? g.axis[d].m + 1 : 0;
    cells *= present ? static_cast<std::size_t>(n) : 1;
    extent += (d > 0 ? " " : "") + std::to_string(present ? offset[d] : 0) + " " +
              std::to_string(present ? offset[d] + n : 0);
    for (int i = -1; i < (present ? n : 0); ++i) {
      coordinates[d].push_back(present ? g.axis[d].x_cb(i) : 0.0);
    }
  }
  std::uint64_t at = 0;
  std::string head = std::string(
                         "<?xml version=\"1.0\"?>\n<VTKFile type=\"RectilinearGrid\" "
                         "version=\"1.0\" byte_order=\"") +
                     detail::host_byte_order() + "\" header_type=\"UInt64\">\n";
  head += "  <RectilinearGrid WholeExtent=\"" + extent + "\">\n";
  head +=
      "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TimeValue\" "
      "NumberOfTuples=\"1\" format=\"ascii\">" +
      detail::vtk_number(time) + "</DataArray>\n    </FieldData>\n";
  head += "    <Piece Extent=\"" + extent + "\">\n      <CellData>\n";
  const auto array = [&](const char* array_type, const std::string& name, std::size_t bytes) {
    head += "        <DataArray type=\"" + std::string(array_type) + "\" Name=\"" + name +
            R"(" format="appended" offset=")" + std::to_string(at) + "\"/>\n";
    at += sizeof(std::uint64_t) + bytes;
  };
  for (const vtk_array& a : arrays) {
    array(type, a.name, cells * sizeof(Scalar));
  }
  head += "      </CellData>\n      <Coordinates>\n";
  const char* const axis_names[3] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    array("Float64", axis_names[d], coordinates[d].size() * sizeof(double));
  }
  head +=
      "      </Coordinates>\n    </Piece>\n  </RectilinearGrid>\n"
      "  <AppendedData encoding=\"raw\">\n   _";
  write(head.data(), head.size());
  const auto block = [&](const void* data, std::uint64_t bytes) {
    write(reinterpret_cast<const char*>(&bytes), sizeof(bytes));
    write(static_cast<const char*>(data), static_cast<std::size_t>(bytes));
  };
  std::vector<Scalar> values(cells);
  for (const vtk_array& a : arrays) {
    std::copy(a.values, a.values + cells, values.begin());
    block(values.data(), cells * sizeof(Scalar));
  }
  for (const std::vector<double>& x : coordinates) {
    block(x.data(), x.size() * sizeof(double));
  }
  const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
  write(tail.data(), tail.size());
}

// Writes step `step`'s VTK file D/state.<rank>.<step>.vtr into CASE_DIR/D (made when missing),
// atomically, with the fields in Scalar, the run's precision, at simulation time `time`. Returns
// its path.
template <class Scalar>
std::string write_vtk_file(const std::string& case_dir, const case_config& c, const grid& g,
                           const int (&offset)[3], const host_fields& cons, const host_fields& prim,
                           int step, double time, int rank = 0) {
  const std::string dir = make_output_directory(case_dir);
  std::vector<double> rho;
  const std::vector<vtk_array> arrays = vtk_arrays_of(c, cons, prim, rho);
  std::string path                    = dir + "/" + vtk_file_name(step, rank);
  loopnest::write_file_atomically(
      path, [&](const auto& write) { write_vtk_text<Scalar>(g, offset, arrays, time, write); },
      "loopnest_mfc::write_vtk_file");
  return path;
}

// A saved step as the ParaView collection lists it: its output number and simulation time.
struct vtk_save {
  int step    = 0;
  double time = 0.0;
};

// The text of the ParaView collection (.pvd) of `saves`: each saved step's time and every
// rank's file of it.
inline std::string vtk_collection_text(const std::vector<vtk_save>& saves, int ranks) {
  std::string text = std::string(
                         "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" "
                         "version=\"1.0\" byte_order=\"") +
                     detail::host_byte_order() + "\">\n  <Collection>\n";
  for (const vtk_save& save : saves) {
    for (int r = 0; r < ranks; ++r) {
      text += "    <DataSet timestep=\"" + detail::vtk_number(save.time) + "\" part=\"" +
              std::to_string(r) + "\" file=\"" + vtk_file_name(save.step, r) + "\"/>\n";
    }
  }
  text += "  </Collection>\n</VTKFile>\n";
  return text;
}

// Writes CASE_DIR/D/state.pvd (vtk_collection_text) atomically; returns its path.
inline std::string write_vtk_collection(const std::string& case_dir,
                                        const std::vector<vtk_save>& saves, int ranks) {
  std::string path       = make_output_directory(case_dir) + "/" + vtk_collection_name;
  const std::string text = vtk_collection_text(saves, ranks);
  loopnest::write_file_atomically(
      path, [&](const auto& write) { write(text.data(), text.size()); },
      "loopnest_mfc::write_vtk_collection");
  return path;
}

// One record of a Fortran unformatted sequential file as gfortran writes it: the record's length
// in a 4-byte marker, its bytes, the marker again (host byte order). Records past 2^31 - 1 bytes,
// which gfortran splits into subrecords, are refused.
template <class Write>
void write_fortran_record(const Write& write, const void* data, std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT32_MAX)) {
    throw std::runtime_error("a Fortran record of " + std::to_string(bytes) +
                             " bytes, past the 2^31 - 1 of one record, is not written");
  }
  const auto marker = static_cast<std::int32_t>(bytes);
  write(reinterpret_cast<const char*>(&marker), sizeof(marker));
  write(static_cast<const char*>(data), bytes);
  write(reinterpret_cast<const char*>(&marker), sizeof(marker));
}

// MFC's serial binary output of one step (parallel_io = F; s_write_serial_data_files, which
// post_process's s_read_serial_data_files reads) in CASE_DIR/p_all/p<rank>/<step>/: x_cb.dat
// (y_cb.dat in 2D, z_cb.dat in 3D), one record of the cell boundaries x_cb(-1..m), and
// q_cons_vf<i>.dat, one record of variable i's interior cells, x fastest; every value in Scalar
// (MFC's wp, the run's precision). The directories are made when missing; each file is written
// atomically. Returns the paths written.
template <class Scalar>
std::vector<std::string> write_serial_binary_files(const std::string& case_dir, const grid& g,
                                                   const host_fields& cons, int step,
                                                   int rank = 0) {
  static_assert(std::is_same_v<Scalar, double> || std::is_same_v<Scalar, float>,
                "loopnest_mfc::write_serial_binary_files: the scalar type must be float or "
                "double.");
  std::string dir = case_dir;
  for (const std::string& part :
       {std::string("p_all"), "p" + std::to_string(rank), std::to_string(step)}) {
    dir += "/" + part;
    if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
      throw std::runtime_error("cannot create '" + dir +
                               "': " + std::error_code(errno, std::generic_category()).message());
    }
  }
  std::vector<std::string> written;
  const auto write_one = [&](const std::string& name, std::vector<Scalar> values) {
    const std::string path = dir + "/" + name;
    loopnest::write_file_atomically(
        path,
        [&](const auto& write) {
          write_fortran_record(write, values.data(), values.size() * sizeof(Scalar));
        },
        "loopnest_mfc::write_serial_binary_files");
    written.push_back(path);
  };
  const char* const names[3] = {"x_cb.dat", "y_cb.dat", "z_cb.dat"};
  for (int d = 0; d < g.num_dims; ++d) {
    std::vector<Scalar> x_cb;
    for (int i = -1; i <= g.axis[d].m; ++i) {
      x_cb.push_back(static_cast<Scalar>(g.axis[d].x_cb(i)));
    }
    write_one(names[d], std::move(x_cb));
  }
  const std::size_t cells = static_cast<std::size_t>(cons.nx) * cons.ny * cons.nz;
  for (int v = 0; v < cons.nvar; ++v) {
    const double* first = &cons.values[cons.offset(v, 0, 0, 0)];
    write_one("q_cons_vf" + std::to_string(v + 1) + ".dat",
              std::vector<Scalar>(first, first + cells));
  }
  return written;
}

}  // namespace loopnest_mfc

#endif
