# ctest driver for examples/table_r2: a short melt run and the three-way cross-check.
# Inputs: LMP (launcher), EXAMPLE_DIR, WORK_DIR. Fails on a LAMMPS error, a missing
# thermo line, a temperature far from the thermostat target, or disagreeing energies.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(COPY ${EXAMPLE_DIR}/chain.mol DESTINATION ${WORK_DIR})
get_filename_component(POT ${EXAMPLE_DIR}/../../potentials ABSOLUTE)

function(run_lmp input out)
  execute_process(COMMAND ${LMP} -in ${EXAMPLE_DIR}/${input} -var potentials ${POT} ${ARGN}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("${o}${e}")
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "${input} failed (exit ${rc})")
  endif()
  set(${out} "${o}" PARENT_SCOPE)
endfunction()

run_lmp(in.melt out -var nsteps 3000 -log log.melt)
# last thermo line: step temp pe ebond epair ke etotal press
file(STRINGS ${WORK_DIR}/log.melt last REGEX "^ +3000( +[-+0-9.eE]+)+$")
if(NOT last)
  message(FATAL_ERROR "in.melt: no thermo line for step 3000")
endif()
string(STRIP "${last}" last)
separate_arguments(cols UNIX_COMMAND "${last}")
list(GET cols 1 temp)
# Langevin at T = 1 with 1800 beads: the instantaneous T fluctuates by ~sqrt(2/3N) = 2%
if(temp LESS 0.9 OR temp GREATER 1.1)
  message(FATAL_ERROR "in.melt: temperature ${temp} after 3000 steps, thermostat target 1.0")
endif()

run_lmp(in.check out -log log.check)
string(REGEX MATCH "CHECK rel_diff_coeff ([^ ]+) rel_diff_spline ([^ ]+) rel_diff_press ([^ \n]+)" m "${out}")
if(NOT m)
  message(FATAL_ERROR "in.check: no CHECK line")
endif()
set(d_coeff ${CMAKE_MATCH_1})
set(d_spline ${CMAKE_MATCH_2})
set(d_press ${CMAKE_MATCH_3})
# cmake compares floats written like 1.2e-07 through math(EXPR) poorly: use scientific via string compare
foreach(pair "coeff;${d_coeff};1e-7" "spline;${d_spline};1e-7" "press;${d_press};1e-6")
  list(GET pair 0 name)
  list(GET pair 1 val)
  list(GET pair 2 lim)
  execute_process(COMMAND awk "BEGIN{exit !(${val} < ${lim})}" RESULT_VARIABLE bad)
  if(bad)
    message(FATAL_ERROR "in.check: relative difference ${name} = ${val} exceeds ${lim}")
  endif()
endforeach()
message("example table_r2: T = ${temp}; rel. differences coeff ${d_coeff}, spline ${d_spline}, press ${d_press}")
