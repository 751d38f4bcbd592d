# Shared by scripts/test.sh, scripts/bench.sh and scripts/lint.sh: find what the build needs
# (tools on PATH, libraries as CMake finds them), install only what is missing and only where apt
# can, otherwise say how to provide it; configure and build; pick a python3 that has matplotlib.
# Sourced, not run.

loopnest_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The oldest cmake and Kokkos the project accepts, read from its top-level CMakeLists.txt so that
# the check and the build cannot disagree.
loopnest_cmake_minimum=$(sed -n 's/^cmake_minimum_required(VERSION \([0-9.]*\).*/\1/p' \
                         "$loopnest_root/CMakeLists.txt" | head -n 1)
loopnest_kokkos_minimum=$(sed -n 's/^find_package(Kokkos \([0-9.]*\).*/\1/p' \
                          "$loopnest_root/CMakeLists.txt" | head -n 1)

# loopnest_version_at_least VERSION MINIMUM
loopnest_version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# loopnest_find_tool NAME: NAME on PATH, else the newest NAME-N (clang-format-19, ...).
loopnest_find_tool() {
  local v
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return 0; fi
  for v in 21 20 19 18 17 16 15 14 13 12; do
    if command -v "$1-$v" >/dev/null 2>&1; then command -v "$1-$v"; return 0; fi
  done
  return 1
}

# loopnest_cmake_option BUILD_DIR NAME DEFAULT [cmake arguments...]: ON or OFF, the value NAME
# will have in BUILD_DIR: the last -DNAME=... among the arguments, else the cached one, else
# DEFAULT. It decides which libraries the build needs (no Google Benchmark without benchmarks).
loopnest_cmake_option() {
  local build_dir=$1 name=$2 value=$3 arg
  shift 3
  if [ -f "$build_dir/CMakeCache.txt" ]; then
    local cached
    cached=$(sed -n "s/^$name:[A-Z]*=//p" "$build_dir/CMakeCache.txt" | head -n 1)
    [ -n "$cached" ] && value=$cached
  fi
  for arg in "$@"; do
    case "$arg" in
      -D"$name"=*|-D"$name":*=*) value=${arg#*=} ;;
    esac
  done
  case "$(echo "$value" | tr 'a-z' 'A-Z')" in
    ON|YES|TRUE|Y|1) echo ON ;;
    *) echo OFF ;;
  esac
}

# What loopnest_find_dependencies found missing, one entry per thing, in four parallel arrays:
# what is missing and why, the Debian/Ubuntu package that provides it (empty when apt cannot
# help, e.g. KOKKOS_ROOT names another Kokkos), the Spack spec, and another way (a variable to
# set, pip). Optional things (matplotlib) go to the loopnest_optional_* arrays.
loopnest_missing_add() {
  loopnest_missing_what+=("$1"); loopnest_missing_apt+=("$2")
  loopnest_missing_spack+=("$3"); loopnest_missing_other+=("$4")
}
loopnest_optional_add() {
  loopnest_optional_what+=("$1"); loopnest_optional_apt+=("$2")
  loopnest_optional_spack+=("$3"); loopnest_optional_other+=("$4")
}

# loopnest_pick_generator BUILD_DIR: sets loopnest_generator to the CMake generator to use: the
# one BUILD_DIR was configured with (CMake refuses another), else $CMAKE_GENERATOR, else Ninja
# when ninja is on PATH, else Unix Makefiles when make is. Adds what is missing.
loopnest_pick_generator() {
  local cache="$1/CMakeCache.txt" cached="" program=""
  [ -f "$cache" ] && cached=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$cache" | head -n 1)
  if [ -n "$cached" ]; then
    loopnest_generator=$cached
  elif [ -n "${CMAKE_GENERATOR:-}" ]; then
    loopnest_generator=$CMAKE_GENERATOR
  elif command -v ninja >/dev/null 2>&1 || command -v ninja-build >/dev/null 2>&1; then
    loopnest_generator=Ninja
  elif command -v make >/dev/null 2>&1 || command -v gmake >/dev/null 2>&1; then
    loopnest_generator="Unix Makefiles"
  else
    loopnest_generator=""
    loopnest_missing_add "a build tool: ninja (or make) on PATH" ninja-build ninja \
      "pip install ninja"
    return
  fi
  case "$loopnest_generator" in
    Ninja*) program=$(command -v ninja || command -v ninja-build || true)
            [ -z "$program" ] && loopnest_missing_add \
              "ninja, for the generator '$loopnest_generator'${cached:+ that $1 was configured with}" \
              ninja-build ninja "pip install ninja" ;;
    *Makefiles) program=$(command -v make || command -v gmake || true)
                [ -z "$program" ] && loopnest_missing_add \
                  "make, for the generator '$loopnest_generator'${cached:+ that $1 was configured with}" \
                  make gmake "" ;;
  esac
  return 0
}

# loopnest_probe PACKAGE... [-- cmake arguments]: asks CMake, in a throw-away project under
# $TMPDIR, whether find_package finds each of GTest, benchmark and Kokkos the way loopnest's
# build looks for them (Kokkos through cmake/loopnestKokkos.cmake, which repairs Debian's
# target), and whether the compiler does C++17. Writes "NAME found DETAIL" or "NAME missing
# DETAIL" lines to stdout; on a CMake error, its message on stderr and status 1.
loopnest_probe() {
  local packages=() kokkos=OFF
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    if [ "$1" = Kokkos ]; then kokkos=ON; else packages+=("$1"); fi
    shift
  done
  [ $# -gt 0 ] && shift
  local dir rc=0
  dir=$(mktemp -d "${TMPDIR:-/tmp}/loopnest-probe.XXXXXX")
  cat >"$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION $loopnest_cmake_minimum)
project(loopnest_probe LANGUAGES CXX)
set(result \${CMAKE_BINARY_DIR}/probe.txt)
file(WRITE \${result} "")
set(compiler "\${CMAKE_CXX_COMPILER} (\${CMAKE_CXX_COMPILER_ID} \${CMAKE_CXX_COMPILER_VERSION})")
if("cxx_std_17" IN_LIST CMAKE_CXX_COMPILE_FEATURES)
  file(APPEND \${result} "cxx17 found \${compiler}\n")
else()
  file(APPEND \${result} "cxx17 missing \${compiler}\n")
endif()
# As loopnest's CMakeLists.txt does before it looks for Kokkos.
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
foreach(package IN LISTS LOOPNEST_PROBE_PACKAGES)
  find_package(\${package} QUIET)
  if(\${package}_FOUND)
    file(APPEND \${result} "\${package} found \${\${package}_VERSION}\n")
  else()
    file(APPEND \${result} "\${package} missing\n")
  endif()
endforeach()
if(LOOPNEST_PROBE_KOKKOS)
  include(\${LOOPNEST_ROOT}/cmake/loopnestKokkos.cmake)
  find_package(Kokkos $loopnest_kokkos_minimum QUIET)
  if(NOT Kokkos_FOUND)
    file(APPEND \${result} "Kokkos missing\n")
  else()
    loopnest_repair_kokkos_target()
    if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")
      include(CheckLanguage)
      check_language(CUDA)
      if(NOT CMAKE_CUDA_COMPILER)
        file(APPEND \${result} "CUDA missing\n")
      endif()
    endif()
    file(APPEND \${result} "Kokkos found \${Kokkos_VERSION} (\${Kokkos_DEVICES}) from \${Kokkos_DIR}\n")
  endif()
endif()
EOF
  local kokkos_root=${Kokkos_ROOT:-${KOKKOS_ROOT:-}}
  local list
  list=$(IFS=';'; echo "${packages[*]+${packages[*]}}")
  if ! cmake -S "$dir" -B "$dir/build" -G "$loopnest_generator" \
       -DLOOPNEST_ROOT="$loopnest_root" -DLOOPNEST_PROBE_PACKAGES="$list" \
       -DLOOPNEST_PROBE_KOKKOS=$kokkos ${kokkos_root:+-DKokkos_ROOT="$kokkos_root"} \
       "$@" >"$dir/log" 2>&1; then
    # The lines from the first CMake error on say what went wrong.
    sed -n '/CMake Error/,$p' "$dir/log" | head -n 20 >&2
    rc=1
  fi
  cat "$dir/build/probe.txt" 2>/dev/null || true
  rm -rf "$dir"
  return $rc
}

# loopnest_find_dependencies BUILD_DIR NEED... [-- cmake arguments]: looks for what the NEEDs
# need, without installing anything. NEEDs: build (cmake, a generator, a C++17 compiler, Kokkos),
# gtest, benchmark, mpi (an MPI library and its launcher), python3, plots (matplotlib; optional),
# clang-format, clang-tidy. Fills the
# loopnest_missing_* and loopnest_optional_* arrays, sets loopnest_generator and writes what it
# found to loopnest_found.
loopnest_find_dependencies() {
  local build_dir=$1
  shift
  local needs=" "
  while [ $# -gt 0 ] && [ "$1" != -- ]; do needs="$needs$1 "; shift; done
  [ $# -gt 0 ] && shift
  loopnest_missing_what=(); loopnest_missing_apt=(); loopnest_missing_spack=()
  loopnest_missing_other=(); loopnest_optional_what=(); loopnest_optional_apt=()
  loopnest_optional_spack=(); loopnest_optional_other=(); loopnest_found=()
  loopnest_generator=""
  local have_cmake=0 have_cxx=0 tool

  if [[ $needs == *" build "* ]]; then
    if ! command -v cmake >/dev/null 2>&1; then
      loopnest_missing_add "cmake >= $loopnest_cmake_minimum: none on PATH" cmake cmake \
        "pip install cmake (or module load cmake)"
    else
      local version
      version=$(cmake --version 2>/dev/null | sed -n '1s/^cmake version \([0-9.]*\).*/\1/p')
      if [ -z "$version" ] || ! loopnest_version_at_least "$version" "$loopnest_cmake_minimum"; then
        loopnest_missing_add \
          "cmake >= $loopnest_cmake_minimum: $(command -v cmake) is ${version:-of unknown version}" \
          cmake cmake "pip install cmake, then put its cmake first on PATH"
      else
        have_cmake=1
        loopnest_found+=("cmake $version")
      fi
    fi
    loopnest_pick_generator "$build_dir"
    [ -n "$loopnest_generator" ] && loopnest_found+=("generator $loopnest_generator")
    if [ -n "${CXX:-}" ]; then
      if command -v "${CXX%% *}" >/dev/null 2>&1; then
        have_cxx=1
      else
        loopnest_missing_add "a C++17 compiler: CXX=$CXX is not on PATH" "" gcc \
          "set CXX to a C++17 compiler (or unset it to use c++ or g++ on PATH)"
      fi
    elif command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 ||
         command -v clang++ >/dev/null 2>&1; then
      have_cxx=1
    else
      loopnest_missing_add "a C++17 compiler: no c++, g++ or clang++ on PATH, and CXX unset" g++ gcc \
        "module load gcc, or CXX=/path/to/g++"
    fi
  fi

  # A Kokkos named in the CMake arguments is what was asked for, as KOKKOS_ROOT would be: if the
  # probe misses it, the distribution's Kokkos is no substitute to install.
  local arg
  loopnest_kokkos_argument=""
  for arg in "$@"; do
    case "$arg" in
      -DKokkos_DIR=* | -DKokkos_DIR:*=* | -DKokkos_ROOT=* | -DKokkos_ROOT:*=*)
        loopnest_kokkos_argument=${arg#*=} ;;
    esac
  done

  # GoogleTest, Google Benchmark and Kokkos: one CMake probe for all of them.
  local probe=() names=()
  [[ $needs == *" gtest "* ]] && probe+=(GTest)
  [[ $needs == *" benchmark "* ]] && probe+=(benchmark)
  [[ $needs == *" mpi "* ]] && probe+=(MPI)
  [[ $needs == *" build "* ]] && probe+=(Kokkos)
  if [ ${#probe[@]} -gt 0 ] && [[ $needs == *" build "* ]]; then
    if [ "$have_cmake" = 1 ] && [ "$have_cxx" = 1 ] && [ -n "$loopnest_generator" ]; then
      local out status=0 line name state detail
      out=$(loopnest_probe "${probe[@]}" -- "$@") || status=$?
      while read -r name state detail; do
        [ -z "$name" ] && continue
        names+=("$name")
        if [ "$state" = found ]; then
          case "$name" in
            cxx17) loopnest_found+=("C++ $detail") ;;
            GTest) loopnest_found+=("GoogleTest${detail:+ $detail}") ;;
            benchmark) loopnest_found+=("Google Benchmark${detail:+ $detail}") ;;
            MPI) loopnest_found+=("MPI${detail:+ $detail}") ;;
            Kokkos) loopnest_found+=("Kokkos $detail") ;;
          esac
          continue
        fi
        loopnest_probe_missing "$name" "$detail"
      done <<<"$out"
      # What the probe did not get to (it stopped at a CMake error, shown above) is missing too.
      for name in cxx17 "${probe[@]}"; do
        if [[ " ${names[*]+${names[*]}} " != *" $name "* ]]; then
          loopnest_probe_missing "$name" "the CMake check stopped at an error (above)"
        fi
      done
    else
      local pretty
      pretty=$(printf '%s, ' "${probe[@]}" | sed 's/GTest/GoogleTest/; s/benchmark/Google Benchmark/; s/, $//')
      loopnest_missing_add "$pretty: not looked for yet (the check needs cmake, a build tool and a C++ compiler first)" \
        "" "" ""
    fi
  fi

  # The distributed tests run under the MPI launcher, which the library's package may not bring.
  if [[ $needs == *" mpi "* ]]; then
    if command -v mpiexec >/dev/null 2>&1; then
      loopnest_found+=("mpiexec")
    else
      loopnest_missing_add "an MPI launcher: no mpiexec on PATH (the distributed tests run under it)" \
        openmpi-bin openmpi "put your MPI's bin/ on PATH (module load openmpi)"
    fi
  fi
  if [[ $needs == *" python3 "* ]]; then
    if command -v python3 >/dev/null 2>&1 || [ -x /usr/bin/python3 ]; then
      loopnest_found+=("python3")
    else
      loopnest_missing_add "python3 (scripts/report.py writes the report)" python3 python \
        "module load python"
    fi
  fi
  if [[ $needs == *" plots "* ]]; then
    if [ "$(loopnest_python)" = python3 ] && ! python3 -c 'import matplotlib' >/dev/null 2>&1; then
      loopnest_optional_add "matplotlib (the plots): python3 cannot import it" python3-matplotlib \
        py-matplotlib "python3 -m pip install matplotlib"
    else
      loopnest_found+=("matplotlib in $(loopnest_python)")
    fi
  fi
  for tool in clang-format clang-tidy; do
    [[ $needs == *" $tool "* ]] || continue
    local variable
    variable=$(echo "$tool" | tr 'a-z-' 'A-Z_')
    if [ -n "${!variable:-}" ]; then
      if command -v "${!variable}" >/dev/null 2>&1; then
        loopnest_found+=("$tool ${!variable}")
      else
        loopnest_missing_add "$tool: $variable=${!variable} is not a program" "" llvm \
          "set $variable to a $tool program, or unset it"
      fi
    elif loopnest_find_tool "$tool" >/dev/null; then
      loopnest_found+=("$tool $(loopnest_find_tool "$tool")")
    else
      loopnest_missing_add "$tool: none on PATH (nor $tool-N)" "$tool" llvm \
        "$variable=/path/to/$tool"
    fi
  done
  return 0
}

# loopnest_probe_missing NAME DETAIL: the missing entry for what the CMake probe did not find.
loopnest_probe_missing() {
  local kokkos_root=${Kokkos_ROOT:-${KOKKOS_ROOT:-${loopnest_kokkos_argument:-}}}
  case "$1" in
    cxx17)
      loopnest_missing_add "a C++17 compiler: ${2:-CMake found none that works}" "" gcc \
        "CXX=/path/to/a/newer/g++ (or module load gcc)" ;;
    GTest)
      loopnest_missing_add "GoogleTest: find_package(GTest) finds none${2:+ ($2)}" libgtest-dev \
        googletest "GTest_ROOT=/its/install/prefix, or add that prefix to CMAKE_PREFIX_PATH" ;;
    benchmark)
      loopnest_missing_add "Google Benchmark: find_package(benchmark) finds none${2:+ ($2)}" \
        libbenchmark-dev benchmark \
        "benchmark_ROOT=/its/install/prefix, or add that prefix to CMAKE_PREFIX_PATH" ;;
    MPI)
      loopnest_missing_add "MPI: find_package(MPI) finds none${2:+ ($2)}" libopenmpi-dev openmpi \
        "MPI_HOME=/its/install/prefix, or configure with -DLOOPNEST_ENABLE_MPI=OFF" ;;
    Kokkos)
      # With KOKKOS_ROOT set, the distribution's Kokkos is not what was asked for.
      if [ -n "$kokkos_root" ]; then
        loopnest_missing_add "Kokkos >= $loopnest_kokkos_minimum: find_package(Kokkos) finds none in KOKKOS_ROOT=$kokkos_root${2:+ ($2)}" \
          "" "kokkos" "point KOKKOS_ROOT at the prefix holding lib/cmake/Kokkos (or lib64/cmake/Kokkos)"
      else
        loopnest_missing_add "Kokkos >= $loopnest_kokkos_minimum: find_package(Kokkos) finds none${2:+ ($2)}" \
          libtrilinos-kokkos-dev "kokkos" \
          "KOKKOS_ROOT=/its/install/prefix (e.g. a CUDA build, see docs/getting-started.md)"
      fi ;;
    CUDA)
      loopnest_missing_add "a CUDA compiler: Kokkos is a CUDA-language build and CMake finds no nvcc" \
        "" cuda "put nvcc on PATH (module load cuda) or set CUDACXX=/path/to/nvcc" ;;
  esac
}

# loopnest_install_as: how to run apt-get here ("" as root, "sudo" with passwordless sudo);
# status 1, with the reason in loopnest_install_why, where installing cannot work.
loopnest_install_as() {
  if ! command -v apt-get >/dev/null 2>&1; then
    loopnest_install_why="no apt-get on this machine"; return 1
  elif [ "$(id -u)" = 0 ]; then
    echo ""
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo sudo
  else
    loopnest_install_why="not root, and no passwordless sudo"; return 1
  fi
}

# loopnest_apt_install PACKAGE...: apt-get update (once) and install, as root or through sudo.
loopnest_apt_install() {
  local as
  as=$(loopnest_install_as) || return 1
  echo "loopnest: installing $*"
  if [ -z "${loopnest_apt_updated:-}" ]; then
    loopnest_apt_updated=1
    $as env DEBIAN_FRONTEND=noninteractive apt-get update -q ||
      echo "loopnest: apt-get update failed; trying the install with the lists there are" >&2
  fi
  $as env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}

# loopnest_report_missing REASON: the one message that lists what is missing and every way to
# provide it; REASON says why installing did not or could not help.
loopnest_report_missing() {
  local i apt=() spack=() sudo="sudo "
  [ "$(id -u)" = 0 ] && sudo=""
  {
    echo "loopnest: missing what this needs ($1):"
    for i in "${!loopnest_missing_what[@]}"; do
      echo "  - ${loopnest_missing_what[$i]}"
      local ways=()
      [ -n "${loopnest_missing_apt[$i]}" ] && ways+=("apt: ${loopnest_missing_apt[$i]}") &&
        apt+=("${loopnest_missing_apt[$i]}")
      [ -n "${loopnest_missing_spack[$i]}" ] && ways+=("spack: ${loopnest_missing_spack[$i]}") &&
        spack+=("${loopnest_missing_spack[$i]}")
      [ -n "${loopnest_missing_other[$i]}" ] && ways+=("or ${loopnest_missing_other[$i]}")
      [ ${#ways[@]} -gt 0 ] && printf '      %s\n' "$(printf '%s; ' "${ways[@]}" | sed 's/; $//')"
    done
    echo "Ways to provide them:"
    [ ${#apt[@]} -gt 0 ] &&
      echo "  Debian/Ubuntu: ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${apt[*]}"
    [ ${#spack[@]} -gt 0 ] &&
      echo "  Spack:         spack install ${spack[*]} && spack load ${spack[*]}"
    echo "  Modules:       module load the same tools and libraries"
    # Libraries are found by CMake, which reads these variables from the environment.
    if [[ "${loopnest_missing_what[*]}" == *"find_package"* ||
          "${loopnest_missing_what[*]}" == *"not looked for yet"* ]]; then
      echo "  Other installs: an install prefix in CMAKE_PREFIX_PATH, or <Package>_ROOT, e.g."
      echo "                 GTest_ROOT=DIR benchmark_ROOT=DIR KOKKOS_ROOT=DIR $0 ..."
    fi
  } >&2
}

# loopnest_dependencies [--no-install] BUILD_DIR NEED... [-- cmake arguments]: makes sure the
# NEEDs (see loopnest_find_dependencies) are met. What is missing is installed with apt only where
# that can work (apt-get, root or passwordless sudo, everything missing has a Debian package, no
# --no-install); otherwise one message lists what is missing and how to provide it, status 1,
# nothing touched. Missing optional things (matplotlib) are installed along, or only reported.
loopnest_dependencies() {
  local install=1
  [ "$1" = --no-install ] && { install=0; shift; }
  local round tried=" " apt p why="" missing_apt optional_apt nothing=", so nothing was installed"
  loopnest_install_why=""
  # Up to three installs: cmake and a compiler first, which the library check needs, then the
  # libraries, then what those installs did not bring.
  for round in 1 2 3 4; do
    loopnest_find_dependencies "$@"
    missing_apt=(); optional_apt=()
    local unpackaged=0
    for p in ${loopnest_missing_apt[@]+"${loopnest_missing_apt[@]}"}; do
      [ -z "$p" ] || [[ $tried == *" $p "* ]] || missing_apt+=("$p")
    done
    for p in "${!loopnest_missing_what[@]}"; do
      # An entry without a package (KOKKOS_ROOT, CXX) stops installing, unless it only waits for
      # cmake and a compiler to be installed first.
      [ -z "${loopnest_missing_apt[$p]}" ] && [[ ${loopnest_missing_what[$p]} != *"not looked for yet"* ]] &&
        unpackaged=1
    done
    for p in ${loopnest_optional_apt[@]+"${loopnest_optional_apt[@]}"}; do
      [[ $tried == *" $p "* ]] || optional_apt+=("$p")
    done
    if [ ${#loopnest_missing_what[@]} -eq 0 ] && [ ${#optional_apt[@]} -eq 0 ]; then
      break
    fi
    # After an install, say what was installed rather than that nothing was.
    [ "$tried" != " " ] && nothing=", after installing$(echo "$tried" | sed 's/ $//')"
    if [ "$install" = 0 ]; then why="--no-install$nothing"; break; fi
    if [ "$unpackaged" = 1 ]; then why="some of it has no Debian package$nothing"; break; fi
    if [ ${#loopnest_missing_what[@]} -gt 0 ] && [ ${#missing_apt[@]} -eq 0 ]; then
      why="the Debian packages did not provide it$nothing"; break
    fi
    if [ "$round" = 4 ]; then why="the Debian packages did not provide it$nothing"; break; fi
    if ! loopnest_install_as >/dev/null; then why="$loopnest_install_why$nothing"; break; fi
    apt=(${missing_apt[@]+"${missing_apt[@]}"} ${optional_apt[@]+"${optional_apt[@]}"})
    for p in "${apt[@]}"; do tried="$tried$p "; done
    if ! loopnest_apt_install "${apt[@]}"; then
      loopnest_find_dependencies "$@"
      why="apt-get install failed (see above)"
      break
    fi
  done
  if [ ${#loopnest_missing_what[@]} -gt 0 ]; then
    loopnest_report_missing "$why"
    return 1
  fi
  [ ${#loopnest_found[@]} -gt 0 ] &&
    echo "loopnest: found $(printf '%s, ' "${loopnest_found[@]}" | sed 's/, $//')"
  local i
  for i in ${loopnest_optional_what[@]+"${!loopnest_optional_what[@]}"}; do
    echo "loopnest: no ${loopnest_optional_what[$i]}; get it with apt: ${loopnest_optional_apt[$i]}," \
         "spack: ${loopnest_optional_spack[$i]}, or ${loopnest_optional_other[$i]}" >&2
  done
  return 0
}

# loopnest_configure_and_build BUILD_DIR [cmake arguments...] [--targets TARGET...]: configures
# with the generator loopnest_dependencies picked and builds everything, or only the TARGETs.
loopnest_configure_and_build() {
  local build_dir=$1
  shift
  local args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != --targets ]; do args+=("$1"); shift; done
  [ $# -gt 0 ] && { shift; targets=("$@"); }
  local kokkos_root=${Kokkos_ROOT:-${KOKKOS_ROOT:-}}
  cmake -S "$loopnest_root" -B "$build_dir" ${loopnest_generator:+-G "$loopnest_generator"} \
    ${kokkos_root:+-DKokkos_ROOT="$kokkos_root"} ${args[@]+"${args[@]}"} &&
    cmake --build "$build_dir" -j "$(nproc)" ${targets[@]+--target "${targets[@]}"}
}

# The python3 to draw plots with: the first of python3 on PATH and the distribution's
# /usr/bin/python3 that imports matplotlib (python3-matplotlib installs it for the latter), else
# python3 (report.py then writes the report without plots).
loopnest_python() {
  local p
  for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import matplotlib' 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  echo python3
}
