# cmake/loopnestGitCommit.cmake on a tree that is no git checkout: "unknown" without a fallback,
# the fallback where one is given (also inside or at the top of a git checkout), an enclosing
# checkout never asked, and a malformed fallback refused, naming it, with OUT left as it was. WORK: an empty folder outside any git
# checkout's reach (GIT_CEILING_DIRECTORIES).
set(script ${CMAKE_CURRENT_LIST_DIR}/../cmake/loopnestGitCommit.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/tree)
get_filename_component(parent ${WORK} DIRECTORY)
set(ENV{GIT_CEILING_DIRECTORIES} ${parent})
set(out ${WORK}/commit.hpp)

function(record fallback)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK}/tree -DOUT=${out}
                          -DFALLBACK=${fallback} -P ${script}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  set(rc ${rc} PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(expect_recorded text)
  file(READ ${out} got)
  if(NOT got STREQUAL "#define LOOPNEST_GIT_COMMIT \"${text}\"\n")
    message(FATAL_ERROR "expected commit ${text}, got: ${got}")
  endif()
endfunction()

record("")
if(rc)
  message(FATAL_ERROR "no fallback: the script failed: ${err}")
endif()
expect_recorded(unknown)
record(221aa35bc56481799bb2f62c71523670ed81da63-dirty)
expect_recorded(221aa35bc56481799bb2f62c71523670ed81da63-dirty)
record(9e625f2)
expect_recorded(9e625f2)
# A copy of the tree inside another project's checkout: that checkout's commit names other code.
file(MAKE_DIRECTORY ${WORK}/outer/tree)
execute_process(COMMAND git init -q ${WORK}/outer RESULT_VARIABLE git_rc)
if(NOT git_rc)
  execute_process(COMMAND git -C ${WORK}/outer -c user.name=t -c user.email=t@t commit -q
                          --allow-empty -m outer RESULT_VARIABLE git_rc)
endif()
if(git_rc)
  message(FATAL_ERROR "could not make the enclosing git checkout")
endif()
foreach(tree outer/tree outer)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK}/${tree} -DOUT=${out}
                          -DFALLBACK=9e625f2 -P ${script} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${tree}: the script failed: ${err}")
  endif()
  expect_recorded(9e625f2)
endforeach()
# Without a commit given: an enclosing checkout is not asked, the checkout's own top is.
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK}/outer/tree -DOUT=${out} -P ${script})
expect_recorded(unknown)
execute_process(COMMAND git -C ${WORK}/outer rev-parse HEAD OUTPUT_VARIABLE outer_head
                OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK}/outer -DOUT=${out} -P ${script})
expect_recorded(${outer_head})
record(9e625f2)
foreach(bad "HEAD" "9e625f" "9E625F2" "9e625f2-clean" "9e625f2 extra"
            "221aa35bc56481799bb2f62c71523670ed81da63a")
  record("${bad}")
  string(REGEX REPLACE "[ \n]+" " " err "${err}")  # CMake wraps its messages
  if(NOT rc OR NOT err MATCHES "LOOPNEST_GIT_COMMIT = '${bad}' is not a commit")
    message(FATAL_ERROR "the fallback '${bad}' was not refused by name: ${err}")
  endif()
  expect_recorded(9e625f2)
endforeach()
