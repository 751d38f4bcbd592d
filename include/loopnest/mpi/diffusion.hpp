// loopnest::distributed_diffusion_solver: loopnest::diffusion_solver's step on a global nx x ny
// grid split over the ranks of a 2D loopnest::cartesian_decomposition, one block per rank with a
// one-cell halo. Each cell is updated by loopnest::diffusion_update, as on one rank, so the
// gathered field is bit-identical to the single-rank solver's on the same backend.
#ifndef LOOPNEST_MPI_DIFFUSION_HPP
#define LOOPNEST_MPI_DIFFUSION_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/error.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/diffusion.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/detail/mpi_error.hpp>
#include <loopnest/mpi/halo_exchange.hpp>
#include <loopnest/mpi/halo_transport.hpp>
#include <loopnest/mpi/reduce.hpp>
#include <loopnest/schedule.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace loopnest {

namespace Impl {

// The cells of a local block [x0, x1) x [y0, y1) that a step updates, split into the inner part
// (which reads no ghost) and up to four strips along the block's sides (which do).
struct diffusion_split {
  int x0, x1, y0, y1;      // every updated cell
  int ix0, ix1, iy0, iy1;  // the inner part (empty when ix0 >= ix1 or iy0 >= iy1)
};

inline diffusion_split split_diffusion_block(int nx, int ny, int ox, int oy, int lx, int ly) {
  diffusion_split s{};
  // Global interior cells 1 .. n - 2, in local indices.
  s.x0  = std::max(0, 1 - ox);
  s.x1  = std::min(lx, nx - 1 - ox);
  s.y0  = std::max(0, 1 - oy);
  s.y1  = std::min(ly, ny - 1 - oy);
  s.ix0 = std::max(s.x0, 1);
  s.ix1 = std::min(s.x1, lx - 1);
  s.iy0 = std::max(s.y0, 1);
  s.iy1 = std::min(s.y1, ly - 1);
  if (s.ix0 >= s.ix1 || s.iy0 >= s.iy1) {
    s.ix0 = s.ix1 = s.x0;
    s.iy0 = s.iy1 = s.y0;
  }
  return s;
}

// v <- one step of u on the cells [x0, x1) x [y0, y1) of views with a one-cell halo (view index
// i is local cell i - 1).
template <class Schedule, class ExecutionSpace, class T, class View>
void distributed_diffusion_update(const ExecutionSpace& exec, T alpha, const View& u, const View& v,
                                  int x0, int x1, int y0, int y1) {
  if (x0 >= x1 || y0 >= y1) {
    return;
  }
  for_each_cell<Schedule>(
      exec, box<2>{{x0 + 1, y0 + 1}, {x1 + 1, y1 + 1}},
      KOKKOS_LAMBDA(int i, int j) {
        v(i, j) =
            diffusion_update(alpha, u(i, j), u(i - 1, j), u(i + 1, j), u(i, j - 1), u(i, j + 1));
      },
      "loopnest::distributed_diffusion/update");
}

}  // namespace Impl

// T: float or double. Schedule: how the update loops run (collapse3 by default).
template <class T, class Schedule = collapse3, class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class distributed_diffusion_solver {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "loopnest::distributed_diffusion_solver: the scalar type must be float or double.");
  static_assert(is_schedule_v<Schedule>,
                "loopnest::distributed_diffusion_solver: the second template argument must be a "
                "loopnest schedule, such as loopnest::collapse3.");

 public:
  using execution_space = ExecutionSpace;
  using memory_space    = typename ExecutionSpace::memory_space;
  // A block with its one-cell halo: view index i is local cell i - 1.
  using view_type = Kokkos::View<T**, Kokkos::LayoutLeft, memory_space>;

  // d: a 2D decomposition of the global grid (edges included) along axes that do not wrap; it
  // must outlive the solver. overlap: every step updates the cells that read no ghost while the
  // halo moves, then the rest. Collective; every rank throws the same std::invalid_argument for a
  // decomposition that is not 2D, a periodic axis, a grid below 3 x 3 or an alpha outside
  // [0, 0.25], and the same errors as loopnest::halo_exchange.
  distributed_diffusion_solver(const ExecutionSpace& exec, const cartesian_decomposition& d,
                               halo_transport transport = halo_transport::mpi_host,
                               bool overlap = true, T alpha = T(0.1))
      : m_exec(exec),
        m_decomposition(&d),
        m_alpha(alpha),
        m_overlap(overlap),
        m_u(make_view(exec, d, alpha, "loopnest::distributed_diffusion/u")),
        m_v(make_view(exec, d, alpha, "loopnest::distributed_diffusion/v")),
        m_halo(exec, d, m_u, transport) {
    m_split = Impl::split_diffusion_block(nx(), ny(), d.offset(0), d.offset(1), d.local_extent(0),
                                          d.local_extent(1));
  }

  int nx() const { return m_decomposition->global_extent(0); }
  int ny() const { return m_decomposition->global_extent(1); }
  int steps_taken() const { return m_steps; }
  halo_transport transport() const { return m_halo.transport(); }

  // The standard initial condition (loopnest::diffusion_initial_condition) in this rank's block.
  void set_initial_condition() {
    std::vector<T> block(local_cells(), T(0));
    const int ci = (nx() + 1) / 2 - 1 - m_decomposition->offset(0);
    const int cj = (ny() + 1) / 2 - 1 - m_decomposition->offset(1);
    if (ci >= 0 && ci < lx() && cj >= 0 && cj < ly()) {
      block[static_cast<std::size_t>(ci) + static_cast<std::size_t>(lx()) * cj] = T(1);
    }
    set_block(block);
  }

  // Any global field (nx * ny values, i fastest, the same on every rank): this rank keeps its
  // block; the global edges are held from now on.
  void set_field(const std::vector<T>& global) {
    if (global.size() != Impl::cell_count(nx(), ny())) {
      Impl::throw_invalid_argument("loopnest::distributed_diffusion_solver::set_field",
                                   "values has " + std::to_string(global.size()) +
                                       " entries but the grid has " +
                                       std::to_string(Impl::cell_count(nx(), ny())));
    }
    std::vector<T> block(local_cells());
    for (int j = 0; j < ly(); ++j) {
      for (int i = 0; i < lx(); ++i) {
        block[static_cast<std::size_t>(i) + static_cast<std::size_t>(lx()) * j] =
            global[static_cast<std::size_t>(i + m_decomposition->offset(0)) +
                   static_cast<std::size_t>(nx()) * (j + m_decomposition->offset(1))];
      }
    }
    set_block(block);
  }

  // `steps` steps; collective (every rank exchanges its halo every step).
  void advance(int steps) {
    if (steps < 0) {
      Impl::throw_invalid_argument("loopnest::distributed_diffusion_solver::advance",
                                   "steps = " + std::to_string(steps) + " is negative");
    }
    const Impl::profiling_region region("loopnest::distributed_diffusion");
    const auto& s = m_split;
    for (int n = 0; n < steps; ++n) {
      if (m_overlap) {
        m_halo.start(m_u);
        update(s.ix0, s.ix1, s.iy0, s.iy1);
        m_halo.finish(m_u);
        update(s.x0, s.x1, s.y0, s.iy0);
        update(s.x0, s.x1, s.iy1, s.y1);
        update(s.x0, s.ix0, s.iy0, s.iy1);
        update(s.ix1, s.x1, s.iy0, s.iy1);
      } else {
        m_halo.exchange(m_u);
        update(s.x0, s.x1, s.y0, s.y1);
      }
      std::swap(m_u, m_v);
      ++m_steps;
    }
  }

  // The global field on rank 0 (nx * ny values, i fastest), empty elsewhere. Collective.
  std::vector<T> gather() const {
    const auto& d   = *m_decomposition;
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m_u);
    std::vector<T> block(local_cells());
    for (int j = 0; j < ly(); ++j) {
      for (int i = 0; i < lx(); ++i) {
        block[static_cast<std::size_t>(i) + static_cast<std::size_t>(lx()) * j] =
            host(i + 1, j + 1);
      }
    }
    const int root = 0;
    std::vector<int> counts, displs;
    std::vector<T> all;
    if (d.rank() == root) {
      counts.resize(static_cast<std::size_t>(d.size()));
      displs.resize(counts.size());
      int total = 0;
      for (int r = 0; r < d.size(); ++r) {
        int c[2] = {};
        Impl::mpi_check(MPI_Cart_coords(d.comm(), r, 2, c), "MPI_Cart_coords");
        counts[static_cast<std::size_t>(r)] = d.block_extent(0, c[0]) * d.block_extent(1, c[1]);
        displs[static_cast<std::size_t>(r)] = total;
        total += counts[static_cast<std::size_t>(r)];
      }
      all.resize(static_cast<std::size_t>(total));
    }
    Impl::mpi_check(
        MPI_Gatherv(block.data(), static_cast<int>(block.size()), mpi_type(), all.data(),
                    counts.data(), displs.data(), mpi_type(), root, d.comm()),
        "MPI_Gatherv");
    std::vector<T> global;
    if (d.rank() == root) {
      global.resize(Impl::cell_count(nx(), ny()));
      for (int r = 0; r < d.size(); ++r) {
        int c[2] = {};
        Impl::mpi_check(MPI_Cart_coords(d.comm(), r, 2, c), "MPI_Cart_coords");
        const int ox = d.block_offset(0, c[0]), oy = d.block_offset(1, c[1]);
        const int bx = d.block_extent(0, c[0]), by = d.block_extent(1, c[1]);
        const T* b = all.data() + displs[static_cast<std::size_t>(r)];
        for (int j = 0; j < by; ++j) {
          std::copy(b + static_cast<std::ptrdiff_t>(bx) * j,
                    b + static_cast<std::ptrdiff_t>(bx) * (j + 1),
                    global.begin() + static_cast<std::ptrdiff_t>(ox) +
                        static_cast<std::ptrdiff_t>(nx()) * (oy + j));
        }
      }
    }
    return global;
  }

  // The mass of the global field on every rank: the bits of loopnest::diffusion_mass over the
  // same field on one rank. Collective. When every block's tiles are the global grid's (a split
  // along j at multiples of 32 cells, any split along i), each rank sums its block on the device
  // (loopnest::distributed_reduce_cell); otherwise the tiles cross blocks, so rank 0 sums the
  // gathered field on the host and broadcasts it.
  double mass() const {
    const auto& d = *m_decomposition;
    const box<2> global{{0, 0}, {nx(), ny()}};
    bool aligned = true;
    for (int c = 0; c < d.ranks(1); ++c) {
      const int oy = d.block_offset(1, c);
      aligned      = aligned &&
                reduction_tiles_align(global, box<2>{{0, oy}, {nx(), oy + d.block_extent(1, c)}});
    }
    double mass = 0.0;
    if (aligned) {
      const int ox = d.offset(0), oy = d.offset(1);
      const view_type u = m_u;
      distributed_reduce_cell<collapse3>(
          m_exec, d.comm(), global, box<2>{{ox, oy}, {ox + lx(), oy + ly()}},
          KOKKOS_LAMBDA(int i, int j, double& acc) {
            acc += static_cast<double>(u(i - ox + 1, j - oy + 1));
          },
          Kokkos::Sum<double>(mass), "loopnest::distributed_diffusion/mass");
    } else {
      const std::vector<T> field = gather();
      if (d.rank() == 0) {
        mass = diffusion_mass(field, nx(), ny());
      }
      Impl::mpi_check(MPI_Bcast(&mass, 1, MPI_DOUBLE, 0, d.comm()), "MPI_Bcast");
    }
    return mass;
  }

  // This rank's arrays with their halo: the current field and the one the next step writes.
  const view_type& current() const { return m_u; }
  const view_type& next() const { return m_v; }

 private:
  static view_type make_view(const ExecutionSpace& exec, const cartesian_decomposition& d, T alpha,
                             const char* label) {
    constexpr const char* where = "loopnest::distributed_diffusion_solver";
    Impl::check_diffusion_alpha(where, alpha);
    std::string error;
    if (d.dims() != 2) {
      error = std::to_string(d.dims()) + " axes in the decomposition; the grid has 2";
    } else if (d.periodic(0) || d.periodic(1)) {
      error = "a periodic axis in the decomposition; the grid's edges are held fixed";
    } else if (d.global_extent(0) < 3 || d.global_extent(1) < 3) {
      error = "nx = " + std::to_string(d.global_extent(0)) +
              ", ny = " + std::to_string(d.global_extent(1)) +
              " but the grid needs at least 3 cells per direction";
    }
    // Every rank holds the same decomposition, so every rank finds the same error.
    if (!error.empty()) {
      Impl::throw_invalid_argument(where, error);
    }
    return view_type(Kokkos::view_alloc(exec, std::string(label)), d.local_extent(0) + 2,
                     d.local_extent(1) + 2);
  }

  static MPI_Datatype mpi_type() { return std::is_same<T, float>::value ? MPI_FLOAT : MPI_DOUBLE; }

  int lx() const { return m_decomposition->local_extent(0); }
  int ly() const { return m_decomposition->local_extent(1); }
  std::size_t local_cells() const { return Impl::cell_count(lx(), ly()); }

  void set_block(const std::vector<T>& block) {
    const auto host = Kokkos::create_mirror_view(m_u);
    Kokkos::deep_copy(host, T(0));
    for (int j = 0; j < ly(); ++j) {
      for (int i = 0; i < lx(); ++i) {
        host(i + 1, j + 1) =
            block[static_cast<std::size_t>(i) + static_cast<std::size_t>(lx()) * j];
      }
    }
    Kokkos::deep_copy(m_exec, m_u, host);
    Kokkos::deep_copy(m_exec, m_v, m_u);
    m_exec.fence();
    m_steps = 0;
  }

  // v <- step(u) on local cells [x0, x1) x [y0, y1).
  void update(int x0, int x1, int y0, int y1) const {
    Impl::distributed_diffusion_update<Schedule>(m_exec, m_alpha, m_u, m_v, x0, x1, y0, y1);
  }

  ExecutionSpace m_exec;
  const cartesian_decomposition* m_decomposition;
  T m_alpha;
  bool m_overlap;
  view_type m_u, m_v;
  halo_exchange<Schedule, view_type, ExecutionSpace> m_halo;
  Impl::diffusion_split m_split{};
  int m_steps = 0;
};

}  // namespace loopnest

#endif
