// loopnest-mfc over MPI ranks: MFC's decomposition (decomposition.hpp) on a
// loopnest::cartesian_decomposition, each rank's case and grid, the reductions every rank takes
// part in (rank_set), and the halo exchange of the primitive variables that replaces the boundary
// conditions on the sides a neighbouring rank holds (MFC's s_populate_variables_buffers).
#ifndef LOOPNEST_MFC_DISTRIBUTED_HPP
#define LOOPNEST_MFC_DISTRIBUTED_HPP

#include "case.hpp"
#include "decomposition.hpp"
#include "grid.hpp"
#include "simulation.hpp"

#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/halo_exchange.hpp>
#include <loopnest/mpi/halo_transport.hpp>

#include <mpi.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace loopnest_mfc {

// A case spread over the ranks of a communicator: the Cartesian decomposition (MFC's ranks per
// direction; an axis wraps only when it is periodic and split, as in MFC, where a periodic
// direction on one rank copies its own cells), this rank's block, case and grid.
class distributed_case {
 public:
  // Collective; every rank throws the same case_error when no decomposition leaves each rank
  // enough cells, and loopnest's errors for the rest.
  distributed_case(MPI_Comm comm, const case_config& whole, const grid& whole_grid)
      : m_whole(whole),
        m_decomposition(make(comm, whole)),
        m_block(block_of(m_decomposition, whole.num_dims)),
        m_case(local_case(whole, m_block)),
        m_grid(local_grid(whole_grid, m_block)) {}

  const case_config& whole() const { return m_whole; }
  const case_config& local() const { return m_case; }
  const grid& local_grid_of_rank() const { return m_grid; }
  const block& local_block() const { return m_block; }
  const loopnest::cartesian_decomposition& decomposition() const { return m_decomposition; }
  int rank() const { return m_decomposition.rank(); }
  int size() const { return m_decomposition.size(); }

  // The reductions run_case takes part in, over this decomposition's ranks.
  rank_set ranks() const {
    rank_set r;
    r.rank   = rank();
    r.size   = size();
    r.global = &m_whole;
    for (int d = 0; d < 3; ++d) {
      r.offset[d] = m_block.offset[d];
    }
    MPI_Comm comm = m_decomposition.comm();
    r.min         = [comm](long long v) {
      long long out = v;
      check(MPI_Allreduce(&v, &out, 1, MPI_LONG_LONG, MPI_MIN, comm), "MPI_Allreduce");
      return out;
    };
    r.max = [comm](double v) {
      double out = v;
      check(MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
      return out;
    };
    return r;
  }

  static void check(int rc, const char* call) {
    if (rc != MPI_SUCCESS) {
      throw std::runtime_error(std::string(call) + " failed");
    }
  }

 private:
  case_config m_whole;
  loopnest::cartesian_decomposition m_decomposition;
  block m_block;
  case_config m_case;
  grid m_grid;

  static block block_of(const loopnest::cartesian_decomposition& d, int dims) {
    block b;
    for (int e = 0; e < dims; ++e) {
      b.offset[e]       = d.offset(e);
      b.extent[e]       = d.local_extent(e);
      b.neighbour[e][0] = d.neighbour(e, 0) != MPI_PROC_NULL;
      b.neighbour[e][1] = d.neighbour(e, 1) != MPI_PROC_NULL;
    }
    return b;
  }

  static loopnest::cartesian_decomposition make(MPI_Comm comm, const case_config& whole) {
    int size = 1;
    check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    const rank_grid r = mfc_rank_grid(whole, size);
    std::vector<int> global, ranks;
    std::vector<bool> periodic;
    for (int d = 0; d < whole.num_dims; ++d) {
      const axis_config& a = whole.axis[d];
      global.push_back(a.cells_minus_one + 1);
      ranks.push_back(r.ranks[d]);
      periodic.push_back(a.bc_beg == -1 && r.ranks[d] > 1);
    }
    return {comm, global, ranks, periodic};
  }
};

// run_case's setup under several ranks: the solver's primitive variables get a halo exchange
// over the decomposition, by `transport`. Collective (the exchange is made on every rank).
template <class Schedule>
struct halo_setup {
  const distributed_case* distributed;
  loopnest::halo_transport transport;

  template <class Solver>
  void operator()(Solver& solver) const {
    using fields   = typename Solver::fields;
    using exchange = loopnest::halo_exchange<Schedule, fields, typename Solver::execution_space>;
    auto halo      = std::make_shared<exchange>(typename Solver::execution_space(),
                                           distributed->decomposition(), solver.state(), transport);
    solver.set_halo_exchange([halo](const fields& f) { halo->exchange(f); });
  }
};

}  // namespace loopnest_mfc

#endif
