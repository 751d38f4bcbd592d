// loopnest: loop nests over structured-grid cells and variables, one body, any schedule. The
// core only; the tools' layer (field files, comparisons, command-line words) is under
// loopnest/tools/.
#ifndef LOOPNEST_LOOPNEST_HPP
#define LOOPNEST_LOOPNEST_HPP

#include <loopnest/box.hpp>
#include <loopnest/cshift.hpp>
#include <loopnest/diffusion.hpp>
#include <loopnest/field_kernels.hpp>
#include <loopnest/field_set.hpp>
#include <loopnest/for_each.hpp>
#include <loopnest/ghost_fill.hpp>
#include <loopnest/grid_shape.hpp>
#include <loopnest/kokkos_compat.hpp>
#include <loopnest/packed_fields.hpp>
#include <loopnest/read_only.hpp>
#include <loopnest/reduce.hpp>
#include <loopnest/schedule.hpp>
#include <loopnest/tile.hpp>

#endif
