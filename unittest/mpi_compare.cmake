# ctest driver: examples/table_r2/in.melt (NVE, 200 steps) on 1 and on 2 MPI ranks must
# give the same thermo output within rounding (summation order differs between rank
# counts; a soft fluid over 200 steps amplifies 1e-16 differences to well below 1e-9).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(COPY ${EXAMPLE_DIR}/chain.mol DESTINATION ${WORK_DIR})

foreach(np 1 2)
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${LMP} -in ${EXAMPLE_DIR}/in.melt
      -var nsteps 200 -var ensemble nve -log log.np${np}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("np ${np}:\n${o}${e}")
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "in.melt on ${np} ranks failed (exit ${rc})")
  endif()
  file(STRINGS ${WORK_DIR}/log.np${np} rows REGEX "^ +(0|200)( +[-+0-9.eE]+)+$")
  list(LENGTH rows n)
  if(NOT n EQUAL 2)
    message(FATAL_ERROR "in.melt on ${np} ranks: expected thermo rows for steps 0 and 200")
  endif()
  set(rows_${np} "${rows}")
endforeach()

foreach(i 0 1)
  list(GET rows_1 ${i} a)
  list(GET rows_2 ${i} b)
  string(STRIP "${a}" a)
  string(STRIP "${b}" b)
  separate_arguments(ca UNIX_COMMAND "${a}")
  separate_arguments(cb UNIX_COMMAND "${b}")
  foreach(c 1 2 3 4 5 6 7)    # temp pe ebond epair ke etotal press
    list(GET ca ${c} x)
    list(GET cb ${c} y)
    execute_process(COMMAND awk "BEGIN{d=${x}-(${y}); if(d<0)d=-d; s=${x}; if(s<0)s=-s; exit !(d <= 1e-9*(s+1e-3))}"
      RESULT_VARIABLE bad)
    if(bad)
      message(FATAL_ERROR "1 vs 2 ranks differ: column ${c}: ${x} vs ${y}\n  1 rank:  ${a}\n  2 ranks: ${b}")
    endif()
  endforeach()
endforeach()
message("1 and 2 ranks agree at steps 0 and 200")
