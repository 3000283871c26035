# ctest driver: unittest/lammps/in.rigid_single_mpi (fix nve/rigid/single, Gay-Berne, 200
# steps, write_restart at step 100) on 1, 2 and 4 MPI ranks, then the 4-rank restart
# continued on 1 rank for 100 steps; also for in.nvt_rigid_single_mpi (fix nvt/rigid/single,
# same protocol, columns pe ke T(trans+rot) press ecouple) and in.npt_rigid_single_mpi (fix
# npt/rigid/single aniso, columns pe ke T(trans+rot) vol ecouple). The thermo rows (5 columns,
# e.g. pe ke rotational-KE press sum|L|^2)
# at steps 0, 100 and 200 must agree within rounding (summation order differs between rank
# counts; 200 steps amplify 1e-16 far below the 1e-9 relative tolerance).
get_filename_component(name ${INPUT} NAME)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

foreach(run 1 2 4 r1)
  set(restart 0)
  set(np ${run})
  if(run STREQUAL "r1")
    set(restart 1)
    set(np 1)
  endif()
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${LMP} -in ${INPUT} -log log.${run}
      -var restart ${restart}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("run ${run}:\n${o}${e}")
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "${name} (${run}) failed (exit ${rc})")
  endif()
  if(NOT np EQUAL 1 AND o MATCHES "1 by 1 by 1 MPI processor grid")
    message(FATAL_ERROR "${name} did not run on ${np} ranks")
  endif()
  file(STRINGS ${WORK_DIR}/log.${run} rows REGEX "^ +(0|100|200)( +[-+0-9.eE]+)+$")
  # the restart run prints step 100 (start) and 200; keep the full runs' 0, 100, 200 and
  # the restart's 200 (the last row)
  set(rows_${run} "${rows}")
endforeach()

function(compare a b what)
  string(STRIP "${a}" a)
  string(STRIP "${b}" b)
  separate_arguments(ca UNIX_COMMAND "${a}")
  separate_arguments(cb UNIX_COMMAND "${b}")
  list(GET ca 0 sa)
  list(GET cb 0 sb)
  if(NOT sa EQUAL sb)
    message(FATAL_ERROR "${what}: steps differ: ${a} / ${b}")
  endif()
  foreach(c 1 2 3 4 5)    # pe ke rotational KE press sum|L|^2
    list(GET ca ${c} x)
    list(GET cb ${c} y)
    execute_process(COMMAND awk "BEGIN{d=${x}-(${y}); if(d<0)d=-d; s=${x}; if(s<0)s=-s; exit !(d <= 1e-9*(s+1e-3))}"
      RESULT_VARIABLE bad)
    if(bad)
      message(FATAL_ERROR "${what} differ: column ${c}: ${x} vs ${y}\n  ${a}\n  ${b}")
    endif()
  endforeach()
endfunction()

foreach(np 1 2 4)
  list(LENGTH rows_${np} n)
  if(NOT n EQUAL 4)    # 0, 100 | 100, 200 (the second run starts at 100)
    message(FATAL_ERROR "${name} on ${np} ranks: expected 4 thermo rows, got ${n}")
  endif()
endforeach()
foreach(np 2 4)
  foreach(i 0 1 2 3)
    list(GET rows_1 ${i} a)
    list(GET rows_${np} ${i} b)
    compare("${a}" "${b}" "1 vs ${np} ranks")
  endforeach()
endforeach()
list(GET rows_1 3 a)
list(GET rows_r1 -1 b)
compare("${a}" "${b}" "1 rank vs the 4-rank restart continued on 1 rank (step 200)")
message("1, 2 and 4 ranks and the restart agree at steps 0, 100 and 200")
