# Installs loopnest from BUILD_DIR into a fresh prefix, then configures, builds and runs the
# downstream project against it with nothing but find_package(loopnest). With MPI_LAUNCHER (the
# launcher and its flags, a list) the project must have built its loopnest::mpi program, which
# runs under it.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/downstream -B ${WORK_DIR}/build
                        -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} -DKokkos_DIR=${Kokkos_DIR}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the downstream project failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the downstream project failed: ${rc}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/downstream RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the downstream program failed: ${rc}")
endif()
if(MPI_LAUNCHER)
  if(NOT EXISTS ${WORK_DIR}/build/downstream_halo)
    message(FATAL_ERROR "loopnest was built with MPI but the downstream project found no loopnest::mpi")
  endif()
  execute_process(COMMAND ${MPI_LAUNCHER} ${WORK_DIR}/build/downstream_halo RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "the downstream halo exchange failed under ${MPI_LAUNCHER}: ${rc}")
  endif()
endif()
message(STATUS "downstream project built and ran against ${prefix}")
