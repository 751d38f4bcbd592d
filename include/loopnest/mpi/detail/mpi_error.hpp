// loopnest::Impl::mpi_check and throw_if_any_rank_failed: how the distributed layer reports
// errors, so that a failed call names itself and a refused argument is refused by every rank
// alike (a lone rank throwing would leave the others waiting in the next collective).
#ifndef LOOPNEST_MPI_DETAIL_MPI_ERROR_HPP
#define LOOPNEST_MPI_DETAIL_MPI_ERROR_HPP

#include <mpi.h>

#include <climits>
#include <stdexcept>
#include <string>

namespace loopnest::Impl {

// Throws std::runtime_error naming the MPI call and MPI's own words for rc. Communicators made by
// loopnest return errors (MPI_ERRORS_RETURN) instead of aborting, so these checks see them.
inline void mpi_check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) {
    return;
  }
  char text[MPI_MAX_ERROR_STRING] = {};
  int length                      = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) {
    length = 0;
  }
  throw std::runtime_error(std::string("loopnest: ") + call + " failed: " +
                           (length > 0 ? std::string(text, static_cast<std::size_t>(length))
                                       : "MPI error " + std::to_string(rc)));
}

// What one rank found wrong before a collective operation: nothing, a refused argument
// (std::invalid_argument) or something this machine or build cannot do (std::runtime_error).
enum class rank_error_kind : int { none = 0, invalid_argument = 1, runtime_error = 2 };

struct rank_error {
  rank_error_kind kind = rank_error_kind::none;
  std::string message;
};

inline rank_error refuse(std::string message) {
  return {rank_error_kind::invalid_argument, std::move(message)};
}
inline rank_error unavailable(std::string message) {
  return {rank_error_kind::runtime_error, std::move(message)};
}

inline int comm_rank(MPI_Comm comm) {
  int rank = 0;
  mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  return rank;
}

inline int comm_size(MPI_Comm comm) {
  int size = 0;
  mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

// Collective over comm: when any rank passes an error, every rank throws the error of the lowest
// such rank (same type, same message); otherwise returns on every rank. Every rank must call it.
inline void throw_if_any_rank_failed(MPI_Comm comm, const rank_error& mine) {
  const int rank  = comm_rank(comm);
  const int local = mine.kind == rank_error_kind::none ? INT_MAX : rank;
  int first       = INT_MAX;
  mpi_check(MPI_Allreduce(&local, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == INT_MAX) {
    return;
  }
  int header[2] = {static_cast<int>(mine.kind), static_cast<int>(mine.message.size())};
  mpi_check(MPI_Bcast(header, 2, MPI_INT, first, comm), "MPI_Bcast");
  std::string message = rank == first ? mine.message : std::string(std::size_t(header[1]), ' ');
  mpi_check(MPI_Bcast(message.data(), header[1], MPI_CHAR, first, comm), "MPI_Bcast");
  if (static_cast<rank_error_kind>(header[0]) == rank_error_kind::invalid_argument) {
    throw std::invalid_argument(message);
  }
  throw std::runtime_error(message);
}

// Collective: refuses, on every rank, values that must be equal on every rank and are not.
// `what` names the values in the message.
template <std::size_t N>
void check_same_on_every_rank(MPI_Comm comm, const char* where, const char* what,
                              const int (&values)[N]) {
  int low[N]  = {};
  int high[N] = {};
  mpi_check(MPI_Allreduce(values, low, static_cast<int>(N), MPI_INT, MPI_MIN, comm),
            "MPI_Allreduce");
  mpi_check(MPI_Allreduce(values, high, static_cast<int>(N), MPI_INT, MPI_MAX, comm),
            "MPI_Allreduce");
  for (std::size_t n = 0; n < N; ++n) {
    if (low[n] != high[n]) {
      throw std::invalid_argument(std::string(where) + ": " + what +
                                  " differ across ranks (value " + std::to_string(n) + " is " +
                                  std::to_string(low[n]) + " on some rank and " +
                                  std::to_string(high[n]) + " on another)");
    }
  }
}

}  // namespace loopnest::Impl

#endif
