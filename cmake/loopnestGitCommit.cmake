# Writes OUT with the commit of the source tree, so that benchmark JSON records the code it
# measured: FALLBACK where it is given (the commit named at configure time, 7 to 40 lowercase
# hex digits, optionally followed by "-dirty"), else the commit of the git checkout whose top is
# SOURCE_DIR (and "-dirty" for uncommitted changes), else "unknown". An enclosing checkout of
# another project, or a stale .git in a copy of the tree, would name other code: FALLBACK wins
# over both, and git is not asked where SOURCE_DIR is not its checkout's top.
# Rewrites OUT only when the text changes.
include(${CMAKE_CURRENT_LIST_DIR}/loopnestCheckGitCommit.cmake)
loopnest_check_git_commit("${FALLBACK}")
set(commit "unknown")
if(FALLBACK)
  set(commit "${FALLBACK}")
else()
  execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --show-toplevel OUTPUT_VARIABLE top
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
  get_filename_component(source_real "${SOURCE_DIR}" REALPATH)
  if(NOT rc AND top)
    get_filename_component(top "${top}" REALPATH)
  endif()
  if(NOT rc AND top STREQUAL source_real)
    execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse HEAD OUTPUT_VARIABLE head
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    if(NOT rc AND head)
      set(commit "${head}")
      execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                      OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(dirty)
        string(APPEND commit "-dirty")
      endif()
    endif()
  endif()
endif()
set(text "#define LOOPNEST_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
