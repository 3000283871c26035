# shared by quickstart.sh and test.sh: install dependencies, configure and build.
# MESOGPU_BUILD (default <repo>/build) is the build folder, MESOGPU_CMAKE_ARGS extra
# CMake arguments (e.g. -DMESOGPU_CUDA=OFF), MESOGPU_JOBS the parallel build jobs.
# The tests are always built here (deps.sh installs GoogleTest and libyaml), also when
# MESOGPU_CMAKE_ARGS names another LAMMPS, for which CMake's default is plugin only.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MESOGPU_BUILD:-$ROOT/build}"
JOBS="${MESOGPU_JOBS:-$(nproc)}"
export MESOGPU_JOBS="$JOBS"

mesogpu_build() {
  "$ROOT/tools/deps.sh"
  # shellcheck disable=SC2086
  cmake -S "$ROOT" -B "$BUILD" -DMESOGPU_TESTS=ON ${MESOGPU_CMAKE_ARGS:-}
  cmake --build "$BUILD" -j "$JOBS"
}
