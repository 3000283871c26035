# Helpers shared by the example ctest drivers (cmake -P scripts). They need WORK_DIR
# (the run folder) and, for run_lmp, LMP (the launcher) and EXAMPLE_DIR.

# run LMP on EXAMPLE_DIR/INPUT in WORK_DIR with log LOG and the extra arguments after
# it; fails on a non-zero exit or an ERROR in the output
function(run_lmp input log)
  execute_process(COMMAND ${LMP} -in ${EXAMPLE_DIR}/${input} -log ${log} ${ARGN}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("${o}${e}")
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "${input} failed (exit ${rc})")
  endif()
endfunction()

# thermo line of step STEP in LOG (in WORK_DIR) -> list of its columns in OUT; fails when
# there is no such line with finite numbers only
function(thermo_cols log step out)
  file(STRINGS ${WORK_DIR}/${log} line REGEX "^ +${step}( +[-+0-9.eE]+)+ *$")
  if(NOT line)
    message(FATAL_ERROR "${log}: no finite thermo line for step ${step}")
  endif()
  list(GET line -1 line)
  string(STRIP "${line}" line)
  separate_arguments(cols UNIX_COMMAND "${line}")
  set(${out} "${cols}" PARENT_SCOPE)
endfunction()

# fails unless VALUE is a number and LO <= VALUE <= HI (floats, compared by awk)
function(require_range what value lo hi)
  execute_process(COMMAND awk "BEGIN{v=\"${value}\"; if (v !~ /^[-+0-9.eE]+$/) exit 1; v += 0; exit !(v >= ${lo} && v <= ${hi})}"
    RESULT_VARIABLE bad)
  if(bad)
    message(FATAL_ERROR "${what} = ${value}, expected ${lo} .. ${hi}")
  endif()
endfunction()
