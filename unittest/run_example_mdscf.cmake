# ctest driver for examples/mdscf/blend (short version): the A/B homopolymer blend below
# (chi N = 1) and far above (chi N = 20) the mean-field critical point chi N = 2, 6000
# steps each. Fails on a LAMMPS error, a temperature away from the thermostat's 1.0, a
# contact ratio R = n_AB/(n_AA + n_AB) below the mixed blend's ~0.40 for chi N = 1, or one
# not clearly lower (demixing) for chi N = 20.
# Inputs: LMP (launcher), EXAMPLE_DIR, WORK_DIR, NP/MPIEXEC (ranks).
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()

foreach(chi 0.05 1.0)
  run_lmp(in.blend log.chi${chi} -var chi ${chi} -var nsteps 6000 -var every 2000)
  string(REGEX MATCH "RESULT chi [^ ]+ contact_ratio ([^ ]+) W" m "${lmp_output}")
  if(NOT m)
    message(FATAL_ERROR "in.blend with chi ${chi}: no RESULT line")
  endif()
  set(R_${chi} ${CMAKE_MATCH_1})
  # last thermo line: step temp pe ebond W W_chi W_kappa R
  thermo_cols(log.chi${chi} 6000 cols)
  list(GET cols 1 temp)
  execute_process(COMMAND awk "BEGIN{exit !(${temp} > 0.9 && ${temp} < 1.2)}" RESULT_VARIABLE bad)
  if(bad)
    message(FATAL_ERROR "in.blend with chi ${chi}: temperature ${temp} after 6000 steps, target 1.0")
  endif()
endforeach()

execute_process(COMMAND awk "BEGIN{exit !(${R_0.05} > 0.37)}" RESULT_VARIABLE bad)
if(bad)
  message(FATAL_ERROR "chi N = 1 should stay mixed: contact ratio ${R_0.05}, expected > 0.37")
endif()
execute_process(COMMAND awk "BEGIN{exit !(${R_1.0} < 0.8 * ${R_0.05})}" RESULT_VARIABLE bad)
if(bad)
  message(FATAL_ERROR "chi N = 20 should demix: contact ratio ${R_1.0} vs ${R_0.05} mixed")
endif()
message("example mdscf/blend on ${NP} rank(s): contact ratio ${R_0.05} at chi N = 1 (mixed), ${R_1.0} at chi N = 20 (demixing)")
