#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .device/ carried (made here by
# tools/device-pack.sh). Builds, into .device-build/ (git-ignored, kept between calls on
# a warm machine):
#   lammps/  the device-profile host LAMMPS (MPI with that machine's OpenMPI, the LAMMPS
#            GPU package as the benchmark peer, OpenMP), from the carried source subset;
#   mixed/, double/, single/: mesogpu in each precision against it, with the GPU tests.
# Each step is skipped when its result is already there. 16 cores: about 3 minutes for
# LAMMPS and 2 for mesogpu.
# MESOGPU_DEVICE_PRECISIONS (default "mixed double single") picks the mesogpu builds,
# MESOGPU_DEVICE_TESTS (default: every unittest/gpu/test_gpu_*) the GPU tests built.
# A fresh machine can skip the LAMMPS build: MESOGPU_DEVICE_EXPORT=DIR writes the built
# host (library, lmp, generated headers, CMake cache) to DIR/lammps-build.tar.xz; put
# that file into .device/ here and the next machine unpacks it instead of building.
set -euo pipefail
ROOT="$(pwd)"
D="$ROOT/.device"
B="$ROOT/.device-build"
export PATH="/usr/local/cuda/bin:$PATH"
# nproc --all: plain nproc obeys OMP_NUM_THREADS, which the device scripts set to 1
export MESOGPU_CACHE="$B/cache" MESOGPU_JOBS="${MESOGPU_JOBS:-$(nproc --all)}"
SRC="$MESOGPU_CACHE/lammps-20260704"
mkdir -p "$MESOGPU_CACHE"
if [ ! -f "$SRC/.complete" ]; then
  rm -rf "$SRC" && mkdir -p "$SRC"
  tar -C "$SRC" -xJf "$D/lammps-src.tar.xz"
  mkdir -p "$SRC/potentials" "$SRC/doc" "$SRC/tools"
  touch "$SRC/.complete"
fi
t0=$(date +%s)
if [ -s "$D/lammps-build.tar.xz" ] && ! ls -d "$MESOGPU_CACHE"/lammps-20260704-build-device-* >/dev/null 2>&1; then
  tar -C "$MESOGPU_CACHE" -xJf "$D/lammps-build.tar.xz"
fi
host=$("$ROOT/tools/host-lammps.sh" --profile device)
BIN=$(echo "$host" | sed -n 's/^LAMMPS_BINARY_DIR=//p')
ln -sfn "$BIN" "$B/lammps"
echo "device-build: host LAMMPS ready in $(($(date +%s) - t0)) s: $BIN"
if [ -n "${MESOGPU_DEVICE_EXPORT:-}" ]; then
  strip --strip-unneeded "$BIN"/liblammps.so.0 "$BIN/lmp" 2>/dev/null || true
  (cd "$MESOGPU_CACHE" && tar -cJf "$MESOGPU_DEVICE_EXPORT/lammps-build.tar.xz" \
    "$(basename "$BIN")"/{liblammps.so*,lmp,CMakeCache.txt,styles,.complete})
  ls -la "$MESOGPU_DEVICE_EXPORT/lammps-build.tar.xz"
fi
for prec in ${MESOGPU_DEVICE_PRECISIONS:-mixed double single}; do
  t0=$(date +%s)
  cmake -S "$ROOT" -B "$B/$prec" -DLAMMPS_SOURCE_DIR="$SRC" -DLAMMPS_BINARY_DIR="$BIN" \
    -DMESOGPU_CUDA=ON -DMESOGPU_PRECISION="$prec" -DMESOGPU_TESTS=ON -DMESOGPU_EXAMPLE_TESTS=OFF -DGTEST_ROOT="$D/gtest" \
    -DCMAKE_BUILD_TYPE=Release >"$B/configure-$prec.log" 2>&1 ||
    { tail -30 "$B/configure-$prec.log"; exit 1; }
  # the plugin and every GPU test (unittest/gpu/test_gpu_*.cpp)
  # (MESOGPU_DEVICE_TESTS="test_gpu_a test_gpu_b" builds only those)
  targets=${MESOGPU_DEVICE_TESTS:-$(cd "$ROOT/unittest/gpu" && ls test_gpu_*.cpp | sed 's/\.cpp$//')}
  # shellcheck disable=SC2086
  cmake --build "$B/$prec" -j "$MESOGPU_JOBS" --target mesogpuplugin $targets \
    >"$B/build-$prec.log" 2>&1 || { grep -m20 -B2 -A8 "error" "$B/build-$prec.log"; exit 1; }
  echo "device-build: mesogpu $prec built in $(($(date +%s) - t0)) s"
done
[ -x "$B/bandwidth" ] || nvcc -O2 -arch=sm_90 -o "$B/bandwidth" "$ROOT/bench/bandwidth.cu"
