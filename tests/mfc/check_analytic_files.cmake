# Checks loopnest-mfc's step-0 output of tests/mfc/analytic_circle_2d.json in DIR: the density
# 1 + x*y of patch 1 at the first cell's centre (0.02, 0.02), and the pressure
# 1 + 0.1*exp(-((x - xc)**2 + (y - yc)**2)/r**2) of the circle at its centre, where the literal
# 0.1 is Fortran's single-precision 0.1 (1.100000001490116, not 1.1).
set(blank24 "                        ")
set(checks
    "prim.1|${blank24}0.04000000000000${blank24}0.04000000000000${blank24}1.00040000000000"
    "prim.4|${blank24}0.52000000000000${blank24}0.52000000000000${blank24}1.10000000149012")
foreach(check IN LISTS checks)
  string(REPLACE "|" ";" parts "${check}")
  list(GET parts 0 name)
  list(GET parts 1 line)
  set(path ${DIR}/${name}.00.000000.dat)
  if(NOT EXISTS ${path})
    message(FATAL_ERROR "missing ${path}")
  endif()
  file(READ ${path} content)
  string(FIND "${content}" "${line}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${path} has no line '${line}'")
  endif()
endforeach()
