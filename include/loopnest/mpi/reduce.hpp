// loopnest::distributed_reduce_cell and distributed_reduce_cell_var: loopnest::reduce_cell and
// reduce_cell_var over a global box whose cells are split into one block per MPI rank, with the
// result on every rank the same bits as the single-rank reduction over the global box. Each rank
// folds its block's tiles, which must be tiles of the global box (reduction_order.hpp); the
// partials are gathered on every rank into the global numbering and folded there exactly as one
// rank folds them.
//
// Contract: every block must start, along j (and k for a 3D box), a multiple of the tile extent
// (32 cells in 2D, 8 in 3D) from the global box's lower corner, and end at such a multiple or
// at the global box's upper end; any split along i is allowed. A decomposition that breaks this
// is refused (std::invalid_argument on every rank), not reduced in another order, so that a
// result is always the single-rank bits. reduction_tiles_align tells beforehand.
#ifndef LOOPNEST_MPI_REDUCE_HPP
#define LOOPNEST_MPI_REDUCE_HPP

#include <loopnest/box.hpp>
#include <loopnest/detail/profiling_region.hpp>
#include <loopnest/detail/reduction_order.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/mpi/detail/mpi_error.hpp>
#include <loopnest/reduce.hpp>
#include <loopnest/schedule.hpp>

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace loopnest {

// Whether the tiles of block, a box inside global, are tiles of global (the contract above), so
// that a distributed reduction over blocks like it gives the single-rank bits. Local: no MPI.
template <int Rank>
bool reduction_tiles_align(const box<Rank>& global, const box<Rank>& block) {
  return block.empty() || Impl::reduction_tiles<Rank>(global, 1).misaligned_axis(block) == 0;
}

namespace Impl {

// Whether value_type can move between ranks as its bytes, as Kokkos::deep_copy moves it between
// memory spaces (Kokkos 3.4's ValLocScalar declares an assignment, so trivially copyable would
// refuse Kokkos::MinLoc).
template <class T>
inline constexpr bool is_byte_movable_v =
    std::is_trivially_copy_constructible_v<T>&& std::is_trivially_destructible_v<T>;

template <int Rank>
std::string box_text(const box<Rank>& b) {
  std::string s;
  for (int d = 0; d < Rank; ++d) {
    s += (d > 0 ? " x [" : "[") + std::to_string(b.lower(d)) + ", " + std::to_string(b.upper(d)) +
         ")";
  }
  return s;
}

// Every rank's block, in rank order, on every rank.
template <int Rank>
std::vector<box<Rank>> gather_blocks(MPI_Comm comm, const box<Rank>& block) {
  int mine[2 * Rank] = {};
  for (int d = 0; d < Rank; ++d) {
    mine[d]        = block.lower(d);
    mine[Rank + d] = block.upper(d);
  }
  const int size = comm_size(comm);
  std::vector<int> all(static_cast<std::size_t>(2 * Rank * size));
  mpi_check(MPI_Allgather(mine, 2 * Rank, MPI_INT, all.data(), 2 * Rank, MPI_INT, comm),
            "MPI_Allgather");
  std::vector<box<Rank>> blocks;
  for (int r = 0; r < size; ++r) {
    const int* b = all.data() + static_cast<std::ptrdiff_t>(2 * Rank) * r;
    if constexpr (Rank == 3) {
      blocks.push_back(box<3>{{b[0], b[1], b[2]}, {b[3], b[4], b[5]}});
    } else {
      blocks.push_back(box<2>{{b[0], b[1]}, {b[2], b[3]}});
    }
  }
  return blocks;
}

template <int Rank>
bool boxes_overlap(const box<Rank>& a, const box<Rank>& b) {
  bool overlap = !a.empty() && !b.empty();
  for (int d = 0; d < Rank; ++d) {
    overlap = overlap && a.lower(d) < b.upper(d) && b.lower(d) < a.upper(d);
  }
  return overlap;
}

// What is wrong with reducing over global split into blocks (one per rank), or nothing. Every
// rank holds the same arguments, so every rank finds the same error.
template <int Rank>
rank_error check_reduction_blocks(const std::string& where, const box<Rank>& global,
                                  const std::vector<box<Rank>>& blocks, int nvar) {
  const std::string w = where + ": ";
  if (nvar < 1) {
    return refuse(w + "nvar = " + std::to_string(nvar) + " must be at least 1");
  }
  const reduction_tiles<Rank> whole(global, nvar);
  std::int64_t cells = 0;
  for (std::size_t r = 0; r < blocks.size(); ++r) {
    const box<Rank>& b           = blocks[r];
    const std::string rank_block = "rank " + std::to_string(r) + "'s block " + box_text(b) +
                                   " (global box " + box_text(global) + ")";
    bool inside = true;
    for (int d = 0; d < Rank; ++d) {
      inside = inside && b.lower(d) >= global.lower(d) && b.upper(d) <= global.upper(d);
    }
    if (!b.empty() && !inside) {
      return refuse(w + rank_block + " is outside the global box");
    }
    if (const int axis = b.empty() ? 0 : whole.misaligned_axis(b); axis != 0) {
      const int along = reduction_tiles<Rank>::along;
      return refuse(w + rank_block + " does not start and end along " + (axis == 1 ? "j" : "k") +
                    " at a multiple of the tile extent " + std::to_string(along) +
                    " from the global box's lower corner (or end at its upper end), so its "
                    "tiles are not the global box's");
    }
    for (std::size_t s = 0; s < r; ++s) {
      if (boxes_overlap(b, blocks[s])) {
        std::string both = w + "the blocks of rank " + std::to_string(s) + " ";
        both += box_text(blocks[s]);
        both += " and ";
        both += rank_block;
        return refuse(both + " overlap");
      }
    }
    cells += b.size();
  }
  if (cells != global.size()) {
    return refuse(w + "the blocks cover " + std::to_string(cells) + " of the " +
                  std::to_string(global.size()) + " cells of the global box " + box_text(global));
  }
  if (whole.count() > INT_MAX) {
    return refuse(w + "the global box has " + std::to_string(whole.count()) +
                  " partials, more than MPI's int counts hold");
  }
  return {};
}

// An MPI datatype of one value_type as its bytes, committed, freed on every way out.
class mpi_bytes_type {
 public:
  explicit mpi_bytes_type(std::size_t bytes) {
    mpi_check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &m_type),
              "MPI_Type_contiguous");
    const int rc = MPI_Type_commit(&m_type);
    if (rc != MPI_SUCCESS) {
      MPI_Type_free(&m_type);
      mpi_check(rc, "MPI_Type_commit");
    }
  }
  mpi_bytes_type(const mpi_bytes_type&)            = delete;
  mpi_bytes_type& operator=(const mpi_bytes_type&) = delete;
  // Freeing cannot be reported from a destructor; a failure leaks one datatype.
  ~mpi_bytes_type() { MPI_Type_free(&m_type); }
  MPI_Datatype get() const { return m_type; }

 private:
  MPI_Datatype m_type = MPI_DATATYPE_NULL;
};

// Both passes of a distributed reduction: the checks every rank agrees on, this rank's tiles,
// every rank's partials gathered into the global numbering, the single-rank fold.
template <class Schedule, bool PerVariable, class ExecutionSpace, int Rank, class F, class Reducer>
void distributed_reduce(const ExecutionSpace& exec, MPI_Comm comm, const box<Rank>& global,
                        const box<Rank>& block, int nvar, const F& f, const Reducer& reducer,
                        const std::string& where, const std::string& label) {
  using value_type = typename Reducer::value_type;
  using memory     = typename ExecutionSpace::memory_space;
  const profiling_region region(label);
  int signature[1 + 2 * Rank] = {nvar};
  for (int d = 0; d < Rank; ++d) {
    signature[1 + d]        = global.lower(d);
    signature[1 + Rank + d] = global.upper(d);
  }
  check_same_on_every_rank(comm, where.c_str(), "nvar or the global box", signature);
  const std::vector<box<Rank>> blocks = gather_blocks(comm, block);
  throw_if_any_rank_failed(comm, check_reduction_blocks(where, global, blocks, nvar));

  const int variables = PerVariable ? nvar : 1;
  reduction_scratch<value_type, memory> scratch(exec);
  const auto local = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(),
      tile_partials<Schedule, PerVariable>(exec, block, nvar, f, reducer, scratch, label));
  const reduction_tiles<Rank> whole(global, variables);
  std::vector<int> counts(blocks.size()), displs(blocks.size());
  int total = 0;
  for (std::size_t r = 0; r < blocks.size(); ++r) {
    counts[r] = static_cast<int>(reduction_tiles<Rank>(blocks[r], variables).count());
    displs[r] = total;
    total += counts[r];
  }
  // Allgatherv moves each rank's partials as bytes and joins nothing, so it is right for every
  // reducer: a sum over zeros filling the other ranks' partials would break Max and Min, whose
  // identity is not 0, and a join with the identity may change bits (0.0 + -0.0 is 0.0).
  Kokkos::View<value_type*, Kokkos::HostSpace> gathered(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::gathered"),
      static_cast<std::size_t>(total));
  const mpi_bytes_type type(sizeof(value_type));
  mpi_check(MPI_Allgatherv(local.data(), static_cast<int>(local.extent(0)), type.get(),
                           gathered.data(), counts.data(), displs.data(), type.get(), comm),
            "MPI_Allgatherv");
  Kokkos::View<value_type*, Kokkos::HostSpace> placed(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::placed"),
      static_cast<std::size_t>(whole.count()));
  for (std::size_t r = 0; r < blocks.size(); ++r) {
    const reduction_tiles<Rank> part(blocks[r], variables);
    for (int t = 0; t < counts[r]; ++t) {
      placed(static_cast<std::size_t>(whole.place(part, t))) = gathered(displs[r] + t);
    }
  }
  const auto partials = scratch.partials(exec, whole.count());
  Kokkos::deep_copy(exec, partials, placed);
  fold_into_reference(exec, reducer, partials, scratch, label);
}

}  // namespace Impl

// Reduces f(i, j, acc) (2D) or f(i, j, k, acc) (3D) over every cell of this rank's block, in
// global cell indices, into reducer.reference() on every rank of comm: the same bits as
// loopnest::reduce_cell over global on one rank (same backend), whatever the schedule. Collective
// (every rank of comm calls it, with the same global box). Throws std::invalid_argument on every
// rank, before any launch, for blocks outside global, overlapping or not covering it, not
// aligned to its tiles (the contract at the top), or global boxes that differ across ranks; a
// failed MPI call throws std::runtime_error on the rank that saw it. Blocks until the result is
// on the host.
template <class Schedule, class ExecutionSpace, int Rank, class F, class Reducer>
void distributed_reduce_cell(const ExecutionSpace& exec, MPI_Comm comm, const box<Rank>& global,
                             const box<Rank>& block, const F& f, const Reducer& reducer,
                             const std::string& label = "loopnest::distributed_reduce_cell") {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::distributed_reduce_cell: the template argument must be a loopnest "
                "schedule, such as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::distributed_reduce_cell: the first argument must be a Kokkos "
                "execution space instance, such as Kokkos::DefaultExecutionSpace().");
  static_assert(Impl::is_reducer<Reducer>::value,
                "loopnest::distributed_reduce_cell: the reducer must be a Kokkos reducer such as "
                "Kokkos::Sum<double>(result), with value_type and reference().");
  static_assert(Impl::is_byte_movable_v<typename Reducer::value_type>,
                "loopnest::distributed_reduce_cell: the reducer's value_type must be trivially "
                "copy-constructible and destructible, so that its bytes can move between ranks.");
  static_assert(Impl::is_cell_reduce_body_v<F, Rank, typename Reducer::value_type>,
                "loopnest::distributed_reduce_cell: the body must be callable as f(i, j, acc) for "
                "a 2D box and as f(i, j, k, acc) for a 3D box, with int indices and acc the "
                "reducer's value_type&.");
  Impl::distributed_reduce<Schedule, false>(exec, comm, global, block, 1, f, reducer,
                                            "loopnest::distributed_reduce_cell", label);
}

// Reduces f(i, j, v, acc) (2D) or f(i, j, k, v, acc) (3D) over this rank's block and every
// variable v in [0, nvar), as distributed_reduce_cell does: the bits of loopnest::reduce_cell_var
// over global on one rank. Also throws std::invalid_argument on every rank, before any launch,
// for nvar < 1 or an nvar that differs across ranks.
template <class Schedule, class ExecutionSpace, int Rank, class F, class Reducer>
void distributed_reduce_cell_var(
    const ExecutionSpace& exec, MPI_Comm comm, const box<Rank>& global, const box<Rank>& block,
    int nvar, const F& f, const Reducer& reducer,
    const std::string& label = "loopnest::distributed_reduce_cell_var") {
  static_assert(is_schedule_v<Schedule>,
                "loopnest::distributed_reduce_cell_var: the template argument must be a loopnest "
                "schedule, such as loopnest::collapse3.");
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "loopnest::distributed_reduce_cell_var: the first argument must be a Kokkos "
                "execution space instance, such as Kokkos::DefaultExecutionSpace().");
  static_assert(Impl::is_reducer<Reducer>::value,
                "loopnest::distributed_reduce_cell_var: the reducer must be a Kokkos reducer "
                "such as Kokkos::Sum<double>(result), with value_type and reference().");
  static_assert(Impl::is_byte_movable_v<typename Reducer::value_type>,
                "loopnest::distributed_reduce_cell_var: the reducer's value_type must be "
                "trivially copy-constructible and destructible, so that its bytes can move "
                "between ranks.");
  static_assert(Impl::is_cell_var_reduce_body_v<F, Rank, typename Reducer::value_type>,
                "loopnest::distributed_reduce_cell_var: the body must be callable as "
                "f(i, j, v, acc) for a 2D box and as f(i, j, k, v, acc) for a 3D box, with int "
                "indices and acc the reducer's value_type&.");
  Impl::distributed_reduce<Schedule, true>(exec, comm, global, block, nvar, f, reducer,
                                           "loopnest::distributed_reduce_cell_var", label);
}

}  // namespace loopnest

#endif
