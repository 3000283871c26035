# ctest driver for examples/mdscf/diblock (short version): the symmetric A10-B10 melt at
# chi N = 30 in a 12^3 box (5,180 beads), 6,000 steps, then period.py on the field's grid
# dump. Fails on: a LAMMPS or python error; a missing or non-finite thermo line; a
# temperature away from the Langevin target 1; no segregation (W_chi, the chi part of the
# field energy, must fall below 70 % of its random-start value); no microphase: the
# S-weighted period at step 6000 must be a finite multiple of R_g (mean-field lamellae of
# A10-B10: about 4-5 R_g = 7-9), not the box (macrophase) and not below 4 grid spacings.
# Inputs: LMP (launcher), PYTHON (python3), EXAMPLE_DIR, WORK_DIR, NP/MPIEXEC (ranks),
# EXTRA (extra LAMMPS arguments, e.g. "-var chi 0.2" (chi N = 4, disordered) to see
# the checks fail).
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()

separate_arguments(extra UNIX_COMMAND "${EXTRA}")
run_lmp(in.diblock log.diblock -var L 12 -var nsteps 6000 -var every 3000 ${extra})
# step temp pe ebond W W_chi W_kappa cpuremain
thermo_cols(log.diblock 0 first)
thermo_cols(log.diblock 6000 last)
list(GET last 1 temp)
list(GET first 5 wchi0)
list(GET last 5 wchi)
require_range("diblock: temperature after 6000 steps (Langevin target 1.0)" ${temp} 0.9 1.2)
execute_process(COMMAND awk "BEGIN{exit !(${wchi} < 0.7 * ${wchi0})}" RESULT_VARIABLE bad)
if(bad)
  message(FATAL_ERROR "diblock: W_chi ${wchi0} -> ${wchi}: A and B did not segregate (need < 70 %)")
endif()

execute_process(COMMAND ${PYTHON} period.py diblock.grid
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "period.py failed (exit ${rc})")
endif()
string(REGEX MATCH "RESULT step 6000 period ([^ ]+) peak_over_mean ([^ \n]+)" m "${o}")
if(NOT m)
  message(FATAL_ERROR "period.py: no RESULT line for step 6000")
endif()
set(period ${CMAKE_MATCH_1})
require_range("diblock: S-weighted lamellar period at step 6000" ${period} 5.0 10.5)
message("example mdscf/diblock on ${NP} rank(s): T ${temp}, W_chi ${wchi0} -> ${wchi}, period ${period}")
