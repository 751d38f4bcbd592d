#!/usr/bin/env bash
# What loopnest-mfc leaves behind when a run is re-run, interrupted, killed, or meets a limit:
#   tool_faults.sh TOOL CASE.json WORK_DIR SCENARIO
# SCENARIO is one of
#   rerun          a second run into the same case directory replaces the first run's D/ files
#                  (other files in D/ stay) and says how many it removed
#   signal_NAME    SIGINT, SIGTERM or SIGHUP during a run: the stage is removed, no D/ is made,
#                  and the process ends by that signal
#   stale_stage    a stage a killed process of this host left is removed (and named); one of a
#                  running process stays
#   file_size      under ulimit -f a write fails: exit status 3, no D/, no stage, no temporary
#   blocked_destination  a directory where an output file is to go: exit 3 before anything
#                  moves, the earlier files left as they were
#   dev_stdin      a case read from /dev/stdin without --case-dir: refused (exit 2)
#   address_space  under ulimit -v a case too large is refused before it allocates: exit 2
#                  (CASE.json: MFC's 3D_performance_test)
# Exits 0 when everything holds, 1 naming what did not.
set -uo pipefail
tool=$1 case_file=$2 work=$3 scenario=$4

fail() {
  echo "tool_faults.sh $scenario: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
stages() { find "$work" -maxdepth 1 -name '.loopnest-mfc-*' | wc -l; }
short=(--override t_step_stop=6 --override t_step_save=3)

case "$scenario" in
  rerun)
    "$tool" "$case_file" --case-dir "$work" "${short[@]}" --override m=29 > "$work/first.out" ||
      fail "the first run failed"
    echo "kept" > "$work/D/notes.txt"
    "$tool" "$case_file" --case-dir "$work" --override t_step_stop=10 --override t_step_save=5 \
      > "$work/second.out" || fail "the second run failed"
    # The first run wrote steps 0, 3 and 6, the second 0, 5 and 10: 8 files a step (cons and
    # prim of 4 equations); those of steps 3 and 6 go.
    grep -qx 'REPLACED=16' "$work/second.out" || fail "expected REPLACED=16: $(cat "$work/second.out")"
    left=$(cd "$work/D" && ls | grep -c '\.00000[36]\.dat$')
    [ "$left" = 0 ] || fail "$left files of the first run are still in D/"
    [ "$(cd "$work/D" && ls | grep -c '\.dat$')" = 24 ] || fail "D/ does not hold the 24 files of the second run"
    [ "$(cat "$work/D/notes.txt")" = kept ] || fail "a file that is not MFC's output was removed"
    ;;
  signal_*)
    signal=${scenario#signal_}
    # Job control gives the background run the default dispositions, SIGINT's included.
    set -m
    "$tool" "$case_file" --case-dir "$work" --override t_step_stop=999999 \
      --override t_step_save=999999 > /dev/null 2> "$work/err" &
    pid=$!
    for _ in $(seq 1 300); do
      [ "$(stages)" = 1 ] && break
      sleep 0.1
    done
    [ "$(stages)" = 1 ] || fail "the run made no stage"
    sleep 0.5
    kill -s "$signal" "$pid"
    wait "$pid"
    status=$?
    expected=$((128 + $(kill -l "$signal")))
    [ "$status" = "$expected" ] || fail "exit status $status, expected $expected (ended by SIG$signal)"
    [ "$(stages)" = 0 ] || fail "the stage is left: $(ls -A "$work")"
    [ ! -e "$work/D" ] || fail "D/ was made"
    ;;
  stale_stage)
    true &
    dead=$!
    wait "$dead"
    host=$(hostname | tr -c 'A-Za-z0-9.\n' '_')
    mkdir -p "$work/.loopnest-mfc-$host-$dead/D" "$work/.loopnest-mfc-$host-$$/D"
    echo partial > "$work/.loopnest-mfc-$host-$dead/D/cons.1.00.000000.dat"
    "$tool" "$case_file" --case-dir "$work" "${short[@]}" > /dev/null 2> "$work/err" ||
      fail "the run failed: $(cat "$work/err")"
    [ ! -e "$work/.loopnest-mfc-$host-$dead" ] || fail "the dead process's stage is left"
    [ -d "$work/.loopnest-mfc-$host-$$" ] || fail "a running process's stage was removed"
    grep -q "removed '.*\.loopnest-mfc-$host-$dead', left by process $dead, which has ended" \
      "$work/err" || fail "the removal is not named: $(cat "$work/err")"
    ;;
  file_size)
    # 2 KiB: less than one output file of the 50-cell shock tube.
    (ulimit -f 2 && exec "$tool" "$case_file" --case-dir "$work" "${short[@]}") \
      > /dev/null 2> "$work/err"
    status=$?
    [ "$status" = 3 ] || fail "exit status $status, expected 3: $(cat "$work/err")"
    # The file is named where it was to appear, not in the stage.
    grep -qx "loopnest-mfc: writing '$work/D/prim.1.00.000000.dat' failed: File too large; nothing was written" \
      "$work/err" || fail "not the write error: $(cat "$work/err")"
    [ "$(stages)" = 0 ] || fail "the stage is left: $(ls -A "$work")"
    [ ! -e "$work/D" ] || fail "D/ was made"
    ;;
  blocked_destination)
    # A directory where a file of the run is to go: nothing moves, the earlier files stay.
    "$tool" "$case_file" --case-dir "$work" "${short[@]}" > /dev/null || fail "the first run failed"
    rm "$work/D/cons.1.00.000003.dat" && mkdir "$work/D/cons.1.00.000003.dat"
    echo "an earlier run's" > "$work/D/prim.1.00.000000.dat"
    "$tool" "$case_file" --case-dir "$work" "${short[@]}" > /dev/null 2> "$work/err"
    status=$?
    [ "$status" = 3 ] || fail "exit status $status, expected 3: $(cat "$work/err")"
    grep -qx "loopnest-mfc: '$work/D/cons.1.00.000003.dat' exists and is not a regular file; D/ was left as it was" \
      "$work/err" || fail "not the refusal: $(cat "$work/err")"
    [ "$(cat "$work/D/prim.1.00.000000.dat")" = "an earlier run's" ] || fail "an earlier file was replaced"
    [ "$(stages)" = 0 ] || fail "the stage is left: $(ls -A "$work")"
    ;;
  dev_stdin)
    # Read from /dev/stdin, the case has no directory of its own for D/.
    "$tool" /dev/stdin < "$case_file" > /dev/null 2> "$work/err"
    status=$?
    [ "$status" = 2 ] || fail "exit status $status, expected 2: $(cat "$work/err")"
    grep -qx "loopnest-mfc: --case-dir is needed: the case file '/dev/stdin' is read from /dev, where D/ cannot go" \
      "$work/err" || fail "not the refusal: $(cat "$work/err")"
    ;;
  address_space)
    # 4 GB of address space; the case asks for hundreds.
    # CASE.json is MFC's 3D_performance_test.
    (ulimit -v 4000000 && exec "$tool" "$case_file" --case-dir "$work" \
      --override m=999 --override n=999 --override p=999) > /dev/null 2> "$work/err"
    status=$?
    [ "$status" = 2 ] || fail "exit status $status, expected 2: $(cat "$work/err")"
    grep -q "^loopnest-mfc: the case needs [0-9.e+]* GB of host memory (m = 999, n = 999, p = 999: 1e+09 cells of 8 equations), more than the [0-9.e+]* GB available under the address-space limit (ulimit -v)$" \
      "$work/err" || fail "not the memory refusal: $(cat "$work/err")"
    [ ! -e "$work/D" ] || fail "D/ was made"
    ;;
  *)
    fail "unknown scenario"
    ;;
esac
exit 0
