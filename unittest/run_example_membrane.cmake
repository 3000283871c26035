# ctest driver for examples/membrane (short version): make_bilayer.py writes a 32-lipid
# DMPC bilayer (ELBA beads, 4 x 4 per leaflet) with 30 SSD/E waters per lipid; in.membrane
# minimises it, relaxes it in NVT at 1, 2 and 5 fs (200 steps each), equilibrates it in
# semi-isotropic NPT (1000 steps) and runs 1000 steps of NPT production, dumping every
# 100 steps; analyse.py reads the dump (and draws it, --svg). Physical checks (none from our own output):
#  * no lost atoms (thermo_modify lost error) and all 1376 atoms at the end;
#  * the bilayer stays a bilayer: no phosphate changes leaflet, every phosphate stays more
#    than 8 A from the midplane (they start at 26.2 A; DMPC's P-P distance is ~35-38 A,
#    so ~18 A each side), and on average fewer than 1 water per frame is inside the
#    hydrophobic core (|z| < 10 A of the midplane);
#  * P-P thickness 25 .. 50 A and area per lipid 45 .. 80 A^2 (loose: a fluid DMPC
#    bilayer has 36 A and 60.6 A^2; a collapsed or dissolved one leaves these ranges);
#  * the temperature of translation + rotation within 10 % of 303 K at the end;
#  * bulk water density 0.9 .. 1.1 g/cm^3 far from the bilayer.
# Inputs: LMP (launcher), PYTHON, EXAMPLE_DIR, WORK_DIR, NP/MPIEXEC (ranks).
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()
if(NOT PYTHON)
  message(FATAL_ERROR "example membrane needs python3 (make_bilayer.py)")
endif()
execute_process(COMMAND ${PYTHON} make_bilayer.py -n 4 -o data.small WORKING_DIRECTORY ${WORK_DIR}
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0 OR NOT o MATCHES "32 lipids, 960 waters, 1376 atoms")
  message(FATAL_ERROR "make_bilayer.py -n 4 failed or wrote another system (exit ${rc})")
endif()

run_lmp(in.membrane log.membrane -var data data.small -var nrelax 200 -var nnpt 1000
        -var nprod 1000 -var ndump 100 -var nthermo 100)
string(REGEX MATCH "RESULT natoms ([0-9]+) nlip ([0-9]+) lx [^ ]+ ly [^ ]+ lz [^ ]+ area_per_lipid [^ ]+ T ([^ ]+) "
       m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.membrane: no RESULT line")
endif()
require_range("in.membrane: atoms at the end" ${CMAKE_MATCH_1} 1376 1376)
require_range("in.membrane: lipids" ${CMAKE_MATCH_2} 32 32)
require_range("in.membrane: temperature at the end (K)" ${CMAKE_MATCH_3} 272.7 333.3)

execute_process(COMMAND ${PYTHON} analyse.py membrane.dump --blocks 5 --svg membrane.svg
  WORKING_DIRECTORY ${WORK_DIR}
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "analyse.py failed (exit ${rc})")
endif()
string(REGEX MATCH "RESULT frames ([0-9]+) nlip 32 apl ([^ ]+) err [^ ]+ dpp ([^ ]+) err [^ ]+ core_water ([^ ]+) rho_bulk ([^ ]+) flips ([0-9]+) min_abs_zP ([^ ]+) leaflets_intact (yes|no)"
       m "${o}")
if(NOT m)
  message(FATAL_ERROR "analyse.py: no RESULT line")
endif()
set(summary "${o}")
require_range("analyse.py: frames used" ${CMAKE_MATCH_1} 10 11)
require_range("analyse.py: area per lipid (A^2)" ${CMAKE_MATCH_2} 45 80)
require_range("analyse.py: P-P thickness (A)" ${CMAKE_MATCH_3} 25 50)
require_range("analyse.py: waters in the core per frame" ${CMAKE_MATCH_4} 0 1)
require_range("analyse.py: bulk water density (g/cm^3)" ${CMAKE_MATCH_5} 0.9 1.1)
require_range("analyse.py: phosphates that changed leaflet" ${CMAKE_MATCH_6} 0 0)
require_range("analyse.py: smallest |z - midplane| of a phosphate (A)" ${CMAKE_MATCH_7} 8 100)

# --svg: one circle per atom of the side view (the picture's own checks:
# example:membrane_analyse)
file(STRINGS ${WORK_DIR}/membrane.svg circles REGEX "<circle ")
list(LENGTH circles ncircles)
require_range("analyse.py --svg: circles in membrane.svg" ${ncircles} 1376 1376)

# analyse.py must refuse a missing or too short dump with a message
execute_process(COMMAND ${PYTHON} analyse.py no_such.dump WORKING_DIRECTORY ${WORK_DIR}
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT e MATCHES "no dump file")
  message(FATAL_ERROR "analyse.py accepted a missing dump: ${o}${e}")
endif()
execute_process(COMMAND ${PYTHON} analyse.py membrane.dump --blocks 50 WORKING_DIRECTORY ${WORK_DIR}
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT e MATCHES "at least 100 needed")
  message(FATAL_ERROR "analyse.py accepted too few frames: ${o}${e}")
endif()
message("example membrane on ${NP} rank(s): ${summary}")
