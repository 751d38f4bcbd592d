#!/usr/bin/env bash
# Finds what the build needs (installing only what is missing, and only as root or with
# passwordless sudo on Debian/Ubuntu), configures, builds and runs loopnest's tests with ctest.
#   scripts/test.sh [--build-dir DIR] [--sanitize] [--werror] [--no-install] [--deps-only]
#                   [-- extra cmake arguments]
# --no-install never installs: when something is missing it lists it with the ways to provide it
# and exits 1. --deps-only stops after that step (exit 0: everything is there). The build needs
# cmake, ninja or make, a C++17 compiler (CXX), an MPI library and mpiexec (unless
# -DLOOPNEST_ENABLE_MPI=OFF), and Kokkos, GoogleTest and Google Benchmark as
# CMake finds them: KOKKOS_ROOT (or Kokkos_ROOT), GTest_ROOT, benchmark_ROOT and CMAKE_PREFIX_PATH
# point it at installs that are not the distribution's, e.g. a Kokkos built with CUDA.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build_dir="$loopnest_root/build"
cmake_args=()
no_install=()
deps_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    # Line tables only: the sanitizers' reports still name files and lines, and the build takes
    # half the time it takes with full debug information.
    --sanitize) cmake_args+=(-DLOOPNEST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1); shift ;;
    --werror) cmake_args+=(-DLOOPNEST_WARNINGS_AS_ERRORS=ON); shift ;;
    --no-install) no_install=(--no-install); shift ;;
    --deps-only) deps_only=1; shift ;;
    --) shift; cmake_args+=("$@"); break ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "scripts/test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
cmake_args=(-DLOOPNEST_ENABLE_TESTS=ON ${cmake_args[@]+"${cmake_args[@]}"})

# Google Benchmark only when this build builds the benchmarks (CI's sanitizer build does not); MPI
# (libopenmpi-dev and openmpi-bin on Debian) unless LOOPNEST_ENABLE_MPI is off.
needs=(build gtest)
if [ "$(loopnest_cmake_option "$build_dir" LOOPNEST_ENABLE_BENCHMARKS ON "${cmake_args[@]}")" = ON ]; then
  needs+=(benchmark)
fi
if [ "$(loopnest_cmake_option "$build_dir" LOOPNEST_ENABLE_MPI ON "${cmake_args[@]}")" = ON ]; then
  needs+=(mpi)
fi
loopnest_dependencies ${no_install[@]+"${no_install[@]}"} "$build_dir" "${needs[@]}" \
  -- "${cmake_args[@]}" || exit 1
[ "$deps_only" = 1 ] && exit 0
start=$SECONDS
loopnest_configure_and_build "$build_dir" "${cmake_args[@]}"
echo "scripts/test.sh: configured and built in $((SECONDS - start)) s"
# As many tests at a time as there are cores (an MPI test counts its ranks: PROCESSORS).
start=$SECONDS
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
echo "scripts/test.sh: ctest took $((SECONDS - start)) s"
