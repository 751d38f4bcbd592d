// loopnest::box: the half-open index range of a structured-grid loop, one range per dimension.
#ifndef LOOPNEST_BOX_HPP
#define LOOPNEST_BOX_HPP

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace loopnest {

// A box of Rank spatial dimensions: index d runs over [lower(d), upper(d)). Lower bounds may
// be negative (ghost cells). Built from two brace lists, lower bounds first:
//   loopnest::box<3> interior{{0, 0, 0}, {nx, ny, nz}};
//   loopnest::box<3> with_ghosts{{-4, -4, -4}, {nx + 4, ny + 4, nz + 4}};
// An inverted range, an extent past 2^31 - 1 (the loops index with int), more than 2^63 - 1 cells
// or a list of the wrong length throws std::invalid_argument; an empty range (upper == lower) is
// allowed and makes every loop over the box a no-op.
template <int Rank>
class box {
  static_assert(Rank == 2 || Rank == 3,
                "loopnest::box: Rank must be 2 or 3 (the spatial dimensions); the variable index "
                "of for_each_cell_var is not part of the box.");

 public:
  static constexpr int rank = Rank;

  box(std::initializer_list<int> lower, std::initializer_list<int> upper) {
    copy_bounds("lower", lower, m_lower);
    copy_bounds("upper", upper, m_upper);
    for (int d = 0; d < Rank; ++d) {
      if (m_upper[d] < m_lower[d]) {
        throw std::invalid_argument("loopnest::box: upper[" + std::to_string(d) +
                                    "] = " + std::to_string(m_upper[d]) + " is below lower[" +
                                    std::to_string(d) + "] = " + std::to_string(m_lower[d]) +
                                    " (an inverted box)");
      }
      // In 64 bits: upper - lower of two ints can overflow int.
      const std::int64_t e = std::int64_t{m_upper[d]} - m_lower[d];
      if (e > INT_MAX) {
        throw std::invalid_argument("loopnest::box: upper[" + std::to_string(d) + "] - lower[" +
                                    std::to_string(d) + "] = " + std::to_string(e) +
                                    " exceeds 2^31 - 1, the most cells an int index spans");
      }
      if (e > 0 && m_size > INT64_MAX / e) {
        throw std::invalid_argument("loopnest::box: the box holds more than 2^63 - 1 cells");
      }
      m_size *= e;
    }
  }

  int lower(int d) const { return m_lower[d]; }
  int upper(int d) const { return m_upper[d]; }
  int extent(int d) const { return m_upper[d] - m_lower[d]; }

  std::int64_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

 private:
  static void copy_bounds(const char* name, std::initializer_list<int> from, int (&to)[Rank]) {
    if (from.size() != static_cast<std::size_t>(Rank)) {
      throw std::invalid_argument(std::string("loopnest::box: ") + name + " has " +
                                  std::to_string(from.size()) + " bounds but the box has rank " +
                                  std::to_string(Rank));
    }
    int d = 0;
    for (int bound : from) {
      to[d++] = bound;
    }
  }

  int m_lower[Rank];
  int m_upper[Rank];
  std::int64_t m_size = 1;
};

// The variables of a (cell, variable) loop: v runs over [first, last), as MFC's advxb..advxe is
// {advxb, advxe + 1}. An empty range (last == first) makes the loop a no-op, as an empty box does;
// loopnest::for_each_cell_var refuses last < first.
struct var_range {
  int first = 0;
  int last  = 0;
};

}  // namespace loopnest

#endif
