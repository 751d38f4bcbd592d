# Writes OUT with the source tree's git commit (and "-dirty" for uncommitted changes), so that
# benchmark JSON records the code it measured. Where SOURCE_DIR is not the top of a git checkout
# (a release tarball, a copy of the tree on another machine or inside another project's
# checkout), FALLBACK names the commit instead: 7 to 40 lowercase hex digits, optionally followed
# by "-dirty"; without it the commit is "unknown". Rewrites OUT only when the text changes.
include(${CMAKE_CURRENT_LIST_DIR}/loopnestCheckGitCommit.cmake)
loopnest_check_git_commit("${FALLBACK}")
# An enclosing checkout's commit would name another repository's code.
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --show-toplevel OUTPUT_VARIABLE top
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
get_filename_component(source_real "${SOURCE_DIR}" REALPATH)
if(NOT rc AND top)
  get_filename_component(top "${top}" REALPATH)
endif()
if(NOT rc AND top STREQUAL source_real)
  execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse HEAD OUTPUT_VARIABLE commit
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
else()
  set(rc 1)
endif()
if(rc OR NOT commit)
  if(FALLBACK)
    set(commit "${FALLBACK}")
  else()
    set(commit "unknown")
  endif()
else()
  execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(dirty)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "#define LOOPNEST_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
