// What the distributed tests share: the world's size and rank, and the check that every rank
// threw the same error.
#ifndef LOOPNEST_TESTS_MPI_CHECKS_HPP
#define LOOPNEST_TESTS_MPI_CHECKS_HPP

#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <string>

namespace loopnest_test {

inline int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// Whether every rank holds the same value.
inline bool same_on_every_rank(long value) {
  long low = 0, high = 0;
  MPI_Allreduce(&value, &low, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &high, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  return low == high;
}

// Whether every rank says yes.
inline bool on_every_rank(bool yes) {
  int mine = yes ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

// Runs f, which must throw Exception on every rank; checks that it did on this rank, with a
// message containing `expected`, and that every rank's message is the same text.
template <class Exception>
void expect_same_error_on_every_rank(const std::function<void()>& f, const std::string& expected) {
  std::string message;
  bool threw = false;
  try {
    f();
  } catch (const Exception& e) {
    threw   = true;
    message = e.what();
  }
  EXPECT_TRUE(threw) << "rank " << world_rank() << " threw nothing";
  EXPECT_NE(message.find(expected), std::string::npos) << message;
  EXPECT_TRUE(on_every_rank(threw)) << "some rank did not throw";
  EXPECT_TRUE(same_on_every_rank(static_cast<long>(std::hash<std::string>{}(message))))
      << "the ranks threw different messages; this rank's: " << message;
}

}  // namespace loopnest_test

#endif
