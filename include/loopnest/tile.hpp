// loopnest::tile: an explicit MDRange tile that overrides the one loopnest picks per backend.
#ifndef LOOPNEST_TILE_HPP
#define LOOPNEST_TILE_HPP

#include <initializer_list>
#include <stdexcept>
#include <string>

namespace loopnest {

// Tile sizes in the box's index order (i, j[, k]) followed, for collapse4, by the variable
// index: loopnest::tile{32, 8, 1} for collapse3 on a 3D box, loopnest::tile{32, 8, 1, 1} for
// collapse4. A default-constructed tile means "let loopnest choose". Whether the tile fits the
// schedule, the box and the backend is checked when a loop is launched.
class tile {
 public:
  static constexpr int max_rank = 4;

  tile() = default;
  tile(std::initializer_list<int> sizes) {
    if (sizes.size() == 0 || sizes.size() > static_cast<std::size_t>(max_rank)) {
      throw std::invalid_argument("loopnest::tile: " + std::to_string(sizes.size()) +
                                  " sizes given; a tile has 1 to 4");
    }
    for (int s : sizes) {
      m_size[m_rank++] = s;
    }
  }

  // 0 for the default tile.
  int rank() const { return m_rank; }
  bool is_default() const { return m_rank == 0; }
  int operator[](int d) const { return m_size[d]; }

  std::string to_string() const {
    std::string s;
    for (int d = 0; d < m_rank; ++d) {
      s += (d ? "x" : "") + std::to_string(m_size[d]);
    }
    return m_rank ? s : "default";
  }

 private:
  int m_size[max_rank] = {};
  int m_rank           = 0;
};

}  // namespace loopnest

#endif
