# loopnest_add_mpi_test(NAME RANKS COMMAND...): the ctest test NAME runs COMMAND under MPI's
# launcher (MPIEXEC_EXECUTABLE from FindMPI) with RANKS ranks, more ranks than cores allowed
# (Open MPI's --oversubscribe), as root where CI runs (Open MPI's two variables), with a timeout
# so that a deadlock fails, and LeakSanitizer told to skip Open MPI's own allocations
# (tests/mpi/lsan.supp).
function(loopnest_add_mpi_test name ranks)
  set(flags ${MPIEXEC_NUMPROC_FLAG} ${ranks})
  if(MPI_CXX_LIBRARY_VERSION_STRING MATCHES "Open MPI")
    list(APPEND flags --oversubscribe)
  endif()
  add_test(NAME ${name}
           COMMAND ${MPIEXEC_EXECUTABLE} ${flags} ${MPIEXEC_PREFLAGS} ${ARGN} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${name} PROPERTIES
    TIMEOUT 120
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/mpi/lsan.supp")
endfunction()
