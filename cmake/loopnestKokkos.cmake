# Kokkos handling shared by loopnest's own build and by its installed package.

# Debian's Kokkos 3.4 package exports Kokkos::kokkos with an include directory that does not
# exist (/usr/lib/include) while the headers live in Kokkos_INCLUDE_DIRS. When no include
# directory of the target holds Kokkos_Core.hpp, replace them with Kokkos_INCLUDE_DIRS.
function(loopnest_repair_kokkos_target)
  if(NOT TARGET Kokkos::kokkos)
    message(FATAL_ERROR "loopnest: find_package(Kokkos) did not define the target Kokkos::kokkos")
  endif()
  get_target_property(_dirs Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _dirs)
    set(_dirs "")
  endif()
  foreach(_dir IN LISTS _dirs)
    if(EXISTS "${_dir}/Kokkos_Core.hpp")
      return()
    endif()
  endforeach()
  set(_repaired "")
  foreach(_dir IN LISTS Kokkos_INCLUDE_DIRS)
    get_filename_component(_dir "${_dir}" ABSOLUTE)
    if(EXISTS "${_dir}/Kokkos_Core.hpp")
      list(APPEND _repaired "${_dir}")
    endif()
  endforeach()
  if(NOT _repaired)
    message(FATAL_ERROR "loopnest: Kokkos::kokkos has include directories '${_dirs}' and "
                        "Kokkos_INCLUDE_DIRS is '${Kokkos_INCLUDE_DIRS}'; none holds Kokkos_Core.hpp")
  endif()
  set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_repaired}")
  message(STATUS "loopnest: repaired Kokkos::kokkos include directories: ${_repaired}")
endfunction()

# A Kokkos built as a CMake CUDA-language project (Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE)
# needs its consumers to compile every source that includes Kokkos as CUDA, for the
# architectures Kokkos was built for. Call this before adding such targets.
macro(loopnest_enable_kokkos_language)
  if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND DEFINED Kokkos_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "${Kokkos_CUDA_ARCHITECTURES}")
    endif()
    enable_language(CUDA)
  endif()
endmacro()

# Compiles the given sources the way the Kokkos install requires. Only a CUDA-language Kokkos
# needs anything here: one built with nvcc_wrapper redirects C++ compiles itself
# (kokkos_compilation(GLOBAL) in its config), and host backends use the C++ compiler.
function(loopnest_kokkos_sources)
  if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()
