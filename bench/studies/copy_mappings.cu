// FP32/FP64 copy of 8 variables of 209^3 cells (201^3 and 4 ghost layers) in plain CUDA: which
// mapping of cells and variables to threads reaches the copy bandwidth. Five rounds, each a list
// of variants (argument 1 to 5), each timed as the best of 29 launches after one warm-up; the
// variants of run() are then verified element by element against the source (those of vec_run
// and sep_run, over padded rows or separate allocations, are timed only). Build:
// -DLOOPNEST_BUILD_STUDIES=ON (target loopnest-study-copy-mappings), or nvcc -O3 -arch=sm_90
// -std=c++17 --extended-lambda copy_mappings.cu. See README.md beside it.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#define CK(x)                                                          \
  do {                                                                 \
    cudaError_t e = (x);                                               \
    if (e != cudaSuccess) {                                            \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)
constexpr int N = 209, NV = 8;
constexpr long long CELLS = (long long)N * N * N;

// one row per block (x = thread), vars in groups of G, loads first
template <class T, int G, int ROWS>
__global__ void __launch_bounds__(512, 4)
    rows_k(T* __restrict__ d, const T* __restrict__ s, int nx) {
  const int i = threadIdx.x;
  const int j = blockIdx.x * ROWS + threadIdx.y;
  const int k = blockIdx.y;
  if (i >= nx || j >= N)
    return;
  const long long c = i + (long long)N * (j + (long long)N * k);
#pragma unroll 1
  for (int v = 0; v < NV; v += G) {
    T r[G];
#pragma unroll
    for (int g = 0; g < G; ++g)
      r[g] = __ldg(s + c + (v + g) * CELLS);
#pragma unroll
    for (int g = 0; g < G; ++g)
      d[c + (v + g) * CELLS] = r[g];
  }
}
// persistent: gridDim.x blocks loop over rows
template <class T, int G>
__global__ void __launch_bounds__(256, 4) persist_k(T* __restrict__ d, const T* __restrict__ s) {
  const int i = threadIdx.x;
  for (int row = blockIdx.x; row < N * N; row += gridDim.x) {
    if (i >= N)
      continue;
    const long long c = i + (long long)N * row;
#pragma unroll 1
    for (int v = 0; v < NV; v += G) {
      T r[G];
#pragma unroll
      for (int g = 0; g < G; ++g)
        r[g] = __ldg(s + c + (v + g) * CELLS);
#pragma unroll
      for (int g = 0; g < G; ++g)
        d[c + (v + g) * CELLS] = r[g];
    }
  }
}

// C cells per thread, warp-strided: lane l of warp w covers cells w*32*C + l + 32*c
template <class T, int C, int G>
__global__ void __launch_bounds__(256, 4) cells_k(T* __restrict__ d, const T* __restrict__ s) {
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  const int j = blockIdx.x, k = blockIdx.y;
  const long long row = (long long)N * (j + (long long)N * k);
#pragma unroll 1
  for (int v = 0; v < NV; v += G) {
    T r[G][C];
#pragma unroll
    for (int g = 0; g < G; ++g)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        int i = w * 32 * C + l + 32 * c;
        if (i < N)
          r[g][c] = __ldg(s + row + i + (v + g) * CELLS);
      }
#pragma unroll
    for (int g = 0; g < G; ++g)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        int i = w * 32 * C + l + 32 * c;
        if (i < N)
          d[row + i + (v + g) * CELLS] = r[g][c];
      }
  }
}
// rows padded to P elements (P*sizeof(T) a multiple of 16): one vector of V elements per thread
template <class T, class VT, int P, int G>
__global__ void __launch_bounds__(256, 4) vec_k(T* __restrict__ d, const T* __restrict__ s) {
  constexpr int V        = sizeof(VT) / sizeof(T);
  constexpr long long PC = (long long)P * N * N;
  const int t            = threadIdx.x;
  const int j = blockIdx.x, k = blockIdx.y;
  const long long row = (long long)P * (j + (long long)N * k);
  if (t * V >= N)
    return;
#pragma unroll 1
  for (int v = 0; v < NV; v += G) {
    VT r[G];
#pragma unroll
    for (int g = 0; g < G; ++g)
      r[g] = __ldg(reinterpret_cast<const VT*>(s + row + (v + g) * PC) + t);
#pragma unroll
    for (int g = 0; g < G; ++g)
      reinterpret_cast<VT*>(d + row + (v + g) * PC)[t] = r[g];
  }
}

// one variable per block (grid z): C cells per thread warp-strided
template <class T, int C>
__global__ void __launch_bounds__(256, 4) varblock_k(T* __restrict__ d, const T* __restrict__ s) {
  const int w = threadIdx.x / 32, l = threadIdx.x % 32;
  const int j = blockIdx.x, k = blockIdx.y, v = blockIdx.z;
  const long long row = (long long)N * (j + (long long)N * k) + v * CELLS;
  T r[C];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    int i = w * 32 * C + l + 32 * c;
    if (i < N)
      r[c] = __ldg(s + row + i);
  }
#pragma unroll
  for (int c = 0; c < C; ++c) {
    int i = w * 32 * C + l + 32 * c;
    if (i < N)
      d[row + i] = r[c];
  }
}
// flat, C elements per thread warp-strided
template <class T, int C>
__global__ void flatc_k(T* __restrict__ d, const T* __restrict__ s, long long n) {
  const long long base =
      (blockIdx.x * (long long)blockDim.x + (threadIdx.x & ~31)) * C + (threadIdx.x & 31);
  T r[C];
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (base + 32 * c < n)
      r[c] = __ldg(s + base + 32 * c);
#pragma unroll
  for (int c = 0; c < C; ++c)
    if (base + 32 * c < n)
      d[base + 32 * c] = r[c];
}

// a warp per row: lane l covers cells l + 32 c (c < C, C * 32 >= N); R rows (warps) per block
template <class T, int C, int G>
__global__ void __launch_bounds__(256, 4) warprow_k(T* __restrict__ d, const T* __restrict__ s) {
  const int l = threadIdx.x % 32;
  const int j = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, k = blockIdx.y;
  if (j >= N)
    return;
  const long long row = (long long)N * (j + (long long)N * k);
#pragma unroll 1
  for (int v = 0; v < NV; v += G) {
    T r[G][C];
#pragma unroll
    for (int g = 0; g < G; ++g)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        int i = l + 32 * c;
        if (i < N)
          r[g][c] = __ldg(s + row + i + (v + g) * CELLS);
      }
#pragma unroll
    for (int g = 0; g < G; ++g)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        int i = l + 32 * c;
        if (i < N)
          d[row + i + (v + g) * CELLS] = r[g][c];
      }
  }
}

// rows, one row per block, groups of G, arrays from a pointer table in global memory (as field_set)
template <class T, int G>
__global__ void __launch_bounds__(512, 4)
    tab_rows_k(T* const* __restrict__ dt, const T* const* __restrict__ st) {
  const int i = threadIdx.x;
  const int j = blockIdx.x, k = blockIdx.y;
  if (i >= N)
    return;
  const long long c = i + (long long)N * (j + (long long)N * k);
#pragma unroll 1
  for (int v = 0; v < NV; v += G) {
    T r[G];
#pragma unroll
    for (int g = 0; g < G; ++g)
      r[g] = __ldg(st[v + g] + c);
#pragma unroll
    for (int g = 0; g < G; ++g)
      dt[v + g][c] = r[g];
  }
}
template <class T, int C, int G>
__global__ void __launch_bounds__(256, 4)
    tab_warprow_k(T* const* __restrict__ dt, const T* const* __restrict__ st) {
  const int l = threadIdx.x % 32;
  const int j = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, k = blockIdx.y;
  if (j >= N)
    return;
  const long long row = (long long)N * (j + (long long)N * k);
#pragma unroll 1
  for (int v = 0; v < NV; v += G) {
    T r[G][C];
#pragma unroll
    for (int g = 0; g < G; ++g)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        int i = l + 32 * c;
        if (i < N)
          r[g][c] = __ldg(st[v + g] + row + i);
      }
#pragma unroll
    for (int g = 0; g < G; ++g)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        int i = l + 32 * c;
        if (i < N)
          dt[v + g][row + i] = r[g][c];
      }
  }
}
template <class T>
void sep_run(double ref, int offset) {
  T *sp[NV], *dp[NV];
  char *sb[NV], *db[NV];
  for (int v = 0; v < NV; ++v) {
    CK(cudaMalloc(&sb[v], sizeof(T) * CELLS + offset));
    CK(cudaMalloc(&db[v], sizeof(T) * CELLS + offset));
    sp[v] = (T*)(sb[v] + offset);
    dp[v] = (T*)(db[v] + offset);
    CK(cudaMemset(sp[v], 0x3f, sizeof(T) * CELLS));
  }
  if (offset == 128)
    printf("allocations: %p %p %p (src), %p (dst)\n", (void*)sb[0], (void*)sb[1], (void*)sb[2],
           (void*)db[0]);
  T **st, **dt;
  CK(cudaMalloc(&st, sizeof(T*) * NV));
  CK(cudaMalloc(&dt, sizeof(T*) * NV));
  CK(cudaMemcpy(st, sp, sizeof(sp), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dt, dp, sizeof(dp), cudaMemcpyHostToDevice));
  auto t = [&](const char* name, auto launch) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    float best = 1e30f;
    for (int r = 0; r < 30; ++r) {
      CK(cudaEventRecord(a));
      launch();
      CK(cudaGetLastError());
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (r && ms < best)
        best = ms;
    }
    double bw = 2.0 * sizeof(T) * CELLS * NV / (best * 1e-3);
    printf("%-8s %-34s off %3d %8.1f us %7.3f TB/s %6.1f%%\n", sizeof(T) == 4 ? "fp32" : "fp64",
           name, offset, best * 1e3, bw / 1e12, 100 * bw / ref);
  };
  t("sep table rows G4", [&] { tab_rows_k<T, 4><<<dim3(N, N), 224>>>(dt, st); });
  t("sep table warprow C7 G1 R4",
    [&] { tab_warprow_k<T, 7, 1><<<dim3((N + 3) / 4, N), 128>>>(dt, st); });
  t("sep table warprow C7 G2 R4",
    [&] { tab_warprow_k<T, 7, 2><<<dim3((N + 3) / 4, N), 128>>>(dt, st); });
  for (int v = 0; v < NV; ++v) {
    CK(cudaFree(sb[v]));
    CK(cudaFree(db[v]));
  }
  CK(cudaFree(st));
  CK(cudaFree(dt));
}
template <class T>
__global__ void flat_k(T* __restrict__ d, const T* __restrict__ s, long long n) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < n)
    d[t] = __ldg(s + t);
}

template <class T, class L>
double timeit(const char* name, T* d, T* s, L launch, double ref) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  float best = 1e30f;
  for (int r = 0; r < 30; ++r) {
    CK(cudaMemset(d, 0xff, sizeof(T) * CELLS * NV));
    CK(cudaEventRecord(a));
    launch();
    CK(cudaGetLastError());
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r > 0 && ms < best)
      best = ms;
  }
  // verify
  std::vector<T> hs(CELLS * NV), hd(CELLS * NV);
  CK(cudaMemcpy(hs.data(), s, sizeof(T) * CELLS * NV, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hd.data(), d, sizeof(T) * CELLS * NV, cudaMemcpyDeviceToHost));
  for (long long q = 0; q < CELLS * NV; ++q)
    if (hs[q] != hd[q]) {
      printf("%s WRONG at %lld\n", name, q);
      exit(1);
    }
  double bw = 2.0 * sizeof(T) * CELLS * NV / (best * 1e-3);
  printf("%-8s %-34s %8.1f us %7.3f TB/s %6.1f%%\n", sizeof(T) == 4 ? "fp32" : "fp64", name,
         best * 1e3, bw / 1e12, ref > 0 ? 100 * bw / ref : 100.0);
  return bw;
}

template <class T>
void run(double ref, int round) {
  T *s, *d;
  CK(cudaMalloc(&s, sizeof(T) * CELLS * NV));
  CK(cudaMalloc(&d, sizeof(T) * CELLS * NV));
  std::vector<T> h(CELLS * NV);
  unsigned x = 12345u;
  for (auto& e : h) {
    x = x * 1664525u + 1013904223u;
    e = T(x) * T(1e-6);
  }
  CK(cudaMemcpy(s, h.data(), sizeof(T) * CELLS * NV, cudaMemcpyHostToDevice));
  switch (round) {
    case 1:
      timeit(
          "memcpy", d, s,
          [&] { CK(cudaMemcpyAsync(d, s, sizeof(T) * CELLS * NV, cudaMemcpyDeviceToDevice)); },
          ref);
      timeit(
          "flat 256", d, s,
          [&] {
            long long n = CELLS * NV;
            flat_k<T><<<(n + 255) / 256, 256>>>(d, s, n);
          },
          ref);
      timeit(
          "rows 224x1 G4", d, s, [&] { rows_k<T, 4, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "rows 224x1 G8", d, s, [&] { rows_k<T, 8, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "rows 224x1 G2", d, s, [&] { rows_k<T, 2, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "rows 224x1 G1", d, s, [&] { rows_k<T, 1, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "rows 224x2 G4", d, s,
          [&] { rows_k<T, 4, 2><<<dim3((N + 1) / 2, N), dim3(224, 2)>>>(d, s, N); }, ref);
      timeit(
          "rows 224x2 G8", d, s,
          [&] { rows_k<T, 8, 2><<<dim3((N + 1) / 2, N), dim3(224, 2)>>>(d, s, N); }, ref);
      timeit(
          "rows 209x1 G4", d, s, [&] { rows_k<T, 4, 1><<<dim3(N, N), dim3(209, 1)>>>(d, s, N); },
          ref);
      timeit(
          "persist 132x8 G4", d, s, [&] { persist_k<T, 4><<<132 * 8, 224>>>(d, s); }, ref);
      timeit(
          "persist 132x8 G8", d, s, [&] { persist_k<T, 8><<<132 * 8, 224>>>(d, s); }, ref);
      timeit(
          "persist 132x16 G4", d, s, [&] { persist_k<T, 4><<<132 * 16, 224>>>(d, s); }, ref);
      break;
    case 2:
      timeit(
          "memcpy", d, s,
          [&] { CK(cudaMemcpyAsync(d, s, sizeof(T) * CELLS * NV, cudaMemcpyDeviceToDevice)); },
          ref);
      timeit(
          "rows 224x1 G4", d, s, [&] { rows_k<T, 4, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "cells C1 G4 (blk 224)", d, s, [&] { cells_k<T, 1, 4><<<dim3(N, N), 224>>>(d, s); }, ref);
      timeit(
          "cells C2 G1", d, s, [&] { cells_k<T, 2, 1><<<dim3(N, N), 128>>>(d, s); }, ref);
      timeit(
          "cells C2 G2", d, s, [&] { cells_k<T, 2, 2><<<dim3(N, N), 128>>>(d, s); }, ref);
      timeit(
          "cells C2 G4", d, s, [&] { cells_k<T, 2, 4><<<dim3(N, N), 128>>>(d, s); }, ref);
      timeit(
          "cells C4 G1", d, s, [&] { cells_k<T, 4, 1><<<dim3(N, N), 64>>>(d, s); }, ref);
      timeit(
          "cells C4 G2", d, s, [&] { cells_k<T, 4, 2><<<dim3(N, N), 64>>>(d, s); }, ref);
      break;
    case 3:
      timeit(
          "memcpy", d, s,
          [&] { CK(cudaMemcpyAsync(d, s, sizeof(T) * CELLS * NV, cudaMemcpyDeviceToDevice)); },
          ref);
      timeit(
          "rows 224x1 G4", d, s, [&] { rows_k<T, 4, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "varblock C4", d, s, [&] { varblock_k<T, 4><<<dim3(N, N, NV), 64>>>(d, s); }, ref);
      timeit(
          "varblock C2", d, s, [&] { varblock_k<T, 2><<<dim3(N, N, NV), 128>>>(d, s); }, ref);
      timeit(
          "varblock C1", d, s, [&] { varblock_k<T, 1><<<dim3(N, N, NV), 224>>>(d, s); }, ref);
      timeit(
          "flat C4", d, s,
          [&] {
            long long n = CELLS * NV;
            flatc_k<T, 4><<<(n + 1023) / 1024, 256>>>(d, s, n);
          },
          ref);
      timeit(
          "flat C2", d, s,
          [&] {
            long long n = CELLS * NV;
            flatc_k<T, 2><<<(n + 511) / 512, 256>>>(d, s, n);
          },
          ref);
      break;
    case 4:
      timeit(
          "memcpy", d, s,
          [&] { CK(cudaMemcpyAsync(d, s, sizeof(T) * CELLS * NV, cudaMemcpyDeviceToDevice)); },
          ref);
      timeit(
          "rows 224x1 G4", d, s, [&] { rows_k<T, 4, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "cells C4 G1", d, s, [&] { cells_k<T, 4, 1><<<dim3(N, N), 64>>>(d, s); }, ref);
      timeit(
          "warprow C7 G1 R2", d, s, [&] { warprow_k<T, 7, 1><<<dim3((N + 1) / 2, N), 64>>>(d, s); },
          ref);
      timeit(
          "warprow C7 G1 R4", d, s,
          [&] { warprow_k<T, 7, 1><<<dim3((N + 3) / 4, N), 128>>>(d, s); }, ref);
      timeit(
          "warprow C7 G1 R8", d, s,
          [&] { warprow_k<T, 7, 1><<<dim3((N + 7) / 8, N), 256>>>(d, s); }, ref);
      timeit(
          "warprow C7 G2 R4", d, s,
          [&] { warprow_k<T, 7, 2><<<dim3((N + 3) / 4, N), 128>>>(d, s); }, ref);
      timeit(
          "warprow C7 G4 R4", d, s,
          [&] { warprow_k<T, 7, 4><<<dim3((N + 3) / 4, N), 128>>>(d, s); }, ref);
      timeit(
          "flat C4", d, s,
          [&] {
            long long n = CELLS * NV;
            flatc_k<T, 4><<<(n + 1023) / 1024, 256>>>(d, s, n);
          },
          ref);
      break;
    case 5:
      timeit(
          "memcpy", d, s,
          [&] { CK(cudaMemcpyAsync(d, s, sizeof(T) * CELLS * NV, cudaMemcpyDeviceToDevice)); },
          ref);
      timeit(
          "rows 224x1 G4", d, s, [&] { rows_k<T, 4, 1><<<dim3(N, N), dim3(224, 1)>>>(d, s, N); },
          ref);
      timeit(
          "warprow C7 G1 R4", d, s,
          [&] { warprow_k<T, 7, 1><<<dim3((N + 3) / 4, N), 128>>>(d, s); }, ref);
      break;
  }
  CK(cudaFree(s));
  CK(cudaFree(d));
}
template <class T, class VT, int P, int G>
void vec_run(const char* name, double ref) {
  const long long n = (long long)P * N * N * NV;
  T *s, *d;
  CK(cudaMalloc(&s, sizeof(T) * n));
  CK(cudaMalloc(&d, sizeof(T) * n));
  CK(cudaMemset(s, 0x3f, sizeof(T) * n));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  float best = 1e30f;
  for (int r = 0; r < 30; ++r) {
    CK(cudaEventRecord(a));
    vec_k<T, VT, P, G><<<dim3(N, N), (P / (int)(sizeof(VT) / sizeof(T)) + 31) / 32 * 32>>>(d, s);
    CK(cudaGetLastError());
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r && ms < best)
      best = ms;
  }
  double bw = 2.0 * sizeof(T) * CELLS * NV / (best * 1e-3);  // ideal bytes of the 209-wide rows
  printf("%-8s %-34s %8.1f us %7.3f TB/s %6.1f%%\n", sizeof(T) == 4 ? "fp32" : "fp64", name,
         best * 1e3, bw / 1e12, 100 * bw / ref);
  CK(cudaFree(s));
  CK(cudaFree(d));
}
int main(int argc, char** argv) {
  const int round = argc > 1 ? atoi(argv[1]) : 0;
  if (round < 1 || round > 5) {
    printf("usage: %s ROUND (1 to 5)\n", argv[0]);
    return 2;
  }
  // reference: 1 GiB double memcpy, read + write
  size_t n = (1u << 30);
  char *a, *b;
  CK(cudaMalloc(&a, n));
  CK(cudaMalloc(&b, n));
  CK(cudaMemset(a, 1, n));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  float best = 1e30f;
  for (int r = 0; r < 11; ++r) {
    CK(cudaEventRecord(e0));
    CK(cudaMemcpyAsync(b, a, n, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r && ms < best)
      best = ms;
  }
  double ref = 2.0 * n / (best * 1e-3);
  printf("reference 1 GiB memcpy %.3f TB/s\n", ref / 1e12);
  CK(cudaFree(a));
  CK(cudaFree(b));
  switch (round) {
    case 1:
      run<float>(ref, round);
      run<double>(ref, round);
      break;
    case 2:
      run<float>(ref, round);
      run<double>(ref, round);
      vec_run<float, float4, 212, 4>("vec float4 rows of 212 G4", ref);
      vec_run<float, float4, 212, 2>("vec float4 rows of 212 G2", ref);
      vec_run<float, float2, 210, 4>("vec float2 rows of 210 G4", ref);
      vec_run<double, double2, 210, 4>("vec double2 rows of 210 G4", ref);
      break;
    case 3:
      run<float>(ref, round);
      run<double>(ref, round);
      vec_run<float, float4, 212, 2>("vec float4 rows of 212 G2", ref);
      vec_run<float, float4, 224, 2>("vec float4 rows of 224 G2", ref);
      vec_run<float, float4, 224, 4>("vec float4 rows of 224 G4", ref);
      vec_run<double, double2, 224, 2>("vec double2 rows of 224 G2", ref);
      break;
    case 4:
      run<float>(ref, round);
      run<double>(ref, round);
      break;
    case 5:
      run<float>(ref, round);
      run<double>(ref, round);
      sep_run<float>(ref, 128);
      sep_run<float>(ref, 0);
      sep_run<double>(ref, 128);
      sep_run<double>(ref, 0);
      break;
  }
}
