# ctest driver: the ptmc example (examples/ptmc/in.ptmc, 12 replicas, shortened) on 1 and
# on 3 MPI ranks (replica r on rank r mod 3) writes the same restart, energy, statistics,
# C_V and dump files bit for bit (4 replicas per rank).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(lmp np tag)
  file(MAKE_DIRECTORY ${WORK_DIR}/${tag})
  file(COPY ${EXAMPLE_DIR}/data.30mer DESTINATION ${WORK_DIR}/${tag})
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${LMP} -in ${EXAMPLE_DIR}/in.ptmc
      -log log.lammps ${ARGN}
    WORKING_DIRECTORY ${WORK_DIR}/${tag} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "ptmc ${tag} on ${np} ranks failed (exit ${rc}):\n${o}${e}")
  endif()
endfunction()

lmp(1 np1 -var nsweeps 1000 -var nequil 200)
lmp(3 np3 -var nsweeps 1000 -var nequil 200)
foreach(f ptmc.restart ptmc.energy ptmc.stats ptmc.cv ptmc.hist chain.1 chain.12)
  file(READ ${WORK_DIR}/np1/${f} a)
  file(READ ${WORK_DIR}/np3/${f} b)
  string(LENGTH "${a}" la)
  if(la LESS 200)
    message(FATAL_ERROR "${f} of the 1-rank run is (nearly) empty")
  endif()
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${f} differs between 1 and 3 ranks")
  endif()
endforeach()
message("1 and 3 ranks: restart, energy, stats, cv, hist and dumps identical")
