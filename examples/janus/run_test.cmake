# ctest driver for examples/janus (test example:janus): short versions of in.micelles
# (8^3 box, 1,536 particles, 77 Janus, 3000 steps) and in.triblock (6^3 box, 648
# particles, 1000 steps), then analyze.py on their dumps.
# Inputs: LMP (launcher), EXAMPLE_DIR, WORK_DIR, NP/MPIEXEC (ranks), PYTHON (python3; empty: analysis
# skipped, said so in the output), EXTRA (optional extra LAMMPS arguments for the micelle
# run, e.g. "-var alphaA 0" to see the aggregation check fail).
# Fails on: a LAMMPS error; a missing or non-finite thermo line; a translational or
# rotational temperature far from the Berendsen target 1; |mu| != 1; no aggregation of
# the Janus particles (fewer clusters at the end than at the start, and the 'bond'
# clusters of analyze.py grown at least 1.8-fold in weight-average size, with patches
# pointing inwards); analyze.py reporting bad orientations or coordinates.
include(${CMAKE_CURRENT_LIST_DIR}/../../unittest/example_checks.cmake)
copy_example()

# --- micelles -----------------------------------------------------------------------
separate_arguments(extra UNIX_COMMAND "${EXTRA}")
run_lmp(in.micelles log.micelles -var L 8 -var nsteps 3000 -var dumpevery 1500 -var thermoevery 500 ${extra})
# columns: step temp T_tr T_rot pe press nclusters largest mu2_min mu2_max
thermo_cols(log.micelles 0 first)
thermo_cols(log.micelles 3000 last)
list(GET last 2 ttr)
list(GET last 3 trot)
list(GET last 4 pe)
list(GET last 8 mumin)
list(GET last 9 mumax)
list(GET first 6 ncl0)
list(GET last 6 ncl)
require_range("micelles: T_tr at step 3000" ${ttr} 0.85 1.15)
require_range("micelles: T_rot at step 3000 (77 rotors)" ${trot} 0.6 1.4)
require_range("micelles: pe per particle at step 3000" ${pe} 50 65)
require_range("micelles: min |mu|^2 of the Janus particles" ${mumin} 0.999999 1.000001)
require_range("micelles: max |mu|^2 of the Janus particles" ${mumax} 0.999999 1.000001)
if(NOT ncl LESS ncl0)
  message(FATAL_ERROR "micelles: ${ncl} Janus clusters at step 3000, ${ncl0} at step 0: no aggregation")
endif()

# --- triblock -----------------------------------------------------------------------
run_lmp(in.triblock log.triblock -var L 6 -var nsteps 1000 -var dumpevery 500 -var thermoevery 500)
# columns: step temp T_tr T_rot pe press Sxx Syy Szz mu2_min mu2_max
thermo_cols(log.triblock 1000 tlast)
list(GET tlast 2 tb_ttr)
list(GET tlast 3 tb_trot)
list(GET tlast 9 tb_mumin)
list(GET tlast 10 tb_mumax)
require_range("triblock: T_tr at step 1000" ${tb_ttr} 0.8 1.4)
require_range("triblock: T_rot at step 1000" ${tb_trot} 0.8 1.4)
require_range("triblock: min |mu|^2" ${tb_mumin} 0.999999 1.000001)
require_range("triblock: max |mu|^2" ${tb_mumax} 0.999999 1.000001)
if(NOT EXISTS ${WORK_DIR}/triblock_b45.data)
  message(FATAL_ERROR "triblock: write_data wrote no triblock_b45.data")
endif()

# --- analysis -----------------------------------------------------------------------
if(NOT PYTHON)
  message("example janus: analysis skipped (no python3 found at configure time)")
  return()
endif()
function(run_py out)
  execute_process(COMMAND ${PYTHON} analyze.py ${ARGN}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("${o}${e}")
  if(NOT rc EQUAL 0 OR NOT o MATCHES "checks passed")
    message(FATAL_ERROR "analyze.py ${ARGN} failed (exit ${rc})")
  endif()
  set(${out} "${o}" PARENT_SCOPE)
endfunction()
run_py(out clusters micelles.dump --check)
string(REGEX MATCH "FRAME 0 bond clusters [0-9]+ aggregates[^ ]* [0-9]+ in_aggregates [^ ]+ weight_avg ([^ ]+)" m "${out}")
set(w0 ${CMAKE_MATCH_1})
string(REGEX MATCH "FRAME 3000 bond clusters [0-9]+ aggregates[^ ]* [0-9]+ in_aggregates [^ ]+ weight_avg ([^ ]+)" m "${out}")
set(w1 ${CMAKE_MATCH_1})
string(REGEX MATCH "FRAME 3000 bond_aggregates [0-9]+ mean_size [^ ]+ Rg [^ ]+ kappa2 [^ ]+ polarity ([^ ]+)" m "${out}")
set(pol ${CMAKE_MATCH_1})
if(NOT w0 OR NOT w1 OR NOT pol)
  message(FATAL_ERROR "analyze.py clusters: missing FRAME lines (w0 '${w0}' w1 '${w1}' polarity '${pol}')")
endif()
execute_process(COMMAND awk "BEGIN{exit !(${w1} >= 1.8 * ${w0})}" RESULT_VARIABLE bad)
if(bad)
  message(FATAL_ERROR "micelles: weight-average bond-cluster size ${w0} -> ${w1}: no aggregation (need 1.8-fold)")
endif()
require_range("micelles: polarity of the aggregates (patches inwards)" ${pol} 0.5 1.0)
run_py(out order triblock_b45.dump --beta 45 --check)
string(REGEX MATCH "SUMMARY frames 3 last_step 1000 S ([^ ]+)" m "${out}")
if(NOT m)
  message(FATAL_ERROR "analyze.py order: no SUMMARY for 3 frames ending at step 1000")
endif()
set(S ${CMAKE_MATCH_1})
require_range("triblock: nematic order S" ${S} 0 1)
message("example janus: micelles T_tr ${ttr}, T_rot ${trot}, clusters ${ncl0} -> ${ncl}, bond-cluster size ${w0} -> ${w1}, polarity ${pol}; triblock T_tr ${tb_ttr}, S ${S}")
