# ctest driver (example:start_1v2:NAME): an example's starting configuration on 1 and on
# 2 MPI ranks must be the same atoms with the same positions and velocities (and
# orientations), so that the examples' results do not depend on the rank count.
# Inputs: LMP, MPIEXEC, PYTHON, EXAMPLE_DIR, WORK_DIR, INPUT (the example input),
# VARS (extra "-var name value" arguments), FIELDS (extra dump columns), PREP (optional
# command run first in the copied folder, e.g. a data generator); lists separated by
# spaces.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()
separate_arguments(vars UNIX_COMMAND "${VARS}")
separate_arguments(prep UNIX_COMMAND "${PREP}")
if(prep)
  execute_process(COMMAND ${prep} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc
    OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PREP} failed (exit ${rc}):\n${o}${e}")
  endif()
endif()
foreach(np 1 2)
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${LMP}
      -in ${CMAKE_CURRENT_LIST_DIR}/lammps/in.example_start -var input ${INPUT}
      -var start_dump start.np${np}.dump -var fields "${FIELDS}" ${vars} -log log.start.np${np}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "${INPUT} (0 steps) on ${np} rank(s) failed (exit ${rc}):\n${o}${e}")
  endif()
endforeach()
execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_LIST_DIR}/compare_starts.py
    start.np1.dump start.np2.dump
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${INPUT}: ${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${INPUT}: the start on 2 ranks differs from the start on 1 rank")
endif()
