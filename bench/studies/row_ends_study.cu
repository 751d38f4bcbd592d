// finalize_flux, flux_difference_x, the copy and pack_weno of 8 variables in plain CUDA, on the
// benchmark's layout (n^3 cells, 4 ghost layers, x fastest, each field its own allocation, the
// packed buffer one allocation) and on rows padded so that every interior row starts on a
// 128-byte line: how much of the copy bandwidth a loop that writes part of every row can reach,
// whoever writes it, and which mapping copies whole arrays fastest.
// The loops run in loopnest's collapse3 form (a plane's rows in memory order from a line
// boundary, 256 threads, variables in groups of 4 with the loads first) with variants: rows
// written ghost to ghost ("whole rows"), the sectors at the rows' ends completed by the threads
// beside the box with their own elements ("fill"), padded rows, float4 vectors, and, for whole
// arrays, one flat copy per variable ("flat C4": four elements a thread a warp apart, the warps on
// lines of the destination or the source). Each is checked against a plain 3D kernel over the box
// (every box element equal, every element outside it still poisoned, but for the "whole rows"
// variants, which write the ghosts too; the "check's test" variant leaves a row out on purpose and
// must read WRONG) and timed as the best and the median of 30 launches after one, as a share of a
// 1 GiB cudaMemcpy of the same process. "ncu" runs every variant once at 201^3 (for ncu's DRAM
// counters). "fd" runs flux_difference_y and _z in place, in loopnest's form and on whole rows,
// beside a cudaMemcpy of their ideal bytes.
// Build: -DLOOPNEST_BUILD_STUDIES=ON (target loopnest-study-row-ends), or nvcc -O3 -arch=sm_90
// -std=c++17 row_ends_study.cu. See README.md beside it.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#define CK(x)                                                          \
  do {                                                                 \
    cudaError_t e = (x);                                               \
    if (e != cudaSuccess) {                                            \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)
constexpr int NV = 8, G = 4, THREADS = 256;

// A field's layout, x fastest: `lead` elements of a row before x = 0 (the ghosts and any
// padding), rows of `pitch` elements, `rows` rows a plane (n + 2 G), planes n + 2 G.
struct geom {
  int lead, pitch, rows;
  __host__ __device__ long long plane() const { return (long long)pitch * rows; }
  __host__ __device__ long long size() const { return plane() * rows; }
  __host__ __device__ long long at(int i, int j, int k) const {
    return i + lead + pitch * ((long long)(j + G) + (long long)rows * (k + G));
  }
};
geom issue_geom(int n) {
  return {G, n + 2 * G, n + 2 * G};
}
// Rows that start x = 0 on a line: `line` elements of lead, the pitch a multiple of the line.
geom padded_geom(int n, int line) {
  return {line, (line + n + G + line - 1) / line * line, n + 2 * G};
}
struct box {
  int lo[3], hi[3];
  long long cells() const { return (long long)(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]); }
};

template <class T>
struct fields {
  T* p[NV];
};

// Element o of every field written with its own value: a thread beside the box completes the
// sectors that the box's rows begin or end in (the "fill" variants).
template <class T>
__device__ void fill_fields(const fields<T>& f, long long o) {
  T x[NV];
#pragma unroll
  for (int v = 0; v < NV; ++v)
    x[v] = __ldcg(f.p[v] + o);
#pragma unroll
  for (int v = 0; v < NV; ++v)
    __stcg(f.p[v] + o, x[v]);
}

// dst(v)(i, j, k) = src(v)(i, j, k): the copy (src a field set) and finalize_flux (src the
// variables of one packed buffer).
template <class T>
struct fin_op {
  fields<T> dst, src;
  geom gd, gs;
  __device__ void operator()(int i, int j, int k) const {
    const long long od = gd.at(i, j, k), os = gs.at(i, j, k);
#pragma unroll 1
    for (int v = 0; v < NV; v += 4) {
      T r[4];
#pragma unroll
      for (int g = 0; g < 4; ++g)
        r[g] = __ldg(src.p[v + g] + os);
#pragma unroll
      for (int g = 0; g < 4; ++g)
        dst.p[v + g][od] = r[g];
    }
  }
  __device__ void fill(long long o) const {
    fill_fields(dst, o);
  }
  __device__ T expected(int i, int j, int k, int v) const {
    return src.p[v][gs.at(i, j, k)];
  }
};
// r(v)(i, j, k) = inv(i) * (f(v)(i - 1, j, k) - f(v)(i, j, k)); at the first element of a row
// (the "whole rows" variants only) the neighbour is the element itself.
template <class T>
struct fdx_op {
  fields<T> r;
  fields<T> f;
  const T* inv;  // indexed by i + G
  geom gd;
  __device__ void operator()(int i, int j, int k) const {
    const long long o = gd.at(i, j, k), ob = i > -G ? o - 1 : o;
    const T s = __ldg(inv + i + G);
#pragma unroll 1
    for (int v = 0; v < NV; v += 4) {
      T a[4], b[4];
#pragma unroll
      for (int g = 0; g < 4; ++g) {
        a[g] = __ldg(f.p[v + g] + ob);
        b[g] = __ldg(f.p[v + g] + o);
      }
#pragma unroll
      for (int g = 0; g < 4; ++g)
        r.p[v + g][o] = s * (a[g] - b[g]);
    }
  }
  __device__ void fill(long long o) const {
    fill_fields(r, o);
  }
  __device__ T expected(int i, int j, int k, int v) const {
    const long long o = gd.at(i, j, k), ob = i > -G ? o - 1 : o;
    return inv[i + G] * (f.p[v][ob] - f.p[v][o]);
  }
};

// flux_difference along y (D = 1) or z (D = 2), in place as loopnest's:
// r(v)(i, j, k) = fma(inv(j or k), f(v)(i, j - 1, k) - f(v)(i, j, k), r(v)(i, j, k)).
template <class T, int D>
struct fdyz_op {
  fields<T> r;
  fields<T> f;
  fields<T> r0;  // r before the launch (the check's reference)
  const T* inv;  // indexed by j + G or k + G
  geom gd;
  __device__ long long below(long long o) const { return o - (D == 1 ? gd.pitch : gd.plane()); }
  __device__ void operator()(int i, int j, int k) const {
    const long long o = gd.at(i, j, k), ob = below(o);
    const T s = __ldg(inv + (D == 1 ? j : k) + G);
#pragma unroll 1
    for (int v = 0; v < NV; v += 4) {
      T a[4], b[4], c[4];
#pragma unroll
      for (int g = 0; g < 4; ++g) {
        a[g] = __ldg(f.p[v + g] + ob);
        b[g] = __ldg(f.p[v + g] + o);
        c[g] = r.p[v + g][o];
      }
#pragma unroll
      for (int g = 0; g < 4; ++g)
        r.p[v + g][o] = fma(s, a[g] - b[g], c[g]);
    }
  }
  __device__ void fill(long long o) const {
    fill_fields(r, o);
  }
  __device__ T expected(int i, int j, int k, int v) const {
    const long long o = gd.at(i, j, k);
    return fma(inv[(D == 1 ? j : k) + G], f.p[v][below(o)] - f.p[v][o], r0.p[v][o]);
  }
};

__device__ bool in_box(const geom& gd, const box& b, long long e) {
  const long long row = e / gd.pitch;
  const int i = int(e - row * gd.pitch) - gd.lead, j = int(row % gd.rows) - G,
            k = int(row / gd.rows) - G;
  return i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1] && k >= b.lo[2] && k < b.hi[2];
}
// loopnest's collapse3 form: plane blockIdx.y of the box, its rows' span in the destination from
// the line (`line` elements) at or below its first element, one element a thread. With fill > 1,
// the threads beside the box complete the fill-element blocks its rows begin and end in (rows
// longer than a block, so a block holds box elements only if its first or last one is one).
template <class Op>
__global__ void __launch_bounds__(THREADS) plane_k(Op op, geom gd, box b, int line, int fill) {
  const int k           = b.lo[2] + blockIdx.y;
  const long long first = gd.at(b.lo[0], b.lo[1], k), plane0 = gd.at(-gd.lead, -G, k);
  const long long e =
      (first & ~(long long)(line - 1)) + (long long)blockIdx.x * THREADS + threadIdx.x;
  const long long p = e - plane0;
  const int row = int(p / gd.pitch), i = int(p - (long long)row * gd.pitch) - gd.lead, j = row - G;
  if (p < 0 || i < b.lo[0] || i >= b.hi[0] || j < b.lo[1] || j >= b.hi[1]) {
    if (fill > 1 && e >= 0 && e < gd.size()) {
      const long long s0 = e & ~(long long)(fill - 1);
      if (in_box(gd, b, s0) || (s0 + fill - 1 < gd.size() && in_box(gd, b, s0 + fill - 1))) {
        op.fill(e);
      }
    }
    return;
  }
  op(i, j, k);
}
// flux_difference_y/z in loopnest's plane form with C cells a thread (THREADS apart) and the
// variables in groups of VG, every load of a group's cells issued before its stores.
template <class T, int D, int C, int VG>
__global__ void __launch_bounds__(THREADS) fd_multi_k(fdyz_op<T, D> op, box b, int line) {
  const geom gd         = op.gd;
  const int k           = b.lo[2] + blockIdx.y;
  const long long first = gd.at(b.lo[0], b.lo[1], k), plane0 = gd.at(-gd.lead, -G, k);
  const long long e0 =
      (first & ~(long long)(line - 1)) + (long long)blockIdx.x * THREADS * C + threadIdx.x;
  long long o[C];
  bool in[C];
  T s[C];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const long long p = e0 + c * THREADS - plane0;
    const int row = int(p / gd.pitch), i = int(p - (long long)row * gd.pitch) - gd.lead,
              j = row - G;
    in[c]       = p >= 0 && i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1];
    o[c]        = e0 + c * THREADS;
    s[c]        = in[c] ? __ldg(op.inv + (D == 1 ? j : k) + G) : T(0);
  }
  const long long down = D == 1 ? gd.pitch : gd.plane();
#pragma unroll 1
  for (int v = 0; v < NV; v += VG) {
    T a[C][VG], x[C][VG], r[C][VG];
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int g = 0; g < VG; ++g)
        if (in[c]) {
          a[c][g] = __ldg(op.f.p[v + g] + o[c] - down);
          x[c][g] = __ldg(op.f.p[v + g] + o[c]);
          r[c][g] = op.r.p[v + g][o[c]];
        }
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int g = 0; g < VG; ++g)
        if (in[c])
          op.r.p[v + g][o[c]] = fma(s[c], a[c][g] - x[c][g], r[c][g]);
  }
}
template <class T, int D, int C, int VG>
void fd_multi_launch(const fdyz_op<T, D>& op, const box& b, int line) {
  const geom& gd       = op.gd;
  const long long span = gd.at(b.hi[0] - 1, b.hi[1] - 1, 0) -
                         (gd.at(b.lo[0], b.lo[1], 0) & ~(long long)(line - 1)) + 1;
  fd_multi_k<T, D, C, VG>
      <<<dim3(unsigned((span + THREADS * C - 1) / (THREADS * C)), b.hi[2] - b.lo[2]), THREADS>>>(
          op, b, line);
}

// finalize with V-element vectors: rows whose lead, pitch and source layout are multiples of V,
// the partial vector at a row's end element by element.
template <class T, class VT>
__global__ void __launch_bounds__(THREADS) plane_vec_k(fin_op<T> op, box b, int line) {
  constexpr int V       = sizeof(VT) / sizeof(T);
  const geom gd         = op.gd;
  const int k           = b.lo[2] + blockIdx.y;
  const long long first = gd.at(b.lo[0], b.lo[1], k), plane0 = gd.at(-gd.lead, -G, k);
  const long long e =
      (first & ~(long long)(line - 1)) + ((long long)blockIdx.x * THREADS + threadIdx.x) * V;
  const long long p = e - plane0;
  const int row = int(p / gd.pitch), i = int(p - (long long)row * gd.pitch) - gd.lead, j = row - G;
  if (p < 0 || i < b.lo[0] || i >= b.hi[0] || j < b.lo[1] || j >= b.hi[1])
    return;
  const long long od = gd.at(i, j, k), os = op.gs.at(i, j, k);
  const int m = min(V, b.hi[0] - i);
#pragma unroll 1
  for (int v = 0; v < NV; v += 4) {
    if (m == V) {
      VT r[4];
#pragma unroll
      for (int g = 0; g < 4; ++g)
        r[g] = __ldg(reinterpret_cast<const VT*>(op.src.p[v + g] + os));
#pragma unroll
      for (int g = 0; g < 4; ++g)
        *reinterpret_cast<VT*>(op.dst.p[v + g] + od) = r[g];
    } else {
      for (int g = 0; g < 4; ++g)
        for (int c = 0; c < m; ++c)
          op.dst.p[v + g][od + c] = op.src.p[v + g][os + c];
    }
  }
}

// f.p[v] by selects: an index into the kernel parameter that is not a constant copies the table
// to the stack.
template <class T>
__device__ T* pick(const fields<T>& f, int v) {
  T* r = f.p[0];
#pragma unroll
  for (int u = 1; u < NV; ++u)
    r = v == u ? f.p[u] : r;
  return r;
}
// pack_weno in the packed buffer's x, y, z order with the fields' ghost width: every variable a
// flat copy of its n + 2 G cubed elements. One variable a block row (blockIdx.y), C elements a
// thread 32 apart, the warps on line boundaries of the destination's variable (to_dst) or of the
// source's.
template <class T, int C>
__global__ void __launch_bounds__(THREADS)
    flat_var_k(fields<T> dst, fields<T> src, long long n, bool to_dst) {
  constexpr int line = 128 / sizeof(T);
  const int v        = blockIdx.y;
  T* const d         = pick(dst, v);
  const T* const s   = pick(src, v);
  const long long phase =
      (reinterpret_cast<unsigned long long>(to_dst ? d : s) / sizeof(T)) & (line - 1);
  const long long e0 =
      -phase + ((long long)blockIdx.x * THREADS + (threadIdx.x & ~31)) * C + (threadIdx.x & 31);
  T r[C];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const long long e = e0 + 32 * c;
    if (e >= 0 && e < n)
      r[c] = __ldg(s + e);
  }
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const long long e = e0 + 32 * c;
    if (e >= 0 && e < n)
      d[e] = r[c];
  }
}
template <class T, int C>
void flat_launch(const fields<T>& dst, const fields<T>& src, const geom& g, bool to_dst) {
  constexpr int line = 128 / sizeof(T);
  flat_var_k<T, C>
      <<<dim3(unsigned((g.size() + line + THREADS * C - 1) / (THREADS * C)), NV), THREADS>>>(
          dst, src, g.size(), to_dst);
}

// The independent check: one thread per element of the destination, 3D indices.
// Outside the box every element must still be poisoned (outside, no keep) or equal to keep's.
template <class T, class Op>
__global__ void check_k(Op op, fields<T> dst, geom gd, box b, bool outside, const fields<T>* keep,
                        unsigned long long* wrong) {
  using U           = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;
  const long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (e >= gd.size())
    return;
  const int v         = blockIdx.y;
  const long long row = e / gd.pitch;
  const int i = int(e - row * gd.pitch) - gd.lead, j = int(row % gd.rows) - G,
            k = int(row / gd.rows) - G;
  const bool in =
      i >= b.lo[0] && i < b.hi[0] && j >= b.lo[1] && j < b.hi[1] && k >= b.lo[2] && k < b.hi[2];
  const T got = dst.p[v][e];
  U bits, kept = ~U(0);
  memcpy(&bits, &got, sizeof(T));
  if (keep)
    memcpy(&kept, keep->p[v] + e, sizeof(T));
  if (in ? !(got == op.expected(i, j, k, v)) : outside && bits != kept) {
    atomicAdd(wrong, 1ull);
  }
}
template <class T>
__global__ void fill_k(T* p, long long n, unsigned seed) {
  const long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (e >= n)
    return;
  unsigned x = unsigned(e) * 2654435761u ^ seed;
  x ^= x >> 13;
  x *= 0x5bd1e995u;
  x ^= x >> 15;
  p[e] = T(x % 1000003u) * T(1e-3) - T(500);
}

template <class T>
T* alloc(long long n, unsigned seed) {
  T* p;
  CK(cudaMalloc(&p, sizeof(T) * n));
  fill_k<<<(n + 255) / 256, 256>>>(p, n, seed);
  CK(cudaGetLastError());
  return p;
}
template <class T>
fields<T> alloc_fields(const geom& g, unsigned seed) {
  fields<T> f;
  for (int v = 0; v < NV; ++v)
    f.p[v] = alloc<T>(g.size(), seed + 7919u * v);
  return f;
}
// The variables of one packed buffer (x, y, z, v), as finalize_flux's source.
template <class T>
fields<T> packed_fields(const geom& g, unsigned seed) {
  fields<T> f;
  f.p[0] = alloc<T>(g.size() * NV, seed);
  for (int v = 1; v < NV; ++v)
    f.p[v] = f.p[0] + v * g.size();
  return f;
}
template <class T>
void free_fields(fields<T>& f) {
  for (int v = 0; v < NV; ++v)
    CK(cudaFree(f.p[v]));
}

double ref_bw = 0;
int reps      = 30;
const char* prec(float) {
  return "fp32";
}
const char* prec(double) {
  return "fp64";
}

// Times `reps` launches; w: the wrong elements its check found.
template <class T, class L>
void time_only(const char* name, int n, double bytes, unsigned long long w, L launch) {
  std::vector<float> ms;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaGetLastError());
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float t;
    CK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  const double best = ms[0] * 1e-3, med = ms[ms.size() / 2] * 1e-3;
  printf("%s %4d %-34s %9.1f us %6.1f%% (median %6.1f%%) %s\n", prec(T{}), n, name, best * 1e6,
         100 * bytes / best / ref_bw, 100 * bytes / med / ref_bw, w ? "WRONG" : "ok");
  if (w)
    printf("  %llu wrong elements\n", w);
}

// Poisons dst (or, with keep, copies keep into it), launches once, checks, then times `reps`
// launches.
template <class T, class Op, class L>
void run(const char* name, int n, const Op& op, const fields<T>& dst, const geom& gd, const box& b,
         bool outside, double bytes, L launch, const fields<T>* keep = nullptr) {
  for (int v = 0; v < NV; ++v) {
    if (keep) {
      CK(cudaMemcpy(dst.p[v], keep->p[v], sizeof(T) * gd.size(), cudaMemcpyDeviceToDevice));
    } else {
      CK(cudaMemset(dst.p[v], 0xff, sizeof(T) * gd.size()));
    }
  }
  launch();
  CK(cudaGetLastError());
  unsigned long long* wrong;
  CK(cudaMallocManaged(&wrong, sizeof(*wrong)));
  *wrong          = 0;
  fields<T>* kept = nullptr;
  if (keep) {
    CK(cudaMallocManaged(&kept, sizeof(*kept)));
    *kept = *keep;
  }
  check_k<<<dim3(unsigned((gd.size() + 255) / 256), NV), 256>>>(op, dst, gd, b, outside, kept,
                                                                wrong);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  const unsigned long long w = *wrong;
  CK(cudaFree(wrong));
  if (kept)
    CK(cudaFree(kept));
  time_only<T>(name, n, bytes, w, launch);
}

template <class T, class Op>
void plane_launch(const Op& op, const geom& gd, const box& b, int line, int fill = 1) {
  const long long span = gd.at(b.hi[0] - 1, b.hi[1] - 1, 0) -
                         (gd.at(b.lo[0], b.lo[1], 0) & ~(long long)(line - 1)) + 1;
  // a plane's span from the line below its first element, whatever that line's phase, and the
  // line after its last (the fill variants)
  const long long threads = span + 2 * line;
  plane_k<<<dim3(unsigned((threads + THREADS - 1) / THREADS), b.hi[2] - b.lo[2]), THREADS>>>(
      op, gd, b, line, fill);
}

template <class T>
void study(int n) {
  constexpr int line = 128 / sizeof(T);
  const geom gi = issue_geom(n), gp = padded_geom(n, line);
  const box whole{{-G, -G, -G}, {n + G, n + G, n + G}};
  const box fy{{0, -1, 0}, {n, n, n}}, fx{{-1, 0, 0}, {n, n, n}}, in{{0, 0, 0}, {n, n, n}};
  const box fy_rows{{-G, -1, 0}, {n + G, n, n}}, in_rows{{-G, 0, 0}, {n + G, n, n}};
  const double sz   = sizeof(T);
  auto fields_bytes = [&](const box& b, int streams) { return streams * sz * b.cells() * NV; };
  for (const geom& g : {gi, gp}) {
    const bool pad = g.lead != G;
    fields<T> a = alloc_fields<T>(g, 11u), d = alloc_fields<T>(g, 23u);
    T* inv = alloc<T>(n + 2 * G, 41u);
    const fin_op<T> copy{d, a, g, g};
    run<T>(pad ? "copy, padded" : "copy", n, copy, d, g, whole, true, fields_bytes(whole, 2),
           [&] { plane_launch<T>(copy, g, whole, line); });
    // finalize: the source packed in the issue's layout, or padded with the fields
    fields<T> packed_i = packed_fields<T>(gi, 37u), packed_p = packed_fields<T>(g, 37u);
    const fin_op<T> fin{d, packed_i, g, gi}, fin_p{d, packed_p, g, g};
    if (!pad && n == 201) {
      // The check itself: finalize over the interior only leaves the faces at y = -1 poisoned.
      run<T>("check's test: y = -1 left out (WRONG)", n, fin, d, g, fy, true, fields_bytes(fy, 2),
             [&] { plane_launch<T>(fin, g, in, line); });
    }
    run<T>(pad ? "finalize_y, padded fields" : "finalize_y", n, fin, d, g, fy, true,
           fields_bytes(fy, 2), [&] { plane_launch<T>(fin, g, fy, line); });
    if (pad) {
      run<T>("finalize_y, padded both", n, fin_p, d, g, fy, true, fields_bytes(fy, 2),
             [&] { plane_launch<T>(fin_p, g, fy, line); });
      if constexpr (sizeof(T) == 4) {
        run<T>(
            "finalize_y, padded both, float4", n, fin_p, d, g, fy, true, fields_bytes(fy, 2), [&] {
              const long long span = g.at(n - 1, n - 1, 0) - g.at(0, -1, 0) + 1;
              plane_vec_k<T, float4>
                  <<<dim3(unsigned((span / 4 + THREADS) / THREADS), n), THREADS>>>(fin_p, fy, line);
            });
      }
    } else {
      run<T>("finalize_y, whole rows", n, fin, d, g, fy_rows, false, fields_bytes(fy_rows, 2),
             [&] { plane_launch<T>(fin, g, fy_rows, line); });
      run<T>("finalize_x", n, fin, d, g, fx, true, fields_bytes(fx, 2),
             [&] { plane_launch<T>(fin, g, fx, line); });
      // pack_weno: the fields into the packed buffer (overwrites finalize's source)
      const fin_op<T> pack{packed_i, a, g, g};
      run<T>("pack", n, pack, packed_i, g, whole, true, fields_bytes(whole, 2),
             [&] { plane_launch<T>(pack, g, whole, line); });
      run<T>("pack, flat C4, to fields", n, pack, packed_i, g, whole, true, fields_bytes(whole, 2),
             [&] { flat_launch<T, 4>(packed_i, a, g, false); });
      run<T>("pack, flat C4, to packed", n, pack, packed_i, g, whole, true, fields_bytes(whole, 2),
             [&] { flat_launch<T, 4>(packed_i, a, g, true); });
      run<T>("pack, flat C8, to packed", n, pack, packed_i, g, whole, true, fields_bytes(whole, 2),
             [&] { flat_launch<T, 8>(packed_i, a, g, true); });
      run<T>("copy, flat C4", n, copy, d, g, whole, true, fields_bytes(whole, 2),
             [&] { flat_launch<T, 4>(d, a, g, true); });
      // the size's own ceiling: one cudaMemcpy of the packed buffer's bytes
      fields<T> packed_2 = packed_fields<T>(g, 43u);
      run<T>("cudaMemcpy of the 8 fields' bytes", n, fin_op<T>{packed_2, packed_i, g, g}, packed_2,
             g, whole, true, fields_bytes(whole, 2), [&] {
               CK(cudaMemcpyAsync(packed_2.p[0], packed_i.p[0], sizeof(T) * g.size() * NV,
                                  cudaMemcpyDeviceToDevice));
             });
      CK(cudaFree(packed_2.p[0]));
      for (const int bytes : {32, 64, 128}) {
        const int f          = bytes / int(sizeof(T));
        const std::string y  = "finalize_y, fill " + std::to_string(bytes) + " B",
                          x  = "finalize_x, fill " + std::to_string(bytes) + " B",
                          dx = "flux_difference_x, fill " + std::to_string(bytes) + " B";
        run<T>(y.c_str(), n, fin, d, g, fy, true, fields_bytes(fy, 2),
               [&] { plane_launch<T>(fin, g, fy, line, f); });
        run<T>(x.c_str(), n, fin, d, g, fx, true, fields_bytes(fx, 2),
               [&] { plane_launch<T>(fin, g, fx, line, f); });
        run<T>(dx.c_str(), n, fdx_op<T>{d, a, inv, g}, d, g, in, true, fields_bytes(in, 2), [&] {
          plane_launch<T>(fdx_op<T>{d, a, inv, g}, g, in, line, f);
        });
      }
    }
    const fdx_op<T> fd{d, a, inv, g};
    run<T>(pad ? "flux_difference_x, padded" : "flux_difference_x", n, fd, d, g, in, true,
           fields_bytes(in, 2), [&] { plane_launch<T>(fd, g, in, line); });
    if (!pad) {
      run<T>("flux_difference_x, whole rows", n, fd, d, g, in_rows, false, fields_bytes(in_rows, 2),
             [&] { plane_launch<T>(fd, g, in_rows, line); });
    }
    free_fields(a);
    free_fields(d);
    CK(cudaFree(packed_i.p[0]));
    CK(cudaFree(packed_p.p[0]));
    CK(cudaFree(inv));
  }
}

// flux_difference_y and _z: loopnest's form, rows written ghost to ghost, and a cudaMemcpy of
// the loop's ideal bytes (each interior element of flux and rhs read once, rhs written once).
template <class T>
void study_fd(int n) {
  constexpr int line = 128 / sizeof(T);
  const geom g       = issue_geom(n);
  const box in{{0, 0, 0}, {n, n, n}}, in_rows{{-G, 0, 0}, {n + G, n, n}};
  const double ideal = 3.0 * sizeof(T) * in.cells() * NV;
  fields<T> f = alloc_fields<T>(g, 11u), r = alloc_fields<T>(g, 23u), r0 = alloc_fields<T>(g, 29u);
  T* inv = alloc<T>(n + 2 * G, 41u);
  const fdyz_op<T, 1> fy{r, f, r0, inv, g};
  const fdyz_op<T, 2> fz{r, f, r0, inv, g};
  if (n == 201) {
    // The check itself: the loop over the interior read against rows ghost to ghost.
    run<T>(
        "fd check's test: x ghosts (WRONG)", n, fy, r, g, in_rows, false, ideal,
        [&] { plane_launch<T>(fy, g, in, line); }, &r0);
  }
  run<T>(
      "flux_difference_y", n, fy, r, g, in, true, ideal, [&] { plane_launch<T>(fy, g, in, line); },
      &r0);
  run<T>(
      "flux_difference_y, whole rows", n, fy, r, g, in_rows, false, ideal,
      [&] { plane_launch<T>(fy, g, in_rows, line); }, &r0);
  run<T>(
      "flux_difference_y, 8 variables a group", n, fy, r, g, in, true, ideal,
      [&] { fd_multi_launch<T, 1, 1, 8>(fy, in, line); }, &r0);
  run<T>(
      "flux_difference_y, 2 cells a thread", n, fy, r, g, in, true, ideal,
      [&] { fd_multi_launch<T, 1, 2, 4>(fy, in, line); }, &r0);
  run<T>(
      "flux_difference_y, 4 cells, 2 a group", n, fy, r, g, in, true, ideal,
      [&] { fd_multi_launch<T, 1, 4, 2>(fy, in, line); }, &r0);
  run<T>(
      "flux_difference_z", n, fz, r, g, in, true, ideal, [&] { plane_launch<T>(fz, g, in, line); },
      &r0);
  run<T>(
      "flux_difference_z, 2 cells a thread", n, fz, r, g, in, true, ideal,
      [&] { fd_multi_launch<T, 2, 2, 4>(fz, in, line); }, &r0);
  run<T>(
      "flux_difference_z, whole rows", n, fz, r, g, in_rows, false, ideal,
      [&] { plane_launch<T>(fz, g, in_rows, line); }, &r0);
  const size_t half = size_t(ideal / 2);
  char *from, *to;
  CK(cudaMalloc(&from, half));
  CK(cudaMalloc(&to, half));
  CK(cudaMemset(from, 1, half));
  time_only<T>("cudaMemcpy of the ideal bytes", n, ideal, 0,
               [&] { CK(cudaMemcpyAsync(to, from, half, cudaMemcpyDeviceToDevice)); });
  CK(cudaFree(from));
  CK(cudaFree(to));
  free_fields(f);
  free_fields(r);
  free_fields(r0);
  CK(cudaFree(inv));
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool ncu = mode == "ncu" || mode == "fd-ncu", fd = mode == "fd" || mode == "fd-ncu";
  if (argc > 1 && !ncu && !fd) {
    printf(
        "usage: %s [ncu | fd | fd-ncu]\n  no argument: every variant but flux_difference_y/z at "
        "128, 200, 201 and 256\n  (cubes, 4 ghost layers, 8 variables), FP32 and FP64; fd: "
        "flux_difference_y/z only;\n  ncu, fd-ncu: each variant launched once after its check, "
        "201^3 only (fd-ncu: 128^3 too)\n",
        argv[0]);
    return mode == "--help" ? 0 : 2;
  }
  const size_t bytes = size_t(1) << 30;
  char *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 1, bytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  float best = 1e30f;
  for (int r = 0; r < 11; ++r) {
    CK(cudaEventRecord(e0));
    CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r && ms < best)
      best = ms;
  }
  ref_bw = 2.0 * bytes / (best * 1e-3);
  printf("reference: 1 GiB cudaMemcpy, %.3f TB/s\n", ref_bw / 1e12);
  CK(cudaFree(a));
  CK(cudaFree(b));
  if (ncu)
    reps = 1;
  if (fd) {
    for (int n : {128, 200, 201, 256}) {
      if (ncu && n != 128 && n != 201)
        continue;
      study_fd<float>(n);
      study_fd<double>(n);
    }
    return 0;
  }
  for (int n : {128, 200, 201, 256}) {
    if (ncu && n != 201)
      continue;
    study<float>(n);
    study<double>(n);
  }
}
