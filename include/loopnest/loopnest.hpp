// loopnest: loop nests over structured-grid cells and variables, one body, any schedule. The loop
// core only: the solvers and kernels built on it (cshift.hpp, diffusion.hpp, field_kernels.hpp)
// are included by name, the distributed layer is under loopnest/mpi/ and the tools' layer (field
// files, comparisons, command-line words) under loopnest/tools/.
#ifndef LOOPNEST_LOOPNEST_HPP
#define LOOPNEST_LOOPNEST_HPP

#include <loopnest/box.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/ghost_fill.hpp>
#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/packed_fields.hpp>
#include <loopnest/read_only.hpp>
#include <loopnest/reduce.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/sweep.hpp>
#include <loopnest/tile.hpp>

#endif
