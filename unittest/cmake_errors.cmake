# ctest driver: how mesogpu's configuration meets a LAMMPS. CASE selects what is tried:
#   errors (default)  fake LAMMPS trees under WORK_DIR: configuring mesogpu (SOURCE_DIR)
#                     against each unusable one must stop with a message naming the problem
#                     (CXX, the C++ compiler, builds fake installed libraries).
#   build_folder      the real host (LAMMPS_TREE, its CMake build LAMMPS_BUILD), GoogleTest
#                     hidden: the plugin builds (tests off by default for a user's LAMMPS)
#                     and that LAMMPS runs pair table/r2 through it.
#   installed         `cmake --install` of LAMMPS_BUILD into WORK_DIR/prefix; the plugin
#                     builds against it (find_package(LAMMPS)) and the installed lmp loads
#                     it and runs pair table/r2.
# The table/r2 run checks energy and force against the formula of the tabulated potential.
if(NOT CASE)
  set(CASE errors)
endif()
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# configure mesogpu with the given arguments; sets rc and text (output, blanks squeezed)
function(configure_mesogpu name)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build-${name}
      -DMESOGPU_CUDA=OFF ${ARGN}
    OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r)
  string(REGEX REPLACE "[ \n]+" " " t "${o}${e}")
  set(rc ${r} PARENT_SCOPE)
  set(text "${t}" PARENT_SCOPE)
  set(log "${o}${e}" PARENT_SCOPE)
endfunction()

# configuring must fail with a message matching regex
function(expect_error name regex)
  configure_mesogpu(${name} ${ARGN})
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: configure succeeded against an unusable LAMMPS")
  endif()
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: error message does not match '${regex}':\n${log}")
  endif()
  message("${name}: stopped as expected")
endfunction()

# two atoms 1.1 apart with the soft Gaussian core of potentials/gauss_soft.table:
#   U(z) = A [g(z) - g(zc) - g'(zc) (z - zc)],  z = r^2, g = exp(-z / (2 s^2)),
#   A = 8, s = 0.5, rc = 2;  F_x(atom 2) = -dU/dr = 2 r A (g(z) - g(zc)) / (2 s^2)
function(write_table_r2_input file plugin)
  set(load "")
  if(plugin)
    set(load "plugin load ${plugin}\n")
  endif()
  file(WRITE ${file} "${load}units lj
atom_style atomic
atom_modify map array
region box block -5 5 -5 5 -5 5 units box
create_box 1 box
create_atoms 1 single 0 0 0 units box
create_atoms 1 single 1.1 0 0 units box
mass 1 1.0
pair_style table/r2 1000
pair_coeff 1 1 ${SOURCE_DIR}/potentials/gauss_soft.table GAUSS_SOFT
thermo_modify norm no
run 0 post no
variable z equal 1.1^2
variable ref_e equal 8*(exp(-v_z/0.5)-exp(-8)+exp(-8)/0.5*(v_z-4))
variable ref_f equal 2*1.1*8*(exp(-v_z/0.5)-exp(-8))/0.5
variable e equal pe
variable f equal fx[2]
variable de equal abs(v_e-v_ref_e)/abs(v_ref_e)
variable df equal abs(v_f-v_ref_f)/abs(v_ref_f)
print \"table/r2: E = \${e} (formula \${ref_e}), F = \${f} (formula \${ref_f})\"
if \"\${de} < 1e-5 && \${df} < 1e-5\" then \"print 'TABLE_R2_MATCHES_FORMULA'\" else \"print 'TABLE_R2_DIFFERS'\"
")
endfunction()

function(expect_table_r2_run name)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r)
  if(NOT r EQUAL 0 OR "${o}${e}" MATCHES "ERROR" OR NOT "${o}" MATCHES "TABLE_R2_MATCHES_FORMULA")
    message(FATAL_ERROR "${name}: pair table/r2 did not run or does not match the formula:\n${o}${e}")
  endif()
  string(REGEX MATCH "table/r2: E = [^\n]*" line "${o}")
  message("${name}: ${line}")
endfunction()

function(build_plugin name)
  set(jobs $ENV{MESOGPU_JOBS})
  if(NOT jobs)
    set(jobs 2)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build-${name} -j ${jobs}
    OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r)
  if(NOT r EQUAL 0 OR NOT EXISTS ${WORK_DIR}/build-${name}/plugin/mesogpuplugin.so)
    message(FATAL_ERROR "${name}: building the plugin failed:\n${o}${e}")
  endif()
endfunction()

if(CASE STREQUAL "build_folder")
  # a user's LAMMPS without GoogleTest: only the plugin, no tests
  configure_mesogpu(gtest_hidden -DLAMMPS_SOURCE_DIR=${LAMMPS_TREE} -DLAMMPS_BINARY_DIR=${LAMMPS_BUILD}
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_BUILD_TYPE=Debug)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gtest_hidden: configure failed:\n${log}")
  endif()
  if(NOT text MATCHES "mesogpu: tests OFF" OR EXISTS ${WORK_DIR}/build-gtest_hidden/unittest)
    message(FATAL_ERROR "gtest_hidden: tests were configured for a user's LAMMPS:\n${log}")
  endif()
  build_plugin(gtest_hidden)
  write_table_r2_input(${WORK_DIR}/in.table_r2 "")
  expect_table_r2_run(gtest_hidden ${WORK_DIR}/build-gtest_hidden/lmp-mesogpu
    -in ${WORK_DIR}/in.table_r2 -log none -echo none)
  # asking for the tests without GoogleTest names the package
  expect_error(tests_gtest_hidden "need GoogleTest: install the Debian packages libgtest-dev"
    -DLAMMPS_SOURCE_DIR=${LAMMPS_TREE} -DLAMMPS_BINARY_DIR=${LAMMPS_BUILD}
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DMESOGPU_TESTS=ON)
  return()
endif()

if(CASE STREQUAL "installed")
  set(prefix ${WORK_DIR}/prefix)
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${LAMMPS_BUILD} --prefix ${prefix}
    OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE r)
  if(NOT r EQUAL 0 OR NOT EXISTS ${prefix}/lib/cmake/LAMMPS/LAMMPSConfig.cmake)
    message(FATAL_ERROR "installing the host LAMMPS into ${prefix} failed:\n${o}${e}")
  endif()
  # the install alone lacks the headers the styles need: the message says what to add
  expect_error(installed_no_source "carries only the core headers.*add -DLAMMPS_SOURCE_DIR="
    -DLAMMPS_DIR=${prefix}/lib/cmake/LAMMPS)
  # with the source tree of that release: the plugin builds and the installed lmp loads it
  configure_mesogpu(installed -DCMAKE_PREFIX_PATH=${prefix} -DLAMMPS_SOURCE_DIR=${LAMMPS_TREE}
    -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_BUILD_TYPE=Debug)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "installed: configure failed:\n${log}")
  endif()
  string(FIND "${text}" "mesogpu: LAMMPS library ${prefix}/lib " at)
  if(at EQUAL -1)
    message(FATAL_ERROR "installed: not configured against the installed library:\n${log}")
  endif()
  build_plugin(installed)
  write_table_r2_input(${WORK_DIR}/in.table_r2 ${WORK_DIR}/build-installed/plugin/mesogpuplugin.so)
  expect_table_r2_run(installed ${CMAKE_COMMAND} -E env --unset=LAMMPS_PLUGIN_PATH
    LD_LIBRARY_PATH=${prefix}/lib ${prefix}/bin/lmp -in ${WORK_DIR}/in.table_r2 -log none -echo none)
  file(REMOVE_RECURSE ${prefix})   # a copy of the whole host LAMMPS (potentials included)
  return()
endif()

# --- errors: fake LAMMPS trees --------------------------------------------------------------
set(src ${WORK_DIR}/lammps/src)
file(MAKE_DIRECTORY ${src})
file(WRITE ${src}/lammps.h "// fake\n")
file(WRITE ${src}/version.h "#define LAMMPS_VERSION \"4 Jul 2026\"\n")

function(expect_configure_error name bindir regex)
  expect_error(${name} "${regex}" -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps -DLAMMPS_BINARY_DIR=${bindir})
endfunction()

# static library only
set(b ${WORK_DIR}/static)
file(MAKE_DIRECTORY ${b})
file(WRITE ${b}/liblammps.a "")
expect_configure_error(static ${b} "static liblammps.a; plugins need LAMMPS built as a shared library")

# shared library, but no PLUGIN package
set(b ${WORK_DIR}/noplugin)
file(MAKE_DIRECTORY ${b})
file(WRITE ${b}/liblammps.so "")
file(WRITE ${b}/CMakeCache.txt "PKG_PLUGIN:BOOL=OFF\nBUILD_SHARED_LIBS:BOOL=ON\nBUILD_MPI:BOOL=OFF\n")
expect_configure_error(noplugin ${b} "lacks the PLUGIN package; reconfigure it with -DPKG_PLUGIN=ON")

# PLUGIN, but the cache says static (a .so left over from another configuration)
set(b ${WORK_DIR}/notshared)
file(MAKE_DIRECTORY ${b})
file(WRITE ${b}/liblammps.so "")
file(WRITE ${b}/CMakeCache.txt "PKG_PLUGIN:BOOL=ON\nBUILD_SHARED_LIBS:BOOL=OFF\nBUILD_MPI:BOOL=OFF\n")
expect_configure_error(notshared ${b} "is not a shared library; reconfigure it with -DBUILD_SHARED_LIBS=ON")

# CUDA styles need MOLECULE, EXTRA-PAIR and DPD-BASIC (only checked when nvcc is present)
find_program(_nvcc nvcc HINTS /usr/local/cuda/bin)
if(_nvcc)
  set(b ${WORK_DIR}/nomolecule)
  file(MAKE_DIRECTORY ${b})
  file(WRITE ${b}/liblammps.so "")
  file(WRITE ${b}/CMakeCache.txt "PKG_PLUGIN:BOOL=ON\nBUILD_SHARED_LIBS:BOOL=ON\nBUILD_MPI:BOOL=OFF\nPKG_MOLECULE:BOOL=ON\nPKG_EXTRA-PAIR:BOOL=OFF\nPKG_DPD-BASIC:BOOL=OFF\n")
  expect_error(nomolecule "lacks EXTRA-PAIR, DPD-BASIC"
    -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps -DLAMMPS_BINARY_DIR=${b} -DMESOGPU_CUDA=ON)
  # a release that keeps dihedral_style table in EXTRA-MOLECULE (this fake tree has no
  # MOLECULE/dihedral_table.h): dihedral_style table/cuda needs that package too
  set(b ${WORK_DIR}/noextramolecule)
  file(MAKE_DIRECTORY ${b})
  file(WRITE ${b}/liblammps.so "")
  file(WRITE ${b}/CMakeCache.txt "PKG_PLUGIN:BOOL=ON\nBUILD_SHARED_LIBS:BOOL=ON\nBUILD_MPI:BOOL=OFF\nPKG_MOLECULE:BOOL=ON\nPKG_EXTRA-PAIR:BOOL=ON\nPKG_DPD-BASIC:BOOL=ON\n")
  expect_error(noextramolecule "lacks EXTRA-MOLECULE"
    -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps -DLAMMPS_BINARY_DIR=${b} -DMESOGPU_CUDA=ON)
endif()

# no build folder given
expect_configure_error(nobinary "" "LAMMPS_SOURCE_DIR is set but LAMMPS_BINARY_DIR is not")

# not a LAMMPS tree
expect_error(nosrc "holds no lammps.h"
  -DLAMMPS_SOURCE_DIR=${WORK_DIR}/nothing -DLAMMPS_BINARY_DIR=${WORK_DIR}/static)

# a usable fake build folder (shared, PLUGIN, no MPI) for the checks that follow
set(good ${WORK_DIR}/good)
file(MAKE_DIRECTORY ${good})
file(WRITE ${good}/liblammps.so "")
file(WRITE ${good}/CMakeCache.txt "PKG_PLUGIN:BOOL=ON\nBUILD_SHARED_LIBS:BOOL=ON\nBUILD_MPI:BOOL=OFF\n")

# a release older than the oldest supported one, and an unreadable version.h
foreach(_v "2 Aug 2023" "19 Nov 2024")
  set(old ${WORK_DIR}/old/src)
  file(MAKE_DIRECTORY ${old})
  file(WRITE ${old}/lammps.h "// fake\n")
  file(WRITE ${old}/version.h "#define LAMMPS_VERSION \"${_v}\"\n")
  expect_error(old_release "is release ${_v}; mesogpu needs LAMMPS 4 Feb 2025 or newer"
    -DLAMMPS_SOURCE_DIR=${WORK_DIR}/old -DLAMMPS_BINARY_DIR=${good})
endforeach()
file(WRITE ${old}/version.h "#define LAMMPS_VERSION \"stable\"\n")
expect_error(bad_version_h "cannot read the LAMMPS release from .*version.h"
  -DLAMMPS_SOURCE_DIR=${WORK_DIR}/old -DLAMMPS_BINARY_DIR=${good})
# the oldest supported release itself passes the version check (and then fails on the
# fake library's missing GoogleTest, which it reaches only past that check)
file(WRITE ${old}/version.h "#define LAMMPS_VERSION \"4 Feb 2025\"\n")
expect_error(oldest_release "need GoogleTest: install the Debian packages libgtest-dev"
  -DLAMMPS_SOURCE_DIR=${WORK_DIR}/old -DLAMMPS_BINARY_DIR=${good}
  -DMESOGPU_TESTS=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)

# headers of one release, library of another
set(b ${WORK_DIR}/otherrelease)
file(MAKE_DIRECTORY ${b})
file(WRITE ${b}/liblammps.so "")
file(WRITE ${b}/CMakeCache.txt "PKG_PLUGIN:BOOL=ON\nBUILD_SHARED_LIBS:BOOL=ON\nBUILD_MPI:BOOL=OFF\n")
file(WRITE ${b}/LAMMPSConfigVersion.cmake "set(PACKAGE_VERSION \"2025.7.22.0\")\n")
expect_configure_error(other_release ${b} "headers in .* are release 4 Jul 2026 but the library in .* is release 2025.7.22")

# tests asked for, GoogleTest or libyaml missing: the message names the Debian package
expect_error(tests_without_gtest "need GoogleTest: install the Debian packages libgtest-dev"
  -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps -DLAMMPS_BINARY_DIR=${good}
  -DMESOGPU_TESTS=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON)
# (this test runs only in a build with tests, so GoogleTest is there to get past)
set(tree ${WORK_DIR}/withtests)
file(MAKE_DIRECTORY ${tree}/src ${tree}/unittest/force-styles ${WORK_DIR}/noyaml)
file(WRITE ${tree}/src/lammps.h "// fake\n")
file(WRITE ${tree}/src/version.h "#define LAMMPS_VERSION \"4 Jul 2026\"\n")
file(WRITE ${tree}/unittest/force-styles/test_pair_style.cpp "// fake\n")
expect_error(tests_without_yaml "need libyaml: install the Debian package libyaml-dev"
  -DLAMMPS_SOURCE_DIR=${tree} -DLAMMPS_BINARY_DIR=${good}
  -DMESOGPU_TESTS=ON -DYAML_INCLUDE_DIR=${WORK_DIR}/noyaml)

# an installed LAMMPS (fake LAMMPSConfig.cmake): without the source tree, or with the
# source tree of another release
set(prefix ${WORK_DIR}/prefix)
file(MAKE_DIRECTORY ${prefix}/lib/cmake/LAMMPS)
file(WRITE ${prefix}/lib/liblammps.so.0 "")
file(WRITE ${prefix}/lib/cmake/LAMMPS/LAMMPSConfig.cmake
  "add_library(LAMMPS::lammps SHARED IMPORTED)
set_target_properties(LAMMPS::lammps PROPERTIES IMPORTED_LOCATION \${CMAKE_CURRENT_LIST_DIR}/../../liblammps.so.0)
set(LAMMPS_LIBRARY \${CMAKE_CURRENT_LIST_DIR}/../../liblammps.so.0)
set(LAMMPS_INCLUDE_DIR \${CMAKE_CURRENT_LIST_DIR}/../../../include)\n")
file(WRITE ${prefix}/lib/cmake/LAMMPS/LAMMPSConfigVersion.cmake
  "set(PACKAGE_VERSION \"2025.7.22.0\")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n")
expect_error(installed_no_source "the installed LAMMPS .* carries only the core headers.*add -DLAMMPS_SOURCE_DIR="
  -DLAMMPS_DIR=${prefix}/lib/cmake/LAMMPS)
expect_error(installed_other_release "headers in .* are release 4 Jul 2026 but the library in .* is release 2025.7.22"
  -DCMAKE_PREFIX_PATH=${prefix} -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps)
expect_error(installed_not_found "LAMMPS_DIR='.*' holds no usable LAMMPSConfig.cmake"
  -DLAMMPS_DIR=${WORK_DIR}/nothing)
# installed libraries that are no LAMMPS, or lack packages (read from their symbols)
file(WRITE ${WORK_DIR}/prefix/lib/cmake/LAMMPS/LAMMPSConfigVersion.cmake
  "set(PACKAGE_VERSION \"2026.7.4.0\")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n")
expect_error(installed_empty_library "cannot read the symbols of .*liblammps.so.0"
  -DLAMMPS_DIR=${prefix}/lib/cmake/LAMMPS -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps)
if(CXX)
  foreach(_fake noplugin plugin)
    if(_fake STREQUAL "plugin")
      file(WRITE ${WORK_DIR}/fake_lammps.cpp
        "namespace LAMMPS_NS {\nstruct Plugin { Plugin(void *); };\nPlugin::Plugin(void *) {}\n}\n")
    else()
      file(WRITE ${WORK_DIR}/fake_lammps.cpp "int lammps_fake_symbol() { return 0; }\n")
    endif()
    execute_process(COMMAND ${CXX} -shared -fPIC -o ${prefix}/lib/liblammps.so.0 ${WORK_DIR}/fake_lammps.cpp
      RESULT_VARIABLE r)
    if(NOT r EQUAL 0)
      message(FATAL_ERROR "compiling the fake liblammps.so.0 with ${CXX} failed")
    endif()
    if(_fake STREQUAL "noplugin")
      expect_error(installed_noplugin "the installed LAMMPS .* lacks the PLUGIN package"
        -DLAMMPS_DIR=${prefix}/lib/cmake/LAMMPS -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps)
    elseif(_nvcc)   # (the /cuda packages are checked only when the CUDA engine is built)
      expect_error(installed_nomolecule "the installed LAMMPS .* lacks MOLECULE, EXTRA-PAIR, DPD-BASIC"
        -DLAMMPS_DIR=${prefix}/lib/cmake/LAMMPS -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps -DMESOGPU_CUDA=ON)
    endif()
  endforeach()
endif()
message("all unusable LAMMPS configurations were refused with a clear message")
