# ctest driver for examples/coexistence (short version): an 8 x 8 x 24 sigma^3 LJ slab
# (384 atoms, r_c = 5) at T* = 0.8 on the CPU, 5000 steps of equilibration and 10
# blocks of 1000 steps, then analyse.py on its profile (and analyse.py --selftest, which
# recovers a known critical point from synthetic profiles and must flag a shifted one).
# Fails on a LAMMPS error; analyse.py failing or its self test failing; rho_l <= 0.6
# (LJ liquid at T* = 0.8 is about 0.79); rho_v >= 0.05 (vapour about 0.006); a profile
# that is not symmetric about the slab centre (fewer than 80 % of the +z/-z slab pairs
# equal within 3 standard errors); the mean temperature off the Berendsen target by
# more than 3 %.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()

run_lmp(in.coexistence log.coexistence -var T 0.8 -var Lx 8 -var Ly 8 -var Lz 24
        -var nbins 48 -var equil 5000 -var steps 10000 -var block 1000)
string(REGEX MATCH "RESULT T 0.8 natoms ([0-9]+) last block: rho_l ([^ ]+) rho_v ([^ ]+) <T> ([^ \n]+)"
       m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.coexistence: no RESULT line")
endif()
require_range("in.coexistence: atoms of the 8 x 8 x 24 slab at rho* = 0.7" ${CMAKE_MATCH_1} 384 384)
require_range("in.coexistence: <T> of the last block" ${CMAKE_MATCH_4} 0.776 0.824)

if(NOT PYTHON)
  message("example coexistence: no python3, analyse.py not run")
  return()
endif()
execute_process(COMMAND ${PYTHON} analyse.py --selftest WORKING_DIRECTORY ${WORK_DIR}
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0 OR NOT o MATCHES "SELFTEST PASSED")
  message(FATAL_ERROR "analyse.py --selftest failed (exit ${rc})")
endif()
execute_process(COMMAND ${PYTHON} analyse.py WORKING_DIRECTORY ${WORK_DIR}
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "analyse.py failed (exit ${rc})")
endif()
string(REGEX MATCH "RESULT T 0.8 nblocks ([0-9]+) rho_l ([^ ]+) err_l ([^ ]+) rho_v ([^ ]+) err_v ([^ ]+) z0 ([^ ]+) d ([^ ]+) sym_within3se ([0-9]+) sym_pairs ([0-9]+)"
       m "${o}")
if(NOT m)
  message(FATAL_ERROR "analyse.py: no RESULT line for T 0.8")
endif()
require_range("analyse.py: blocks" ${CMAKE_MATCH_1} 10 10)
require_range("analyse.py: rho_l at T* = 0.8" ${CMAKE_MATCH_2} 0.6 1.0)
require_range("analyse.py: rho_v at T* = 0.8" ${CMAKE_MATCH_4} 0.0 0.05)
math(EXPR need "(${CMAKE_MATCH_9} * 8 + 9) / 10")
require_range("analyse.py: +z/-z slab pairs equal within 3 se (of ${CMAKE_MATCH_9})"
              ${CMAKE_MATCH_8} ${need} ${CMAKE_MATCH_9})
foreach(f coexistence.dat profile_mean.T0.8.dat)
  if(NOT EXISTS ${WORK_DIR}/${f})
    message(FATAL_ERROR "analyse.py wrote no ${f}")
  endif()
endforeach()
message("example coexistence on ${NP} rank(s): rho_l ${CMAKE_MATCH_2} +- ${CMAKE_MATCH_3}, rho_v ${CMAKE_MATCH_4} +- ${CMAKE_MATCH_5}, symmetric pairs ${CMAKE_MATCH_8}/${CMAKE_MATCH_9}")

# plot_coexistence.py: three temperatures of a made-up analyse.py output (not this run's),
# the run's own profile; two points per temperature plus its diameter, and the profile
# drawn; a missing file and a one-temperature analysis refused with a message
file(WRITE ${WORK_DIR}/plot_in.txt
  "RESULT T 0.70 nblocks 10 rho_l 0.835 err_l 0.001 rho_v 0.002 err_v 0.0001 z0 7\n"
  "RESULT T 0.90 nblocks 10 rho_l 0.743 err_l 0.001 rho_v 0.016 err_v 0.0002 z0 7\n"
  "RESULT T 1.10 nblocks 10 rho_l 0.625 err_l 0.002 rho_v 0.062 err_v 0.001 z0 7\n"
  "  T_c* = 1.27 +- 0.01 (A = 1.0, chi2/dof 1), rho_c* = 0.31 +- 0.01 (B = -0.19, chi2/dof 1)\n"
  "RESULT critical Tc 1.27 err 0.01 rhoc 0.31 err 0.01\n")
execute_process(COMMAND ${PYTHON} plot_coexistence.py plot_in.txt plot.svg --profiles .
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plot_coexistence.py failed (exit ${rc}): ${o}${e}")
endif()
file(READ ${WORK_DIR}/plot.svg svg)
string(REGEX MATCHALL "<circle cx=\"[0-9.]+\" cy=\"[0-9.]+\" r=\"3.5\"" points "${svg}")
list(LENGTH points npoints)
# 3 temperatures x (liquid, vapour) + 6 legend marks
require_range("plot_coexistence.py: density points" ${npoints} 12 12)
string(REGEX MATCHALL "<polyline" lines "${svg}")
list(LENGTH lines nlines)
# two fitted branches, the diameter, one profile
require_range("plot_coexistence.py: curves" ${nlines} 4 4)
execute_process(COMMAND ${PYTHON} plot_coexistence.py missing.txt x.svg
  WORKING_DIRECTORY ${WORK_DIR} ERROR_VARIABLE e RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT e MATCHES "cannot read missing.txt")
  message(FATAL_ERROR "plot_coexistence.py accepted a missing file: ${e}")
endif()
file(WRITE ${WORK_DIR}/plot_one.txt "RESULT T 0.70 nblocks 10 rho_l 0.835 err_l 0.001 rho_v 0.002 err_v 0.0001\n")
execute_process(COMMAND ${PYTHON} plot_coexistence.py plot_one.txt x.svg
  WORKING_DIRECTORY ${WORK_DIR} ERROR_VARIABLE e RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT e MATCHES "fewer than two")
  message(FATAL_ERROR "plot_coexistence.py accepted one temperature: ${e}")
endif()
