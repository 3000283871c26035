# ctest driver for examples/ssd_water/in.liquid + analyze_liquid.py (smoke version):
# 256 molecules of SSD/RF (switched reaction field) and SSD/E (switched truncation), each
# 1 ps of melting from the lattice, 2 ps of NPT equilibration and 4 ps of NPT production
# at 298 K and 1 atm (fix npt/rigid/single), 1 ps NVT and 2 NVE blocks of 2 ps; then the
# analysis script in its --short mode (and, without it, its refusal of so short a run).
# Loose physical checks (none from our own output):
#  * density of liquid water at 298 K and 1 atm, 0.997 g/cm^3: within 10 %;
#  * potential energy per molecule: water's configurational energy is about
#    -9.9 kcal/mol (-41.5 kJ/mol), which the SSD models were fitted near: -11.5 .. -8.5;
#  * NVE temperature after the NVT step at 298 K: 298 +- 30 K;
#  * energy conservation in NVE at 2 fs: both electrostatics here are smooth (the
#    switched forms of doc/pair_ssd.md), |drift| < 2 kcal/mol/ns per molecule (a plain
#    cutoff drifts by > 100 in this liquid: README.md of the example);
#  * D from 2-ps blocks (cage regime, so only its order of magnitude): 0.3 .. 10 x
#    1e-5 cm^2/s (experiment 2.3).
# Inputs: LMP (launcher), EXAMPLE_DIR, WORK_DIR, NP/MPIEXEC (ranks), PYTHON.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()
if(NOT PYTHON)
  set(PYTHON python3)
endif()

foreach(model rf e)
  run_lmp(in.liquid log.liquid_${model} -var model ${model} -var cells 4 -var tmelt 1000
          -var teq 2000 -var tnpt 4000 -var tnvt 1000 -var tblock 2000 -var nblocks 2
          -var sample 20)
  # the full analysis must refuse a 4-ps run with a message
  execute_process(COMMAND ${PYTHON} analyze_liquid.py liquid_${model}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(rc EQUAL 0 OR NOT e MATCHES "too short for block averages")
    message(FATAL_ERROR "analyze_liquid.py accepted a 4-ps run or gave no reason: ${o}${e}")
  endif()
  execute_process(COMMAND ${PYTHON} analyze_liquid.py liquid_${model} --short --npt-blocks 5
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("${o}${e}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "analyze_liquid.py liquid_${model} --short failed (exit ${rc})")
  endif()
  string(REGEX MATCH "RESULT model ${model} rho ([^ ]+) [^ ]+ pe_npt ([^ ]+) [^ ]+ pe_nve ([^ ]+) [^ ]+ D ([^ ]+) [^ ]+ D_corr [^ ]+ T_nve ([^ ]+) drift ([^ ]+) " m "${o}")
  if(NOT m)
    message(FATAL_ERROR "analyze_liquid.py liquid_${model}: no RESULT line")
  endif()
  set(rho ${CMAKE_MATCH_1})
  set(pe_npt ${CMAKE_MATCH_2})
  set(pe_nve ${CMAKE_MATCH_3})
  set(D ${CMAKE_MATCH_4})
  set(T ${CMAKE_MATCH_5})
  set(drift ${CMAKE_MATCH_6})
  message("example ssd_liquid ${model} on ${NP} rank(s): density ${rho}, pe ${pe_npt} (NPT) "
          "${pe_nve} (NVE), D ${D}, T ${T}, drift ${drift}")
  require_range("ssd_liquid ${model}: density (g/cm^3)" ${rho} 0.897 1.097)
  require_range("ssd_liquid ${model}: pe per molecule, NPT (kcal/mol)" ${pe_npt} -11.5 -8.5)
  require_range("ssd_liquid ${model}: pe per molecule, NVE (kcal/mol)" ${pe_nve} -11.5 -8.5)
  require_range("ssd_liquid ${model}: NVE temperature (K)" ${T} 268 328)
  require_range("ssd_liquid ${model}: NVE drift (kcal/mol/ns per molecule)" ${drift} -2 2)
  require_range("ssd_liquid ${model}: D (1e-5 cm^2/s)" ${D} 0.3 10)
endforeach()
