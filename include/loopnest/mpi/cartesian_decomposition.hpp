// loopnest::cartesian_decomposition: a global box of cells split into one block per MPI rank on
// a Cartesian process grid (MPI_Cart_create), periodic or not per axis. The split is MFC's: along
// an axis of n cells over p ranks every rank gets n / p cells and the first n % p ranks one more.
#ifndef LOOPNEST_MPI_CARTESIAN_DECOMPOSITION_HPP
#define LOOPNEST_MPI_CARTESIAN_DECOMPOSITION_HPP

#include <loopnest/mpi/detail/mpi_error.hpp>

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace loopnest {

class cartesian_decomposition {
 public:
  // comm: the ranks to spread the box over (every rank of comm calls this, with the same
  // arguments). global: cells per axis, 1 to 3 axes. ranks: ranks per axis, empty or with 0
  // entries for MPI_Dims_create to choose. periodic: per axis, empty for none. Collective; every
  // rank throws the same std::invalid_argument for 0 or more than 3 axes, an extent below 1, a
  // ranks or periodic list of another length, rank counts whose product is not comm's size (or
  // does not divide it, with 0 entries left to choose), more ranks than cells along an axis, or
  // arguments that differ across ranks.
  cartesian_decomposition(MPI_Comm comm, std::vector<int> global, std::vector<int> ranks = {},
                          std::vector<bool> periodic = {}) {
    constexpr const char* where = "loopnest::cartesian_decomposition";
    const int size              = Impl::comm_size(comm);
    const auto dims             = static_cast<int>(global.size());
    if (ranks.empty()) {
      ranks.assign(global.size(), 0);
    }
    if (periodic.empty()) {
      periodic.assign(global.size(), false);
    }
    Impl::throw_if_any_rank_failed(comm, check(where, size, global, ranks, periodic));
    // Every rank checks its own arguments above; these must also agree with the other ranks'.
    int signature[1 + 3 * 3] = {dims};
    for (int d = 0; d < dims; ++d) {
      signature[1 + 3 * d] = global[d];
      signature[2 + 3 * d] = ranks[d];
      signature[3 + 3 * d] = periodic[d] ? 1 : 0;
    }
    Impl::check_same_on_every_rank(comm, where, "the global extents, ranks or periodic axes",
                                   signature);
    Impl::mpi_check(MPI_Dims_create(size, dims, ranks.data()), "MPI_Dims_create");
    Impl::throw_if_any_rank_failed(comm, check_cells(where, global, ranks));
    int wrap[3] = {};
    for (int d = 0; d < dims; ++d) {
      wrap[d] = periodic[d] ? 1 : 0;
    }
    // No reordering: rank r of comm stays rank r here, so that a caller's rank-0 output stays
    // on the rank it expects.
    Impl::mpi_check(MPI_Cart_create(comm, dims, ranks.data(), wrap, 0, &m_comm), "MPI_Cart_create");
    Impl::mpi_check(MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    m_dims = dims;
    m_rank = Impl::comm_rank(m_comm);
    m_size = size;
    Impl::mpi_check(MPI_Cart_coords(m_comm, m_rank, dims, m_coord), "MPI_Cart_coords");
    for (int d = 0; d < dims; ++d) {
      m_global[d]   = global[d];
      m_ranks[d]    = ranks[d];
      m_periodic[d] = periodic[d];
      Impl::mpi_check(MPI_Cart_shift(m_comm, d, 1, &m_neighbour[d][0], &m_neighbour[d][1]),
                      "MPI_Cart_shift");
    }
  }

  cartesian_decomposition(const cartesian_decomposition&)            = delete;
  cartesian_decomposition& operator=(const cartesian_decomposition&) = delete;
  cartesian_decomposition(cartesian_decomposition&& other) noexcept { *this = std::move(other); }
  cartesian_decomposition& operator=(cartesian_decomposition&& other) noexcept {
    if (this != &other) {
      release();
      m_comm = std::exchange(other.m_comm, MPI_COMM_NULL);
      m_dims = other.m_dims;
      m_rank = other.m_rank;
      m_size = other.m_size;
      for (int d = 0; d < 3; ++d) {
        m_global[d]       = other.m_global[d];
        m_ranks[d]        = other.m_ranks[d];
        m_coord[d]        = other.m_coord[d];
        m_periodic[d]     = other.m_periodic[d];
        m_neighbour[d][0] = other.m_neighbour[d][0];
        m_neighbour[d][1] = other.m_neighbour[d][1];
      }
    }
    return *this;
  }
  ~cartesian_decomposition() { release(); }

  // The Cartesian communicator (rank numbering as in the comm it was made from).
  MPI_Comm comm() const { return m_comm; }
  int rank() const { return m_rank; }
  int size() const { return m_size; }
  int dims() const { return m_dims; }

  // Along axis d: the global cells, the ranks, this rank's coordinate, whether the axis wraps.
  // Axes from dims() to 2 have one cell and one rank.
  int global_extent(int d) const { return m_global[d]; }
  int ranks(int d) const { return m_ranks[d]; }
  int coord(int d) const { return m_coord[d]; }
  bool periodic(int d) const { return m_periodic[d]; }

  // This rank's block along axis d: its first global cell and its number of cells.
  int offset(int d) const { return block_offset(d, m_coord[d]); }
  int local_extent(int d) const { return block_extent(d, m_coord[d]); }
  // The block of the rank at coordinate c along axis d.
  int block_offset(int d, int c) const {
    const int base = m_global[d] / m_ranks[d], extra = m_global[d] % m_ranks[d];
    return c * base + (c < extra ? c : extra);
  }
  int block_extent(int d, int c) const {
    return m_global[d] / m_ranks[d] + (c < m_global[d] % m_ranks[d] ? 1 : 0);
  }

  // The rank next to this one along axis d, below (side 0) or above (side 1); MPI_PROC_NULL at
  // the edge of an axis that does not wrap.
  int neighbour(int d, int side) const { return m_neighbour[d][side]; }

  // The rank whose block holds the cells at coordinates c (one per axis).
  int rank_at(const int* c) const {
    int r = 0;
    Impl::mpi_check(MPI_Cart_rank(m_comm, c, &r), "MPI_Cart_rank");
    return r;
  }

 private:
  static Impl::rank_error check(const char* where, int size, const std::vector<int>& global,
                                const std::vector<int>& ranks, const std::vector<bool>& periodic) {
    const std::string w = std::string(where) + ": ";
    if (global.empty() || global.size() > 3) {
      return Impl::refuse(w + std::to_string(global.size()) +
                          " global extents given; a box has 1 to 3 axes");
    }
    if (ranks.size() != global.size()) {
      return Impl::refuse(w + "ranks has " + std::to_string(ranks.size()) + " entries for " +
                          std::to_string(global.size()) + " axes");
    }
    if (periodic.size() != global.size()) {
      return Impl::refuse(w + "periodic has " + std::to_string(periodic.size()) + " entries for " +
                          std::to_string(global.size()) + " axes");
    }
    long fixed   = 1;
    bool chooses = false;
    std::string spelled;
    for (std::size_t d = 0; d < global.size(); ++d) {
      if (global[d] < 1) {
        return Impl::refuse(w + "global[" + std::to_string(d) + "] = " + std::to_string(global[d]) +
                            " but it must be at least 1");
      }
      if (ranks[d] < 0) {
        return Impl::refuse(w + "ranks[" + std::to_string(d) + "] = " + std::to_string(ranks[d]) +
                            " is negative");
      }
      spelled += (d > 0 ? "x" : "") + (ranks[d] == 0 ? std::string("?") : std::to_string(ranks[d]));
      chooses = chooses || ranks[d] == 0;
      fixed *= ranks[d] == 0 ? 1 : ranks[d];
    }
    if (chooses ? size % fixed != 0 : fixed != size) {
      return Impl::refuse(w + "ranks " + spelled + " do not factor the " + std::to_string(size) +
                          " ranks of the communicator");
    }
    return {};
  }

  static Impl::rank_error check_cells(const char* where, const std::vector<int>& global,
                                      const std::vector<int>& ranks) {
    for (std::size_t d = 0; d < global.size(); ++d) {
      if (ranks[d] > global[d]) {
        return Impl::refuse(std::string(where) + ": " + std::to_string(ranks[d]) +
                            " ranks along axis " + std::to_string(d) + " for " +
                            std::to_string(global[d]) + " cells leave a rank without cells");
      }
    }
    return {};
  }

  void release() noexcept {
    if (m_comm != MPI_COMM_NULL) {
      // Freeing after MPI_Finalize is an error, and a destructor cannot report one.
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (finalized == 0) {
        MPI_Comm_free(&m_comm);
      }
      m_comm = MPI_COMM_NULL;
    }
  }

  MPI_Comm m_comm = MPI_COMM_NULL;
  int m_dims = 0, m_rank = 0, m_size = 1;
  int m_global[3]       = {1, 1, 1};
  int m_ranks[3]        = {1, 1, 1};
  int m_coord[3]        = {};
  bool m_periodic[3]    = {};
  int m_neighbour[3][2] = {{MPI_PROC_NULL, MPI_PROC_NULL},
                           {MPI_PROC_NULL, MPI_PROC_NULL},
                           {MPI_PROC_NULL, MPI_PROC_NULL}};
};

}  // namespace loopnest

#endif
