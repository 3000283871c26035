# ctest driver (example:table_r2_copied): examples/table_r2 copied to a folder outside the
# repository runs with the plain LAMMPS executable (plugin from LAMMPS_PLUGIN_PATH) when
# LAMMPS_POTENTIALS names the potentials folder; without it, LAMMPS stops with an error
# naming the table file and LAMMPS_POTENTIALS.
# Inputs: LMP (the plain lmp), EXAMPLE_DIR, POTENTIALS, WORK_DIR.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()
execute_process(COMMAND ${CMAKE_COMMAND} -E env LAMMPS_POTENTIALS=${POTENTIALS}
    ${LMP} -in in.melt -var nsteps 200 -log log.with
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR o MATCHES "ERROR")
  message(FATAL_ERROR "in.melt in a copied folder with LAMMPS_POTENTIALS=${POTENTIALS} failed "
                      "(exit ${rc}):\n${o}${e}")
endif()
thermo_cols(log.with 200 cols)
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LAMMPS_POTENTIALS
    ${LMP} -in in.melt -var nsteps 200 -log log.without
  WORKING_DIRECTORY ${WORK_DIR} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
if(rc EQUAL 0 OR NOT "${o}${e}" MATCHES "ERROR[^\n]*gauss_soft.table[^\n]*LAMMPS_POTENTIALS")
  message(FATAL_ERROR "in.melt without LAMMPS_POTENTIALS: expected an error naming "
                      "gauss_soft.table and LAMMPS_POTENTIALS (exit ${rc}):\n${o}${e}")
endif()
message("example table_r2 from a copied folder: runs with LAMMPS_POTENTIALS, clear error without")
