#!/usr/bin/env bash
# Runs a command under a resource limit, so that a test can check what a tool does when the limit
# stops it: that it exits with its documented status instead of dying by a signal, and that a
# failed write leaves no temporary behind.
#   tests/tools/with_limit.sh LIMIT VALUE DIR COMMAND [ARG...]
# LIMIT is an option of bash's ulimit (-f: file size in 1024-byte blocks, -v: address space in
# KiB). Exits with the command's status (128 + N when signal N killed it), or 98 when the command
# left a hidden temporary (.loopnest-*.tmp) in DIR, whatever the command did.
set -uo pipefail

if [ $# -lt 4 ]; then
  sed -n '5,8p' "$0" >&2
  exit 2
fi
limit=$1
value=$2
dir=$3
shift 3
(ulimit "$limit" "$value" && exec "$@")
status=$?
shopt -s nullglob
left=("$dir"/.loopnest-*.tmp)
if [ ${#left[@]} -gt 0 ]; then
  echo "with_limit.sh: the command left ${left[*]}" >&2
  exit 98
fi
exit "$status"
