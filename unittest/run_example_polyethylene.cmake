# ctest driver for examples/polyethylene (short version): 4 chains of 300 united atoms
# (data.pe_4x300), 2000 steps of equilibration and 10 blocks of 1000 steps at 1000 K,
# then analyse.py. The checks come from the force field, not from earlier output:
#   T within 3 % of the Nose-Hoover target;
#   bond length: mean within 0.02 A of r0 = 1.53 A, spread within 10 % of equipartition
#   sqrt(kT/2K) (0.0533 A at 1000 K, K = 350 kcal/mol/A^2);
#   angle: mean within 3 deg of 109.471, spread within 10 % of sqrt(kT/2K) (8.08 deg);
#   trans fraction > 0.5 and within -0.12 / +0.10 of that of an isolated torsion with
#   its 1-4 LJ pair (0.728 at 1000 K; the chain's fluctuating bonds and angles and its
#   longer-range contacts shift it);
#   density = that of the data file (NVT), C_n > 1.
include(${CMAKE_CURRENT_LIST_DIR}/example_checks.cmake)
copy_example()

run_lmp(in.pe_melt log.pe_melt -var equil 2000 -var steps 10000)
if(NOT lmp_output MATCHES "RESULT T [0-9.]+ density 0.27993")
  message(FATAL_ERROR "in.pe_melt: no RESULT line with the data file's density 0.27993 g/cm^3")
endif()
if(NOT PYTHON)
  message("example polyethylene: no python3, analyse.py not run")
  return()
endif()
execute_process(COMMAND ${PYTHON} analyse.py WORKING_DIRECTORY ${WORK_DIR}
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
message("${o}${e}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "analyse.py failed (exit ${rc})")
endif()
# value of KEY in the RESULT line of analyse.py (CMake keeps at most 9 regex groups)
macro(result key var)
  if(NOT o MATCHES "RESULT pe[^\n]* ${key} ([-+0-9.eE]+)")
    message(FATAL_ERROR "analyse.py: no '${key}' in its RESULT line")
  endif()
  set(${var} ${CMAKE_MATCH_1})
endmacro()
result(T t)
result(bond_mean bmean)
result(bond_std bstd)
result(ref_bond_std ref_b)
result(angle_mean amean)
result(angle_std astd)
result(ref_angle_std ref_a)
result(trans trans)
result(ref_trans ref_t)
result(Cn cn)
require_range("T" ${t} 970 1030)
require_range("force field's own equipartition bond spread" ${ref_b} 0.0532 0.0534)
require_range("mean bond length" ${bmean} 1.51 1.55)
require_range("bond length spread vs sqrt(kT/2K) = ${ref_b}" ${bstd} "${ref_b}*0.9" "${ref_b}*1.1")
require_range("mean angle" ${amean} 106.471 112.471)
require_range("angle spread vs sqrt(kT/2K) = ${ref_a}" ${astd} "${ref_a}*0.9" "${ref_a}*1.1")
require_range("isolated-torsion trans fraction" ${ref_t} 0.70 0.75)
require_range("trans fraction (isolated torsion ${ref_t})" ${trans} "${ref_t}-0.12" "${ref_t}+0.10")
require_range("trans fraction" ${trans} 0.5 1.0)
require_range("C_n" ${cn} 1.0 1000)
foreach(f chains.dat bond.hist angle.hist dihedral.hist thermo.dat)
  file(STRINGS ${WORK_DIR}/${f} lines REGEX "^[^#]")
  list(LENGTH lines nl)
  require_range("in.pe_melt: lines of ${f}" ${nl} 10 1000000)
endforeach()
message("example polyethylene on ${NP} rank(s): bond ${bmean}/${bstd}, angle ${amean}/${astd}, trans ${trans} (isolated ${ref_t}), C_n ${cn}")
