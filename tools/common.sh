# shared by quickstart.sh and test.sh: install dependencies, configure and build.
# MESOGPU_BUILD (default <repo>/build) is the build folder, MESOGPU_CMAKE_ARGS extra
# CMake arguments (e.g. -DMESOGPU_CUDA=OFF), MESOGPU_JOBS the parallel build jobs.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MESOGPU_BUILD:-$ROOT/build}"
JOBS="${MESOGPU_JOBS:-$(nproc)}"
export MESOGPU_JOBS="$JOBS"

mesogpu_build() {
  "$ROOT/tools/deps.sh"
  # shellcheck disable=SC2086
  cmake -S "$ROOT" -B "$BUILD" ${MESOGPU_CMAKE_ARGS:-}
  cmake --build "$BUILD" -j "$JOBS"
}
