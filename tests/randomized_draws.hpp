// Drawing the parameters of the randomized tests: std::mt19937 from fixed seeds, each case's
// seed and drawn parameters in the failure message (SCOPED_TRACE). The checks themselves are the
// deterministic tests' (*_checks.hpp); the device lambdas live there, in free functions.
#ifndef LOOPNEST_TEST_RANDOMIZED_DRAWS_HPP
#define LOOPNEST_TEST_RANDOMIZED_DRAWS_HPP

#include <loopnest/loopnest.hpp>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace loopnest_test {

inline int draw(std::mt19937& gen, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(gen);
}

// An extent in [1, hi]: 1 a quarter of the time.
inline int draw_extent(std::mt19937& gen, int hi) {
  return draw(gen, 0, 3) == 0 ? 1 : draw(gen, 1, hi);
}

inline loopnest::tile make_tile(const std::vector<int>& s) {
  switch (s.size()) {
    case 2:
      return {s[0], s[1]};
    case 3:
      return {s[0], s[1], s[2]};
    default:
      return {s.at(0), s.at(1), s.at(2), s.at(3)};
  }
}

// A tile for a loop of these extents that the backend takes: each size 1, up to a little past
// the extent, or well past it (up to 96), then the largest halved until the tile holds at most
// max_points points. With three or more indices the first and the last (the policy runs either
// one last, by the schedule's order) hold at most max_last, past which the backend refuses a tile.
inline loopnest::tile draw_tile(std::mt19937& gen, const std::vector<int>& extents, int max_points,
                                int max_last = INT_MAX) {
  std::vector<int> s;
  for (const int n : extents) {
    const int r = draw(gen, 0, 9);
    s.push_back(r < 3 ? 1 : r < 8 ? draw(gen, 1, n + 2) : draw(gen, n + 1, 96));
  }
  if (s.size() >= 3) {
    s.front() = std::min(s.front(), max_last);
    s.back()  = std::min(s.back(), max_last);
  }
  for (;;) {
    std::int64_t points = 1;
    std::size_t largest = 0;
    for (std::size_t d = 0; d < s.size(); ++d) {
      points *= s[d];
      largest = s[d] > s[largest] ? d : largest;
    }
    if (points <= max_points) {
      return make_tile(s);
    }
    s[largest] /= 2;
  }
}

template <int Rank>
std::string box_text(const loopnest::box<Rank>& b) {
  std::string s;
  for (int d = 0; d < Rank; ++d) {
    s += (d ? " x [" : "[") + std::to_string(b.lower(d)) + ", " + std::to_string(b.upper(d)) + ")";
  }
  return s;
}

}  // namespace loopnest_test

#endif
