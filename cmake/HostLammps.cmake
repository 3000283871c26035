# Find (or build) the host LAMMPS the plugin is compiled against. Three ways:
#
#  (a) a LAMMPS source tree and its CMake build folder:
#        -DLAMMPS_SOURCE_DIR=/path/to/lammps[/src] -DLAMMPS_BINARY_DIR=/path/to/build
#  (b) an installed LAMMPS (`cmake --install` of a LAMMPS build: lib/liblammps.so and
#      lib/cmake/LAMMPS/LAMMPSConfig.cmake), found with find_package(LAMMPS):
#        -DLAMMPS_DIR=<prefix>/lib/cmake/LAMMPS  or  -DCMAKE_PREFIX_PATH=<prefix>
#      plus -DLAMMPS_SOURCE_DIR=<the source tree of the same release>: an install
#      carries only LAMMPS's core headers (no lammpsplugin.h, version.h, grid3d.h, no
#      package headers), and the styles here extend LAMMPS classes beyond those.
#  (c) by default, tools/host-lammps.sh gets the 4 Jul 2026 release from the Debian
#      archive and builds it once into a cache outside the build tree (the project's
#      own host, which the tests and CI use).
# Result: imported target mesogpu::lammps, LAMMPS_SOURCE_DIR (the src/ folder),
# LAMMPS_TREE_DIR (its parent), LAMMPS_LIBRARY_DIR (the folder of liblammps.so),
# LAMMPS_LMP, LAMMPS_BUILD_MPI, LAMMPS_RELEASE ("4 Jul 2026"), LAMMPS_MISSING_FOR_CUDA,
# LAMMPS_DESCRIPTION (for messages), MESOGPU_OWN_HOST (ON for (c)).

# Oldest supported LAMMPS release: 4 Feb 2025. The styles report bad input with the
# Error::all(FLERR, <argument index>, ...) and Error::all(FLERR, Error::NOLASTLINE, ...)
# overloads, which format their message with utils::point_to_error(), and write restart
# coefficients with utils::print(); LAMMPS documents both functions as
# "versionadded:: 4Feb2025" (src/utils.h). Everything else they use is older: Grid3d and
# Memory::create4d_offset_last (22 Dec 2022), Neighbor::add_request (24 Mar 2022),
# LAMMPS_PLUGIN_PATH auto-loading (4 May 2022), utils::missing_cmd_args, utils::bounds.
# The API changes LAMMPS lists after 4 Feb 2025 in doc/src/Developer_updating.rst
# (Domain::minimum_image taking FLERR, 12 Jun 2025; Error::message removed, 22 Jul 2025)
# touch nothing used here; 'plugin restore' (12 Jun 2025) is not needed.
set(MESOGPU_LAMMPS_OLDEST 20250204)
set(MESOGPU_LAMMPS_OLDEST_NAME "4 Feb 2025")

set(LAMMPS_SOURCE_DIR "" CACHE PATH "Existing LAMMPS source tree (its root or src/); empty: build our own host")
set(LAMMPS_BINARY_DIR "" CACHE PATH "CMake build folder of that LAMMPS (with liblammps.so)")

# "4 Jul 2026" -> 20260704; empty if the text is not a LAMMPS release date
function(_lammps_date_number text out)
  set(_months Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)
  set(_num "")
  if(text MATCHES "^([0-9]+) ([A-Za-z]+) ([0-9][0-9][0-9][0-9])$")
    set(_d ${CMAKE_MATCH_1})
    set(_y ${CMAKE_MATCH_3})
    list(FIND _months "${CMAKE_MATCH_2}" _m)
    if(_m GREATER -1)
      math(EXPR _num "${_y} * 10000 + (${_m} + 1) * 100 + ${_d}")
    endif()
  endif()
  set(${out} "${_num}" PARENT_SCOPE)
endfunction()
# "2026.7.4[.0]" (the version of LAMMPS's CMake package) -> 20260704
function(_lammps_package_number text out)
  set(_num "")
  if(text MATCHES "^([0-9][0-9][0-9][0-9])\\.([0-9]+)\\.([0-9]+)")
    math(EXPR _num "${CMAKE_MATCH_1} * 10000 + ${CMAKE_MATCH_2} * 100 + ${CMAKE_MATCH_3}")
  endif()
  set(${out} "${_num}" PARENT_SCOPE)
endfunction()

# --- which LAMMPS ---------------------------------------------------------------------
set(_lammps_kind "")
if(LAMMPS_BINARY_DIR)
  set(_lammps_kind build)
elseif(LAMMPS_DIR OR CMAKE_PREFIX_PATH)
  set(_lammps_dir_given "${LAMMPS_DIR}")   # find_package resets it when it finds nothing
  find_package(LAMMPS CONFIG QUIET)
  if(LAMMPS_FOUND)
    set(_lammps_kind installed)
  elseif(_lammps_dir_given)
    message(FATAL_ERROR "mesogpu: LAMMPS_DIR='${_lammps_dir_given}' holds no usable LAMMPSConfig.cmake; "
      "give <prefix>/lib/cmake/LAMMPS of a LAMMPS installed with 'cmake --install' "
      "(LAMMPS configured with -DBUILD_SHARED_LIBS=ON)")
  endif()
endif()
if(NOT _lammps_kind)
  if(LAMMPS_SOURCE_DIR)
    message(FATAL_ERROR "mesogpu: LAMMPS_SOURCE_DIR is set but LAMMPS_BINARY_DIR is not: give the "
      "CMake build folder of that LAMMPS (the one holding liblammps.so), or, for an installed "
      "LAMMPS, -DLAMMPS_DIR=<prefix>/lib/cmake/LAMMPS")
  endif()
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
  set(MESOGPU_OWN_HOST_BINARY_DIR "${_bin}" CACHE INTERNAL "the host tools/host-lammps.sh built")
  set(_lammps_kind build)
endif()
# the project's own host: the one tools/host-lammps.sh built (also on a re-configure)
if(_lammps_kind STREQUAL "build" AND LAMMPS_BINARY_DIR STREQUAL "${MESOGPU_OWN_HOST_BINARY_DIR}")
  set(MESOGPU_OWN_HOST ON)
else()
  set(MESOGPU_OWN_HOST OFF)
endif()

# --- the source tree (headers) and its release --------------------------------------
if(_lammps_kind STREQUAL "installed" AND NOT LAMMPS_SOURCE_DIR)
  message(FATAL_ERROR "mesogpu: the installed LAMMPS (${LAMMPS_DIR}) carries only the core "
    "headers LAMMPS installs (no lammpsplugin.h, version.h, grid3d.h, nor the MOLECULE, "
    "EXTRA-PAIR, DPD-BASIC headers); mesogpu's styles extend LAMMPS classes beyond those: add "
    "-DLAMMPS_SOURCE_DIR=<the LAMMPS source tree of the same release, ${LAMMPS_VERSION}>")
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
# dihedral_style table, the parent of dihedral_style table/cuda, is in MOLECULE in the
# recent releases (4 Jul 2026) and was in EXTRA-MOLECULE in older ones: the /cuda styles
# need the package that holds it in this release
if(EXISTS "${LAMMPS_SOURCE_DIR}/MOLECULE/dihedral_table.h")
  set(LAMMPS_DIHEDRAL_TABLE_PKG MOLECULE)
else()
  set(LAMMPS_DIHEDRAL_TABLE_PKG EXTRA-MOLECULE)
endif()

set(_version_h "${LAMMPS_SOURCE_DIR}/version.h")
set(LAMMPS_RELEASE "")
if(EXISTS "${_version_h}")
  file(STRINGS "${_version_h}" _line REGEX "^#define LAMMPS_VERSION ")
  if(_line MATCHES "\"([^\"]*)\"")
    set(LAMMPS_RELEASE "${CMAKE_MATCH_1}")
  endif()
endif()
_lammps_date_number("${LAMMPS_RELEASE}" LAMMPS_RELEASE_NUMBER)
if(NOT LAMMPS_RELEASE_NUMBER)
  message(FATAL_ERROR "mesogpu: cannot read the LAMMPS release from ${_version_h} (expected a "
    "line like '#define LAMMPS_VERSION \"4 Jul 2026\"')")
endif()
if(LAMMPS_RELEASE_NUMBER LESS MESOGPU_LAMMPS_OLDEST)
  message(FATAL_ERROR "mesogpu: the LAMMPS in ${LAMMPS_TREE_DIR} is release ${LAMMPS_RELEASE}; "
    "mesogpu needs LAMMPS ${MESOGPU_LAMMPS_OLDEST_NAME} or newer (the oldest release with the "
    "error and utils API its styles use)")
endif()

# the library must be the release the headers are (a plugin built against other headers
# fails to load or misbehaves)
function(_lammps_check_same_release lib_version where)
  _lammps_package_number("${lib_version}" _lib)
  if(_lib AND NOT _lib EQUAL LAMMPS_RELEASE_NUMBER)
    message(FATAL_ERROR "mesogpu: the LAMMPS headers in ${LAMMPS_SOURCE_DIR} are release "
      "${LAMMPS_RELEASE} but the library in ${where} is release ${lib_version}: give the "
      "source tree that library was built from")
  endif()
endfunction()

if(_lammps_kind STREQUAL "build")
  # --- (a), (c): a CMake build folder -------------------------------------------------
  set(LAMMPS_DESCRIPTION "the LAMMPS in ${LAMMPS_BINARY_DIR}")
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
  if(EXISTS "${LAMMPS_BINARY_DIR}/LAMMPSConfigVersion.cmake")
    file(STRINGS "${LAMMPS_BINARY_DIR}/LAMMPSConfigVersion.cmake" _line
      REGEX "^set\\(PACKAGE_VERSION \"")
    if(_line MATCHES "\"([^\"]*)\"")
      _lammps_check_same_release("${CMAKE_MATCH_1}" "${LAMMPS_BINARY_DIR}")
    endif()
  endif()
  _lammps_cache_value(PKG_PLUGIN _pkg_plugin)
  # packages whose styles the /cuda variants derive from
  set(LAMMPS_MISSING_FOR_CUDA "")
  foreach(_pkg MOLECULE EXTRA-PAIR DPD-BASIC ${LAMMPS_DIHEDRAL_TABLE_PKG})
    _lammps_cache_value(PKG_${_pkg} _have)
    if(NOT _have)
      list(APPEND LAMMPS_MISSING_FOR_CUDA ${_pkg})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES LAMMPS_MISSING_FOR_CUDA)
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

  set(LAMMPS_LIBRARY_DIR "${LAMMPS_BINARY_DIR}")
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
else()
  # --- (b): an installed LAMMPS: LAMMPS::lammps brings the library, MPI, the integer
  # sizes; the headers come from the source tree ---------------------------------------
  set(LAMMPS_DESCRIPTION "the installed LAMMPS (${LAMMPS_DIR})")
  _lammps_check_same_release("${LAMMPS_VERSION}" "${LAMMPS_DIR}")
  set(_lib "${LAMMPS_LIBRARY}")
  if(NOT _lib)
    get_target_property(_lib LAMMPS::lammps LOCATION)
  endif()
  if(NOT _lib MATCHES "\\.so(\\.[0-9]+)*$")
    message(FATAL_ERROR "mesogpu: ${LAMMPS_DESCRIPTION} is not a shared library (${_lib}); "
      "reconfigure LAMMPS with -DBUILD_SHARED_LIBS=ON, rebuild and install it")
  endif()
  get_filename_component(LAMMPS_LIBRARY_DIR "${_lib}" DIRECTORY)

  # no CMake cache here: read the packages from the library's exported classes
  # (LAMMPS_NS::Plugin, BondHarmonic, PairGauss, PairDPD)
  set(_nm_out "")
  if(CMAKE_NM)
    execute_process(COMMAND ${CMAKE_NM} -D --defined-only "${_lib}"
      COMMAND grep -E "_ZN9LAMMPS_NS(6Plugin|12BondHarmonic|9PairGauss|7PairDPD|13DihedralTable)C"
      OUTPUT_VARIABLE _nm_out ERROR_VARIABLE _nm_err RESULTS_VARIABLE _nm_rc)
    list(GET _nm_rc 0 _nm_rc)
    if(NOT _nm_rc EQUAL 0)
      message(FATAL_ERROR "mesogpu: cannot read the symbols of ${_lib} (${_nm_err}); "
        "is it a shared library built by LAMMPS?")
    endif()
    if(NOT _nm_out MATCHES "6PluginC")
      message(FATAL_ERROR "mesogpu: ${LAMMPS_DESCRIPTION} lacks the PLUGIN package; "
        "reconfigure LAMMPS with -DPKG_PLUGIN=ON, rebuild and install it")
    endif()
  endif()
  set(LAMMPS_MISSING_FOR_CUDA "")
  foreach(_pair "MOLECULE;12BondHarmonic" "EXTRA-PAIR;9PairGauss" "DPD-BASIC;7PairDPD"
                "${LAMMPS_DIHEDRAL_TABLE_PKG};13DihedralTable")
    list(GET _pair 0 _pkg)
    list(GET _pair 1 _class)
    if(CMAKE_NM AND NOT _nm_out MATCHES "${_class}C")
      list(APPEND LAMMPS_MISSING_FOR_CUDA ${_pkg})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES LAMMPS_MISSING_FOR_CUDA)

  get_target_property(_links LAMMPS::lammps INTERFACE_LINK_LIBRARIES)
  if(_links MATCHES "MPI::MPI_CXX")
    set(LAMMPS_BUILD_MPI ON)
  else()
    set(LAMMPS_BUILD_MPI OFF)
  endif()

  set(LAMMPS_LMP "")
  if(TARGET LAMMPS::lmp)
    get_target_property(LAMMPS_LMP LAMMPS::lmp LOCATION)
  endif()

  add_library(mesogpu::lammps INTERFACE IMPORTED GLOBAL)
  set_property(TARGET mesogpu::lammps PROPERTY INTERFACE_LINK_LIBRARIES LAMMPS::lammps)
  set_property(TARGET mesogpu::lammps PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${LAMMPS_SOURCE_DIR}")
  if(NOT LAMMPS_BUILD_MPI)
    # the installed mpi_stubs target has no headers: the tree's STUBS/mpi.h
    set_property(TARGET mesogpu::lammps APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${LAMMPS_SOURCE_DIR}/STUBS")
  endif()
endif()
