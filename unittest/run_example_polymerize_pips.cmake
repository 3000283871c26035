# ctest driver for examples/polymerization/pips (short version): polymerization-induced
# phase separation in an MD-SCF matrix, 3000 steps with chain growth and 3000 steps of the
# same system without it (-var prob 0). Fails on a LAMMPS error, a missing RESULT line,
# conversion that does not grow from thermo step 1000 to 2000 to 3000, bonds made not
# equal to conversion times the initial monomers, Mn <= 1 or not bonds / chains, PDI < 1,
# a reaction in the run without it, or a demixing order parameter psi of the reacting run
# that is not clearly above that of the non-reacting one (psi(P_r) - psi(0) >= 0.04; about
# 0.11 measured at step 3000: 0.17 against 0.06, the latter the local S/monomer
# anticorrelation that chi alone causes in the stable solution).
# LMP_ARGS (optional, a ;-list) goes to both runs, e.g. -DLMP_ARGS="-sf;cuda" for the
# same checks on the GPU (resident styles; see examples/polymerization/pips/README.md).
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()

set(re "RESULT monomers ([^ ]+) conversion ([^ ]+) bonds ([^ ]+) Mn ([^ ]+) Mw ([^ ]+) PDI ([^ ]+) psi ([^ \n]+)")
run_lmp(in.pips log.pips -var nsteps 3000 -var every 1000 -var dump 3000 ${LMP_ARGS})
string(REGEX MATCH "${re}" m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.pips: no RESULT line")
endif()
set(nmono ${CMAKE_MATCH_1})
set(conv ${CMAKE_MATCH_2})
set(bonds ${CMAKE_MATCH_3})
set(mn ${CMAKE_MATCH_4})
set(pdi ${CMAKE_MATCH_6})
set(psi ${CMAKE_MATCH_7})

# conversion (thermo column 4) grows along the run
thermo_cols(log.pips 1000 c1)
thermo_cols(log.pips 2000 c2)
thermo_cols(log.pips 3000 c3)
list(GET c1 3 x1)
list(GET c2 3 x2)
list(GET c3 3 x3)
require_range("in.pips: conversion at step 1000" ${x1} 0.01 1.0)
require_range("in.pips: conversion at step 2000 (step 1000: ${x1})" ${x2} "${x1}+1e-9" 1.0)
require_range("in.pips: conversion at step 3000 (step 2000: ${x2})" ${x3} "${x2}+1e-9" 1.0)
require_range("in.pips: monomers" ${nmono} 1507 1507)
execute_process(COMMAND awk "BEGIN{print ${bonds}/${nmono}}" OUTPUT_VARIABLE c OUTPUT_STRIP_TRAILING_WHITESPACE)
require_range("in.pips: conversion (bonds/monomers = ${c})" ${conv} "${c}-1e-6" "${c}+1e-6")
# 48 initiators: Mn is bonds over the chains that grew, so between bonds/48 and bonds
execute_process(COMMAND awk "BEGIN{print ${bonds}/48}" OUTPUT_VARIABLE mn48 OUTPUT_STRIP_TRAILING_WHITESPACE)
require_range("in.pips: Mn (bonds/48 = ${mn48})" ${mn} "${mn48}-1e-3" ${bonds})
require_range("in.pips: Mn > 1" ${mn} 1.0001 1e9)
require_range("in.pips: PDI" ${pdi} 1.0 10.0)

# reference without reaction: same system, the monomers stay dissolved
run_lmp(in.pips log.pips0 -var nsteps 3000 -var every 1000 -var prob 0 ${LMP_ARGS})
string(REGEX MATCH "${re}" m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.pips -var prob 0: no RESULT line")
endif()
require_range("in.pips -var prob 0: bonds" ${CMAKE_MATCH_3} 0 0)
set(psi0 ${CMAKE_MATCH_7})
require_range("in.pips: psi with chain growth vs psi ${psi0} without" ${psi} "${psi0}+0.04" 1.0)
message("example pips on ${NP} rank(s) ${LMP_ARGS}: conversion ${conv}, bonds ${bonds}, Mn ${mn}, PDI ${pdi}, psi ${psi} (no reaction: ${psi0})")

# the composition structure factor (structure_factor.py, checked against random and
# lamellar configurations by its --selftest): the demixing raises its peak above the
# start's (random placement: S(k) = x_a (1 - x_a) = 0.21 everywhere)
if(PYTHON)
  execute_process(COMMAND ${PYTHON} structure_factor.py --selftest WORKING_DIRECTORY ${WORK_DIR}
    OUTPUT_VARIABLE so ERROR_VARIABLE se RESULT_VARIABLE src)
  if(NOT src EQUAL 0 OR NOT so MATCHES "SELFTEST PASSED")
    message(FATAL_ERROR "structure_factor.py --selftest failed: ${so}${se}")
  endif()
  execute_process(COMMAND ${PYTHON} structure_factor.py pips.dump --svg pips_sk.svg
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE so ERROR_VARIABLE se RESULT_VARIABLE src)
  message("${so}${se}")
  if(NOT src EQUAL 0 OR NOT EXISTS ${WORK_DIR}/pips_sk.svg)
    message(FATAL_ERROR "structure_factor.py failed (exit ${src})")
  endif()
  string(REGEX MATCHALL "\n +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+ +([0-9.]+)" rows "${so}")
  list(LENGTH rows nrows)
  if(NOT nrows EQUAL 2)
    message(FATAL_ERROR "structure_factor.py: expected 2 frames (steps 0 and 3000), got ${nrows}")
  endif()
  list(GET rows 0 r0)
  list(GET rows 1 r1)
  string(REGEX MATCH "([0-9.]+)$" s0 "${r0}")
  string(REGEX MATCH "([0-9.]+)$" s1 "${r1}")
  require_range("structure_factor.py: S(k*) at step 0 (random start)" ${s0} 0.1 0.5)
  require_range("structure_factor.py: S(k*) after growth vs ${s0} at the start" ${s1} "2*${s0}" 1e9)
endif()
