# loopnest_tool_test(NAME COMMAND program [arg...] [EXPECT_EXIT status] [STDOUT_REGEX regex]
#                    [STDERR_REGEX regex] [MUST_NOT_EXIST path] [UNCHANGED path]
#                    [STDOUT_FILE path])
# adds the ctest test NAME that runs the command through run_tool.cmake (next to this file),
# which documents the checks. Semicolons in any argument survive the trip to the script.
function(loopnest_tool_test name)
  set(one_value EXPECT_EXIT STDOUT_REGEX STDERR_REGEX MUST_NOT_EXIST UNCHANGED STDOUT_FILE)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "${one_value}" "COMMAND")
  if(NOT arg_COMMAND OR arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "loopnest_tool_test(${name}): needs COMMAND; unknown arguments: "
                        "'${arg_UNPARSED_ARGUMENTS}'")
  endif()
  # add_test splits its arguments at semicolons before it expands generator expressions.
  string(REPLACE ";" "$<SEMICOLON>" command "${arg_COMMAND}")
  set(defines "-DCOMMAND=${command}")
  foreach(key IN LISTS one_value)
    if(DEFINED arg_${key})
      string(REPLACE ";" "$<SEMICOLON>" value "${arg_${key}}")
      list(APPEND defines "-D${key}=${value}")
    endif()
  endforeach()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} ${defines} -P ${PROJECT_SOURCE_DIR}/tests/tools/run_tool.cmake)
endfunction()
