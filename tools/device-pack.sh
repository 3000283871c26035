#!/usr/bin/env bash
# Builds what the GPU machine runs and packs it into .device/ (git-ignored, carried by
# the device tool): the device-profile host LAMMPS (no MPI, LAMMPS GPU package),
# mesogpu built against it, the GPU test programs, and the bandwidth probe.
# Then, on the GPU machine: tools/device-run.sh [tests|bench|all] [quick]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MESOGPU_DEVICE_BUILD:-$ROOT/build-device}"
PACK="$ROOT/.device"
export PATH="/usr/local/cuda/bin:$PATH"

host=$("$ROOT/tools/host-lammps.sh" --profile device)
SRC=$(echo "$host" | sed -n 's/^LAMMPS_SOURCE_DIR=//p')
BIN=$(echo "$host" | sed -n 's/^LAMMPS_BINARY_DIR=//p')
cmake -S "$ROOT" -B "$BUILD" -DLAMMPS_SOURCE_DIR="$SRC" -DLAMMPS_BINARY_DIR="$BIN" -DMESOGPU_CUDA=ON \
  -DMESOGPU_TESTS=ON ${MESOGPU_DEVICE_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" -j "$(nproc)" --target mesogpuplugin test_gpu_table_r2 test_gpu_resident

# the other two precisions, for the GPU tests (plugin and test program must match)
for prec in double single; do
  cmake -S "$ROOT" -B "$BUILD-$prec" -DLAMMPS_SOURCE_DIR="$SRC" -DLAMMPS_BINARY_DIR="$BIN" -DMESOGPU_CUDA=ON \
    -DMESOGPU_TESTS=ON -DMESOGPU_PRECISION=$prec >/dev/null
  cmake --build "$BUILD-$prec" -j "$(nproc)" --target mesogpuplugin test_gpu_resident
done

rm -rf "$PACK"
mkdir -p "$PACK/lammps" "$PACK/plugin" "$PACK/bin"
for prec in double single; do
  mkdir -p "$PACK/plugin-$prec"
  cp "$BUILD-$prec/plugin/mesogpuplugin.so" "$PACK/plugin-$prec/"
  cp "$BUILD-$prec/unittest/test_gpu_resident" "$PACK/bin/test_gpu_resident_$prec"
done
cp -L "$BIN/liblammps.so.0" "$PACK/lammps/"
cp "$BIN/lmp" "$PACK/lammps/"
cp "$BUILD/plugin/mesogpuplugin.so" "$PACK/plugin/"
cp "$BUILD/unittest/test_gpu_table_r2" "$BUILD/unittest/test_gpu_resident" "$PACK/bin/"
nvcc -O2 -arch=sm_90 -o "$PACK/bin/bandwidth" "$ROOT/bench/bandwidth.cu"
mkdir -p "$PACK/bench"
cp "$SRC/bench/data.chain" "$PACK/bench/"    # LAMMPS's Kremer-Grest melt for bench/in.chain
# libraries Debian has and the GPU machine's image may lack
for lib in libgomp.so.1; do cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$PACK/lammps/"; done
strip --strip-unneeded "$PACK/lammps/liblammps.so.0" "$PACK"/plugin*/mesogpuplugin.so "$PACK/bin/"* 2>/dev/null || true
du -sh "$PACK"
