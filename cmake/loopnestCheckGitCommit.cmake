# loopnest_check_git_commit(VALUE): stops with an error naming VALUE unless it is empty or a
# commit as `git rev-parse` prints it (7 to 40 lowercase hex digits), optionally followed by
# "-dirty".
function(loopnest_check_git_commit value)
  if(value STREQUAL "")
    return()
  endif()
  string(REGEX MATCH "^[0-9a-f]+" hex "${value}")
  string(LENGTH "${hex}" hex_length)
  if(NOT (value STREQUAL hex OR value STREQUAL "${hex}-dirty") OR hex_length LESS 7
     OR hex_length GREATER 40)
    message(FATAL_ERROR "loopnest: LOOPNEST_GIT_COMMIT = '${value}' is not a commit (7 to 40 "
                        "lowercase hex digits, optionally followed by -dirty)")
  endif()
endfunction()
