# ctest driver for examples/mdscf/dppc (short version): a pre-assembled DPPC bilayer
# (208 DPPC + 1600 W, 8.16 x 8.16 x 6.26 nm, 325 K) run for 15,000 steps of 30 fs
# (0.45 ns, 50 field updates) with fix mdscf, then bilayer.py on the field's profile
# (blocks after step 6000).
# Fails on: a LAMMPS or python error; a missing or non-finite thermo line; a temperature
# away from the Langevin target 325 K; a structure that is not a bilayer: P-P distance
# outside 3.0-4.6 nm (measured 3.75), water at the mid-plane above 5 % of bulk
# (measured 0.002 %), P at the mid-plane above 20 % of its maximum (0.02 %), a water-free
# core (phi_W < 10 % of bulk) narrower than 1.5 nm (2.66).
# Inputs: LMP (launcher), PYTHON (python3), EXAMPLE_DIR, WORK_DIR, NP/MPIEXEC (ranks), EXTRA (optional extra
# LAMMPS arguments, e.g. "-var damp 1000" - weak friction, the field gets stale between
# updates and the bilayer dissolves - to see the checks fail).
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()
set(nsteps 15000)

execute_process(COMMAND ${PYTHON} make_dppc.py --lipids 208 --water 1600
    --box 81.6 81.6 62.6 -o dppc.data
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_dppc.py failed (exit ${rc})")
endif()

separate_arguments(extra UNIX_COMMAND "${EXTRA}")
run_lmp(in.dppc log.dppc -var nsteps ${nsteps} ${extra})

# last thermo line: step temp pe ebond eangle evdwl W W_chi W_kappa press
thermo_cols(log.dppc ${nsteps} cols)
list(GET cols 1 temp)
# 4096 beads: the instantaneous T fluctuates by sqrt(2/3N) = 1.3 %
require_range("temperature after ${nsteps} steps (Langevin target 325 K)" ${temp} 305 345)

execute_process(COMMAND ${PYTHON} bilayer.py profile.dat --skip 6000
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bilayer.py failed (exit ${rc})")
endif()
string(REGEX MATCH "RESULT blocks ([0-9]+) PP ([^ ]+) PPc ([^ ]+) core10 ([^ ]+) core50 ([^ ]+) water_mid ([^ ]+) P_mid ([^ ]+)"
  m "${o}")
if(NOT m)
  message(FATAL_ERROR "bilayer.py: no RESULT line")
endif()
set(blocks ${CMAKE_MATCH_1})
set(pp ${CMAKE_MATCH_2})
set(core10 ${CMAKE_MATCH_4})
set(wmid ${CMAKE_MATCH_6})
set(pmid ${CMAKE_MATCH_7})
require_range("profile blocks after step 6000" ${blocks} 3 100)
require_range("P-P distance (nm)" ${pp} 3.0 4.6)
require_range("water at the mid-plane / bulk water" ${wmid} 0 0.05)
require_range("P at the mid-plane / P maximum" ${pmid} 0 0.2)
require_range("water-free core width (nm)" ${core10} 1.5 5.0)
message("example mdscf/dppc: T = ${temp} K; P-P ${pp} nm, water-free core ${core10} nm, "
        "mid-plane water ${wmid} of bulk, P ${pmid} of its maximum")
