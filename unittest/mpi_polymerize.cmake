# ctest driver: fix polymerize (unittest/lammps/in.polymerize_mpi) forms exactly the same
# bonds, angles and per-atom state (init, cris, chain position, type) on 1, 2 and 4 MPI ranks,
# with newton_bond on and off, and a 4-rank run interrupted by write_restart at step 200 and
# continued on 1 rank ends like the uninterrupted runs. Bond and angle lists are compared as
# sets of atom IDs (write_data numbers them by rank), the state dump line by line.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(lmp np tag)
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${LMP} -in ${INPUT} -log log.${tag}
      -var tag ${tag} ${ARGN}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "run ${tag} on ${np} ranks failed (exit ${rc}):\n${o}${e}")
  endif()
  if(NOT np EQUAL 1 AND o MATCHES "1 by 1 by 1 MPI processor grid")
    message(FATAL_ERROR "run ${tag} did not run on ${np} ranks")
  endif()
endfunction()

# canonical topology of a data file: "bond type a b" (a < b) and "angle type a b c" (a < c),
# sorted; plus the state dump without its header
function(canonical tag out)
  execute_process(COMMAND awk [=[
    /^Bonds/ {s = 1; next} /^Angles/ {s = 2; next} /^[A-Z]/ {s = 0}
    s == 1 && NF == 4 {a = $3; b = $4; if (a > b) {t = a; a = b; b = t}; print "bond", $2, a, b}
    s == 2 && NF == 5 {a = $3; c = $5; if (a > c) {t = a; a = c; c = t}; print "angle", $2, a, $4, c}
    ]=] poly_${tag}.data
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE topo)
  string(REPLACE "\n" ";" lines "${topo}")
  list(SORT lines)
  file(STRINGS ${WORK_DIR}/poly_${tag}.state state REGEX "^[0-9]+ ")
  set(${out} "${lines};${state}" PARENT_SCOPE)
endfunction()

lmp(1 prep -var stage prep)
set(ref "")
foreach(newton on off)
  foreach(np 1 2 4)
    lmp(${np} ${newton}${np} -var stage full -var newton ${newton})
    canonical(${newton}${np} c)
    list(FILTER c INCLUDE REGEX "^bond ")
    list(LENGTH c nb)
    if(nb LESS 200)
      message(FATAL_ERROR "only ${nb} bonds made in ${newton}${np}: the test needs growth")
    endif()
    canonical(${newton}${np} c)
    if(NOT ref)
      set(ref "${c}")
      set(ref_tag ${newton}${np})
      list(FILTER c INCLUDE REGEX "^angle ")
      list(LENGTH c na)
      message("reference ${ref_tag}: ${nb} bonds, ${na} angles")
    elseif(NOT c STREQUAL ref)
      message(FATAL_ERROR "newton_bond ${newton} on ${np} ranks: bonds/angles/state differ from ${ref_tag}")
    endif()
  endforeach()
endforeach()

lmp(4 half -var stage half)
lmp(1 cont -var stage cont)
canonical(cont c)
if(NOT c STREQUAL ref)
  message(FATAL_ERROR "restart at step 200 (4 ranks) continued on 1 rank differs from ${ref_tag}")
endif()
message("1, 2, 4 ranks, newton_bond on/off and the restart form the same bonds, angles and state")
