# loopnest_mfc_solver: five_equation_solver's RK stage (stage.hpp) for every precision and
# schedule, each WENO and Riemann solver (direction.hpp) for every precision, schedule and axis,
# and their fused loopnest::sweep (direction_sweep.hpp) for every precision and axis, one
# generated translation unit each, so that they build in parallel and once for loopnest-mfc and
# its tests. Included by tests/ and examples/, whichever comes first.
if(TARGET loopnest_mfc_solver)
  return()
endif()
set(_loopnest_mfc_dir ${CMAKE_CURRENT_LIST_DIR})
set(_loopnest_mfc_sources "")
foreach(type double float)
  foreach(axis 0 1 2)
    set(source ${PROJECT_BINARY_DIR}/loopnest_mfc_solver/direction_sweep_${type}_${axis}.cpp)
    configure_file(${_loopnest_mfc_dir}/direction_sweep.cpp.in ${source} @ONLY)
    list(APPEND _loopnest_mfc_sources ${source})
  endforeach()
  foreach(schedule collapse3 collapse4 flat automatic)
    set(source ${PROJECT_BINARY_DIR}/loopnest_mfc_solver/stage_${type}_${schedule}.cpp)
    configure_file(${_loopnest_mfc_dir}/stage.cpp.in ${source} @ONLY)
    list(APPEND _loopnest_mfc_sources ${source})
    foreach(axis 0 1 2)
      set(source ${PROJECT_BINARY_DIR}/loopnest_mfc_solver/direction_${type}_${schedule}_${axis}.cpp)
      configure_file(${_loopnest_mfc_dir}/direction.cpp.in ${source} @ONLY)
      list(APPEND _loopnest_mfc_sources ${source})
    endforeach()
  endforeach()
endforeach()
add_library(loopnest_mfc_solver STATIC ${_loopnest_mfc_sources})
loopnest_kokkos_sources(${_loopnest_mfc_sources})
target_include_directories(loopnest_mfc_solver PUBLIC ${_loopnest_mfc_dir})
target_link_libraries(loopnest_mfc_solver PUBLIC loopnest::loopnest PRIVATE loopnest_warnings)
# The tests run thousands of steps through it: unoptimised (the sanitizer build is Debug) they
# took minutes; -O1 keeps every sanitizer check.
target_compile_options(loopnest_mfc_solver PRIVATE
                       $<$<AND:$<CONFIG:Debug>,$<COMPILE_LANGUAGE:CXX>>:-O1>)
