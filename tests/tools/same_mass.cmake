# Runs loopnest-diffusion twice, on one rank (ONE) and under mpirun (MANY), and fails unless both
# pass their check and print the same MASS line, every digit of it:
#   cmake -DONE=<program;arg;...> -DMANY=<launcher;program;arg;...> -P same_mass.cmake
cmake_minimum_required(VERSION 3.16)

foreach(run IN ITEMS ONE MANY)
  if("${${run}}" STREQUAL "")
    message(FATAL_ERROR "same_mass.cmake: ${run} is empty; pass -D${run}=<program;arg;...>")
  endif()
  execute_process(COMMAND ${${run}} RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(REGEX MATCH "\nMASS=[^\n]*" mass "${out}")
  if(NOT status EQUAL 0 OR mass STREQUAL "")
    message(FATAL_ERROR "${run} run did not pass (exit ${status}) or printed no MASS\n"
                        "command: ${${run}}\n--- stdout ---\n${out}--- stderr ---\n${err}")
  endif()
  set(mass_${run} "${mass}")
  set(out_${run} "${out}")
endforeach()
if(NOT mass_ONE STREQUAL mass_MANY)
  message(FATAL_ERROR "the distributed run's mass differs from the one-rank run's:\n"
                      "one rank:${mass_ONE}\nranks:${mass_MANY}\n--- one rank ---\n${out_ONE}"
                      "--- ranks ---\n${out_MANY}")
endif()
