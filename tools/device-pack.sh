#!/usr/bin/env bash
# Packs what the GPU machine needs to build everything there into .device/ (git-ignored,
# carried by the device tool): a source subset of the host LAMMPS release (the same
# Debian-archive tarball every build uses), GoogleTest's static libraries and headers
# (the GPU machine's image has none), and LAMMPS's bench/data.chain. Nothing is compiled
# here: the GPU machine has 16 cores and builds LAMMPS (MPI, GPU package, OpenMP) and
# mesogpu in a few minutes (tools/device-build.sh).
# Then, on the GPU machine: tools/device-build.sh && tools/device-run.sh [tests|bench|all]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PACK="$ROOT/.device"

host=$("$ROOT/tools/host-lammps.sh" --source-only)
SRC=$(echo "$host" | sed -n 's/^LAMMPS_SOURCE_DIR=//p')
mkdir -p "$PACK/gtest/lib" "$PACK/gtest/include"
if [ ! -s "$PACK/lammps-src.tar.xz" ] || [ "$SRC/.complete" -nt "$PACK/lammps-src.tar.xz" ]; then
  # src, cmake and lib are what the CMake build reads; python and third_party are
  # referenced by its configure step; data.chain is the Kremer-Grest melt of bench/in.chain
  tar -C "$SRC" -cJf "$PACK/lammps-src.tar.xz.tmp" src cmake lib python third_party bench/data.chain LICENSE README
  mv "$PACK/lammps-src.tar.xz.tmp" "$PACK/lammps-src.tar.xz"
fi
for lib in libgtest.a libgtest_main.a libgmock.a libgmock_main.a; do
  cp /usr/lib/x86_64-linux-gnu/$lib "$PACK/gtest/lib/"
done
cp -r /usr/include/gtest /usr/include/gmock "$PACK/gtest/include/"
du -sh "$PACK"
