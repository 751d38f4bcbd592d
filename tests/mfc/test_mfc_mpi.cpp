// loopnest-mfc over MPI ranks (examples/mfc/decomposition.hpp, distributed.hpp): after several
// SSP-RK3 steps, the state gathered from every rank's block is the one-rank state bit for bit,
// in 1D, 2D and 3D, split evenly and unevenly, with periodic, reflective and extrapolated
// boundaries, WENO5 and WENO3, FP64 and FP32. Runs under mpirun with 1, 2 and 4 ranks.
#include <gtest/gtest.h>
#include <mpi.h>
#include <decomposition.hpp>
#include <distributed.hpp>

#include <loopnest/schedule.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

using loopnest_mfc::case_config;
using loopnest_mfc::host_fields;

// Two fluids (water-like and air-like) on [0, 1]^dims with the given cells and boundaries.
case_config two_fluid_case(int dims, const int (&cells)[3], const int (&bc)[3][2], int weno_order) {
  case_config c;
  c.num_dims    = dims;
  c.num_fluids  = 2;
  c.weno_order  = weno_order;
  c.mapped_weno = dims == 2;
  c.mpp_lim     = dims == 3;
  c.dt          = 1.0e-8;  // a CFL number of about 0.2 on the finest grid (water: 1600 m/s)
  for (int d = 0; d < dims; ++d) {
    c.axis[d].cells_minus_one = cells[d] - 1;
    c.axis[d].beg             = 0.0;
    c.axis[d].end             = 1.0e-2;
    c.axis[d].bc_beg          = bc[d][0];
    c.axis[d].bc_end          = bc[d][1];
  }
  c.axis[0].stretch  = dims == 3;
  c.axis[0].a        = 2.0;
  c.axis[0].x_a      = 3.0e-3;
  c.axis[0].x_b      = 7.0e-3;
  c.fluids[0].gamma  = 1.0 / (4.4 - 1.0);
  c.fluids[0].pi_inf = 4.4 * 6.0e8 / (4.4 - 1.0);
  c.fluids[1].gamma  = 1.0 / (1.4 - 1.0);
  c.fluids[1].pi_inf = 0.0;
  return c;
}

// A primitive state on the whole grid: a bubble of air in water, a pressure pulse and a shear
// flow, so that every variable changes in every direction.
host_fields whole_state(const case_config& c, const loopnest_mfc::grid& g) {
  const loopnest_mfc::equation_index ix = loopnest_mfc::equations_of(c);
  host_fields prim(c.m() + 1, c.n() + 1, c.p() + 1, c.sys_size(), 0.0);
  for (int k = 0; k <= c.p(); ++k) {
    for (int j = 0; j <= c.n(); ++j) {
      for (int i = 0; i <= c.m(); ++i) {
        const double x  = g.axis[0].x_cc(i) / 1.0e-2;
        const double y  = c.num_dims > 1 ? g.axis[1].x_cc(j) / 1.0e-2 : 0.5;
        const double z  = c.num_dims > 2 ? g.axis[2].x_cc(k) / 1.0e-2 : 0.5;
        const double r2 = (x - 0.45) * (x - 0.45) + (y - 0.55) * (y - 0.55) + (z - 0.5) * (z - 0.5);
        const double water        = r2 < 0.04 ? 1.0e-6 : 1.0 - 1.0e-6;
        prim(ix.cont(0), i, j, k) = 1000.0 * water;
        prim(ix.cont(1), i, j, k) = 1.2 * (1.0 - water);
        prim(ix.adv(0), i, j, k)  = water;
        prim(ix.adv(1), i, j, k)  = 1.0 - water;
        prim(ix.mom(0), i, j, k)  = 10.0 * std::sin(6.0 * y + z);
        if (c.num_dims > 1) {
          prim(ix.mom(1), i, j, k) = 5.0 * std::cos(5.0 * x);
        }
        if (c.num_dims > 2) {
          prim(ix.mom(2), i, j, k) = 3.0 * std::sin(4.0 * x + y);
        }
        prim(ix.energy(), i, j, k) = 1.0e5 * (1.0 + 2.0 * std::exp(-60.0 * r2));
      }
    }
  }
  return prim;
}

host_fields block_of(const host_fields& whole, const loopnest_mfc::block& b) {
  host_fields out(b.extent[0], b.extent[1], b.extent[2], whole.nvar, 0.0);
  for (int v = 0; v < whole.nvar; ++v) {
    for (int k = 0; k < out.nz; ++k) {
      for (int j = 0; j < out.ny; ++j) {
        for (int i = 0; i < out.nx; ++i) {
          out(v, i, j, k) = whole(v, i + b.offset[0], j + b.offset[1], k + b.offset[2]);
        }
      }
    }
  }
  return out;
}

// `steps` steps from the primitive state on (c, g); with a distributed case, its halo exchange.
template <class T, class Schedule>
host_fields advance(const case_config& c, const loopnest_mfc::grid& g, const host_fields& prim,
                    int steps, const loopnest_mfc::distributed_case* distributed) {
  loopnest_mfc::five_equation_solver<T> solver(Kokkos::DefaultExecutionSpace(), c, g, false);
  if (distributed != nullptr) {
    loopnest_mfc::halo_setup<Schedule>{distributed, loopnest::halo_transport::mpi_host}(solver);
  }
  solver.load(loopnest_mfc::conservative_of<T>(c, prim));
  for (int n = 0; n < steps; ++n) {
    solver.template step<Schedule>();
  }
  return solver.conservative();
}

// Every rank's block put together on rank 0 (empty elsewhere).
host_fields gather(const host_fields& mine, const loopnest_mfc::distributed_case& d) {
  const case_config& w = d.whole();
  const int size       = d.size();
  int geometry[6]      = {};
  for (int e = 0; e < 3; ++e) {
    geometry[e]     = d.local_block().offset[e];
    geometry[3 + e] = d.local_block().extent[e];
  }
  std::vector<int> all(6 * static_cast<std::size_t>(size));
  MPI_Gather(geometry, 6, MPI_INT, all.data(), 6, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> counts(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  int total = 0;
  for (int r = 0; r < size; ++r) {
    const int* e                        = &all[6 * static_cast<std::size_t>(r) + 3];
    counts[static_cast<std::size_t>(r)] = e[0] * e[1] * e[2] * mine.nvar;
    displs[static_cast<std::size_t>(r)] = total;
    total += counts[static_cast<std::size_t>(r)];
  }
  std::vector<double> values(static_cast<std::size_t>(d.rank() == 0 ? total : 0));
  MPI_Gatherv(mine.values.data(), static_cast<int>(mine.values.size()), MPI_DOUBLE, values.data(),
              counts.data(), displs.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (d.rank() != 0) {
    return {};
  }
  host_fields out(w.m() + 1, w.n() + 1, w.p() + 1, mine.nvar, 0.0);
  for (int r = 0; r < size; ++r) {
    const int* g = &all[6 * static_cast<std::size_t>(r)];
    host_fields part(g[3], g[4], g[5], mine.nvar, 0.0);
    std::memcpy(part.values.data(), values.data() + displs[static_cast<std::size_t>(r)],
                part.values.size() * sizeof(double));
    for (int v = 0; v < out.nvar; ++v) {
      for (int k = 0; k < part.nz; ++k) {
        for (int j = 0; j < part.ny; ++j) {
          for (int i = 0; i < part.nx; ++i) {
            out(v, i + g[0], j + g[1], k + g[2]) = part(v, i, j, k);
          }
        }
      }
    }
  }
  return out;
}

template <class T>
void check_ranks_agree(const case_config& whole, int steps) {
  const loopnest_mfc::grid whole_grid = loopnest_mfc::generate_grid(whole);
  const host_fields prim              = whole_state(whole, whole_grid);
  const loopnest_mfc::distributed_case d(MPI_COMM_WORLD, whole, whole_grid);
  const host_fields mine = advance<T, loopnest::collapse3>(
      d.local(), d.local_grid_of_rank(), block_of(prim, d.local_block()), steps, &d);
  const host_fields split = gather(mine, d);

  if (d.rank() != 0) {
    return;
  }
  const host_fields one = advance<T, loopnest::collapse3>(whole, whole_grid, prim, steps, nullptr);
  ASSERT_EQ(split.values.size(), one.values.size());
  EXPECT_EQ(std::memcmp(split.values.data(), one.values.data(), one.values.size() * sizeof(double)),
            0)
      << "on " << d.size() << " ranks";
  // The run stayed physical and did something: finite, and not the initial state.
  for (const double v : one.values) {
    ASSERT_TRUE(std::isfinite(v));
  }
  EXPECT_NE(
      std::memcmp(one.values.data(), loopnest_mfc::conservative_of<T>(whole, prim).values.data(),
                  one.values.size() * sizeof(double)),
      0);
}

TEST(mfc_mpi, one_dimension_weno5_fp64) {
  check_ranks_agree<double>(two_fluid_case(1, {100, 1, 1}, {{-3, -2}, {}, {}}, 5), 10);
}

TEST(mfc_mpi, one_dimension_periodic_fp32) {
  check_ranks_agree<float>(two_fluid_case(1, {103, 1, 1}, {{-1, -1}, {}, {}}, 5), 10);
}

TEST(mfc_mpi, two_dimensions_uneven_weno5_mapped) {
  check_ranks_agree<double>(two_fluid_case(2, {53, 51, 1}, {{-1, -1}, {-2, -3}, {}}, 5), 6);
}

TEST(mfc_mpi, three_dimensions_uneven_weno3_stretched) {
  check_ranks_agree<double>(two_fluid_case(3, {31, 30, 17}, {{-2, -3}, {-3, -2}, {-1, -1}}, 3), 4);
}

// MFC's choice of ranks per direction for the port's performance case and small grids.
TEST(mfc_mpi, ranks_per_direction_follow_mfc) {
  case_config c = two_fluid_case(3, {201, 201, 201}, {{-3, -3}, {-3, -3}, {-3, -3}}, 5);
  const auto r2 = loopnest_mfc::mfc_rank_grid(c, 2);
  EXPECT_EQ(r2.ranks[0] * 100 + r2.ranks[1] * 10 + r2.ranks[2], 211);
  const auto r8 = loopnest_mfc::mfc_rank_grid(c, 8);
  EXPECT_EQ(r8.ranks[0] * 100 + r8.ranks[1] * 10 + r8.ranks[2], 222);
  const case_config flat = two_fluid_case(2, {100, 30, 1}, {{-3, -3}, {-3, -3}, {}}, 5);
  const auto f4          = loopnest_mfc::mfc_rank_grid(flat, 4);
  EXPECT_EQ(f4.ranks[0] * 10 + f4.ranks[1], 41);
  // 30 cells along y cannot be split for WENO5 (25 cells a rank), nor 100 along x over 8.
  EXPECT_THROW(loopnest_mfc::mfc_rank_grid(flat, 8), loopnest_mfc::case_error);
}

}  // namespace
