# loopnest_find_nccl(): finds NCCL's header and library (NCCL_ROOT, or the system paths) and makes
# the imported target NCCL::nccl; sets LOOPNEST_NCCL_FOUND. NCCL ships no CMake package of its
# own. Used by loopnest's build and by the installed package (loopnest::mpi links NCCL::nccl when
# loopnest was built with LOOPNEST_ENABLE_NCCL).
function(loopnest_find_nccl)
  find_path(LOOPNEST_NCCL_INCLUDE_DIR nccl.h HINTS ${NCCL_ROOT} ENV NCCL_ROOT
            PATH_SUFFIXES include)
  find_library(LOOPNEST_NCCL_LIBRARY nccl HINTS ${NCCL_ROOT} ENV NCCL_ROOT
               PATH_SUFFIXES lib lib64)
  if(LOOPNEST_NCCL_INCLUDE_DIR AND LOOPNEST_NCCL_LIBRARY)
    set(LOOPNEST_NCCL_FOUND TRUE PARENT_SCOPE)
    if(NOT TARGET NCCL::nccl)
      add_library(NCCL::nccl UNKNOWN IMPORTED)
      set_target_properties(NCCL::nccl PROPERTIES
        IMPORTED_LOCATION ${LOOPNEST_NCCL_LIBRARY}
        INTERFACE_INCLUDE_DIRECTORIES ${LOOPNEST_NCCL_INCLUDE_DIR})
    endif()
  else()
    set(LOOPNEST_NCCL_FOUND FALSE PARENT_SCOPE)
  endif()
endfunction()
