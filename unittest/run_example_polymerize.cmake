# ctest driver for examples/polymerization/sip (short version): surface-initiated
# polymerization from a frozen ball, 1000 reaction-enabled steps. Fails on a LAMMPS error, a
# missing RESULT line, a change of the number of active ends (no termination: one per
# initiator, 158 on the ball of radius 5 at density 0.5), too little growth, conversion not
# equal to bonds / initial monomers (4294), PDI < 1, or a chain-length histogram whose
# chains (counted + zero-length ones outside the bins) are not the ends or whose mean is not Mn.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()

run_lmp(in.sip log.sip -var nsteps 1000)
string(REGEX MATCH "RESULT conversion ([^ ]+) ends ([^ ]+) bonds ([^ ]+) Mn ([^ ]+) Mw ([^ ]+) PDI ([^ \n]+)"
       m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.sip: no RESULT line")
endif()
set(conv ${CMAKE_MATCH_1})
set(ends ${CMAKE_MATCH_2})
set(bonds ${CMAKE_MATCH_3})
set(mn ${CMAKE_MATCH_4})
set(pdi ${CMAKE_MATCH_6})
require_range("in.sip: active ends (one per initiator)" ${ends} 158 158)
require_range("in.sip: bonds made in 1000 steps" ${bonds} 60 100000)
execute_process(COMMAND awk "BEGIN{print ${bonds}/4294}" OUTPUT_VARIABLE c OUTPUT_STRIP_TRAILING_WHITESPACE)
require_range("in.sip: conversion (bonds/4294 = ${c})" ${conv} "${c}-1e-6" "${c}+1e-6")
require_range("in.sip: PDI" ${pdi} 1.0 10.0)
execute_process(COMMAND awk [=[!/^#/ && NF == 4 {n += $3; s += $2 * $3} !/^#/ && NF == 6 {miss = $4}
  END {printf "%d %.6f", n + miss, s / n}]=] ${WORK_DIR}/dp_hist.txt
  OUTPUT_VARIABLE h)
separate_arguments(h UNIX_COMMAND "${h}")
list(GET h 0 nchains)
list(GET h 1 hmean)
require_range("in.sip: chains in dp_hist.txt" ${nchains} 158 158)
require_range("in.sip: mean DP of the histogram vs Mn ${mn}" ${hmean} "${mn}-1e-3" "${mn}+1e-3")
message("example sip on ${NP} rank(s): conversion ${conv}, bonds ${bonds}, Mn ${mn}, PDI ${pdi}")

# the plot script: reads the same run (its final conversion is the RESULT line's) and stops
# with a message on a missing histogram
if(PYTHON)
  execute_process(COMMAND ${PYTHON} plot_sip.py log.sip dp_hist.txt sip_test.svg
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE po ERROR_VARIABLE pe RESULT_VARIABLE prc)
  if(NOT prc EQUAL 0 OR NOT EXISTS ${WORK_DIR}/sip_test.svg)
    message(FATAL_ERROR "plot_sip.py failed (exit ${prc}): ${po}${pe}")
  endif()
  string(REGEX MATCH "final conversion ([0-9.]+)" pm "${po}")
  require_range("plot_sip.py: final conversion vs RESULT ${conv}" ${CMAKE_MATCH_1} "${conv}-1e-4" "${conv}+1e-4")
  execute_process(COMMAND ${PYTHON} plot_sip.py log.sip no_such_hist.txt x.svg
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE po ERROR_VARIABLE pe RESULT_VARIABLE prc)
  if(prc EQUAL 0 OR NOT "${po}${pe}" MATCHES "cannot read the histogram no_such_hist.txt")
    message(FATAL_ERROR "plot_sip.py: a missing histogram must stop with a message (${po}${pe})")
  endif()
endif()
