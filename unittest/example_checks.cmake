# Helpers shared by the example ctest drivers (cmake -P scripts). They need WORK_DIR
# (the run folder) and, for run_lmp, LMP (the launcher) and EXAMPLE_DIR; NP (default 1)
# runs LAMMPS on that many MPI ranks through MPIEXEC.

# a fresh WORK_DIR holding a copy of the example folder, as a user who copies it out of
# the repository has it (potential files are not copied: LAMMPS finds them through
# LAMMPS_POTENTIALS, which the launcher sets)
function(copy_example)
  file(REMOVE_RECURSE ${WORK_DIR})
  file(MAKE_DIRECTORY ${WORK_DIR})
  file(GLOB files ${EXAMPLE_DIR}/*)
  file(COPY ${files} DESTINATION ${WORK_DIR})
endfunction()

if(NOT NP)
  set(NP 1)
endif()
if(NP GREATER 1)
  if(NOT MPIEXEC)
    message(FATAL_ERROR "NP = ${NP} needs MPIEXEC")
  endif()
  set(LAUNCH ${MPIEXEC} -np ${NP} --oversubscribe ${LMP})
else()
  set(LAUNCH ${LMP})
endif()

# run LAUNCH (LMP on NP ranks) on INPUT of the copied example in WORK_DIR with log LOG
# and the extra arguments after it; fails on a non-zero exit or an ERROR in the output.
# The output is also left in the variable lmp_output of the caller.
function(run_lmp input log)
  execute_process(COMMAND ${LAUNCH} -in ${input} -log ${log} ${ARGN}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("${o}${e}")
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "${input} on ${NP} rank(s) failed (exit ${rc})")
  endif()
  set(lmp_output "${o}" PARENT_SCOPE)
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
