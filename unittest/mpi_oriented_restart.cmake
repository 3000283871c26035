# ctest driver for the oriented-particle pair styles' MPI inputs (unittest/lammps/in.ssd_mpi,
# in.gb_mpi, in.coul_dipole_body_mpi: the style with torques, fix nve/asphere, 50 steps, then
# write_restart, clear, read_restart, run 0) on 1, 2 and 4 MPI ranks with newton on and on 2
# ranks with newton off. The thermo rows at step 0 and step 50 must agree with the 1-rank run
# within rounding (summation order differs between decompositions; 50 steps amplify it to far
# below the 1e-9 tolerance), and in every run the row after read_restart must equal the
# step-50 row (the restart keeps the settings and coefficients). Each input prints 8 columns:
# step, energies and pressure terms of its style, and sum|torque|^2 last (which checks that
# ghost torques are summed).
# Optional LMP_VARS: comma-separated name=value pairs passed as extra -var options (elec=sf
# runs the ssd and coul/dipole/body inputs with 'elec sf').
set(extra_vars)
if(LMP_VARS)
  string(REPLACE "," ";" pairs "${LMP_VARS}")
  foreach(pair IN LISTS pairs)
    if(NOT pair MATCHES "^([^=]+)=(.+)$")
      message(FATAL_ERROR "LMP_VARS: expected name=value, got '${pair}'")
    endif()
    list(APPEND extra_vars -var ${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endforeach()
endif()
get_filename_component(name ${INPUT} NAME)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(close a b what)
  string(STRIP "${a}" a)
  string(STRIP "${b}" b)
  separate_arguments(ca UNIX_COMMAND "${a}")
  separate_arguments(cb UNIX_COMMAND "${b}")
  foreach(c 0 1 2 3 4 5 6 7)
    list(GET ca ${c} x)
    list(GET cb ${c} y)
    execute_process(COMMAND awk "BEGIN{d=${x}-(${y}); if(d<0)d=-d; s=${x}; if(s<0)s=-s; exit !(d <= 1e-9*(s+1e-3))}"
      RESULT_VARIABLE bad)
    if(bad)
      message(FATAL_ERROR "${what}: column ${c}: ${x} vs ${y}\n  ${a}\n  ${b}")
    endif()
  endforeach()
endfunction()

foreach(run 1 2 4 2n)
  string(REGEX REPLACE "n$" "" np ${run})
  set(newton on)
  if(run MATCHES "n$")
    set(newton off)
  endif()
  file(MAKE_DIRECTORY ${WORK_DIR}/${run})
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${LMP} -in ${INPUT} -log log.lammps
      -var newton ${newton} ${extra_vars}
    WORKING_DIRECTORY ${WORK_DIR}/${run} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("np ${np} newton ${newton}:\n${o}${e}")
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "${name} on ${np} ranks (newton ${newton}) failed (exit ${rc})")
  endif()
  if(NOT np EQUAL 1 AND o MATCHES "1 by 1 by 1 MPI processor grid")
    message(FATAL_ERROR "${name} did not run on ${np} ranks")
  endif()
  file(STRINGS ${WORK_DIR}/${run}/log.lammps rows REGEX "^ +(0|50)( +[-+0-9.eE]+)+$")
  list(LENGTH rows n)
  if(NOT n EQUAL 3)
    message(FATAL_ERROR "${name} on ${np} ranks: expected thermo rows for steps 0, 50 and 50 "
                        "after read_restart, got ${n}")
  endif()
  list(GET rows 1 a)
  list(GET rows 2 b)
  close("${a}" "${b}" "${np} ranks, newton ${newton}: after read_restart")
  set(rows_${run} "${rows}")
endforeach()

foreach(run 2 4 2n)
  foreach(i 0 1)
    list(GET rows_1 ${i} a)
    list(GET rows_${run} ${i} b)
    close("${a}" "${b}" "1 rank vs ${run}")
  endforeach()
endforeach()
message("1, 2 and 4 ranks (and 2 with newton off) agree at steps 0 and 50; read_restart gives the same energies")
