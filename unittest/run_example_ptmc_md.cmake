# ctest driver for examples/ptmc against MD (short version of the README's comparison):
# ptmc (in.ptmc, 30000 sweeps, 6000 of them equilibration) and plain-LAMMPS Langevin MD
# (in.md, 1.5 million steps) of the same 30-mer at T_4 = 0.503 and T_6 = 0.711 of the
# ladder; compare_md.py must find <E> and <Rg^2> of both within 4 combined block errors
# (loose: the short runs' errors are themselves uncertain by ~25 %; the README's long runs
# give the real check). MD is an independent sampler of the same model (LAMMPS's own styles)
# at the MC's temperature: a wrong Boltzmann factor or energy in ptmc shows as many error
# bars (dE/dT = C_V ~ 60-70 here: a temperature 10 % off moves E by ~4, ~6 short-run errors).
# Also: plot_ptmc.py writes its SVG from the same run, and both scripts stop with a
# message on a missing file.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
if(NOT PYTHON)
  message("no python3: example ptmc_md skipped")
  return()
endif()
copy_example()

run_lmp(in.ptmc log.ptmc -var nsweeps 30000 -var nequil 6000 -var ndump 20)
set(mdfiles)
foreach(kt 4:0.5032961851958475 6:0.7106000404519671)
  string(REPLACE ":" ";" kt ${kt})
  list(GET kt 0 k)
  list(GET kt 1 T)
  run_lmp(in.md log.md.${k} -var T ${T} -var out md.${k} -var equil 100000 -var steps 1500000)
  list(APPEND mdfiles md.${k}.samples)
endforeach()

execute_process(COMMAND ${PYTHON} compare_md.py ${mdfiles} --blocks 10 --max-z 4 --allow-unconverged
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compare_md.py: ptmc and MD differ by more than 4 error bars (exit ${rc})")
endif()
string(REGEX MATCHALL "\n(E|Rg\\^2) +[0-9.]+ +[0-9]+ +MC" rows "${o}")
list(LENGTH rows nrows)
require_range("compare_md.py: compared rows" ${nrows} 4 4)
string(REGEX MATCH "\nE +0\\.503[0-9]* +4 +MC (-?[0-9.]+)" m "${o}")
set(e4_single "${CMAKE_MATCH_1}")

# --runs: three folders holding copies of this one run must give its mean (spread 0), and
# fewer than three folders are refused
foreach(r r1 r2 r3)
  file(MAKE_DIRECTORY ${WORK_DIR}/${r})
  file(GLOB run_files ${WORK_DIR}/ptmc.stats ${WORK_DIR}/ptmc.energy ${WORK_DIR}/chain.*)
  file(COPY ${run_files} DESTINATION ${WORK_DIR}/${r})
endforeach()
execute_process(COMMAND ${PYTHON} compare_md.py md.4.samples --runs r1 r2 r3 --blocks 10
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
string(REGEX MATCH "\nE +0\\.503[0-9]* +4 +MC (-?[0-9.]+) \\+- ([0-9.]+) \\(3 runs" m "${o}")
if(NOT rc EQUAL 0 OR NOT m OR NOT "${CMAKE_MATCH_1}" STREQUAL "${e4_single}" OR NOT CMAKE_MATCH_2 EQUAL 0)
  message(FATAL_ERROR "compare_md.py --runs: three copies of one run must give its <E> at T_4 "
    "(${e4_single}) with spread 0, got '${m}' (exit ${rc})")
endif()
execute_process(COMMAND ${PYTHON} compare_md.py md.4.samples --runs r1 r2
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT "${o}${e}" MATCHES "at least 3 run folders")
  message(FATAL_ERROR "compare_md.py --runs with two folders must stop with a message (${o}${e})")
endif()

execute_process(COMMAND ${PYTHON} plot_ptmc.py --md ${mdfiles} -o ptmc_test.svg
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
file(STRINGS ${WORK_DIR}/ptmc_test.svg circles REGEX "<circle")
list(LENGTH circles nc)
# 3 snapshots of 30 monomers, 12 C_V and 12 Rg^2 points
if(NOT rc EQUAL 0 OR NOT nc EQUAL 114)
  message(FATAL_ERROR "plot_ptmc.py failed (exit ${rc}, ${nc} circles, expected 114): ${o}${e}")
endif()

foreach(cmd "compare_md.py;md.4.samples;--ptmc;no_such" "plot_ptmc.py;--dump;no_such")
  execute_process(COMMAND ${PYTHON} ${cmd} WORKING_DIRECTORY ${WORK_DIR}
    OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(rc EQUAL 0 OR NOT "${o}${e}" MATCHES "cannot read the .* no_such")
    message(FATAL_ERROR "${cmd}: a missing file must stop with a message (${o}${e})")
  endif()
endforeach()
message("example ptmc_md: ptmc and MD agree within 4 error bars at T = 0.503 and 0.711")
