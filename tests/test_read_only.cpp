#include <loopnest/read_only.hpp>

#include <gtest/gtest.h>

#include <cstdint>

#include "test_spaces.hpp"

namespace {

struct alignas(16) quad {
  float x[4];
};
struct alignas(8) pair {
  int a, b;
};
struct pointer_entry {
  const double* p;
};

template <class ExecutionSpace>
class read_only : public ::testing::Test {};
TYPED_TEST_SUITE(read_only, loopnest_test::execution_spaces);

// Reads values of each kind load_read_only treats specially (floating point, 64-bit integers,
// pointers, 8- and 16-byte aligned structs) and of one it passes through (short) in a kernel. The
// values are exact in binary, so host and device agree whatever the compiler contracts.
template <class ExecutionSpace>
void read_in_kernel(int n) {
  using memory_space = typename ExecutionSpace::memory_space;
  Kokkos::View<double*, memory_space> d("d", n), d_out("d_out", n);
  Kokkos::View<float*, memory_space> f("f", n), f_out("f_out", n);
  Kokkos::View<std::int64_t*, memory_space> l("l", n), l_out("l_out", n);
  Kokkos::View<short*, memory_space> s("s", n), s_out("s_out", n);
  Kokkos::View<quad*, memory_space> q("q", n), q_out("q_out", n);
  Kokkos::View<pair*, memory_space> p("p", n), p_out("p_out", n);
  // A table of field pointers in device memory, as field_set keeps it.
  Kokkos::View<pointer_entry*, memory_space> table("table", 1);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<ExecutionSpace>(0, n), KOKKOS_LAMBDA(int i) {
        if (i == 0) {
          table(0).p = d.data();
        }
        d(i) = 0.5 * i - 3.0;
        f(i) = 0.25f * static_cast<float>(i) + 1.0f;
        l(i) = (std::int64_t(1) << 40) + std::int64_t(7) * i;
        s(i) = static_cast<short>(-i);
        q(i) = quad{{1.0f * i, 2.0f * i, 3.0f * i, -0.5f * i}};
        p(i) = pair{i, -3 * i};
      });
  Kokkos::parallel_for(
      "read", Kokkos::RangePolicy<ExecutionSpace>(0, n), KOKKOS_LAMBDA(int i) {
        const double* base = loopnest::load_read_only(table(0).p);
        d_out(i)           = loopnest::load_read_only(base[n - 1 - i]);
        f_out(i)           = loopnest::load_read_only(f(i));
        l_out(i)           = loopnest::load_read_only(l(i));
        s_out(i)           = loopnest::load_read_only(s(i));
        q_out(i)           = loopnest::load_read_only(q(i));
        p_out(i)           = loopnest::load_read_only(p(i));
      });
  const auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d_out);
  const auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f_out);
  const auto hl = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), l_out);
  const auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s_out);
  const auto hq = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q_out);
  const auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), p_out);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(hd(i), 0.5 * (n - 1 - i) - 3.0) << i;
    EXPECT_EQ(hf(i), 0.25f * static_cast<float>(i) + 1.0f) << i;
    EXPECT_EQ(hl(i), (std::int64_t(1) << 40) + std::int64_t(7) * i) << i;
    EXPECT_EQ(hs(i), -i) << i;
    EXPECT_EQ(hq(i).x[0], 1.0f * i) << i;
    EXPECT_EQ(hq(i).x[3], -0.5f * i) << i;
    EXPECT_EQ(hp(i).a, i) << i;
    EXPECT_EQ(hp(i).b, -3 * i) << i;
  }
}

TYPED_TEST(read_only, returns_the_value_in_a_kernel) {
  read_in_kernel<TypeParam>(1000);
}

}  // namespace
