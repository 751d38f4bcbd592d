// loopnest::halo_exchange on the ranks of the test's mpirun (1, 2 or 4): ghosts filled with the
// neighbours' cells (checked cell by cell against the global field), a stencil that reads them
// bit-identical to the same stencil on one rank, and the errors every rank must see alike.
#include "mpi_checks.hpp"

#include <loopnest/field_set.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/ghost_fill.hpp>
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/halo_exchange.hpp>
#include <loopnest/schedule.hpp>

#include <gtest/gtest.h>
#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

using loopnest::cartesian_decomposition;
using loopnest::halo_region;
using loopnest::halo_transport;
using loopnest_test::expect_same_error_on_every_rank;
using loopnest_test::world_rank;
using loopnest_test::world_size;

using exec_space = Kokkos::DefaultExecutionSpace;

struct grid_case {
  std::vector<int> global, ranks;
  std::vector<bool> periodic;
  int ghost;
};

// Decompositions that every rank count of the tests (1, 2, 4) can run: 1D, 2D and 3D, uneven
// blocks, periodic and not, odd ghost depths.
std::vector<grid_case> grid_cases() {
  const int p = world_size();
  return {
      {{17}, {p}, {true}, 4},
      {{13}, {p}, {false}, 3},
      {{17, 10}, {0, 0}, {true, false}, 1},
      {{17, 10}, {p, 1}, {false, true}, 3},
      {{9, 8, 7}, {0, 0, 0}, {true, true, true}, 3},
      {{9, 8, 7}, {1, 1, p}, {false, true, false}, 1},
  };
}

// The transports this build, MPI library and placement of ranks can run (a CUDA build with an
// MPI that does not read device memory has no mpi_device; a build without NCCL, or ranks sharing
// a GPU, no nccl).
std::vector<halo_transport> available_transports() {
  std::vector<halo_transport> all;
  for (const auto t : loopnest::halo_transports) {
    if (loopnest::halo_transport_available<exec_space>(t, MPI_COMM_WORLD)) {
      all.push_back(t);
    }
  }
  return all;
}

std::string describe(const grid_case& c, halo_region r, halo_transport t) {
  std::string s = "global";
  for (std::size_t d = 0; d < c.global.size(); ++d) {
    s += " " + std::to_string(c.global[d]) + (c.periodic[d] ? "p" : "");
  }
  return s + ", ghost " + std::to_string(c.ghost) +
         (r == halo_region::faces ? ", faces" : ", edges and corners") + ", " + name(t);
}

// A different exact value for every (variable, global cell), and one no exchange writes.
double value(int v, const int* g) {
  return v * 1e6 + g[0] * 1e4 + g[1] * 1e2 + g[2] + 0.25;
}
constexpr double poison = -7.0e300;

template <class Layout>
using fields_type = loopnest::field_set<double, Layout>;

template <class Layout>
fields_type<Layout> make_fields(const cartesian_decomposition& d, int nvar, int ghost) {
  const int n0 = d.local_extent(0), n1 = d.local_extent(1), n2 = d.local_extent(2);
  switch (d.dims()) {
    case 1:
      return {"f", nvar, {n0}, ghost};
    case 2:
      return {"f", nvar, {n0, n1}, ghost};
    default:
      return {"f", nvar, {n0, n1, n2}, ghost};
  }
}

// Every cell of f on the host, ghosts included, as fill(v, local index) says.
template <class Layout, class Fill>
void fill_fields(const fields_type<Layout>& f, const Fill& fill) {
  for (int v = 0; v < f.nvar(); ++v) {
    auto h = Kokkos::create_mirror_view(f.field(v));
    for (int k = f.lower(2); k < f.upper(2); ++k) {
      for (int j = f.lower(1); j < f.upper(1); ++j) {
        for (int i = f.lower(0); i < f.upper(0); ++i) {
          const int x[3]                                    = {i, j, k};
          h(i - f.lower(0), j - f.lower(1), k - f.lower(2)) = fill(v, x);
        }
      }
    }
    Kokkos::deep_copy(f.field(v), h);
  }
}

// The global index of local cell x, wrapped on periodic axes; whether it lies in the global box.
bool global_index(const cartesian_decomposition& d, const int* x, int* g) {
  bool inside = true;
  for (int e = 0; e < 3; ++e) {
    g[e]        = e < d.dims() ? d.offset(e) + x[e] : 0;
    const int n = d.global_extent(e);
    if (e < d.dims() && d.periodic(e)) {
      g[e] = ((g[e] % n) + n) % n;
    }
    inside = inside && g[e] >= 0 && g[e] < (e < d.dims() ? n : 1);
  }
  return inside;
}

// What an exchange must leave in local cell x: its own value in the interior; in a ghost cell
// the global field's value where the exchange fills it (a neighbour on every side the cell lies
// beyond, and, beyond more than one side, edges and corners asked for), poison elsewhere.
double expected_after_exchange(const cartesian_decomposition& d, halo_region r, int v,
                               const int* x) {
  int beyond   = 0;
  bool reached = true;
  for (int e = 0; e < d.dims(); ++e) {
    if (x[e] < 0 || x[e] >= d.local_extent(e)) {
      ++beyond;
      reached = reached && d.neighbour(e, x[e] < 0 ? 0 : 1) != MPI_PROC_NULL;
    }
  }
  int g[3] = {};
  global_index(d, x, g);
  if (beyond == 0 || (reached && (beyond == 1 || r == halo_region::faces_edges_corners))) {
    return value(v, g);
  }
  return poison;
}

template <class Layout>
long count_wrong_ghosts(const cartesian_decomposition& d, halo_region r,
                        const fields_type<Layout>& f, std::string& first) {
  long wrong = 0;
  for (int v = 0; v < f.nvar(); ++v) {
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.field(v));
    for (int k = f.lower(2); k < f.upper(2); ++k) {
      for (int j = f.lower(1); j < f.upper(1); ++j) {
        for (int i = f.lower(0); i < f.upper(0); ++i) {
          const int x[3]    = {i, j, k};
          const double want = expected_after_exchange(d, r, v, x);
          const double got  = h(i - f.lower(0), j - f.lower(1), k - f.lower(2));
          if (std::memcmp(&want, &got, sizeof want) != 0) {
            if (wrong++ == 0) {
              first = "v " + std::to_string(v) + " cell (" + std::to_string(i) + ", " +
                      std::to_string(j) + ", " + std::to_string(k) + "): " + std::to_string(got) +
                      " instead of " + std::to_string(want);
            }
          }
        }
      }
    }
  }
  return wrong;
}

template <class Layout>
void check_ghost_fill(const grid_case& c, halo_region r, halo_transport t, int nvar) {
  const cartesian_decomposition d(MPI_COMM_WORLD, c.global, c.ranks, c.periodic);
  const auto f = make_fields<Layout>(d, nvar, c.ghost);
  fill_fields(f, [&](int v, const int* x) {
    int g[3]   = {};
    bool inner = true;
    for (int e = 0; e < d.dims(); ++e) {
      inner = inner && x[e] >= 0 && x[e] < d.local_extent(e);
    }
    global_index(d, x, g);
    return inner ? value(v, g) : poison;
  });
  loopnest::halo_exchange<loopnest::collapse3, fields_type<Layout>> halo(exec_space(), d, f, t, r);
  // Twice: the second exchange of the same fields must leave the same cells.
  for (int n = 0; n < 2; ++n) {
    halo.exchange(f);
    std::string first;
    EXPECT_EQ(count_wrong_ghosts(d, r, f, first), 0)
        << describe(c, r, t) << ", rank " << world_rank() << ", exchange " << n << ": " << first;
  }
}

TEST(halo_exchange, fills_faces_and_only_faces_from_the_neighbours) {
  for (const auto& c : grid_cases()) {
    for (const auto t : available_transports()) {
      check_ghost_fill<Kokkos::LayoutLeft>(c, halo_region::faces, t, 3);
    }
  }
}

TEST(halo_exchange, fills_edges_and_corners_axis_by_axis) {
  const auto transports = available_transports();
  for (const auto& c : grid_cases()) {
    check_ghost_fill<Kokkos::LayoutLeft>(c, halo_region::faces_edges_corners, transports.front(),
                                         2);
    check_ghost_fill<Kokkos::LayoutRight>(c, halo_region::faces_edges_corners, transports.back(),
                                          1);
  }
}

// One step of a stencil that reads every ghost layer along each axis and, with edges and
// corners, the cells g steps along the diagonal both ways, and the next variable's cell.
template <class Ref>
void stencil_step(const Ref& in, const Ref& out, int dims, int ghost, bool corners, int nvar,
                  const loopnest::box<3>& interior) {
  loopnest::for_each_cell_var<loopnest::collapse3>(
      exec_space(), interior, nvar, KOKKOS_LAMBDA(int i, int j, int k, int v) {
        double s = 0.4 * in(v, i, j, k) + 0.01 * in((v + 1) % nvar, i, j, k);
        for (int l = 1; l <= ghost; ++l) {
          const double c = 0.05 / l;
          s += c * (in(v, i - l, j, k) + in(v, i + l, j, k));
          if (dims > 1) {
            s += c * (in(v, i, j - l, k) + in(v, i, j + l, k));
          }
          if (dims > 2) {
            s += c * (in(v, i, j, k - l) + in(v, i, j, k + l));
          }
        }
        if (corners) {
          const int gj = dims > 1 ? ghost : 0, gk = dims > 2 ? ghost : 0;
          s += 0.02 * (in(v, i - ghost, j - gj, k - gk) + in(v, i + ghost, j + gj, k + gk));
        }
        out(v, i, j, k) = s;
      });
}

// `steps` exchanges and stencil steps on d's blocks; fields start as the global field, ghosts
// beyond the global box hold the same function of their (unwrapped) global index on every rank.
fields_type<Kokkos::LayoutLeft> run_stencil(const cartesian_decomposition& d, int nvar, int ghost,
                                            halo_region r, halo_transport t, int steps) {
  auto a           = make_fields<Kokkos::LayoutLeft>(d, nvar, ghost);
  auto b           = make_fields<Kokkos::LayoutLeft>(d, nvar, ghost);
  const auto start = [&](int v, const int* x) {
    int g[3] = {};
    for (int e = 0; e < 3; ++e) {
      g[e] = e < d.dims() ? d.offset(e) + x[e] : 0;
    }
    return value(v, g);
  };
  fill_fields(a, start);
  fill_fields(b, start);
  loopnest::halo_exchange<loopnest::collapse3, fields_type<Kokkos::LayoutLeft>> halo(exec_space(),
                                                                                     d, a, t, r);
  for (int s = 0; s < steps; ++s) {
    halo.exchange(a);
    stencil_step(a.ref(), b.ref(), d.dims(), ghost, r == halo_region::faces_edges_corners, nvar,
                 a.interior());
    std::swap(a, b);
  }
  Kokkos::fence();
  return a;
}

TEST(halo_exchange, stencil_steps_are_bit_identical_to_one_rank) {
  constexpr int steps = 3, nvar = 2;
  for (const auto& c : grid_cases()) {
    for (const auto r : {halo_region::faces, halo_region::faces_edges_corners}) {
      const auto transports = available_transports();
      const auto t          = r == halo_region::faces ? transports.front() : transports.back();
      const cartesian_decomposition d(MPI_COMM_WORLD, c.global, c.ranks, c.periodic);
      const cartesian_decomposition one(MPI_COMM_SELF, c.global, {}, c.periodic);
      const auto mine = run_stencil(d, nvar, c.ghost, r, t, steps);
      const auto all  = run_stencil(one, nvar, c.ghost, r, t, steps);
      long wrong      = 0;
      for (int v = 0; v < nvar; ++v) {
        const auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mine.field(v));
        const auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), all.field(v));
        for (int k = 0; k < d.local_extent(2); ++k) {
          for (int j = 0; j < d.local_extent(1); ++j) {
            for (int i = 0; i < d.local_extent(0); ++i) {
              const int x[3] = {i, j, k};
              int g[3]       = {};
              global_index(d, x, g);
              const double got  = h(i - mine.lower(0), j - mine.lower(1), k - mine.lower(2));
              const double want = hr(g[0] - all.lower(0), g[1] - all.lower(1), g[2] - all.lower(2));
              wrong += std::memcmp(&got, &want, sizeof got) != 0 ? 1 : 0;
            }
          }
        }
      }
      EXPECT_EQ(wrong, 0) << describe(c, r, t) << ", rank " << world_rank();
    }
  }
}

TEST(halo_exchange, start_and_finish_split_an_exchange) {
  const grid_case c{{17, 10}, {0, 0}, {true, true}, 3};
  const cartesian_decomposition d(MPI_COMM_WORLD, c.global, c.ranks, c.periodic);
  const auto f = make_fields<Kokkos::LayoutLeft>(d, 2, c.ghost);
  fill_fields(f, [&](int v, const int* x) {
    int g[3] = {};
    const bool inner =
        x[0] >= 0 && x[0] < d.local_extent(0) && x[1] >= 0 && x[1] < d.local_extent(1);
    global_index(d, x, g);
    return inner ? value(v, g) : poison;
  });
  loopnest::halo_exchange<loopnest::flat, fields_type<Kokkos::LayoutLeft>> halo(exec_space(), d, f);
  halo.start(f);
  EXPECT_THROW(halo.start(f), std::logic_error);
  halo.finish(f);
  EXPECT_THROW(halo.finish(f), std::logic_error);
  std::string first;
  EXPECT_EQ(count_wrong_ghosts(d, halo_region::faces, f, first), 0) << first;
}

// On a rank alone with every axis periodic, an exchange fills the slabs loopnest::fill_ghosts
// fills (faces: ghost_span::face; edges and corners: with_corners, axis after axis) with the same
// bits, and leaves the same cells poisoned.
TEST(halo_exchange, on_one_periodic_rank_writes_what_fill_ghosts_writes) {
  using fields = fields_type<Kokkos::LayoutLeft>;
  for (const auto& c : grid_cases()) {
    const std::vector<int> one(c.global.size(), 1);
    const std::vector<bool> periodic(c.global.size(), true);
    const cartesian_decomposition d(MPI_COMM_SELF, c.global, one, periodic);
    for (const auto r : {halo_region::faces, halo_region::faces_edges_corners}) {
      const auto exchanged = make_fields<Kokkos::LayoutLeft>(d, 2, c.ghost);
      const auto filled    = make_fields<Kokkos::LayoutLeft>(d, 2, c.ghost);
      const auto start     = [&](int v, const int* x) {
        int g[3] = {};
        return global_index(d, x, g) && x[0] == g[0] && x[1] == g[1] && x[2] == g[2] ? value(v, g)
                                                                                         : poison;
      };
      fill_fields(exchanged, start);
      fill_fields(filled, start);
      loopnest::halo_exchange<loopnest::collapse3, fields>(exec_space(), d, exchanged,
                                                           halo_transport::mpi_host, r)
          .exchange(exchanged);
      loopnest::ghost_rules rules;
      for (int a = 0; a < d.dims(); ++a) {
        rules.face[a][0] = rules.face[a][1] = loopnest::ghost_rule::periodic;
      }
      rules.span =
          r == halo_region::faces ? loopnest::ghost_span::face : loopnest::ghost_span::with_corners;
      loopnest::fill_ghosts<loopnest::flat>(exec_space(), filled, rules);
      long wrong = 0;
      for (int v = 0; v < 2; ++v) {
        const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), exchanged.field(v));
        const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), filled.field(v));
        for (std::size_t n = 0; n < a.size(); ++n) {
          wrong += std::memcmp(a.data() + n, b.data() + n, sizeof(double)) != 0;
        }
      }
      EXPECT_EQ(wrong, 0) << describe(c, r, halo_transport::mpi_host);
    }
  }
}

TEST(halo_exchange, refuses_a_block_thinner_than_the_ghost_depth) {
  const int p = world_size();
  const cartesian_decomposition d(MPI_COMM_WORLD, {2 * p}, {p}, {true});
  expect_same_error_on_every_rank<std::invalid_argument>(
      [&] {
        const auto f = make_fields<Kokkos::LayoutLeft>(d, 1, 3);
        loopnest::halo_exchange<loopnest::collapse3, fields_type<Kokkos::LayoutLeft>> h(
            exec_space(), d, f);
      },
      "loopnest::halo_exchange: rank 0: its block has 2 cells along axis 0, fewer than the ghost "
      "depth 3 its neighbours need");
}

TEST(halo_exchange, refuses_fields_that_are_not_the_ranks_block) {
  const cartesian_decomposition d(MPI_COMM_WORLD, {12, 9}, {0, 0}, {false, false});
  expect_same_error_on_every_rank<std::invalid_argument>(
      [&] {
        const fields_type<Kokkos::LayoutLeft> f(
            "f", 1, {d.local_extent(0) + (world_rank() == 0 ? 1 : 0), d.local_extent(1)}, 1);
        loopnest::halo_exchange<loopnest::collapse3, fields_type<Kokkos::LayoutLeft>> h(
            exec_space(), d, f);
      },
      "loopnest::halo_exchange: rank 0: the fields have " + std::to_string(d.local_extent(0) + 1) +
          " interior cells along axis 0 but this rank's block has " +
          std::to_string(d.local_extent(0)));
}

TEST(halo_exchange, refuses_field_sets_that_differ_across_ranks) {
  if (world_size() == 1) {
    return;  // one rank cannot disagree with itself
  }
  const cartesian_decomposition d(MPI_COMM_WORLD, {12, 9}, {0, 0}, {false, false});
  expect_same_error_on_every_rank<std::invalid_argument>(
      [&] {
        const auto f = make_fields<Kokkos::LayoutLeft>(d, world_rank() == 1 ? 3 : 2, 1);
        loopnest::halo_exchange<loopnest::collapse3, fields_type<Kokkos::LayoutLeft>> h(
            exec_space(), d, f);
      },
      "loopnest::halo_exchange: the fields (variables, ghost depth, dimensions, element type, "
      "layout) or the transport and region differ across ranks (value 0 is 2 on some rank and 3 "
      "on another)");
}

// Every transport this build or MPI library lacks (nccl without NCCL, mpi_device with an MPI that
// does not read device memory) is refused by every rank, by name; so is nccl on ranks that share
// a GPU (more ranks than GPUs on a node), which NCCL itself refuses.
TEST(halo_exchange, refuses_a_transport_not_available_here_naming_it) {
  const cartesian_decomposition d(MPI_COMM_WORLD, {12, 9});
  for (const auto t : loopnest::halo_transports) {
    if (loopnest::halo_transport_available<exec_space>(t, MPI_COMM_WORLD)) {
      continue;
    }
    const bool built = loopnest::halo_transport_available<exec_space>(t);
    expect_same_error_on_every_rank<std::runtime_error>(
        [&] {
          const auto f = make_fields<Kokkos::LayoutLeft>(d, 1, 1);
          loopnest::halo_exchange<loopnest::collapse3, fields_type<Kokkos::LayoutLeft>> h(
              exec_space(), d, f, t);
        },
        std::string("loopnest::halo_exchange: transport ") + name(t) +
            (built ? " needs a GPU of its own on every rank" : " is not available"));
  }
}

TEST(halo_transport, names_parse_back) {
  for (const auto t : loopnest::halo_transports) {
    EXPECT_EQ(loopnest::parse_halo_transport(name(t)), t);
  }
  EXPECT_THROW(loopnest::parse_halo_transport("tcp"), std::invalid_argument);
  // A host backend's buffers are host memory: mpi_device hands them to any MPI.
  EXPECT_EQ(loopnest::halo_transport_available<Kokkos::DefaultHostExecutionSpace>(
                halo_transport::mpi_device),
            true);
  EXPECT_EQ(
      loopnest::halo_transport_available<Kokkos::DefaultHostExecutionSpace>(halo_transport::nccl),
      false);
  // The collective answer agrees on every rank and never grants what the build lacks.
  for (const auto t : loopnest::halo_transports) {
    const bool here = loopnest::halo_transport_available<exec_space>(t, MPI_COMM_WORLD);
    EXPECT_TRUE(loopnest_test::same_on_every_rank(here ? 1L : 0L)) << name(t);
    EXPECT_TRUE(!here || loopnest::halo_transport_available<exec_space>(t)) << name(t);
  }
}

}  // namespace
