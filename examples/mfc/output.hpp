// loopnest_mfc::write_serial_data_files: MFC's serial text output D/cons.<v>.<rank>.<step>.dat
// (and D/prim.*) for the interior cells, byte for byte as simulation writes it
// (src/simulation/m_data_output.fpp @d91cb687, s_write_serial_data_files): the right cell boundary
// x_cb(j) (and y_cb(k), z_cb(l)) then the value, each in Fortran's F40.14 (precision 2) or
// F30.3/F30.7 (precision 1), x outermost. Each file is written atomically.
#ifndef LOOPNEST_MFC_OUTPUT_HPP
#define LOOPNEST_MFC_OUTPUT_HPP

#include "case.hpp"
#include "grid.hpp"
#include "patches.hpp"

#include <loopnest/tools/field_file.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>
#include <system_error>
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

// Writes step `step`'s files into CASE_DIR/D (made when missing, as MFC does): cons.<v> for every
// variable; prim.<v> in 1D (model_eqns = 2 always) and with prim_vars_wrt, where the partial
// densities (2D and 3D only) and volume fractions are the conservative values, as MFC writes
// them. Returns the paths written.
inline std::vector<std::string> write_serial_data_files(const std::string& case_dir,
                                                        const case_config& c, const grid& g,
                                                        const host_fields& cons,
                                                        const host_fields& prim, int step,
                                                        int rank = 0) {
  const std::string dir = case_dir + "/D";
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    throw std::runtime_error("cannot create '" + dir +
                             "': " + std::error_code(errno, std::generic_category()).message());
  }
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

}  // namespace loopnest_mfc

#endif
