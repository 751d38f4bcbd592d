#!/usr/bin/env bash
# Installs what is missing, configures, builds and runs loopnest's tests with ctest.
#   scripts/test.sh [--build-dir DIR] [--sanitize] [--werror] [-- extra cmake arguments]
# KOKKOS_ROOT (or Kokkos_ROOT) selects a Kokkos install other than the distribution's.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build_dir="$loopnest_root/build"
cmake_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --sanitize) cmake_args+=(-DLOOPNEST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug); shift ;;
    --werror) cmake_args+=(-DLOOPNEST_WARNINGS_AS_ERRORS=ON); shift ;;
    --) shift; cmake_args+=("$@"); break ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "scripts/test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

loopnest_install_dependencies
loopnest_configure_and_build "$build_dir" -DLOOPNEST_ENABLE_TESTS=ON "${cmake_args[@]}"
ctest --test-dir "$build_dir" --output-on-failure
