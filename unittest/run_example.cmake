# ctest driver for examples/table_r2: a short melt run and the three-way cross-check.
# Inputs: LMP (launcher), EXAMPLE_DIR, WORK_DIR, NP/MPIEXEC (ranks). Fails on a LAMMPS
# error, a missing thermo line, a temperature far from the thermostat target, or
# disagreeing energies.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()

run_lmp(in.melt log.melt -var nsteps 3000)
thermo_cols(log.melt 3000 cols)    # step temp pe ebond epair ke etotal press cpuremain
list(GET cols 1 temp)
# Langevin at T = 1 with 1800 beads: the instantaneous T fluctuates by ~sqrt(2/3N) = 2%
require_range("in.melt: temperature after 3000 steps (thermostat target 1.0)" ${temp} 0.9 1.1)

run_lmp(in.check log.check)
string(REGEX MATCH "CHECK rel_diff_coeff ([^ ]+) rel_diff_spline ([^ ]+) rel_diff_press ([^ \n]+)" m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.check: no CHECK line")
endif()
require_range("in.check: relative difference table/r2 from the table vs from coefficients" ${CMAKE_MATCH_1} 0 1e-7)
require_range("in.check: relative difference table/r2 vs LAMMPS pair_style table spline" ${CMAKE_MATCH_2} 0 1e-7)
require_range("in.check: relative pressure difference" ${CMAKE_MATCH_3} 0 1e-6)
message("example table_r2 on ${NP} rank(s): T = ${temp}; rel. differences coeff ${CMAKE_MATCH_1}, spline ${CMAKE_MATCH_2}, press ${CMAKE_MATCH_3}")
