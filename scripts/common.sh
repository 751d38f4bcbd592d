# Shared by scripts/test.sh and scripts/bench.sh: install what is missing, then configure and
# build; pick a python3 that has matplotlib. Sourced, not run.

loopnest_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian/Ubuntu packages loopnest builds with, plus any given as arguments. Kokkos comes from
# the distribution unless KOKKOS_ROOT / Kokkos_ROOT points at another install (for example one
# built with CUDA).
loopnest_install_dependencies() {
  local packages="cmake g++ ninja-build libgtest-dev libbenchmark-dev $*"
  if [ -z "${Kokkos_ROOT:-${KOKKOS_ROOT:-}}" ]; then
    packages="$packages libtrilinos-kokkos-dev"
  fi
  loopnest_install_packages $packages
}

# loopnest_install_packages PACKAGE...: installs those of the Debian/Ubuntu packages that are
# missing (as root or through sudo), or says how to.
loopnest_install_packages() {
  local packages="$*"
  local missing=""
  for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  local install="apt-get install -y --no-install-recommends$missing"
  if [ "$(id -u)" = 0 ]; then
    echo "loopnest: installing$missing"
    DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive $install
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "loopnest: installing$missing"
    sudo DEBIAN_FRONTEND=noninteractive apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive $install
  else
    echo "loopnest: missing packages. Install them with:" >&2
    echo "  sudo apt-get update && sudo $install" >&2
    return 1
  fi
}

# loopnest_configure_and_build BUILD_DIR [extra cmake arguments...]
loopnest_configure_and_build() {
  local build_dir=$1
  shift
  local kokkos_root=${Kokkos_ROOT:-${KOKKOS_ROOT:-}}
  cmake -S "$loopnest_root" -B "$build_dir" -G Ninja \
    ${kokkos_root:+-DKokkos_ROOT="$kokkos_root"} "$@" &&
    cmake --build "$build_dir" -j "$(nproc)"
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
