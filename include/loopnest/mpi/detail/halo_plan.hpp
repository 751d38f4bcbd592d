// loopnest::Impl::halo_plan: which cells a halo exchange sends and receives, where each face sits
// in the contiguous buffers, and the one-kernel pack and unpack of every face and variable.
#ifndef LOOPNEST_MPI_DETAIL_HALO_PLAN_HPP
#define LOOPNEST_MPI_DETAIL_HALO_PLAN_HPP

#include <loopnest/box.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/mpi/cartesian_decomposition.hpp>
#include <loopnest/mpi/halo_transport.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace loopnest::Impl {

// One face of the ghost layers: `ghost` layers along `axis`, below (side 0) or above (side 1)
// this rank's interior, exchanged with rank `peer`. The cells sent (this rank's outermost
// interior layers on that side) start at send_lo, the cells received (the ghosts) at recv_lo;
// both span `extent`. Its elements sit in the buffers from `offset` on, variable by variable,
// each variable's cells in the pack kernel's order (see halo_face_box).
struct halo_face {
  int axis = 0, side = 0, peer = MPI_PROC_NULL;
  int send_lo[3] = {}, recv_lo[3] = {}, extent[3] = {1, 1, 1};
  // Cells per variable, elements in all (cells * nvar), the first element in the buffers.
  std::int64_t cells = 0, elements = 0, offset = 0;
  // MPI tags: a message is tagged with the face it was packed from, so that the two messages
  // between ranks that are neighbours on both sides (two ranks on a periodic axis) stay apart.
  int send_tag() const { return 2 * axis + side; }
  int recv_tag() const { return 2 * axis + 1 - side; }
};

// Faces exchanged together: all of them (faces only) or those of one axis (edges and corners,
// axis after axis). Elements [begin, begin + size) of the buffers.
struct halo_phase {
  std::vector<halo_face> faces;
  std::int64_t begin = 0, size = 0;
};

struct halo_plan {
  std::vector<halo_phase> phases;
  std::int64_t total = 0;
};

// The plan for the variables and ghost layers of `shape`, this rank's block of d. A face without a
// neighbour (the edge of an axis that does not wrap) is left out: its ghosts stay as they are.
// Each face receives into its ghost slab (grid_shape::ghost_box) and sends the cells a periodic
// fill would copy into the neighbour's slab facing it (grid_shape::ghost_source_box), across the
// other axes as the region says: their interior (faces), or with edges and corners the ghosts of
// the axes exchanged before.
inline halo_plan make_halo_plan(const cartesian_decomposition& d, const grid_shape& shape,
                                halo_region region) {
  halo_plan plan;
  const bool by_axis    = region == halo_region::faces_edges_corners;
  const ghost_span span = by_axis ? ghost_span::with_corners : ghost_span::face;
  for (int axis = 0; axis < d.dims(); ++axis) {
    if (by_axis || plan.phases.empty()) {
      plan.phases.emplace_back();
      plan.phases.back().begin = plan.total;
    }
    auto& phase = plan.phases.back();
    for (int side = 0; side < 2; ++side) {
      halo_face f;
      f.axis = axis;
      f.side = side;
      f.peer = d.neighbour(axis, side);
      if (f.peer == MPI_PROC_NULL || shape.ghost() == 0) {
        continue;
      }
      const box<3> recv = shape.ghost_box(axis, side, span);
      const box<3> send = shape.ghost_source_box(axis, 1 - side, span);
      for (int e = 0; e < 3; ++e) {
        f.send_lo[e] = send.lower(e);
        f.recv_lo[e] = recv.lower(e);
        f.extent[e]  = recv.extent(e);
      }
      f.cells    = recv.size();
      f.elements = f.cells * shape.nvar();
      f.offset   = plan.total;
      plan.total += f.elements;
      phase.faces.push_back(f);
    }
    phase.size = plan.total - phase.begin;
  }
  return plan;
}

// A face as the pack kernel sees it: the work box is (a, b, c), a fastest, with every face's
// work stacked along c, variable after variable (a work item moves one value, so that every
// value of a phase is a load of its own in flight rather than one of a thread's loop). A face
// across the fields' stride-1 axis (`fused`, an x face of LayoutLeft fields) walks its layers
// fastest, a = layer + depth * t0: its layers are the only cells it has that lie side by side in
// memory, and a warp then reads whole runs of them instead of one element of 32 rows. Any other
// face has a along its stride-1 tangential axis t0, b along t1 and its layers along c. The buffer
// holds a face's elements in work order.
struct halo_face_box {
  int lo[3];
  int t0, t1, normal;
  int depth;
  bool fused;
  int work[3];  // per variable
  int c_begin;
  std::int64_t offset, cells;
};

constexpr int halo_max_faces = 6;

// At most six faces, passed by value to the kernel (a few hundred bytes, under Kokkos' limit for
// kernel arguments).
struct halo_face_table {
  halo_face_box face[halo_max_faces];
  int count;
  int work[3];
};

// `fastest` is the fields' stride-1 axis.
inline halo_face_table make_halo_face_table(const halo_phase& phase, bool send, int fastest,
                                            int nvar) {
  halo_face_table t{};
  t.count   = static_cast<int>(phase.faces.size());
  t.work[0] = t.work[1] = t.work[2] = 0;
  for (int n = 0; n < t.count; ++n) {
    const halo_face& f = phase.faces[static_cast<std::size_t>(n)];
    halo_face_box& b   = t.face[n];
    b.normal           = f.axis;
    b.t0               = f.axis == 0 ? 1 : 0;
    b.t1               = f.axis == 2 ? 1 : 2;
    if (b.t1 == fastest) {
      std::swap(b.t0, b.t1);
    }
    for (int e = 0; e < 3; ++e) {
      b.lo[e] = send ? f.send_lo[e] : f.recv_lo[e];
    }
    b.depth   = f.extent[b.normal];
    b.fused   = b.normal == fastest;
    b.work[0] = f.extent[b.t0] * (b.fused ? b.depth : 1);
    b.work[1] = f.extent[b.t1];
    b.work[2] = b.fused ? 1 : b.depth;
    b.c_begin = t.work[2];
    b.offset  = f.offset;
    b.cells   = f.cells;
    t.work[0] = std::max(t.work[0], b.work[0]);
    t.work[1] = std::max(t.work[1], b.work[1]);
    t.work[2] += b.work[2] * nvar;
  }
  return t;
}

// The body of the pack (buffer <- fields) and unpack (fields <- buffer) kernel over the work box
// of a halo_face_table. Fields is a reference with T& operator()(v, i, j, k) in the grid's index
// space; buffer is the whole send or receive buffer (face offsets count from its start). A
// functor, not a lambda: nvcc refuses a device lambda whose first capture is in an if constexpr.
template <bool Pack, class Fields, class T>
struct halo_copy_body {
  halo_face_table table;
  Fields fields;
  T* buffer;

  KOKKOS_FORCEINLINE_FUNCTION void operator()(int a, int b, int c) const {
    int n = 0;
    while (n + 1 < table.count && c >= table.face[n + 1].c_begin) {
      ++n;
    }
    const halo_face_box& f = table.face[n];
    if (a >= f.work[0] || b >= f.work[1]) {
      return;
    }
    const int v = (c - f.c_begin) / f.work[2];
    const int w = c - f.c_begin - v * f.work[2];
    int x[3];
    x[f.t0]     = f.lo[f.t0] + (f.fused ? a / f.depth : a);
    x[f.t1]     = f.lo[f.t1] + b;
    x[f.normal] = f.lo[f.normal] + (f.fused ? a % f.depth : w);
    const std::int64_t at =
        f.offset + v * f.cells + a + std::int64_t{f.work[0]} * (b + std::int64_t{f.work[1]} * w);
    if constexpr (Pack) {
      buffer[at] = fields(v, x[0], x[1], x[2]);
    } else {
      fields(v, x[0], x[1], x[2]) = buffer[at];
    }
  }
};

// One kernel for every face and variable of a phase, under Schedule.
template <class Schedule, bool Pack, class ExecutionSpace, class Fields, class T>
void halo_copy(const ExecutionSpace& exec, const halo_face_table& t, const Fields& fields,
               T* buffer) {
  if (t.count == 0) {
    return;
  }
  for_each_cell<Schedule>(exec, box<3>{{0, 0, 0}, {t.work[0], t.work[1], t.work[2]}},
                          halo_copy_body<Pack, Fields, T>{t, fields, buffer},
                          Pack ? "loopnest::halo_exchange/pack" : "loopnest::halo_exchange/unpack");
}

}  // namespace loopnest::Impl

#endif
