# Checks loopnest-mfc's serial binary output (--output-format binary, fp32) of the 50-cell shock
# tube in DIR: at steps 0 and 2, p_all/p0/<step>/x_cb.dat is one Fortran record of the 51 cell
# boundaries (4-byte markers 204 = 0xcc around 204 bytes, the first boundary 0) and
# q_cons_vf1..4.dat one record of the 50 cells (200 = 0xc8 bytes).
foreach(step 0 2)
  set(dir ${DIR}/p_all/p0/${step})
  foreach(check "x_cb|cc000000|212" "q_cons_vf1|c8000000|208" "q_cons_vf2|c8000000|208"
                "q_cons_vf3|c8000000|208" "q_cons_vf4|c8000000|208")
    string(REPLACE "|" ";" parts "${check}")
    list(GET parts 0 name)
    list(GET parts 1 marker)
    list(GET parts 2 size)
    set(path ${dir}/${name}.dat)
    if(NOT EXISTS ${path})
      message(FATAL_ERROR "missing ${path}")
    endif()
    file(SIZE ${path} bytes)
    math(EXPR tail "${size} - 4")
    file(READ ${path} head LIMIT 4 HEX)
    file(READ ${path} end OFFSET ${tail} HEX)
    if(NOT bytes EQUAL size OR NOT head STREQUAL marker OR NOT end STREQUAL marker)
      message(FATAL_ERROR "${path}: ${bytes} bytes, markers ${head} and ${end}; expected "
                          "${size} bytes between markers ${marker}")
    endif()
  endforeach()
  file(READ ${dir}/x_cb.dat first OFFSET 4 LIMIT 4 HEX)
  if(NOT first STREQUAL "00000000")
    message(FATAL_ERROR "${dir}/x_cb.dat: the first boundary is ${first} (hex), not 0")
  endif()
endforeach()
