# Fails when a header of loopnest's core (include/loopnest/ outside tools/ and mpi/) includes a
# header of the tools' layer (include/loopnest/tools/) or of the distributed layer
# (include/loopnest/mpi/): the core must build without the tools' file I/O, command-line words
# and tolerances, and without MPI.
#   cmake -DINCLUDE_DIR=<include> -P core_includes.cmake
file(GLOB_RECURSE headers ${INCLUDE_DIR}/loopnest/*.hpp)
set(offenders "")
foreach(header IN LISTS headers)
  if(header MATCHES "/loopnest/(tools|mpi)/")
    continue()
  endif()
  file(STRINGS ${header} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]loopnest/(tools|mpi)/")
  if(includes)
    list(APPEND offenders "${header}: ${includes}")
  endif()
endforeach()
list(LENGTH headers count)
if(count EQUAL 0)
  message(FATAL_ERROR "no headers under ${INCLUDE_DIR}/loopnest")
endif()
if(offenders)
  string(REPLACE ";" "\n" offenders "${offenders}")
  message(FATAL_ERROR "core headers include the tools' or the distributed layer:\n${offenders}")
endif()
message(STATUS "${count} headers: the core includes nothing of loopnest/tools/ or loopnest/mpi/")
