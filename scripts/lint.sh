#!/usr/bin/env bash
# Lints loopnest's own C++ (include/, tests/, bench/, examples/): clang-format --dry-run --Werror
# on every source and header, then clang-tidy (.clang-tidy) on every translation unit of a CPU
# build with compile_commands.json. First, always, the layout of docs/: no .patch, .cu or .cpp
# file and no dated folder or file (a name holding YYYY-MM-DD) under docs/, docs/results within
# 150 files and 6 MB, and no test or CMake file that names docs/results. Exits 0 when clean, 1 on
# any finding (naming the files), 2 when it cannot run.
#   scripts/lint.sh [--build-dir DIR] [--jobs N] [--format-only | --tidy-only | --layout-only]
#                   [--no-install] [--source-dir DIR (the tree whose layout to check)]
# CLANG_FORMAT / CLANG_TIDY select the tools (default: clang-format / clang-tidy on PATH, else the
# newest clang-format-N / clang-tidy-N). clang-tidy also needs what the build needs. What is
# missing is installed with apt as root or with passwordless sudo, else (and with --no-install)
# listed with the ways to provide it, as scripts/test.sh does.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build_dir="$loopnest_root/build-lint"
jobs=$(nproc)
run_format=1
run_tidy=1
layout_dir=$loopnest_root
no_install=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --jobs|-j) jobs=$2; shift 2 ;;
    --format-only) run_tidy=0; shift ;;
    --tidy-only) run_format=0; shift ;;
    --layout-only) run_format=0; run_tidy=0; shift ;;
    --source-dir) layout_dir=$2; shift 2 ;;
    --no-install) no_install=(--no-install); shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "scripts/lint.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# The layout of docs/: the current state, not a notebook. Limits of docs/results: 150 files and
# 6 MB (6,000,000 bytes); the raw history lives in git.
docs_max_files=150
docs_max_bytes=6000000
check_layout() {
  local root=$1 found=0 files
  # git's list (tracked and new, not ignored) where DIR is the top of a work tree; else find.
  if [ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$root" && pwd -P)" ]; then
    files=$(cd "$root" && git ls-files --cached --others --exclude-standard | while read -r f; do
              [ -e "$f" ] && printf '%s\n' "$f"; done)
  else
    files=$(cd "$root" && find . -type f | sed 's|^\./||')
  fi
  local docs bad
  docs=$(printf '%s\n' "$files" | grep '^docs/' || true)
  bad=$(printf '%s\n' "$docs" | grep -E '\.(patch|cu|cpp)$' || true)
  if [ -n "$bad" ]; then
    printf 'lint: layout: patches and programs do not belong under docs/ (study programs go to bench/studies/):\n'
    printf '%s\n' "$bad" | sed 's/^/  /'
    found=1
  fi
  bad=$(printf '%s\n' "$docs" | grep -E '[0-9]{4}-[0-9]{2}-[0-9]{2}' || true)
  if [ -n "$bad" ]; then
    printf 'lint: layout: dated names under docs/ (fold the experiment into docs/results/<machine>/experiments.md):\n'
    printf '%s\n' "$bad" | sed 's/^/  /'
    found=1
  fi
  local results count bytes
  results=$(printf '%s\n' "$docs" | grep '^docs/results/' || true)
  count=$(printf '%s' "$results" | grep -c . || true)
  bytes=0
  if [ "$count" -gt 0 ]; then
    bytes=$(cd "$root" && printf '%s\n' "$results" | tr '\n' '\0' | xargs -0 stat -c %s |
            awk '{ s += $1 } END { print s + 0 }')
  fi
  if [ "$count" -gt "$docs_max_files" ] || [ "$bytes" -gt "$docs_max_bytes" ]; then
    echo "lint: layout: docs/results holds $count files, $bytes bytes" \
         "(at most $docs_max_files files and $docs_max_bytes bytes)"
    found=1
  fi
  bad=$(printf '%s\n' "$files" | grep -E '^tests/|(^|/)CMakeLists\.txt$|\.cmake$' |
        (cd "$root" && while read -r f; do grep -l 'docs/results' "$f" 2>/dev/null || true; done))
  if [ -n "$bad" ]; then
    printf 'lint: layout: tests and CMake files must not read docs/results (keep fixtures under tests/):\n'
    printf '%s\n' "$bad" | sed 's/^/  /'
    found=1
  fi
  [ "$found" = 0 ] && echo "lint: layout: clean (docs/results: $count files, $bytes bytes)"
  return "$found"
}
layout_status=0
check_layout "$layout_dir" || layout_status=1
if [ "$run_format" = 0 ] && [ "$run_tidy" = 0 ]; then
  exit $layout_status
fi

needs=()
[ "$run_format" = 1 ] && needs+=(clang-format)
# clang-tidy reads the compile commands of a configured build with tests, benchmarks and examples,
# and with MPI unless the build turns it off: without it the MPI code would go unlinted, and code
# that only MPI builds use would read as unused.
cmake_args=(-DLOOPNEST_ENABLE_TESTS=ON -DLOOPNEST_ENABLE_BENCHMARKS=ON -DLOOPNEST_ENABLE_EXAMPLES=ON)
if [ "$run_tidy" = 1 ]; then
  needs+=(clang-tidy build gtest benchmark)
  if [ "$(loopnest_cmake_option "$build_dir" LOOPNEST_ENABLE_MPI ON "${cmake_args[@]}")" = ON ]; then
    needs+=(mpi)
  fi
fi
loopnest_dependencies ${no_install[@]+"${no_install[@]}"} "$build_dir" "${needs[@]}" \
  -- "${cmake_args[@]}" || exit 2
clang_format=${CLANG_FORMAT:-$(loopnest_find_tool clang-format || true)}
clang_tidy=${CLANG_TIDY:-$(loopnest_find_tool clang-tidy || true)}

cd "$loopnest_root"
status=$layout_status

if [ "$run_format" = 1 ]; then
  # Tracked and new (not ignored) files; without git, every file under the four directories.
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list_sources() { git ls-files --cached --others --exclude-standard -- include tests bench examples; }
  else
    list_sources() { find include tests bench examples -type f; }
  fi
  mapfile -t sources < <(list_sources | grep -E '\.(hpp|cpp|h|cc|cu|cuh)$' | sort -u)
  echo "lint: $("$clang_format" --version | head -n 1) on ${#sources[@]} files"
  unformatted=()
  for f in "${sources[@]}"; do
    [ -f "$f" ] || continue
    if ! out=$("$clang_format" --dry-run --Werror "$f" 2>&1); then
      unformatted+=("$f")
      printf '%s\n' "$out" | head -n 20
    fi
  done
  if [ ${#unformatted[@]} -gt 0 ]; then
    echo "lint: clang-format: ${#unformatted[@]} file(s) need formatting (fix: $clang_format -i FILE):"
    printf '  %s\n' "${unformatted[@]}"
    status=1
  else
    echo "lint: clang-format: clean"
  fi
fi

if [ "$run_tidy" = 1 ]; then
  kokkos_root=${Kokkos_ROOT:-${KOKKOS_ROOT:-}}
  echo "lint: configuring $build_dir"
  if ! log=$(cmake -S "$loopnest_root" -B "$build_dir" -G "$loopnest_generator" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      -DLOOPNEST_ENABLE_TESTS=ON -DLOOPNEST_ENABLE_BENCHMARKS=ON -DLOOPNEST_ENABLE_EXAMPLES=ON \
      ${kokkos_root:+-DKokkos_ROOT="$kokkos_root"} 2>&1) ||
     ! log=$(cmake --build "$build_dir" --target loopnest_git_commit 2>&1); then
    printf '%s\n' "$log" >&2
    echo "lint: cannot configure $build_dir" >&2
    exit 2
  fi
  # clang-tidy takes its configuration from the nearest .clang-tidy above each file; the
  # generated header checks live in the build directory, which may be outside the source tree.
  cp "$loopnest_root/.clang-tidy" "$build_dir/.clang-tidy"
  database="$build_dir/compile_commands.json"
  if grep -q '"command": "[^"]*nvcc' "$database"; then
    echo "lint: clang-tidy needs a CPU build, but $build_dir compiles with nvcc;" \
         "unset KOKKOS_ROOT or point it at a Kokkos without CUDA" >&2
    exit 2
  fi
  # Every translation unit of tests/, examples/ and bench/ but tests/compile_fail/, which must
  # not compile. The generated header self-containment units (#include <h> twice, in the build
  # directory) are left to the compiler: every public header is linted through the units that
  # include it.
  mapfile -t units < <(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$database" |
                       grep -E "^$loopnest_root/(tests|examples|bench)/" |
                       grep -v '/tests/compile_fail/' | sort -u)
  # loopnest-mfc's generated units (examples/mfc/*.cpp.in: a stage, the directions and a run per
  # precision and schedule, a fused sweep per precision and axis) are the only ones to include
  # their headers: the first of each family is linted.
  mapfile -t -O "${#units[@]}" units < <(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$database" |
    grep -E '/(stage|direction|direction_sweep|run)_(double|float)(_[a-z0-9]+)?(_[0-9])?\.cpp$' |
    sort -u | awk -F/ '{ family = $NF; sub(/_(double|float).*/, "", family); if (!seen[family]++) print }')
  echo "lint: $("$clang_tidy" --version | grep -i version | head -n 1 | sed 's/^ *//')" \
       "on ${#units[@]} translation units, $jobs at a time"
  tidy_log="$build_dir/clang-tidy.log"
  start=$SECONDS
  run_clang_tidy=$(loopnest_find_tool "run-$(basename "$clang_tidy")" ||
                   loopnest_find_tool run-clang-tidy || true)
  tidy_status=0
  if [ -n "$run_clang_tidy" ]; then
    # run-clang-tidy takes regular expressions: one per unit, escaped and anchored.
    mapfile -t patterns < <(printf '%s\n' "${units[@]}" | sed 's/[][\.^$*+?(){}|]/\\&/g; s/.*/^&$/')
    "$run_clang_tidy" -clang-tidy-binary "$clang_tidy" -p "$build_dir" -j "$jobs" -quiet \
      -extra-arg=-Wno-error "${patterns[@]}" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$tidy_log" ||
      tidy_status=1  # pipefail: run-clang-tidy's status
  else
    : >"$tidy_log"
    for unit in "${units[@]}"; do
      printf '%s\n' "$unit"
    done | xargs -P "$jobs" -I{} sh -c \
      'out=$("$0" -p "$1" --quiet --extra-arg=-Wno-error "$2" 2>&1) ||
         { printf "%s: clang-tidy failed\n%s\n" "$2" "$out"; exit 1; }' \
      "$clang_tidy" "$build_dir" {} >>"$tidy_log" 2>&1 || tidy_status=1
  fi
  # Drop the invocation lines and clang's "N warnings generated." counts; keep the findings.
  grep -v -e '^[0-9]* warnings\{0,1\}\( and [0-9]* errors\{0,1\}\)\{0,1\} generated\.$' \
    -e "^$(basename "$clang_tidy") " -e "^$clang_tidy " "$tidy_log" || true
  files=$(sed -n 's/^\([^ :][^:]*\):[0-9]*:[0-9]*: \(error\|warning\):.*/\1/p' "$tidy_log" | sort -u)
  failed_units=$(sed -n 's/^Error while processing \(.*\)\.$/\1/p; s/^\(.*\): terminated by signal .*/\1/p; s/^\(.*\): clang-tidy failed$/\1/p' \
                 "$tidy_log" | sort -u)
  echo "lint: clang-tidy took $((SECONDS - start)) s; full output in $tidy_log"
  if [ "$tidy_status" != 0 ] || [ -n "$files" ]; then
    [ -n "$files" ] && printf 'lint: clang-tidy: findings in\n%s\n' "$(printf '%s\n' "$files" | sed 's/^/  /')"
    [ -n "$failed_units" ] && printf 'lint: clang-tidy: failed translation units\n%s\n' "$(printf '%s\n' "$failed_units" | sed 's/^/  /')"
    status=1
  else
    echo "lint: clang-tidy: clean"
  fi
fi

exit $status
