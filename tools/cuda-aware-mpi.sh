#!/usr/bin/env bash
# Builds a CUDA-aware Open MPI for testing run_style verlet/cuda exchange cuda-aware where
# the system's Open MPI is built without CUDA (Debian's and Ubuntu's are). The source is
# the Debian archive's Open MPI release (no other download); CUDA support needs only the
# CUDA headers at build time (libcuda is opened at run time), so it builds on a machine
# without a GPU and runs on the GPU machine. About 25 minutes on 2 cores.
#   tools/cuda-aware-mpi.sh PREFIX        (default PREFIX: .device/ompi, carried to the GPU
#                                          machine with the device tool)
# Use it at run time only: mesogpu and LAMMPS stay built against the system's Open MPI 4.1
# (the same ABI); put its libraries first and run its mpirun:
#   OPAL_PREFIX=PREFIX LD_LIBRARY_PATH=PREFIX/lib:$LD_LIBRARY_PATH PREFIX/bin/mpirun -np 2 ...
# The multi-rank GPU tests then run under MESOGPU_EXCHANGE=cuda-aware instead of skipping
# (unittest/CMakeLists.txt: gpu:multirank_cuda_aware_np2, gpu:multirank_molecular_cuda_aware_np2,
# and MultiRankIpc.CudaAwareMatchesHost).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="$(realpath -m "${1:-$ROOT/.device/ompi}")"
VERSION=4.1.4    # Debian 12's Open MPI
CACHE="${MESOGPU_CACHE:-$HOME/.cache/mesogpu}/ompi"
CUDA="${CUDA_HOME:-/usr/local/cuda}"
[ -f "$CUDA/include/cuda.h" ] || { echo "[cuda-aware-mpi] ERROR: no $CUDA/include/cuda.h (set CUDA_HOME)" >&2; exit 1; }
# Debian's source drops the bundled hwloc: the system's (libhwloc-dev) instead
if ! dpkg-query -W -f='${Status}' libhwloc-dev 2>/dev/null | grep -q "install ok installed"; then
  [ "$(id -u)" -eq 0 ] || { echo "[cuda-aware-mpi] ERROR: install libhwloc-dev" >&2; exit 1; }
  apt-get install -y -qq --no-install-recommends libhwloc-dev >/dev/null
fi
mkdir -p "$CACHE"
cd "$CACHE"
tarball="openmpi_$VERSION.orig.tar.xz"
[ -s "$tarball" ] || curl -sSfLO "http://deb.debian.org/debian/pool/main/o/openmpi/$tarball"
rm -rf "openmpi-$VERSION"
tar xf "$tarball"
cd "openmpi-$VERSION"
./configure --prefix="$PREFIX" --with-cuda="$CUDA" --without-ucx --without-verbs --without-ofi \
  --disable-mpi-fortran --disable-oshmem --with-hwloc=external --with-libevent=internal \
  --disable-man-pages >"$CACHE/configure.log" 2>&1 ||
  { tail -20 "$CACHE/configure.log"; exit 1; }
grep -q "have cuda support... yes" "$CACHE/configure.log" ||
  { echo "[cuda-aware-mpi] ERROR: configure found no CUDA support" >&2; exit 1; }
make -j "$(nproc)" >"$CACHE/make.log" 2>&1 || { tail -30 "$CACHE/make.log"; exit 1; }
make install >"$CACHE/install.log" 2>&1
# the GPU machine may lack this hwloc: it travels with the libraries
cp -L "$(ldconfig -p | awk '/libhwloc.so.15 /{print $NF; exit}')" "$PREFIX/lib/"
OPAL_PREFIX="$PREFIX" LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/bin/ompi_info" --parsable --all |
  grep -m1 "built_with_cuda_support:value"
echo "[cuda-aware-mpi] $PREFIX ($(du -sh "$PREFIX" | cut -f1))"
