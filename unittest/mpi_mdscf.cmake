# ctest driver: unittest/lammps/in.mdscf_mpi (fix mdscf, field forces only, NVE, every 5,
# 100 steps) on 1, 2 and 4 MPI ranks, and on 2 ranks with a load-balancing step at step 52
# (between updates: the stored field is remapped to the new sub-domains). The thermo rows at steps 0 and 100 (W, its chi and
# kappa parts, KE, pressure with the field virial) and the per-atom forces at steps 0 and
# 100 (atoms named by their start position) must agree within rounding: the densities are
# sums in another order on each decomposition (1e-16), which 100 steps of a soft field
# amplify to far below the tolerances (1e-10 relative).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

foreach(run 1 2 4 2b)
  string(REGEX REPLACE "b$" "" np ${run})
  set(rebalance 0)
  if(run MATCHES "b$")
    set(rebalance 1)
  endif()
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${LMP} -in ${INPUT} -log log.np${run}
      -var rebalance ${rebalance}
    WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  message("np ${np}:\n${o}${e}")
  if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
    message(FATAL_ERROR "in.mdscf_mpi on ${np} ranks (rebalance ${rebalance}) failed (exit ${rc})")
  endif()
  if(NOT np EQUAL 1 AND o MATCHES "1 by 1 by 1 MPI processor grid")
    message(FATAL_ERROR "in.mdscf_mpi did not run on ${np} ranks")
  endif()
  if(rebalance AND NOT o MATCHES "initial/final imbalance factor")
    message(FATAL_ERROR "in.mdscf_mpi with rebalance 1 did not balance")
  endif()
  file(STRINGS ${WORK_DIR}/log.np${run} rows REGEX "^ +(0|100)( +[-+0-9.eE]+)+$")
  list(LENGTH rows n)
  if(NOT n EQUAL 2)
    message(FATAL_ERROR "in.mdscf_mpi on ${np} ranks: expected thermo rows for steps 0 and 100")
  endif()
  set(rows_${run} "${rows}")
  file(RENAME ${WORK_DIR}/forces.dump ${WORK_DIR}/forces.np${run})
endforeach()

foreach(np 2 4 2b)
  foreach(i 0 1)
    list(GET rows_1 ${i} a)
    list(GET rows_${np} ${i} b)
    string(STRIP "${a}" a)
    string(STRIP "${b}" b)
    separate_arguments(ca UNIX_COMMAND "${a}")
    separate_arguments(cb UNIX_COMMAND "${b}")
    foreach(c 1 2 3 4 5 6)    # pe ke press W_chi W_kappa rho0
      list(GET ca ${c} x)
      list(GET cb ${c} y)
      execute_process(COMMAND awk "BEGIN{d=${x}-(${y}); if(d<0)d=-d; s=${x}; if(s<0)s=-s; exit !(d <= 1e-10*(s+1e-3))}"
        RESULT_VARIABLE bad)
      if(bad)
        message(FATAL_ERROR "1 vs ${np} ranks differ: column ${c}: ${x} vs ${y}\n  1 rank:  ${a}\n  ${np} ranks: ${b}")
      endif()
    endforeach()
  endforeach()
  # forces of each snapshot, atoms matched by their start position
  execute_process(COMMAND awk "
    /^ITEM: TIMESTEP/ {getline; step=$1; next}
    NF == 6 && $1 !~ /ITEM/ {
      key = step \" \" sprintf(\"%.9f %.9f %.9f\", $1, $2, $3)
      if (FNR == NR) { f[key] = $4 \" \" $5 \" \" $6; n1++; next }
      if (!(key in f)) { print \"atom at \" key \" missing\"; bad = 1; next }
      split(f[key], v, \" \"); n2++
      for (i = 1; i <= 3; i++) {
        d = v[i] - $(i + 3); if (d < 0) d = -d; if (d > m) m = d
        a = v[i]; if (a < 0) a = -a; if (a > fm) fm = a
      }
    }
    END {
      printf \"forces: %d and %d atom rows, max |df| = %g, max |f| = %g\\n\", n1, n2, m, fm
      exit !(bad == 0 && n1 == n2 && n1 > 0 && fm > 1 && m <= 1e-10 * fm)
    }" ${WORK_DIR}/forces.np1 ${WORK_DIR}/forces.np${np}
    OUTPUT_VARIABLE fo RESULT_VARIABLE bad)
  message("1 vs ${np} ranks ${fo}")
  if(bad)
    message(FATAL_ERROR "1 vs ${np} ranks: per-atom forces differ (${fo})")
  endif()
endforeach()
message("1, 2 and 4 ranks (and 2 with a rebalance) agree at steps 0 and 100 (thermo and per-atom forces)")
