// What the diffusion tools add to loopnest::diffusion_solver: the variants by name, and the
// physical check a solution must pass before it is printed or written. Host code of the tools'
// layer.
#ifndef LOOPNEST_TOOLS_DIFFUSION_TOOL_HPP
#define LOOPNEST_TOOLS_DIFFUSION_TOOL_HPP

#include <loopnest/detail/error.hpp>
#include <loopnest/diffusion.hpp>
#include <loopnest/tools/field_compare.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopnest {

inline diffusion_variant parse_diffusion_variant(const std::string& s) {
  std::string known;
  for (const auto v : diffusion_variants) {
    if (s == name(v)) {
      return v;
    }
    known += std::string(known.empty() ? "" : ", ") + name(v);
  }
  Impl::throw_invalid_argument("loopnest::parse_diffusion_variant",
                               "variant '" + s + "' is unknown; the variants are " + known);
}

// The diffusion study's boundary tolerance in T: how far a value or the mass of a correct
// solution may stray outside [0, 1] by rounding. The mass is a sum of nx * ny rounded values, so
// while little has left through the edges it lands a few ulps above 1.
template <class T>
constexpr double diffusion_bound_tolerance() {
  static_assert(Impl::is_fp32_or_fp64_v<T>,
                "loopnest::diffusion_bound_tolerance: the scalar type must be float or double.");
  return std::is_same<T, float>::value ? 1e-4 : 1e-10;
}

// What the tools print of a solution, after checking that it is one: every value finite and in
// [-tol, 1 + tol], the mass (the sum of all cells in double, loopnest::diffusion_mass: the
// reproducible order of loopnest::reduce_cell) in [-tol, 1 + tol], tol being
// diffusion_bound_tolerance<T>(). Anything else throws std::runtime_error naming the first
// offending cell or the mass with every digit that tells it from the bound; a field of the wrong
// size throws std::invalid_argument. `mass` is the field's diffusion_mass, computed by the caller
// where the field lives (the solver's device array, or distributed_diffusion_solver::mass()).
struct diffusion_summary {
  double mass, centre, min, max;
};

template <class T>
diffusion_summary check_diffusion_solution(const std::vector<T>& u, int nx, int ny, double mass) {
  constexpr const char* where = "loopnest::check_diffusion_solution";
  Impl::check_diffusion_grid(where, nx, ny);
  if (u.size() != Impl::cell_count(nx, ny)) {
    Impl::throw_invalid_argument(where, "the field has " + std::to_string(u.size()) +
                                            " values but the grid has " +
                                            std::to_string(Impl::cell_count(nx, ny)));
  }
  constexpr double tol    = diffusion_bound_tolerance<T>();
  const std::string range = "[-" + Impl::shortest_text(tol) + ", 1 + " + Impl::shortest_text(tol) +
                            "] (the bounds [0, 1] with the " + name(precision_of<T>()) +
                            " tolerance)";
  diffusion_summary s{mass, 0.0, 1.0, 0.0};
  for (std::size_t c = 0; c < u.size(); ++c) {
    const auto x = static_cast<double>(u[c]);
    if (!std::isfinite(x) || x < -tol || x > 1.0 + tol) {
      throw std::runtime_error(std::string(where) + ": cell (" + std::to_string(c % nx) + ", " +
                               std::to_string(c / nx) + ") = " + Impl::shortest_text(x) +
                               (std::isfinite(x) ? " is outside " + range : " is not finite"));
    }
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  if (!(s.mass >= -tol && s.mass <= 1.0 + tol)) {
    throw std::runtime_error(std::string(where) + ": mass = " + Impl::shortest_text(s.mass) +
                             " is outside " + range);
  }
  s.centre = static_cast<double>(u[static_cast<std::size_t>((nx + 1) / 2 - 1) +
                                   static_cast<std::size_t>(nx) * ((ny + 1) / 2 - 1)]);
  return s;
}

// The same check with the mass computed here, on the host, from u (a field of the wrong size is
// refused before).
template <class T>
diffusion_summary check_diffusion_solution(const std::vector<T>& u, int nx, int ny) {
  const bool sized = u.size() == Impl::cell_count(nx, ny) && nx > 0 && ny > 0;
  return check_diffusion_solution(u, nx, ny, sized ? diffusion_mass(u, nx, ny) : 0.0);
}

}  // namespace loopnest

#endif
