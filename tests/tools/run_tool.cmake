# Runs a command-line tool once for a ctest test and checks what it did; fails (FATAL_ERROR, with
# the tool's output) on the first check that does not hold. loopnest_tool_test() in
# tool_test.cmake adds such a test; by hand:
#   cmake -DCOMMAND=<program;arg;...> [-DEXPECT_EXIT=...] [-DSTDOUT_REGEX=...]
#         [-DSTDERR_REGEX=...] [-DMUST_NOT_EXIST=...] [-DUNCHANGED=...] [-DSTDOUT_FILE=...]
#         -P run_tool.cmake
# COMMAND         the program and its arguments, a CMake list (required).
# EXPECT_EXIT     the exit status: 0 (the default), another number, or "nonzero" for any failure.
#                 A tool killed by a signal never matches: a crash is not a refusal.
# STDOUT_REGEX    a CMake regular expression that must match somewhere in stdout.
# STDERR_REGEX    the same for stderr.
# MUST_NOT_EXIST  a file or directory that must not exist after the run (a refused call writes
#                 nothing). It is
#                 removed before the run, so that a file left by an earlier run cannot pass or
#                 fail the test.
# UNCHANGED       a file that must exist with the same contents after the run (a refused or failed
#                 write leaves the old file as it was).
# STDOUT_FILE     where stdout goes instead of being captured (/dev/full: a full disk); the
#                 STDOUT_REGEX check is then skipped.
cmake_minimum_required(VERSION 3.16)

# COMMAND is also a keyword of if(); compare its value as a string.
if("${COMMAND}" STREQUAL "")
  message(FATAL_ERROR "run_tool.cmake: COMMAND is empty; pass -DCOMMAND=<program;arg;...>")
endif()
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()
if(NOT EXPECT_EXIT MATCHES "^([0-9]+|nonzero)$")
  message(FATAL_ERROR "run_tool.cmake: EXPECT_EXIT = '${EXPECT_EXIT}' is not a number or nonzero")
endif()
if(MUST_NOT_EXIST)
  file(REMOVE_RECURSE "${MUST_NOT_EXIST}")
endif()

if(UNCHANGED)
  if(NOT EXISTS "${UNCHANGED}")
    message(FATAL_ERROR "run_tool.cmake: UNCHANGED = '${UNCHANGED}' does not exist before the run")
  endif()
  file(SHA256 "${UNCHANGED}" before)
endif()
if(STDOUT_FILE)
  execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_FILE "${STDOUT_FILE}"
                  ERROR_VARIABLE err)
  set(out "(sent to ${STDOUT_FILE})\n")
else()
  execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
string(REPLACE ";" " " shown "${COMMAND}")
set(report "command: ${shown}\nexit: ${rc}\n--- stdout ---\n${out}--- stderr ---\n${err}")

if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "the tool did not exit normally\n${report}")
endif()
if(EXPECT_EXIT STREQUAL "nonzero")
  if(rc EQUAL 0)
    message(FATAL_ERROR "expected a non-zero exit status\n${report}")
  endif()
elseif(NOT rc EQUAL EXPECT_EXIT)
  message(FATAL_ERROR "expected exit status ${EXPECT_EXIT}\n${report}")
endif()
if(DEFINED STDOUT_REGEX AND NOT STDOUT_FILE AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}'\n${report}")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}'\n${report}")
endif()
if(MUST_NOT_EXIST AND EXISTS "${MUST_NOT_EXIST}")
  message(FATAL_ERROR "the tool wrote ${MUST_NOT_EXIST}, which it must not\n${report}")
endif()
if(UNCHANGED)
  if(NOT EXISTS "${UNCHANGED}")
    message(FATAL_ERROR "the tool removed ${UNCHANGED}\n${report}")
  endif()
  file(SHA256 "${UNCHANGED}" after)
  if(NOT before STREQUAL after)
    message(FATAL_ERROR "the tool changed ${UNCHANGED}\n${report}")
  endif()
endif()
