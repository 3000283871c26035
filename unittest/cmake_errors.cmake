# ctest driver: configuring mesogpu against an unusable LAMMPS must stop with a message
# that names the problem. Builds fake LAMMPS trees under WORK_DIR and configures the
# project (SOURCE_DIR) against each; expects failure and the given text.
file(REMOVE_RECURSE ${WORK_DIR})
set(src ${WORK_DIR}/lammps/src)
file(MAKE_DIRECTORY ${src})
file(WRITE ${src}/lammps.h "// fake\n")

function(expect_configure_error name bindir regex)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build-${name}
      -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps -DLAMMPS_BINARY_DIR=${bindir} -DMESOGPU_CUDA=OFF
    OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  string(REGEX REPLACE "[ \n]+" " " text "${o}${e}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: configure succeeded against an unusable LAMMPS")
  endif()
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: error message does not match '${regex}':\n${o}${e}")
  endif()
  message("${name}: stopped as expected")
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
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build-nomolecule
      -DLAMMPS_SOURCE_DIR=${WORK_DIR}/lammps -DLAMMPS_BINARY_DIR=${b} -DMESOGPU_CUDA=ON
    OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  string(REGEX REPLACE "[ \n]+" " " text "${o}${e}")
  if(rc EQUAL 0 OR NOT text MATCHES "lacks EXTRA-PAIR, DPD-BASIC")
    message(FATAL_ERROR "nomolecule: expected 'lacks EXTRA-PAIR, DPD-BASIC':\n${o}${e}")
  endif()
  message("nomolecule: stopped as expected")
endif()

# no build folder given
expect_configure_error(nobinary "" "LAMMPS_SOURCE_DIR is set but LAMMPS_BINARY_DIR is not")

# not a LAMMPS tree
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build-nosrc
    -DLAMMPS_SOURCE_DIR=${WORK_DIR}/nothing -DLAMMPS_BINARY_DIR=${WORK_DIR}/static -DMESOGPU_CUDA=OFF
  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
string(REGEX REPLACE "[ \n]+" " " text "${o}${e}")
if(rc EQUAL 0 OR NOT text MATCHES "holds no lammps.h")
  message(FATAL_ERROR "nosrc: expected 'holds no lammps.h':\n${o}${e}")
endif()
message("all unusable LAMMPS configurations were refused with a clear message")
