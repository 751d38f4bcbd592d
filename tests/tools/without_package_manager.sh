#!/usr/bin/env bash
# Runs a command with a PATH in which dpkg-query, apt-get and sudo are stubs that fail loudly and
# the named tools are absent, so that a test can check that scripts/ find what the build needs
# without asking the package manager, and what they say when something is missing.
#   tests/tools/without_package_manager.sh WORK_DIR [--hide TOOL]... [--hide-python MODULE]...
#                                          -- COMMAND [ARG...]
# WORK_DIR is emptied and holds the stubs and the new PATH. A call to a stub, even one whose
# output the command hides, makes this exit 97 after the command, whatever the command did.
# --hide-python MODULE makes `import MODULE` fail in every python3 (through PYTHONPATH).
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
work=$1
shift
hidden=" dpkg-query apt-get sudo "
python_hidden=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case "$1" in
    --hide) hidden="$hidden$2 "; shift 2 ;;
    --hide-python) python_hidden+=("$2"); shift 2 ;;
    *) echo "tests/tools/without_package_manager.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
shift

rm -rf "$work"
mkdir -p "$work/stubs" "$work/bin" "$work/python"
log="$work/package-manager-calls.log"
for tool in dpkg-query apt-get sudo; do
  cat >"$work/stubs/$tool" <<STUB
#!/bin/sh
echo "stub: $tool \$*" >>"$log"
echo "stub: $tool was called (\$*): the scripts must not ask the package manager here" >&2
exit 97
STUB
  chmod +x "$work/stubs/$tool"
done
# Every other program on PATH, the first of each name, through a link; one ln for them all, as a
# process per program took ten seconds for the two thousand of a CI machine.
IFS=: read -ra dirs <<<"$PATH"
declare -A linked=()
programs=()
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for program in "$dir"/*; do
    name=${program##*/}
    [[ $hidden == *" $name "* ]] && continue
    [ -f "$program" ] && [ -x "$program" ] || continue
    [ -n "${linked[$name]+set}" ] && continue
    linked[$name]=1
    programs+=("$program")
  done
done
[ ${#programs[@]} -eq 0 ] || ln -s "${programs[@]}" "$work/bin/"
for module in ${python_hidden[@]+"${python_hidden[@]}"}; do
  mkdir -p "$work/python/$module"
  echo "raise ImportError('$module is hidden by tests/tools/without_package_manager.sh')" \
    >"$work/python/$module/__init__.py"
done

status=0
PATH="$work/stubs:$work/bin" PYTHONPATH="$work/python${PYTHONPATH:+:$PYTHONPATH}" "$@" || status=$?
if [ -s "$log" ]; then
  echo "tests/tools/without_package_manager.sh: the command called the package manager:" >&2
  cat "$log" >&2
  exit 97
fi
exit $status
