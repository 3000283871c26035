# Find (or build) the host LAMMPS the plugin is compiled against.
#
# Either the user names an existing tree and its CMake build:
#   -DLAMMPS_SOURCE_DIR=/path/to/lammps[/src] -DLAMMPS_BINARY_DIR=/path/to/build
# or, by default, tools/host-lammps.sh gets the 4 Jul 2026 release from the Debian
# archive and builds it once into a cache outside the build tree.
# Result: imported target mesogpu::lammps, LAMMPS_SOURCE_DIR (the src/ folder),
# LAMMPS_TREE_DIR (its parent), LAMMPS_BINARY_DIR, LAMMPS_LMP, LAMMPS_BUILD_MPI.

set(LAMMPS_SOURCE_DIR "" CACHE PATH "Existing LAMMPS source tree (its root or src/); empty: build our own host")
set(LAMMPS_BINARY_DIR "" CACHE PATH "CMake build folder of that LAMMPS (with liblammps.so)")

if(NOT LAMMPS_SOURCE_DIR)
  message(STATUS "mesogpu: getting the host LAMMPS (cached; the first build takes a while)")
  execute_process(
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/host-lammps.sh
    OUTPUT_VARIABLE _host_out
    RESULT_VARIABLE _host_rc)
  if(NOT _host_rc EQUAL 0)
    message(FATAL_ERROR "mesogpu: building the host LAMMPS failed (see messages above)")
  endif()
  string(REGEX MATCH "LAMMPS_SOURCE_DIR=([^\n]*)" _m "${_host_out}")
  set(_src "${CMAKE_MATCH_1}")
  string(REGEX MATCH "LAMMPS_BINARY_DIR=([^\n]*)" _m "${_host_out}")
  set(_bin "${CMAKE_MATCH_1}")
  set(LAMMPS_SOURCE_DIR "${_src}" CACHE PATH "" FORCE)
  set(LAMMPS_BINARY_DIR "${_bin}" CACHE PATH "" FORCE)
  set(MESOGPU_OWN_HOST ON CACHE INTERNAL "")
endif()

# accept the tree root or its src/ folder
if(EXISTS "${LAMMPS_SOURCE_DIR}/src/lammps.h")
  set(LAMMPS_TREE_DIR "${LAMMPS_SOURCE_DIR}")
  set(LAMMPS_SOURCE_DIR "${LAMMPS_SOURCE_DIR}/src")
elseif(EXISTS "${LAMMPS_SOURCE_DIR}/lammps.h")
  get_filename_component(LAMMPS_TREE_DIR "${LAMMPS_SOURCE_DIR}/.." ABSOLUTE)
else()
  message(FATAL_ERROR "mesogpu: LAMMPS_SOURCE_DIR='${LAMMPS_SOURCE_DIR}' holds no lammps.h "
    "(give the LAMMPS tree or its src/ folder)")
endif()

if(NOT LAMMPS_BINARY_DIR)
  message(FATAL_ERROR "mesogpu: LAMMPS_SOURCE_DIR is set but LAMMPS_BINARY_DIR is not: give the "
    "CMake build folder of that LAMMPS (the one holding liblammps.so)")
endif()
if(NOT EXISTS "${LAMMPS_BINARY_DIR}/liblammps.so")
  if(EXISTS "${LAMMPS_BINARY_DIR}/liblammps.a")
    message(FATAL_ERROR "mesogpu: ${LAMMPS_BINARY_DIR} holds a static liblammps.a; plugins need "
      "LAMMPS built as a shared library: reconfigure it with -DBUILD_SHARED_LIBS=ON and rebuild")
  endif()
  message(FATAL_ERROR "mesogpu: no liblammps.so in LAMMPS_BINARY_DIR='${LAMMPS_BINARY_DIR}'; "
    "build LAMMPS with CMake and -DBUILD_SHARED_LIBS=ON -DPKG_PLUGIN=ON")
endif()

# read the configuration of that build
set(_cache "${LAMMPS_BINARY_DIR}/CMakeCache.txt")
if(NOT EXISTS "${_cache}")
  message(FATAL_ERROR "mesogpu: ${_cache} not found; LAMMPS_BINARY_DIR must be a CMake build folder")
endif()
function(_lammps_cache_value name out)
  file(STRINGS "${_cache}" _line REGEX "^${name}:[A-Z]+=")
  string(REGEX REPLACE "^${name}:[A-Z]+=" "" _val "${_line}")
  set(${out} "${_val}" PARENT_SCOPE)
endfunction()
_lammps_cache_value(PKG_PLUGIN _pkg_plugin)
# packages whose styles the /cuda variants derive from
set(LAMMPS_MISSING_FOR_CUDA "")
foreach(_pkg MOLECULE EXTRA-PAIR DPD-BASIC)
  _lammps_cache_value(PKG_${_pkg} _have)
  if(NOT _have)
    list(APPEND LAMMPS_MISSING_FOR_CUDA ${_pkg})
  endif()
endforeach()
_lammps_cache_value(BUILD_SHARED_LIBS _shared)
_lammps_cache_value(BUILD_MPI LAMMPS_BUILD_MPI)
_lammps_cache_value(LAMMPS_SIZES _sizes)
if(NOT _pkg_plugin)
  message(FATAL_ERROR "mesogpu: the LAMMPS in ${LAMMPS_BINARY_DIR} lacks the PLUGIN package; "
    "reconfigure it with -DPKG_PLUGIN=ON and rebuild")
endif()
if(NOT _shared)
  message(FATAL_ERROR "mesogpu: the LAMMPS in ${LAMMPS_BINARY_DIR} is not a shared library; "
    "reconfigure it with -DBUILD_SHARED_LIBS=ON and rebuild")
endif()
if(NOT _sizes)
  set(_sizes smallbig)
endif()
string(TOUPPER "${_sizes}" _sizes)

set(LAMMPS_LMP "${LAMMPS_BINARY_DIR}/lmp")

add_library(mesogpu::lammps SHARED IMPORTED GLOBAL)
set_target_properties(mesogpu::lammps PROPERTIES
  IMPORTED_LOCATION "${LAMMPS_BINARY_DIR}/liblammps.so"
  INTERFACE_INCLUDE_DIRECTORIES "${LAMMPS_SOURCE_DIR};${LAMMPS_BINARY_DIR}/styles"
  INTERFACE_COMPILE_DEFINITIONS "LAMMPS_${_sizes}")
# a LAMMPS with the GPU package needs the CUDA driver (libcuda.so.1), which machines
# without a GPU lack: leave that library's symbols to the run-time linker
_lammps_cache_value(PKG_GPU _pkg_gpu)
if(_pkg_gpu)
  set_property(TARGET mesogpu::lammps APPEND PROPERTY INTERFACE_LINK_OPTIONS "-Wl,--allow-shlib-undefined")
endif()

if(LAMMPS_BUILD_MPI)
  set(MPI_CXX_SKIP_MPICXX TRUE)
  find_package(MPI REQUIRED COMPONENTS CXX)
  set_property(TARGET mesogpu::lammps APPEND PROPERTY INTERFACE_LINK_LIBRARIES MPI::MPI_CXX)
else()
  set_property(TARGET mesogpu::lammps APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${LAMMPS_SOURCE_DIR}/STUBS")
endif()
