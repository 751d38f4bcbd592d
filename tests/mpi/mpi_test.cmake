# How loopnest's tests run a program under MPI's launcher (MPIEXEC_EXECUTABLE from FindMPI):
# more ranks than cores allowed (Open MPI's --oversubscribe), as root where CI runs (Open MPI's
# two variables), with a timeout so that a deadlock fails, and without LeakSanitizer's leak check
# (AddressSanitizer's other checks and UndefinedBehaviorSanitizer stay on). Open MPI 4.1 keeps
# allocations until exit in components it loads and unloads itself (mca_*.so, PMIx's plugins);
# once they are unloaded LeakSanitizer cannot name their module, so no suppression file can select
# them: with suppressions for libmpi, libopen-pal, libopen-rte and libpmix, and every component
# kept loaded until exit, 10 bytes to 1.2 KB in 2 to 15 allocations of unnamed modules remained
# per rank.

# Whether the launcher is Open MPI's, which refuses more ranks than cores without --oversubscribe
# (and other launchers do not know the flag).
if(NOT DEFINED LOOPNEST_MPIEXEC_IS_OPEN_MPI)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE version ERROR_QUIET)
  if(version MATCHES "Open MPI|OpenRTE")
    set(LOOPNEST_MPIEXEC_IS_OPEN_MPI ON CACHE INTERNAL "")
  else()
    set(LOOPNEST_MPIEXEC_IS_OPEN_MPI OFF CACHE INTERNAL "")
  endif()
endif()

# loopnest_mpi_launcher(VAR RANKS): VAR = the launcher and its flags for RANKS ranks.
function(loopnest_mpi_launcher var ranks)
  set(launcher ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks})
  if(LOOPNEST_MPIEXEC_IS_OPEN_MPI)
    list(APPEND launcher --oversubscribe)
  endif()
  set(${var} ${launcher} ${MPIEXEC_PREFLAGS} PARENT_SCOPE)
endfunction()

# loopnest_mpi_test_properties(NAME...): the environment and timeout of tests that run mpirun,
# and the cores they take when ctest runs tests side by side (-j): two, so that ranks sharing
# cores with another test cannot push a test past its timeout.
function(loopnest_mpi_test_properties)
  set_tests_properties(${ARGN} PROPERTIES
    TIMEOUT 120
    PROCESSORS 2
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;ASAN_OPTIONS=detect_leaks=0")
endfunction()

# loopnest_add_mpi_test(NAME RANKS COMMAND...): the ctest test NAME runs COMMAND with RANKS ranks
# (and takes RANKS cores under ctest -j).
function(loopnest_add_mpi_test name ranks)
  loopnest_mpi_launcher(launcher ${ranks})
  add_test(NAME ${name} COMMAND ${launcher} ${ARGN} ${MPIEXEC_POSTFLAGS})
  loopnest_mpi_test_properties(${name})
  set_tests_properties(${name} PROPERTIES PROCESSORS ${ranks})
endfunction()
