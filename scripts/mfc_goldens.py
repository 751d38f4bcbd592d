#!/usr/bin/env python3
"""MFC's regression goldens for loopnest-mfc: builds them from MFC's files, and checks a run.

MFC's test suite (toolchain/mfc/test/) builds each test's case as its base dictionary
(BASE_CFG in toolchain/mfc/test/case.py) updated with the modifications its generator
(toolchain/mfc/test/cases.py) stacks along the test's trace ("1D -> bc=-1"), then with
POST_PROCESS_OFF_PARAMS (parallel_io = F, prim_vars_wrt = F) when post_process is not run.
The test's directory tests/<UUID>/ is named by trace_to_uuid(trace): the CRC-32 of the trace's
SHA-1 digest, eight upper-case hex digits. tests/<UUID>/golden.txt holds MFC's run of it: one
line per D/ file, the file's name (D/cons.1.00.000025.dat) and its values (every line of the
file without its coordinates), each value Python's str() of float() of MFC's F40.14 text. MFC
compares a run with it value by value (toolchain/mfc/packer/tol.py, compare(); errors.py):
a value passes if its absolute error or its relative error is at most the test's tolerance
(TestCase.compute_tolerance(): 1e-12 for the tests here, none of its special cases apply).

  mfc_goldens.py reduce MFC_DIR OUT_DIR   from MFC's case.py and tests/<UUID>/golden.txt (at the
                                          commit TESTS names when MFC_DIR is a git clone), writes
                                          OUT_DIR/<UUID>/case.json (the case as the port reads
                                          it) and OUT_DIR/<UUID>/golden.txt (the golden's lines
                                          of the files the port writes; a 2D or 3D file whose
                                          columns along the last axis are all the same as '*N'
                                          and one column, a 3D file whose (y, z) slabs are all
                                          the same as '*N' and one slab, a 3D file each of whose
                                          slabs repeats one column as '*N' and that column for
                                          each slab in turn, any other file with every value),
                                          for every test in TESTS
  mfc_goldens.py check --tool EXE --work DIR [--tolerance TOL] [--tool-arg=ARG]...
                       [--launcher=WORD]... GOLDEN_DIR
                                          runs EXE on GOLDEN_DIR/case.json in DIR (with each ARG
                                          after its own arguments, and under the launcher the
                                          WORDs make, e.g. --launcher=mpiexec --launcher=-n
                                          --launcher=2 for the '2 MPI Ranks' tests) and compares
                                          every value of its D/ files, each rank's, with
                                          GOLDEN_DIR/golden.txt as MFC does (within TOL, MFC's
                                          1e-12 by default); exit status 1 on a mismatch, 2
                                          when the golden cannot be read

The goldens in tests/mfc/goldens/ were reduced from MFC's tests/<UUID>/golden.txt at the commit
TESTS names per test, with BASE_CFG of toolchain/mfc/test/case.py at BASE_COMMIT (MFlowCode/MFC);
most 2D and 3D ones from one column per file, which golden.txt repeats to the last printed digit
(docs/mfc.md, "MFC's regression goldens", says how that was checked); in 3D, where the columns
differ, one (y, z) slab repeated for every x (the GRCBC flow along y) or one column per slab (the
GRCBC flow along x); those whose columns differ in 2D (the GRCBC flow along x) keep every value.
Standard library only.
"""

import argparse
import ast
import binascii
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys

# toolchain/mfc/test/case.py, TestCase.compute_tolerance(): the default, double precision.
TOLERANCE = 1e-12

BASE_COMMIT = "019449279f8a60b508d0629c9ce585cda8117a63"

# The dimension's parameters cases.py's get_dimensions() gives 1D: 300 cells on [0, 1], three
# line segments (Sod-like states of BASE_CFG), extrapolation at both ends.
ONE_D = {
    "m": 299,
    "n": 0,
    "p": 0,
    "x_domain%beg": 0.0,
    "x_domain%end": 1.0,
    "bc_x%beg": -3,
    "bc_x%end": -3,
    "patch_icpp(1)%geometry": 1,
    "patch_icpp(1)%x_centroid": 0.05,
    "patch_icpp(1)%length_x": 0.1,
    "patch_icpp(1)%vel(1)": 0.0,
    "patch_icpp(2)%geometry": 1,
    "patch_icpp(2)%x_centroid": 0.45,
    "patch_icpp(2)%length_x": 0.7,
    "patch_icpp(2)%vel(1)": 0.0,
    "patch_icpp(3)%geometry": 1,
    "patch_icpp(3)%x_centroid": 0.9,
    "patch_icpp(3)%length_x": 0.2,
    "patch_icpp(3)%vel(1)": 0.0,
}

# get_dimensions() for 2D: 50 x 40 cells on [0, 1]^2, three rectangles across x stacked along y
# (the 1D segments' states and lengths), extrapolation on every side.
TWO_D = {
    "m": 49,
    "n": 39,
    "p": 0,
    "x_domain%beg": 0.0,
    "x_domain%end": 1.0,
    "y_domain%beg": 0.0,
    "y_domain%end": 1.0,
    "bc_x%beg": -3,
    "bc_x%end": -3,
    "bc_y%beg": -3,
    "bc_y%end": -3,
}
# get_dimensions() for 3D: 25^3 cells on [0, 1]^3, three cuboids across x and y stacked along z.
THREE_D = {
    "m": 24,
    "n": 24,
    "p": 24,
    "x_domain%beg": 0.0,
    "x_domain%end": 1.0,
    "y_domain%beg": 0.0,
    "y_domain%end": 1.0,
    "z_domain%beg": 0.0,
    "z_domain%end": 1.0,
    "bc_x%beg": -3,
    "bc_x%end": -3,
    "bc_y%beg": -3,
    "bc_y%end": -3,
    "bc_z%beg": -3,
    "bc_z%end": -3,
}
for patch, (centroid, length) in enumerate([(0.05, 0.1), (0.45, 0.7), (0.9, 0.2)], start=1):
    TWO_D.update(
        {
            f"patch_icpp({patch})%geometry": 3,
            f"patch_icpp({patch})%y_centroid": centroid,
            f"patch_icpp({patch})%length_y": length,
            f"patch_icpp({patch})%x_centroid": 0.5,
            f"patch_icpp({patch})%length_x": 1,
            f"patch_icpp({patch})%vel(1)": 0.0,
            f"patch_icpp({patch})%vel(2)": 0.0,
        }
    )
    THREE_D.update(
        {
            f"patch_icpp({patch})%geometry": 9,
            f"patch_icpp({patch})%z_centroid": centroid,
            f"patch_icpp({patch})%length_z": length,
            f"patch_icpp({patch})%y_centroid": 0.5,
            f"patch_icpp({patch})%length_y": 1,
            f"patch_icpp({patch})%x_centroid": 0.5,
            f"patch_icpp({patch})%length_x": 1,
            f"patch_icpp({patch})%vel(1)": 0.0,
            f"patch_icpp({patch})%vel(2)": 0.0,
            f"patch_icpp({patch})%vel(3)": 0.0,
        }
    )


def bc_mods(bc, axes):
    """cases.py's get_bc_mods(): both ends of every axis of the dimension."""
    return {f"bc_{axis}%{end}": bc for axis in axes for end in ("beg", "end")}


# cases.py's alter_num_fluids() for two fluids: a second ideal gas and each patch's mixture.
TWO_FLUIDS = {
    "fluid_pp(2)%gamma": 2.5,
    "fluid_pp(2)%pi_inf": 0.0,
    "patch_icpp(1)%alpha_rho(1)": 0.81,
    "patch_icpp(1)%alpha(1)": 0.9,
    "patch_icpp(1)%alpha_rho(2)": 0.19,
    "patch_icpp(1)%alpha(2)": 0.1,
    "patch_icpp(2)%alpha_rho(1)": 0.25,
    "patch_icpp(2)%alpha(1)": 0.5,
    "patch_icpp(2)%alpha_rho(2)": 0.25,
    "patch_icpp(2)%alpha(2)": 0.5,
    "patch_icpp(3)%alpha_rho(1)": 0.08,
    "patch_icpp(3)%alpha(1)": 0.2,
    "patch_icpp(3)%alpha_rho(2)": 0.0225,
    "patch_icpp(3)%alpha(2)": 0.8,
}

# cases.py's alter_grcbc() in 1D: the three segments moving at 1 into a -7 inflow face that relaxes
# toward its prescribed state (grcbc_in) and out of a -8 face that relaxes toward its pressure
# and velocity (grcbc_out, grcbc_vel_out).
GRCBC_X = {
    "patch_icpp(1)%vel(1)": 1.0,
    "patch_icpp(2)%vel(1)": 1.0,
    "patch_icpp(3)%vel(1)": 1.0,
    "bc_x%beg": -7,
    "bc_x%end": -8,
    "bc_x%grcbc_in": "T",
    "bc_x%grcbc_out": "T",
    "bc_x%grcbc_vel_out": "T",
    "bc_x%vel_in(1)": 1.0,
    "bc_x%vel_in(2)": 0.0,
    "bc_x%vel_in(3)": 0.0,
    "bc_x%vel_out(1)": 1.0,
    "bc_x%vel_out(2)": 0.0,
    "bc_x%vel_out(3)": 0.0,
    "bc_x%pres_in": 1.0,
    "bc_x%pres_out": 1.0,
    "bc_x%alpha_in(1)": 1.0,
    "bc_x%alpha_rho_in(1)": 1.0,
}

# alter_grcbc() in 2D and 3D, its second case: the same along y (vel(2) = 1, -7 at y = 0, -8 at
# y = 1), the other axes keeping get_dimensions()'s extrapolation. Its first case is GRCBC_X's.
GRCBC_Y = {
    "patch_icpp(1)%vel(2)": 1.0,
    "patch_icpp(2)%vel(2)": 1.0,
    "patch_icpp(3)%vel(2)": 1.0,
    "bc_y%beg": -7,
    "bc_y%end": -8,
    "bc_y%grcbc_in": "T",
    "bc_y%grcbc_out": "T",
    "bc_y%grcbc_vel_out": "T",
    "bc_y%vel_in(1)": 0.0,
    "bc_y%vel_in(2)": 1.0,
    "bc_y%vel_in(3)": 0.0,
    "bc_y%vel_out(1)": 0.0,
    "bc_y%vel_out(2)": 1.0,
    "bc_y%vel_out(3)": 0.0,
    "bc_y%pres_in": 1.0,
    "bc_y%pres_out": 1.0,
    "bc_y%alpha_in(1)": 1.0,
    "bc_y%alpha_rho_in(1)": 1.0,
}

# alter_grcbc() in 3D, its last case: the same along z (vel(3) = 1, -7 at z = 0, -8 at z = 1), x and
# y keeping get_dimensions()'s extrapolation.
GRCBC_Z = {
    "patch_icpp(1)%vel(3)": 1.0,
    "patch_icpp(2)%vel(3)": 1.0,
    "patch_icpp(3)%vel(3)": 1.0,
    "bc_z%beg": -7,
    "bc_z%end": -8,
    "bc_z%grcbc_in": "T",
    "bc_z%grcbc_out": "T",
    "bc_z%grcbc_vel_out": "T",
    "bc_z%vel_in(1)": 0.0,
    "bc_z%vel_in(2)": 0.0,
    "bc_z%vel_in(3)": 1.0,
    "bc_z%vel_out(1)": 0.0,
    "bc_z%vel_out(2)": 0.0,
    "bc_z%vel_out(3)": 1.0,
    "bc_z%pres_in": 1.0,
    "bc_z%pres_out": 1.0,
    "bc_z%alpha_in(1)": 1.0,
    "bc_z%alpha_rho_in(1)": 1.0,
}

# The tests reduced: UUID -> (trace, modifications after BASE_CFG in cases.py's order, the commit
# of MFC's tests/<UUID>/golden.txt they were read at).
TESTS = {
    "D79C3E6F": (
        "1D -> bc=-1",
        [ONE_D, {"bc_x%beg": -1, "bc_x%end": -1}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "C4907722": (
        "1D -> 2 Fluid(s) -> riemann_solver=2 -> mpp_lim",
        [ONE_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 2}, {"mpp_lim": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    # HLL (riemann_solver = 1): one fluid (mixture_err, which never acts here), and the two
    # fluids' case of C4907722.
    "5527832F": (
        "1D -> 1 Fluid(s) -> riemann_solver=1 -> mixture_err",
        [ONE_D, {"num_fluids": 1}, {"riemann_solver": 1}, {"mixture_err": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "1CCA82F5": (
        "1D -> 2 Fluid(s) -> riemann_solver=1 -> mpp_lim",
        [ONE_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 1}, {"mpp_lim": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "16A922E4": (
        "1D -> weno_order=3 -> mapped_weno=T",
        [ONE_D, {"weno_order": 3}, {"mapped_weno": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    # This golden and the next two are of MFC's earlier BASE_CFG, 50 steps (Nt = 50; their files
    # are .000050.dat, as tests/D79C3E6F/case.py at 90e73430 has it); the cases are otherwise the
    # same.
    "8A59E8E6": (
        "1D -> bc=-2",
        [ONE_D, {"bc_x%beg": -2, "bc_x%end": -2}, {"t_step_stop": 50, "t_step_save": 50}],
        "6f200c0e96a9f9529aecf948ccb3774ec23470d5",
    ),
    "677DAA82": (
        "1D -> weno_order=5 -> mapped_weno=T",
        [ONE_D, {"weno_order": 5}, {"mapped_weno": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    "2A5CFF02": (
        "1D -> weno_order=3",
        [ONE_D, {"weno_order": 3}, {"t_step_stop": 50, "t_step_save": 50}],
        "64cb53121862c08dcb0ce4ecae48e48b082ee810",
    ),
    # 2D and 3D, with BASE_CFG and get_dimensions() as case.py and cases.py have them at 04fe5473
    # (25 steps).
    "EAA53889": (
        "2D -> bc=-2",
        [TWO_D, bc_mods(-2, "xy")],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "39816683": (
        "2D -> weno_order=3 -> mapped_weno=T",
        [TWO_D, {"weno_order": 3}, {"mapped_weno": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "F0F175B2": (
        "2D -> 2 Fluid(s) -> riemann_solver=2 -> mpp_lim",
        [TWO_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 2}, {"mpp_lim": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "6FC6A809": (
        "3D -> bc=-1",
        [THREE_D, bc_mods(-1, "xyz")],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "4B7FC359": (
        "3D -> weno_order=3",
        [THREE_D, {"weno_order": 3}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "A0B82851": (
        "3D -> 2 Fluid(s) -> riemann_solver=2 -> mpp_lim",
        [THREE_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 2}, {"mpp_lim": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    # A characteristic boundary (-5, the slip wall), of the same commit and BASE_CFG as 8A59E8E6.
    # In 50 steps the waves reach neither end (the first cells move by 1e-12): its values differ
    # from 8A59E8E6's (-2) by less than the tolerance, so it checks that characteristic faces
    # keep a state at rest as MFC's do, not how they let waves out (tests/mfc/test_rhs.cpp does).
    "3AE495F4": (
        "1D -> bc=-5",
        [ONE_D, {"bc_x%beg": -5, "bc_x%end": -5}, {"t_step_stop": 50, "t_step_save": 50}],
        "6f200c0e96a9f9529aecf948ccb3774ec23470d5",
    ),
    # The non-reflecting buffer (-6), likewise (its golden also has probe files the port does not
    # write; their keys are output only).
    "5EC236F2": (
        "1D -> bc=-6",
        [ONE_D, {"bc_x%beg": -6, "bc_x%end": -6}, {"t_step_stop": 50, "t_step_save": 50}],
        "0f3e5a3cf45c86ff24f3d700aec983e0b1d0814d",
    ),
    # The supersonic outflow (-12), likewise; at its end face MFC's cells move by 1e-14 to 9e-14
    # where the port's print as at rest (docs/mfc.md).
    "3FC6FC4A": (
        "1D -> bc=-12",
        [ONE_D, {"bc_x%beg": -12, "bc_x%end": -12}, {"t_step_stop": 50, "t_step_save": 50}],
        "0f3e5a3cf45c86ff24f3d700aec983e0b1d0814d",
    ),
    # The shock tube itself, extrapolation at both ends and WENO5 (bc=-3 and weno_order=5 are
    # get_dimensions()'s and BASE_CFG's own): two traces of one case, of MFC's earlier BASE_CFG
    # (50 steps), whose goldens at their commits hold the same values.
    "2AB32975": (
        "1D -> bc=-3",
        [ONE_D, {"bc_x%beg": -3, "bc_x%end": -3}, {"t_step_stop": 50, "t_step_save": 50}],
        "d3b2db3651f5da85d61c613097c5b7428569514f",
    ),
    "7789B55A": (
        "1D -> weno_order=5",
        [ONE_D, {"weno_order": 5}, {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    # C4907722's two ideal gases with HLLC and mixture_err in place of mpp_lim, 50 steps; the
    # volume fractions stay within [0, 1], so mixture_err never acts.
    "3A8359F6": (
        "1D -> 2 Fluid(s) -> riemann_solver=2 -> mixture_err",
        [ONE_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 2}, {"mixture_err": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    # The same with HLL (1CCA82F5's case with mixture_err in place of mpp_lim), 50 steps.
    "1E738705": (
        "1D -> 2 Fluid(s) -> riemann_solver=1 -> mixture_err",
        [ONE_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 1}, {"mixture_err": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "39c5fc138efb067583457013a57144e0dbe4f6bd",
    ),
    # The force-free subsonic outflow (-9), of MFC's earlier BASE_CFG likewise; in a state at rest
    # its L is the slip wall's (3AE495F4), so that it is told apart from -5 by neither golden.
    "C5B79059": (
        "1D -> bc=-9",
        [ONE_D, {"bc_x%beg": -9, "bc_x%end": -9}, {"t_step_stop": 50, "t_step_save": 50}],
        "8df5782fbdc3cab8fde79bd1fc799c3005ac8412",
    ),
    # The non-reflecting subsonic outflow (-8), likewise.
    "AED93D34": (
        "1D -> bc=-8",
        [ONE_D, {"bc_x%beg": -8, "bc_x%end": -8}, {"t_step_stop": 50, "t_step_save": 50}],
        "bb510ae3f7f3ff3ba042bfbd59f0356825459d8c",
    ),
    # The supersonic inflow (-11), likewise: it holds the first cell's state.
    "A60691E7": (
        "1D -> bc=-11",
        [ONE_D, {"bc_x%beg": -11, "bc_x%end": -11}, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The constant-pressure subsonic outflow (-10), likewise; its golden at 08aa2094 differs at the
    # end face (docs/mfc.md), this one is at rest there.
    "727F72ED": (
        "1D -> bc=-10",
        [ONE_D, {"bc_x%beg": -10, "bc_x%end": -10}, {"t_step_stop": 50, "t_step_save": 50}],
        "92b4cc8a902b8dcf5aa3dfdc920d76e101268587",
    ),
    # The non-reflecting subsonic inflow (-7), likewise, at 2AB32975's commit.
    "48CCE072": (
        "1D -> bc=-7",
        [ONE_D, {"bc_x%beg": -7, "bc_x%end": -7}, {"t_step_stop": 50, "t_step_save": 50}],
        "d3b2db3651f5da85d61c613097c5b7428569514f",
    ),
    # HLL in 2D: the traces of 5527832F, 1E738705 and 1CCA82F5 on get_dimensions()'s 50 x 40 cells, of
    # MFC's earlier BASE_CFG (50 steps), whose goldens are stored at the commits of 677DAA82 and
    # 2A5CFF02; the rarefaction and shock cross the stacked rectangles along y only.
    "7374E266": (
        "2D -> 1 Fluid(s) -> riemann_solver=1 -> mixture_err",
        [TWO_D, {"num_fluids": 1}, {"riemann_solver": 1}, {"mixture_err": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    "16FBF4C8": (
        "2D -> 2 Fluid(s) -> riemann_solver=1 -> mixture_err",
        [TWO_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 1}, {"mixture_err": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    "A6AC2E06": (
        "2D -> 2 Fluid(s) -> riemann_solver=1 -> mpp_lim",
        [TWO_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 1}, {"mpp_lim": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "64cb53121862c08dcb0ce4ecae48e48b082ee810",
    ),
    # HLL in 3D: the same traces on get_dimensions()'s 25^3 cells, of the same commit and BASE_CFG as
    # 6FC6A809 (25 steps); the rarefaction and shock cross the stacked cuboids along z only.
    "9ACD5174": (
        "3D -> 1 Fluid(s) -> riemann_solver=1 -> mixture_err",
        [THREE_D, {"num_fluids": 1}, {"riemann_solver": 1}, {"mixture_err": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "C4A2FAA3": (
        "3D -> 2 Fluid(s) -> riemann_solver=1 -> mixture_err",
        [THREE_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 1}, {"mixture_err": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    "758D0268": (
        "3D -> 2 Fluid(s) -> riemann_solver=1 -> mpp_lim",
        [THREE_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 1}, {"mpp_lim": "T"}],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    # MFC's GRCBC, of the same commit and BASE_CFG as D79C3E6F (25 steps): the waves of the
    # segments' jumps reach both faces, and the -8 face's relaxation reverses its last cells' flow.
    "63CD6ADF": (
        "1D -> grcbc x",
        [ONE_D, GRCBC_X],
        "04fe5473626130e1fc4ffddc5c12fb742063bdb3",
    ),
    # The same in 3D along z, of MFC's earlier BASE_CFG (50 steps), stored at A60691E7's commit: the
    # flow is along the last axis, so each file is one column repeated for every (x, y).
    "D7107B89": (
        "3D -> grcbc z",
        [THREE_D, GRCBC_Z, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The 2D GRCBC cases, of MFC's earlier BASE_CFG (50 steps). Along x the flow crosses the
    # rectangles stacked along y, so that no two columns along y are alike: the golden keeps every
    # value.
    "212401B4": (
        "2D -> grcbc x",
        [TWO_D, GRCBC_X, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # Along y the flow is along the rectangles' stacking, each file one column repeated for every
    # x; MFC's golden also has the probe files of its face (D/probe*), which the port does not write.
    "EB6687AB": (
        "2D -> grcbc y",
        [TWO_D, GRCBC_Y, {"t_step_stop": 50, "t_step_save": 50}],
        "e563f3d3d2851db816fd59f7d66bdf2bb684a5d6",
    ),
    # The same along y in 3D (of 7efdd9c8, 50 steps): every x sees the same flow, so that each file
    # is one (y, z) slab of 25 x 25 cells repeated for every x.
    "38C2159F": (
        "3D -> grcbc y",
        [THREE_D, GRCBC_Y, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The same along x in 3D (of 7efdd9c8, 50 steps): the flow crosses the cuboids stacked along z,
    # and every y sees the same flow, so that each x's (y, z) slab is one z column repeated for
    # every y, a different column for each x.
    "0BDC8E40": (
        "3D -> grcbc x",
        [THREE_D, GRCBC_X, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The 2D shock tube of MFC's earlier BASE_CFG (50 steps) under get_dimensions()'s other traces,
    # each golden at the only commit that holds it: periodic on all four sides (the 0.125
    # rectangle at y = 1 meets the 1.0 one at y = 0), WENO3, and WENO5 (BASE_CFG's own order, so
    # the 2D base case itself, 8C7AA13B's on one rank). Each file is one column repeated for every x.
    "55533234": (
        "2D -> bc=-1",
        [TWO_D, bc_mods(-1, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    "EA9C3FA3": (
        "2D -> weno_order=3",
        [TWO_D, {"weno_order": 3}, {"t_step_stop": 50, "t_step_save": 50}],
        "d14d1c32defe6ec71a40eeccb733e4da577ecfff",
    ),
    "9EF5305B": (
        "2D -> weno_order=5",
        [TWO_D, {"weno_order": 5}, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # 9EF5305B's case with mapped WENO5, at the only commit that holds its golden.
    "D6415F48": (
        "2D -> weno_order=5 -> mapped_weno=T",
        [TWO_D, {"weno_order": 5}, {"mapped_weno": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The characteristic slip wall (-5) on all four sides of the 2D shock tube, of 7efdd9c8 (50
    # steps). Unlike the 1D tests' 30 cells, the rectangle at y = 0 is 4 cells deep: the
    # rarefaction reaches the wall, whose first cells differ from extrapolation's by up to 0.045.
    "A6E65782": (
        "2D -> bc=-5",
        [TWO_D, bc_mods(-5, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The supersonic outflow (-12) on all four sides, likewise: in the subsonic flow next to the y
    # ends its first cells differ from extrapolation's by up to 0.34.
    "BF46F657": (
        "2D -> bc=-12",
        [TWO_D, bc_mods(-12, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The non-reflecting buffer (-6) on all four sides, likewise (the rarefaction reaches the y
    # ends in the 50 steps).
    "4129A23A": (
        "2D -> bc=-6",
        [TWO_D, bc_mods(-6, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The supersonic inflow (-11) on all four sides, likewise: the faces hold their first cells at
    # the initial state (density 1 and 0.125, energy 2.5 and 0.25 at y = 0 and y = 1).
    "8FDEE23A": (
        "2D -> bc=-11",
        [TWO_D, bc_mods(-11, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The non-reflecting subsonic inflow (-7) on all four sides, likewise, of 61baf3d7 (50 steps),
    # the only version stored.
    "E84967E7": (
        "2D -> bc=-7",
        [TWO_D, bc_mods(-7, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    # The constant-pressure subsonic outflow (-10) on all four sides, likewise, of 61baf3d7 (50
    # steps), the only version stored.
    "B96AC58F": (
        "2D -> bc=-10",
        [TWO_D, bc_mods(-10, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    # The non-reflecting subsonic outflow (-8) on all four sides, likewise, of 64cb5312 (50 steps),
    # the only version stored.
    "5F877BC9": (
        "2D -> bc=-8",
        [TWO_D, bc_mods(-8, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "64cb53121862c08dcb0ce4ecae48e48b082ee810",
    ),
    # Extrapolation (-3) on all four sides, get_dimensions()'s own: 9EF5305B's case under
    # alter_bcs()'s trace, of 7efdd9c8 (50 steps), the only version stored.
    "D972BA0F": (
        "2D -> bc=-3",
        [TWO_D, bc_mods(-3, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The force-free subsonic outflow (-9) on all four sides, of bb510ae3 (50 steps), the only
    # version stored; at rest next to the walls its L is the slip wall's (A6E65782's values). Its
    # golden is of the older format (each value after its coordinates), which reduce does not drop.
    "16C03D8E": (
        "2D -> bc=-9",
        [TWO_D, bc_mods(-9, "xy"), {"t_step_stop": 50, "t_step_save": 50}],
        "bb510ae3f7f3ff3ba042bfbd59f0356825459d8c",
    ),
    # 7374E266's trace with HLLC (9EF5305B's case with mixture_err, which never acts here), of MFC's
    # earlier BASE_CFG (50 steps), at c418fe79, the only version stored; that golden is of the older
    # format, each value after its coordinates (as 2AB32975's).
    "3B414AF0": (
        "2D -> 1 Fluid(s) -> riemann_solver=2 -> mixture_err",
        [TWO_D, {"num_fluids": 1}, {"riemann_solver": 2}, {"mixture_err": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "c418fe79caf03d9edf415679dcb14f1d5183f376",
    ),
    # 16FBF4C8's trace with HLLC (3A8359F6's in 2D), of MFC's earlier BASE_CFG (50 steps), at
    # 98f9b3d2, the only version stored; the volume fractions stay within [0, 1], so mixture_err never
    # acts.
    "5781A4C2": (
        "2D -> 2 Fluid(s) -> riemann_solver=2 -> mixture_err",
        [TWO_D, {"num_fluids": 2}, TWO_FLUIDS, {"riemann_solver": 2}, {"mixture_err": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "98f9b3d2cdca6d0efe296189d5fdd8fd569aae77",
    ),
    # The 3D shock tube of MFC's earlier BASE_CFG (50 steps) under get_dimensions()'s traces, each
    # golden at the only commit that holds it: WENO5 (BASE_CFG's own order, so the 3D base case
    # itself on one rank). Each file is one column repeated for every (x, y).
    "35231DF8": (
        "3D -> weno_order=5",
        [THREE_D, {"weno_order": 5}, {"t_step_stop": 50, "t_step_save": 50}],
        "64cb53121862c08dcb0ce4ecae48e48b082ee810",
    ),
    # 35231DF8's case with mapped WENO5, at the only commit that holds its golden.
    "04E1CB26": (
        "3D -> weno_order=5 -> mapped_weno=T",
        [THREE_D, {"weno_order": 5}, {"mapped_weno": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The same with mapped WENO3, at the only commit that holds its golden.
    "EFDCFF72": (
        "3D -> weno_order=3 -> mapped_weno=T",
        [THREE_D, {"weno_order": 3}, {"mapped_weno": "T"}, {"t_step_stop": 50, "t_step_save": 50}],
        "64cb53121862c08dcb0ce4ecae48e48b082ee810",
    ),
    # 35231DF8's case with reflective walls on all six sides, of 39c5fc13 (50 steps), the only
    # version stored: the walls at z = 0 and z = 1 reflect the rarefaction and the shock.
    "09DAFEBA": (
        "3D -> bc=-2",
        [THREE_D, bc_mods(-2, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "39c5fc138efb067583457013a57144e0dbe4f6bd",
    ),
    # 35231DF8's case under the trace of extrapolation (bc=-3 is get_dimensions()'s own), of
    # 61baf3d7, the only version stored.
    "6B4B738B": (
        "3D -> bc=-3",
        [THREE_D, bc_mods(-3, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    # The characteristic boundaries on all six sides of the 3D shock tube, of MFC's earlier BASE_CFG
    # (50 steps), each at the only commit that holds its golden: the force-free subsonic outflow
    # (-9); the cuboid at z = 0 is 3 cells deep, and the faces at z = 0 and z = 1 act within the 50
    # steps.
    "C93BE9B5": (
        "3D -> bc=-9",
        [THREE_D, bc_mods(-9, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The non-reflecting subsonic inflow (-7), likewise.
    "730DFD6D": (
        "3D -> bc=-7",
        [THREE_D, bc_mods(-7, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The constant-pressure subsonic outflow (-10), likewise, of 61baf3d7.
    "D0045756": (
        "3D -> bc=-10",
        [THREE_D, bc_mods(-10, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    # The non-reflecting subsonic outflow (-8), likewise, of 39c5fc13.
    "ABAC3AE3": (
        "3D -> bc=-8",
        [THREE_D, bc_mods(-8, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "39c5fc138efb067583457013a57144e0dbe4f6bd",
    ),
    # The supersonic inflow (-11), likewise, of 39c5fc13.
    "557FF170": (
        "3D -> bc=-11",
        [THREE_D, bc_mods(-11, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "39c5fc138efb067583457013a57144e0dbe4f6bd",
    ),
    # The supersonic outflow (-12), likewise, of 61baf3d7.
    "61FFF3D3": (
        "3D -> bc=-12",
        [THREE_D, bc_mods(-12, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "61baf3d71b6a62c75f8eee16be7f307dbd36af69",
    ),
    # The characteristic slip wall (-5), likewise, of 767074f4 (the older format with coordinates).
    "E09A12D9": (
        "3D -> bc=-5",
        [THREE_D, bc_mods(-5, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "767074f495381a0b5c73543df62f1a21fcbb586e",
    ),
    # The non-reflecting buffer (-6), likewise, of bb510ae3 (the older format with coordinates).
    "5010B814": (
        "3D -> bc=-6",
        [THREE_D, bc_mods(-6, "xyz"), {"t_step_stop": 50, "t_step_save": 50}],
        "bb510ae3f7f3ff3ba042bfbd59f0356825459d8c",
    ),
    # cases.py's alter_ppn(): the base case on 2 ranks (ppn = 2; 3D on 30 x 30 x 50 cells), each rank
    # writing its own D/ files (cons.<v>.<rank>.<step>.dat), of MFC's earlier BASE_CFG (50 steps).
    "0FCCE9F1": (
        "1D -> 2 MPI Ranks",
        [ONE_D, {"t_step_stop": 50, "t_step_save": 50}],
        "92b4cc8a902b8dcf5aa3dfdc920d76e101268587",
    ),
    # The 2D base case on 2 ranks, split in x as MFC splits it (25 x 40 cells a rank).
    "8C7AA13B": (
        "2D -> 2 MPI Ranks",
        [TWO_D, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
    # The 3D base case on 2 ranks on alter_ppn()'s 30 x 30 x 50 cells, split in z as MFC splits it
    # (30 x 30 x 25 cells a rank): each rank's files are one column of 25 cells repeated for every (x, y).
    "CE232828": (
        "3D -> 2 MPI Ranks",
        [THREE_D, {"m": 29, "n": 29, "p": 49}, {"t_step_stop": 50, "t_step_save": 50}],
        "7efdd9c8f5ae2dc46116df96143ef50059607648",
    ),
}

# toolchain/mfc/test/case.py: what the test runner sets when post_process is not a target.
POST_PROCESS_OFF_PARAMS = {"parallel_io": "F", "prim_vars_wrt": "F"}


def trace_to_uuid(trace):
    """toolchain/mfc/test/case.py's trace_to_uuid()."""
    return hex(binascii.crc32(hashlib.sha1(str(trace).encode()).digest())).upper()[2:].zfill(8)


def read_base_cfg(mfc_dir):
    """BASE_CFG of MFC's toolchain/mfc/test/case.py, its arithmetic evaluated on literals only."""
    path = os.path.join(mfc_dir, "toolchain", "mfc", "test", "case.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("Tend", "Nt", "mydt", "BASE_CFG"):
                names[name] = evaluate(node.value, names)
    return names["BASE_CFG"]


def evaluate(node, names):
    """A literal, a known name, int(), + - * / and dictionaries of them."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return names[node.id]
    if isinstance(node, ast.Dict):
        return {evaluate(k, names): evaluate(v, names) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -evaluate(node.operand, names)
    if isinstance(node, ast.BinOp):
        left, right = evaluate(node.left, names), evaluate(node.right, names)
        operations = {ast.Add: lambda: left + right, ast.Sub: lambda: left - right, ast.Mult: lambda: left * right, ast.Div: lambda: left / right}
        return operations[type(node.op)]()
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int":
        return int(evaluate(node.args[0], names))
    raise ValueError(f"BASE_CFG: cannot evaluate {ast.dump(node)}")


def read_pack(path):
    """MFC's packer.load(): {D/ file name: [values]}."""
    with open(path, encoding="utf-8") as f:
        return parse_pack(f.read())


def parse_pack(text):
    entries = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        fields = line.split(" ")
        entries[fields[0]] = [float(v) for v in fields[1:]]
    return entries


def read_golden(mfc_dir, uuid, commit):
    """tests/<UUID>/golden.txt at the commit it was read at when MFC_DIR is a git clone, else as
    the directory holds it."""
    path = f"tests/{uuid}/golden.txt"
    if os.path.isdir(os.path.join(mfc_dir, ".git")):
        shown = subprocess.run(["git", "-C", mfc_dir, "show", f"{commit}:{path}"], stdout=subprocess.PIPE, text=True, check=True)
        return parse_pack(shown.stdout)
    return read_pack(os.path.join(mfc_dir, path))


def port_writes(name, dimensions):
    """Whether loopnest-mfc writes this D/ file: cons.*, and prim.* in 1D (prim_vars_wrt = F), of
    each rank (cons.<v>.<rank>.<step>.dat)."""
    return re.fullmatch(r"D/cons\.\d+\.\d{2}\.\d{6}\.dat", name) is not None or (
        dimensions == 1 and re.fullmatch(r"D/prim\.\d+\.\d{2}\.\d{6}\.dat", name) is not None
    )


def reduce(mfc_dir, out_dir):
    base = read_base_cfg(mfc_dir)
    for uuid, (trace, mods, commit) in TESTS.items():
        if trace_to_uuid(trace) != uuid:
            raise ValueError(f"the trace '{trace}' is not test {uuid}'s")
        case = dict(base)
        for mod in mods:
            case.update(mod)
        case.update(POST_PROCESS_OFF_PARAMS)
        dimensions = 1 + (case["n"] > 0) + (case["p"] > 0)
        column = None if dimensions == 1 else 1 + (case["p"] if dimensions == 3 else case["n"])
        if dimensions == 3 and "2 MPI Ranks" in trace:
            # MFC splits the 3D case's 50 cells in z over the two ranks: a rank's column is half of it.
            column //= 2
        # A 3D file's (y, z) slab, one for every x.
        slab = column * (1 + case["n"]) if dimensions == 3 else None
        golden = read_golden(mfc_dir, uuid, commit)
        kept = {name: values for name, values in golden.items() if port_writes(name, dimensions)}
        os.makedirs(os.path.join(out_dir, uuid), exist_ok=True)
        with open(os.path.join(out_dir, uuid, "case.json"), "w", encoding="utf-8") as f:
            json.dump(case, f, indent=2)
            f.write("\n")
        lines = [f"# MFC tests/{uuid}/golden.txt at {commit}: {trace}\n"]
        lines += [" ".join([name] + packed_values(kept[name], column, slab)) + "\n" for name in sorted(kept)]
        with open(os.path.join(out_dir, uuid, "golden.txt"), "w", encoding="utf-8") as f:
            f.write("".join(lines))
        print(f"{uuid} {trace}: kept {len(kept)} of {len(golden)} files")


def packed_values(values, column, slab=None):
    """A file's values as golden.txt keeps them. A 2D or 3D file lists the cells with the last axis
    fastest: when every column along that axis (`column` values) holds the same values (0.0 and
    -0.0 alike), as in cases.py's cases whose patches vary along that axis only, '*N' and the one
    column (N columns); else, in 3D, when every (y, z) slab (`slab` values, one for every x) holds
    the same values, as where the flow is along y only, '*N' and the one slab; else, in 3D, when
    each slab is one column repeated for every y but the slabs differ, as where the flow is along x
    across the stacked cuboids, '*N' and that column for each slab in turn (N columns a slab); else
    every value."""
    for block in (column, slab):
        if block and len(values) % block == 0 and values == values[:block] * (len(values) // block):
            return [f"*{len(values) // block}"] + [str(v) for v in values[:block]]
    if column and slab and slab % column == 0 and len(values) % slab == 0:
        slabs = [values[i : i + slab] for i in range(0, len(values), slab)]
        if all(s == s[:column] * (slab // column) for s in slabs):
            return [field for s in slabs for field in [f"*{slab // column}"] + [str(v) for v in s[:column]]]
    return [str(v) for v in values]


def unpacked_values(fields):
    """The inverse of packed_values(): plain values, or groups of '*N' and the values it repeats N
    times, one group or several in turn."""
    values, group, times = [], [], 1
    for field in fields:
        if field.startswith("*"):
            values += group * times
            group, times = [], int(field[1:])
        else:
            group.append(float(field))
    return values + group * times


def read_run(case_dir):
    """MFC's packer.compile(): each D/*.dat file's values, its coordinates dropped."""
    entries = {}
    d_dir = os.path.join(case_dir, "D")
    for name in sorted(os.listdir(d_dir)):
        if not name.endswith(".dat"):
            continue
        with open(os.path.join(d_dir, name), encoding="utf-8") as f:
            content = f.read()
        ndims = len(content.split("\n", 1)[0].split()) - 1
        entries["D/" + name] = [float(v) for v in content.split()[ndims :: ndims + 1]]
    return entries


def check(tool, work, golden_dir, tolerance=TOLERANCE, tool_args=(), launcher=()):
    golden = {}
    try:
        with open(os.path.join(golden_dir, "golden.txt"), encoding="utf-8") as f:
            text = f.read()
    except OSError as error:
        print(f"mfc_goldens.py check: {error}", file=sys.stderr)
        return 2
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    for line in lines:
        fields = line.split()
        golden[fields[0]] = unpacked_values(fields[1:])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run = subprocess.run([*launcher, tool, os.path.join(golden_dir, "case.json"), "--case-dir", work, *tool_args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    if run.returncode != 0:
        print(run.stdout)
        print(f"FAIL: {tool} exited with status {run.returncode}")
        return 1
    candidate = read_run(work)
    failures = []
    if sorted(candidate) != sorted(golden):
        failures.append(f"files differ: only in the run {sorted(set(candidate) - set(golden))}, only in the golden {sorted(set(golden) - set(candidate))}")
    worst_rel = (0.0, None)
    worst_decided = (0.0, None)
    worst_abs = (0.0, None)
    mismatches = 0
    for name in sorted(set(candidate) & set(golden)):
        c_values, g_values = candidate[name], golden[name]
        if len(c_values) != len(g_values):
            failures.append(f"{name}: {len(c_values)} values, the golden has {len(g_values)}")
            continue
        for i, (c, g) in enumerate(zip(c_values, g_values)):
            absolute = abs(c - g)
            # MFC's relative error is NaN against a golden 0, which its is_close() passes; here
            # such a value must be within the absolute tolerance.
            relative = absolute / abs(g) if g != 0 else math.inf
            where = (name, i + 1, c, g)
            if not math.isfinite(c):
                failures.append(f"{name} value {i + 1}: {c}")
            if g != 0 and relative > worst_rel[0]:
                worst_rel = (relative, where)
            # The values the relative tolerance decides: those beyond the absolute one.
            if absolute > tolerance and relative > worst_decided[0]:
                worst_decided = (relative, where)
            if absolute > worst_abs[0]:
                worst_abs = (absolute, where)
            # MFC's is_close(): within the absolute or the relative tolerance.
            if absolute > tolerance and relative > tolerance:
                mismatches += 1
                if mismatches <= 10:
                    failures.append(f"{name} value {i + 1}: run {c!r}, golden {g!r}, absolute error {absolute:.3e}, relative {relative:.3e}")
    count = sum(len(v) for v in golden.values())
    bound = "MFC's tolerance" if tolerance == TOLERANCE else "the tolerance"
    for label, (error, where) in (
        ("worst relative error", worst_rel),
        (f"worst relative error of the values more than {tolerance:g} off", worst_decided),
        ("worst absolute error", worst_abs),
    ):
        detail = f"{error:.3e} ({where[0]} value {where[1]}: run {where[2]!r}, golden {where[3]!r})" if where else "none"
        print(f"{label}: {detail}")
    if mismatches > 10:
        failures.append(f"... {mismatches} values in all beyond the tolerance")
    if failures:
        print("\n".join(failures))
        print(f"FAIL: {golden_dir}: {mismatches} of {count} values beyond {bound} {tolerance:g}")
        return 1
    print(f"PASS: {golden_dir}: {count} values in {len(golden)} files within {bound} {tolerance:g}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p_reduce = sub.add_parser("reduce")
    p_reduce.add_argument("mfc_dir")
    p_reduce.add_argument("out_dir")
    p_check = sub.add_parser("check")
    p_check.add_argument("--tool", required=True)
    p_check.add_argument("--work", required=True)
    p_check.add_argument("--tolerance", type=float, default=TOLERANCE, help="absolute or relative, per value (MFC's %(default)g)")
    p_check.add_argument("--tool-arg", action="append", default=[], help="one more argument for the tool (repeatable; --tool-arg=--sweep)")
    p_check.add_argument(
        "--launcher", action="append", default=[], help="one more word of the command the tool runs under (repeatable, in order; --launcher=mpiexec --launcher=-n --launcher=2)"
    )
    p_check.add_argument("golden_dir")
    args = parser.parse_args()
    if args.command == "reduce":
        reduce(args.mfc_dir, args.out_dir)
        return 0
    return check(args.tool, args.work, args.golden_dir, args.tolerance, args.tool_arg, args.launcher)


if __name__ == "__main__":
    sys.exit(main())
