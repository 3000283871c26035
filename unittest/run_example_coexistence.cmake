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
