# ctest driver for examples/table_r2: a short melt run, the three-way cross-check, and the
# tabulated bonded terms with NPT (in.bonded).
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

# in.bonded: tabulated bonds and angles against the analytic styles they were written
# from, then NVT and NPT at the NVT pressure (the density must come back)
run_lmp(in.bonded log.bonded -var nsteps 2000)
string(REGEX MATCH "CHECK rel_diff_bond ([^ ]+) rel_diff_angle ([^ ]+) rel_diff_press ([^ ]+) rel_diff_fsq ([^ \n]+)" m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.bonded: no CHECK rel_diff line")
endif()
require_range("in.bonded: bond energy, table vs harmonic" ${CMAKE_MATCH_1} 0 1e-8)
require_range("in.bonded: angle energy, table vs cosine/squared" ${CMAKE_MATCH_2} 0 1e-6)
require_range("in.bonded: pressure, tables vs analytic" ${CMAKE_MATCH_3} 0 1e-6)
require_range("in.bonded: sum of |F|^2, tables vs analytic" ${CMAKE_MATCH_4} 0 1e-6)
string(REGEX MATCH "CHECK npt_density ([^ ]+) start ([^ \n]+)" m "${lmp_output}")
if(NOT m)
  message(FATAL_ERROR "in.bonded: no CHECK npt_density line")
endif()
# NPT at the mean NVT pressure of density 1800/12^3: the mean density within 1.5 %
# (measured 0.3 % on 1 and 2 ranks; the NVT pressure itself carries a statistical error)
require_range("in.bonded: mean NPT density (start 1.0417)" ${CMAKE_MATCH_1} 1.026 1.057)
message("example table_r2 in.bonded on ${NP} rank(s): mean NPT density ${CMAKE_MATCH_1} (start ${CMAKE_MATCH_2})")
