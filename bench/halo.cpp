// Families `halo`, `halo_reference` and `scaling` (run under mpirun, one GPU per rank, chosen by
// the launcher's local rank; only rank 0 reports):
//   halo/<transport>/<precision>/<n>x<n>x<n>x<nvar>/ghost<g>/gpus<P>: one halo exchange per
//     iteration of a field set of n^3 cells per rank, split along x (periodic), so that every
//     rank exchanges both x faces; counters bytes_per_second (bytes this rank sends, per second)
//     and pct_nccl_sendrecv / pct_mpi_sendrecv (against the references below, same run).
//   halo_reference/<nccl|mpi>_sendrecv/...: the same bytes as one plain message per face, ncclSend
//     and ncclRecv in a group (CUDA builds with NCCL), or MPI_Isend/MPI_Irecv of host buffers.
//   scaling/diffusion/<weak|strong>/<transport>/<precision>/<nx>x<ny>/gpus<P>: the distributed
//     diffusion solver with overlap, 10 steps per iteration, on n^2 cells per rank (weak) or in
//     all (strong); gpus1 runs on rank 0 alone in the same binary and is the reference of the
//     counters gcells_per_second, efficiency (rate / (P x the one-rank rate)) and speedup.
// Every iteration starts on all ranks together and takes the slowest rank's time. Each entry
// first checks its result: the ghosts against the neighbours' cells, the solver against one rank
// bit for bit on a small grid.
#include <loopnest/diffusion.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/diffusion.hpp>
#include <loopnest/mpi/halo_exchange.hpp>
#include <loopnest/mpi/halo_transport.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench_common.hpp"

#if defined(LOOPNEST_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
#include <loopnest/mpi/detail/nccl_mover.hpp>
#endif

namespace {

using namespace loopnest_bench;
using loopnest::halo_transport;

struct sizes {
  int halo_n      = 201;    // cells per axis per rank of the exchanged field set
  int nvar        = 8;      // its variables
  int ghost       = 4;      // its ghost layers
  int diffusion_n = 16384;  // cells per axis of the scaling runs (per rank when weak)
  int iterations  = 50;     // timed iterations of every entry (the same on every rank)
};

sizes& config() {
  static sizes s;
  return s;
}

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

bool on_every_rank(bool yes) {
  int mine = yes ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

// The iterations of state, each started on every rank together and timed as the slowest rank's;
// returns the seconds of all iterations.
double time_collective(benchmark::State& state, const std::function<void()>& body) {
  const exec_space exec;
  double total = 0.0;
  for (auto _ : state) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = std::chrono::steady_clock::now();
    body();
    exec.fence();
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    double slowest                         = 0.0;
    const double mine                      = dt.count();
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(slowest);
    total += slowest;
  }
  return total;
}

// Bytes per second of the references, by shape name, filled by the reference entries, which run
// before the exchanges they are the reference of.
std::map<std::string, double>& reference_rate(const char* kind) {
  static std::map<std::string, std::map<std::string, double>> rates;
  return rates[kind];
}

std::string halo_shape(const char* precision) {
  const auto& c = config();
  return std::string(precision) + "/" + std::to_string(c.halo_n) + "x" + std::to_string(c.halo_n) +
         "x" + std::to_string(c.halo_n) + "x" + std::to_string(c.nvar) + "/ghost" +
         std::to_string(c.ghost) + "/gpus" + std::to_string(world_size());
}

// n^3 cells per rank, ranks along x, x periodic: both x faces of every rank are exchanged.
loopnest::cartesian_decomposition halo_decomposition() {
  const int n = config().halo_n, p = world_size();
  return {MPI_COMM_WORLD, {p * n, n, n}, {p, 1, 1}, {true, false, false}};
}

// Fills the interior with a value per (variable, global x, y, z) exact in T, exchanges once and
// checks every x ghost on the host; empty when right.
template <class T, class Exchange>
std::string check_exchange(const loopnest::cartesian_decomposition& d,
                           const loopnest::field_set<T>& f, Exchange& h) {
  const int n = config().halo_n, g = config().ghost, gx = d.global_extent(0);
  const auto value = [](int v, int x, int y, int z) {
    return static_cast<T>((x % 64) + 64 * (y % 16) + 1024 * (z % 16) + 16384 * v);
  };
  for (int v = 0; v < f.nvar(); ++v) {
    auto h_v = Kokkos::create_mirror_view(f.field(v));
    Kokkos::deep_copy(h_v, T(-1));
    for (int z = 0; z < n; ++z) {
      for (int y = 0; y < n; ++y) {
        for (int x = 0; x < n; ++x) {
          h_v(x + g, y + g, z + g) = value(v, d.offset(0) + x, y, z);
        }
      }
    }
    Kokkos::deep_copy(f.field(v), h_v);
  }
  h.exchange(f);
  Kokkos::fence();
  for (int v = 0; v < f.nvar(); ++v) {
    const auto h_v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.field(v));
    for (int z = 0; z < n; ++z) {
      for (int y = 0; y < n; ++y) {
        for (int l = 0; l < g; ++l) {
          const int below = ((d.offset(0) - g + l) % gx + gx) % gx;
          const int above = (d.offset(0) + n + l) % gx;
          if (h_v(l, y + g, z + g) != value(v, below, y, z) ||
              h_v(n + g + l, y + g, z + g) != value(v, above, y, z)) {
            return "ghost layer " + std::to_string(l) + " of variable " + std::to_string(v) +
                   " at (y, z) = (" + std::to_string(y) + ", " + std::to_string(z) +
                   ") is not the neighbour's cell";
          }
        }
      }
    }
  }
  return "";
}

template <class T>
void bench_halo(benchmark::State& state, halo_transport t) {
  const auto& c = config();
  const auto d  = halo_decomposition();
  const loopnest::field_set<T> f(exec_space(), "halo", c.nvar, {c.halo_n, c.halo_n, c.halo_n},
                                 c.ghost);
  loopnest::halo_exchange<loopnest::collapse3, loopnest::field_set<T>> h(exec_space(), d, f, t);
  const std::string error = check_exchange(d, f, h);
  if (!on_every_rank(error.empty())) {
    state.SkipWithError(error.empty() ? "another rank's ghosts are wrong" : error.c_str());
    return;
  }
  const double seconds = time_collective(state, [&] { h.exchange(f); });
  const auto bytes     = static_cast<double>(h.bytes_per_exchange());
  using benchmark::Counter;
  state.counters["bytes_per_second"] = Counter(bytes, Counter::kIsIterationInvariantRate);
  const double rate                  = bytes * static_cast<double>(state.iterations()) / seconds;
  for (const char* kind : {"nccl", "mpi"}) {
    const auto& ref = reference_rate(kind);
    const auto it   = ref.find(halo_shape(precision_name<T>()));
    if (it != ref.end()) {
      state.counters[std::string("pct_") + kind + "_sendrecv"] = 100.0 * rate / it->second;
    }
  }
}

// The plain messages of the reference: one per x face, to the rank below and the one above.
struct face_messages {
  int below, above;
  std::size_t bytes;  // per face
};

// The counters of a reference entry, and its rate for the exchanges measured after it.
template <class T>
void record_reference(benchmark::State& state, const char* kind, double seconds,
                      const face_messages& m) {
  const double bytes = 2.0 * static_cast<double>(m.bytes);
  state.counters["bytes_per_second"] =
      benchmark::Counter(bytes, benchmark::Counter::kIsIterationInvariantRate);
  reference_rate(kind)[halo_shape(precision_name<T>())] =
      bytes * static_cast<double>(state.iterations()) / seconds;
}

template <class T>
face_messages reference_messages(const loopnest::cartesian_decomposition& d) {
  const auto& c = config();
  return {d.neighbour(0, 0), d.neighbour(0, 1),
          static_cast<std::size_t>(c.ghost) * c.halo_n * c.halo_n * c.nvar * sizeof(T)};
}

template <class T>
void bench_mpi_reference(benchmark::State& state) {
  const auto d = halo_decomposition();
  const auto m = reference_messages<T>(d);
  std::vector<char> send(2 * m.bytes, 1), recv(2 * m.bytes, 0);
  const auto once = [&] {
    MPI_Request r[4];
    MPI_Irecv(recv.data(), static_cast<int>(m.bytes), MPI_BYTE, m.below, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(recv.data() + m.bytes, static_cast<int>(m.bytes), MPI_BYTE, m.above, 0,
              MPI_COMM_WORLD, &r[1]);
    MPI_Isend(send.data(), static_cast<int>(m.bytes), MPI_BYTE, m.below, 0, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(send.data() + m.bytes, static_cast<int>(m.bytes), MPI_BYTE, m.above, 1,
              MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  };
  once();
  record_reference<T>(state, "mpi", time_collective(state, once), m);
}

#if defined(LOOPNEST_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
template <class T>
void bench_nccl_reference(benchmark::State& state) {
  using loopnest::Impl::cuda_check;
  using loopnest::Impl::nccl_check;
  const auto d = halo_decomposition();
  const auto m = reference_messages<T>(d);
  const loopnest::Impl::nccl_communicator comm(d.comm());
  Kokkos::View<char*, mem_space> send("nccl_send", 2 * m.bytes), recv("nccl_recv", 2 * m.bytes);
  const cudaStream_t stream = exec_space().cuda_stream();
  // Below's message first: each rank sends to the rank below first, which receives it from its
  // rank above; with two ranks both neighbours are one rank and the order pairs them.
  const auto once = [&] {
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    nccl_check(ncclSend(send.data(), m.bytes, ncclChar, m.below, comm.get(), stream), "ncclSend");
    nccl_check(ncclSend(send.data() + m.bytes, m.bytes, ncclChar, m.above, comm.get(), stream),
               "ncclSend");
    nccl_check(ncclRecv(recv.data() + m.bytes, m.bytes, ncclChar, m.above, comm.get(), stream),
               "ncclRecv");
    nccl_check(ncclRecv(recv.data(), m.bytes, ncclChar, m.below, comm.get(), stream), "ncclRecv");
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
    cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  };
  once();
  record_reference<T>(state, "nccl", time_collective(state, once), m);
}
#endif

// The distributed solver against one rank's, bit for bit, on a small grid split like the timed
// one; empty when equal.
template <class T>
std::string check_solver(const loopnest::cartesian_decomposition& like, halo_transport t) {
  const int nx = 16 * like.ranks(0) + 5, ny = 16 * like.ranks(1) + 3;
  const loopnest::cartesian_decomposition d(like.comm(), {nx, ny}, {like.ranks(0), like.ranks(1)});
  loopnest::distributed_diffusion_solver<T> s(exec_space(), d, t, true);
  s.set_initial_condition();
  s.advance(25);
  const auto got = s.gather();
  if (d.rank() != 0) {
    return "";
  }
  loopnest::diffusion_solver<T, loopnest::diffusion_variant::collapse> one(exec_space(), nx, ny);
  one.set_initial_condition();
  one.advance(25);
  const auto want = one.field();
  return std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0
             ? ""
             : "the distributed solver differs from one rank's";
}

// Cells per second of the one-rank runs, by "<weak|strong>/<precision>".
std::map<std::string, double>& one_rank_rate() {
  static std::map<std::string, double> rates;
  return rates;
}

template <class T>
void bench_scaling(benchmark::State& state, bool weak, halo_transport t, bool one_rank) {
  constexpr int steps = 10;
  const int n         = config().diffusion_n;
  const bool runs     = !one_rank || world_rank() == 0;
  std::optional<loopnest::cartesian_decomposition> d;
  std::optional<loopnest::distributed_diffusion_solver<T>> s;
  std::string error;
  if (runs) {
    int dims[2] = {0, 0};
    MPI_Dims_create(one_rank ? 1 : world_size(), 2, dims);
    d.emplace(one_rank ? MPI_COMM_SELF : MPI_COMM_WORLD,
              std::vector<int>{weak ? n * dims[0] : n, weak ? n * dims[1] : n},
              std::vector<int>{dims[0], dims[1]});
    error = check_solver<T>(*d, t);
    s.emplace(exec_space(), *d, t, true);
    s->set_initial_condition();
    s->advance(steps);
  }
  if (!on_every_rank(error.empty())) {
    state.SkipWithError(error.empty() ? "another rank's check failed" : error.c_str());
    return;
  }
  const double seconds = time_collective(state, [&] {
    if (runs) {
      s->advance(steps);
    }
  });
  const double cells =
      runs ? static_cast<double>(d->global_extent(0)) * d->global_extent(1) * steps : 0.0;
  using benchmark::Counter;
  state.counters["gcells_per_second"] = Counter(1e-9 * cells, Counter::kIsIterationInvariantRate);
  const double rate                   = cells * static_cast<double>(state.iterations()) / seconds;
  const std::string key = std::string(weak ? "weak/" : "strong/") + precision_name<T>();
  if (one_rank) {
    one_rank_rate()[key] = rate;
  } else if (one_rank_rate().count(key) > 0) {
    // Weak: P times the cells at the one-rank rate would be perfect; strong: P times the rate.
    const double speedup         = rate / one_rank_rate()[key];
    state.counters["speedup"]    = speedup;
    state.counters["efficiency"] = speedup / world_size();
  }
}

template <class T>
void register_precision(const std::vector<halo_transport>& transports) {
  const auto& c        = config();
  const std::string sh = halo_shape(precision_name<T>());
  const auto add = [&](const std::string& name, const std::function<void(benchmark::State&)>& f) {
    benchmark::RegisterBenchmark(name.c_str(), f)
        ->UseManualTime()
        ->Iterations(c.iterations)
        ->Unit(benchmark::kMillisecond);
  };
#if defined(LOOPNEST_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  // Plain NCCL messages need what the nccl transport needs (a GPU of its own on every rank):
  // where the transport is unavailable, no communicator is made.
  if (std::find(transports.begin(), transports.end(), halo_transport::nccl) != transports.end()) {
    add("halo_reference/nccl_sendrecv/" + sh, bench_nccl_reference<T>);
  }
#endif
  add("halo_reference/mpi_sendrecv/" + sh, bench_mpi_reference<T>);
  for (const auto t : transports) {
    add(std::string("halo/") + name(t) + "/" + sh,
        [t](benchmark::State& s) { bench_halo<T>(s, t); });
  }
  const auto scaling = [&c](bool weak, const char* transport, int gpus) {
    std::string n = std::to_string(c.diffusion_n);
    std::string name("scaling/diffusion/");
    name += weak ? "weak/" : "strong/";
    name += transport;
    name += std::string("/") + precision_name<T>() + "/";
    name += n + "x" + n + "/gpus" + std::to_string(gpus);
    return name;
  };
  for (const bool weak : {true, false}) {
    const halo_transport first = transports.front();
    add(scaling(weak, "none", 1),
        [weak, first](benchmark::State& s) { bench_scaling<T>(s, weak, first, true); });
    for (const auto t : transports) {
      add(scaling(weak, name(t), world_size()),
          [weak, t](benchmark::State& s) { bench_scaling<T>(s, weak, t, false); });
    }
  }
}

// Removes --loopnest_<name>=N from argv into `value` (Google Benchmark refuses flags it does not
// know); false for a value that is not a positive integer.
bool take_int_flag(int& argc, char** argv, const char* name, int& value) {
  const std::string flag = std::string("--loopnest_") + name + "=";
  int out                = 1;
  bool ok                = true;
  for (int a = 1; a < argc; ++a) {
    if (std::strncmp(argv[a], flag.c_str(), flag.size()) == 0) {
      char* end    = nullptr;
      const long v = std::strtol(argv[a] + flag.size(), &end, 10);
      ok           = ok && *end == '\0' && v > 0 && v < (1L << 30);
      value        = static_cast<int>(v);
    } else {
      argv[out++] = argv[a];
    }
  }
  argc = out;
  return ok;
}

// Reports nothing: ranks other than 0 run every benchmark (each is collective) silently.
class silent_reporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length                                = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, static_cast<std::size_t>(length));
  return s.substr(0, s.find_first_of("\r\n"));
}

// The device of this rank: the launcher's local rank modulo the devices there.
int device_of_this_rank() {
#if defined(KOKKOS_ENABLE_CUDA)
  int devices = 0;
  check_cuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  return local != nullptr && devices > 0 ? std::atoi(local) % devices : 0;
#else
  return 0;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rank = world_rank();
  auto& c        = config();
  bool ok        = take_int_flag(argc, argv, "halo_n", c.halo_n);
  ok             = take_int_flag(argc, argv, "nvar", c.nvar) && ok;
  ok             = take_int_flag(argc, argv, "ghost", c.ghost) && ok;
  ok             = take_int_flag(argc, argv, "diffusion_n", c.diffusion_n) && ok;
  ok             = take_int_flag(argc, argv, "iterations", c.iterations) && ok;
  if (!ok) {
    if (rank == 0) {
      std::fprintf(stderr,
                   "--loopnest_halo_n, _nvar, _ghost, _diffusion_n, _iterations: each "
                   "takes a positive integer\n");
    }
    MPI_Finalize();
    return 2;
  }
  // One output file, rank 0's.
  if (rank != 0) {
    int out = 1;
    for (int a = 1; a < argc; ++a) {
      if (std::strncmp(argv[a], "--benchmark_out", 15) != 0) {
        argv[out++] = argv[a];
      }
    }
    argc = out;
  }
  int status = 0;
  loopnest::Impl::initialize_on_device(device_of_this_rank());
  {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
      status = 2;
    } else {
      std::vector<halo_transport> transports;
      std::string unavailable;
      // Asking is collective; an MPI call failing on one rank cannot be reported to the others,
      // so it ends the job.
      try {
        for (const auto t : loopnest::halo_transports) {
          if (loopnest::halo_transport_available<exec_space>(t, MPI_COMM_WORLD)) {
            transports.push_back(t);
          } else {
            unavailable += std::string(unavailable.empty() ? "" : ", ") + name(t);
          }
        }
      } catch (const std::exception& e) {
        std::fprintf(stderr, "loopnest-bench-halo: rank %d: %s\n", rank, e.what());
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      benchmark::AddCustomContext("device", device_name());
      benchmark::AddCustomContext("execution_space", exec_space::name());
      benchmark::AddCustomContext("kokkos_version", kokkos_version());
      benchmark::AddCustomContext("cuda_version", cuda_version());
      benchmark::AddCustomContext("git_commit", LOOPNEST_GIT_COMMIT);
      benchmark::AddCustomContext("mpi_library", mpi_library());
      benchmark::AddCustomContext("ranks", std::to_string(world_size()));
#if defined(LOOPNEST_ENABLE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
      int nccl = 0;
      loopnest::Impl::nccl_check(ncclGetVersion(&nccl), "ncclGetVersion");
      benchmark::AddCustomContext("nccl_version", std::to_string(nccl));
#else
      benchmark::AddCustomContext("nccl_version", "none");
#endif
      benchmark::AddCustomContext("transports_unavailable", unavailable);
      benchmark::AddCustomContext(
          "timing", "wall time per iteration between barriers, the slowest rank's, fenced");
      register_precision<double>(transports);
      register_precision<float>(transports);
      if (rank == 0) {
        benchmark::RunSpecifiedBenchmarks();
      } else {
        silent_reporter silent;
        benchmark::RunSpecifiedBenchmarks(&silent);
      }
      benchmark::Shutdown();
    }
  }
  Kokkos::finalize();
  MPI_Finalize();
  return status;
}
