#!/usr/bin/env bash
# Finds what the build needs (as scripts/test.sh does), builds the benchmark binaries, runs every
# benchmark family on the default Kokkos device and writes under results/<device>/: the Google
# Benchmark JSON, report.md (the headline tables, the device, Kokkos, CUDA, commit and date from
# the JSON, notes.md if present, the tables at the largest extents; `scripts/report.py --write DIR
# --full` writes every table) and PNG plots under plots/ (scripts/report.py --write, which draws
# with scripts/plot.py when matplotlib imports; without it the report has no plots).
#   scripts/bench.sh [--build-dir DIR] [--no-build] [--out DIR] [--filter REGEX]
#                    [--family NAME]... [--min-time SECONDS] [--quick] [--no-install]
#                    [--deps-only] [-- extra Google Benchmark flags]
#   scripts/bench.sh [--no-install] --report-only DIR
# Only the loopnest-bench-* binaries are built, not the tests; --family NAME (repeatable, e.g.
# --family diffusion) builds and runs only loopnest-bench-NAME. --quick runs few sizes with short
# timings (a smoke run, not numbers to quote): from a fresh build directory on a two-core CPU
# machine it took about a minute (41 s building, 12 s running). Flags after -- go to every
# benchmark binary, e.g. -- --benchmark_repetitions=5. --report-only runs and builds nothing:
# it regenerates DIR/report.md and DIR/plots/ from every DIR/*.json (e.g. docs/results/h200). The
# report reads every *.json in the output folder, older ones included. --no-install and
# --deps-only as in scripts/test.sh; KOKKOS_ROOT (or Kokkos_ROOT), GTest_ROOT, benchmark_ROOT and
# CMAKE_PREFIX_PATH point CMake at installs that are not the distribution's.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build_dir="$loopnest_root/build"
build=1
out=""
report_only=""
filter=""
min_time="0.1"
copy_gib="1"
extra=()
families=()
no_install=()
deps_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --out) out=$2; shift 2 ;;
    --report-only) report_only=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --min-time) min_time=$2; shift 2 ;;
    --quick)
      # A few small sizes of every family.
      filter="/(16x16x16|32x32x32)x[78](/|$)|/(256x256|1024x1024)(/manual_time|$)|/rank3/strategy-[a-z_]+/layout-left/fp64/64x64x64/dim[02]/"
      min_time="0.01"; copy_gib="0.125"; shift ;;
    --no-install) no_install=(--no-install); shift ;;
    --deps-only) deps_only=1; shift ;;
    --) shift; extra=("$@"); break ;;
    --family) families+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "scripts/bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# The benchmark binaries: the targets bench/CMakeLists.txt adds (those of --family only), built
# alone, without the tests.
targets=$(sed -n 's/^loopnest_add_benchmark(\(loopnest-bench-[A-Za-z0-9_-]*\) .*/\1/p' \
          "$loopnest_root/bench/CMakeLists.txt")
if [ ${#families[@]} -gt 0 ]; then
  chosen=""
  for family in "${families[@]}"; do
    if ! echo "$targets" | grep -qx "loopnest-bench-$family"; then
      known=$(echo "$targets" | sed 's/^loopnest-bench-//' | paste -sd ' ')
      echo "scripts/bench.sh: --family: no benchmark family '$family' (the families: $known)" >&2
      exit 2
    fi
    chosen="$chosen loopnest-bench-$family"
  done
  targets=$chosen
fi

# report.py --write DIR: report.md and plots/ from DIR/*.json; a report without plots when
# matplotlib is missing.
write_report() {
  local rc=0
  "$python" "$loopnest_root/scripts/report.py" --write "$1" || rc=$?
  if [ "$rc" = 3 ]; then
    echo "scripts/bench.sh: report -> $1/report.md, without plots: $python cannot import" \
         "matplotlib (apt-get install python3-matplotlib, python3 -m pip install matplotlib or" \
         "spack load py-matplotlib); then scripts/bench.sh --report-only $1 draws them" >&2
  elif [ "$rc" != 0 ]; then
    return "$rc"
  else
    local plots
    plots=$(find "$1/plots" -maxdepth 1 -name '*.png' | wc -l)
    echo "loopnest: report -> $1/report.md, $plots plots -> $1/plots/"
  fi
}

if [ -n "$report_only" ]; then
  if [ ! -d "$report_only" ]; then
    echo "scripts/bench.sh: --report-only: no folder '$report_only'" >&2
    exit 2
  fi
  loopnest_dependencies ${no_install[@]+"${no_install[@]}"} "$build_dir" python3 plots || exit 1
  [ "$deps_only" = 1 ] && exit 0
  python=$(loopnest_python)
  write_report "$report_only"
  exit 0
fi

needs=(python3 plots)
if [ "$build" = 1 ]; then
  needs+=(build benchmark)
  # GoogleTest only because a build with tests configures them (the default at the top level).
  if [ "$(loopnest_cmake_option "$build_dir" LOOPNEST_ENABLE_TESTS ON)" = ON ]; then
    needs+=(gtest)
  fi
fi
loopnest_dependencies ${no_install[@]+"${no_install[@]}"} "$build_dir" "${needs[@]}" \
  -- -DLOOPNEST_ENABLE_BENCHMARKS=ON || exit 1
[ "$deps_only" = 1 ] && exit 0
if [ "$build" = 1 ]; then
  loopnest_configure_and_build "$build_dir" -DLOOPNEST_ENABLE_BENCHMARKS=ON --targets $targets
fi
python=$(loopnest_python)

binaries=()
for target in $targets; do
  if [ ! -x "$build_dir/bench/$target" ]; then
    echo "scripts/bench.sh: no benchmark binary $build_dir/bench/$target" >&2
    exit 1
  fi
  binaries+=("$build_dir/bench/$target")
done
if [ -z "$out" ]; then
  device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || true)
  device=${device:-host}
  out="$loopnest_root/results/$(echo "$device" | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9._-')"
fi
mkdir -p "$out"
jsons=()
count=${#binaries[@]}
index=0
for bin in "${binaries[@]}"; do
  family=${bin##*/loopnest-bench-}
  index=$((index + 1))
  echo "loopnest: [$index/$count] benchmark family '$family' -> $out/$family.json"
  start=$SECONDS
  "$bin" --loopnest_copy_gib="$copy_gib" --benchmark_min_time="$min_time" \
    ${filter:+--benchmark_filter="$filter"} "${extra[@]}" \
    --benchmark_out="$out/$family.json" --benchmark_out_format=json >"$out/$family.log"
  if [ ! -s "$out/$family.json" ]; then
    echo "scripts/bench.sh: $bin wrote no results (see $out/$family.log)" >&2
    exit 1
  fi
  echo "loopnest: [$index/$count] '$family' done in $((SECONDS - start)) s"
  jsons+=("$out/$family.json")
done
"$python" "$loopnest_root/scripts/report.py" "${jsons[@]}"
write_report "$out"
