#!/usr/bin/env bash
# Get and build the host LAMMPS (4 Jul 2026) once, into a cache outside any build tree.
#
# Source: the Debian archive's upstream tarball, fetched with apt's own helper and
# checked against a pinned sha256. Build: shared library with PLUGIN and the packages
# mesogpu uses, MPI (Debian OpenMPI) and OpenMP. The build folder is keyed by a hash
# of its configuration, so a changed configuration never reuses a stale build.
#
# Usage: host-lammps.sh [--profile default|device] | --source-only
#   default: the host every build and CI uses (MPI, the packages above).
#   device:  the host of the GPU machine, built there (tools/device-build.sh): MPI (its
#            OpenMPI), the LAMMPS GPU package (CUDA, mixed precision, sm_90) as the
#            benchmark peer, OpenMP, MC (fix bond/create: the CPU peer of bench/in.sip
#            -var rxn bondcreate). It links against CUDA's stub libcuda.so, so it also
#            builds where no driver is installed; lmp needs the real driver to run.
#   --source-only: only fetch and unpack the source (tools/device-pack.sh).
#   Prints "LAMMPS_SOURCE_DIR=..." and "LAMMPS_BINARY_DIR=..." as its last two lines.
# Environment: MESOGPU_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/mesogpu),
#              MESOGPU_JOBS (default: number of cores).
set -euo pipefail

VERSION=20260704
TARBALL="lammps_${VERSION}+dfsg.orig.tar.gz"
SHA256=cddbc45a047416bd48a4a0b87f24a5b61b3446982b74d18cafe619c22b17eb62
URL="http://deb.debian.org/debian/pool/main/l/lammps/${TARBALL}"

CACHE="${MESOGPU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mesogpu}"
JOBS="${MESOGPU_JOBS:-$(nproc)}"

PROFILE=default
SOURCE_ONLY=0
if [ "${1:-}" = "--profile" ]; then PROFILE="${2:?--profile needs default or device}"; fi
if [ "${1:-}" = "--source-only" ]; then SOURCE_ONLY=1; fi

# The host configuration. Changing any line changes the cache key.
DEFAULT_ARGS=(
  -D CMAKE_BUILD_TYPE=Release
  -D BUILD_SHARED_LIBS=ON
  -D BUILD_MPI=ON
  -D BUILD_OMP=ON
  -D LAMMPS_SIZES=smallbig
  -D PKG_PLUGIN=ON
  -D PKG_MOLECULE=ON
  -D PKG_ASPHERE=ON
  -D PKG_DIPOLE=ON
  -D PKG_OPENMP=ON
  -D PKG_DPD-BASIC=ON
  -D PKG_EXTRA-PAIR=ON
  -D PKG_MC=ON
  -D PKG_KSPACE=ON
  -D FFT=KISS
  -D PKG_GRAPHICS=ON
  -D WITH_PNG=ON
  -D WITH_JPEG=OFF
  -D WITH_FFMPEG=OFF
  -D WITH_GZIP=ON
  -D BUILD_TOOLS=OFF
  -D BUILD_LAMMPS_GUI=OFF
  -D ENABLE_TESTING=OFF
  -D DOWNLOAD_POTENTIALS=OFF
)
DEVICE_ARGS=(
  -D CMAKE_BUILD_TYPE=Release
  -D BUILD_SHARED_LIBS=ON
  -D BUILD_MPI=ON
  -D BUILD_OMP=ON
  -D LAMMPS_SIZES=smallbig
  -D PKG_PLUGIN=ON
  -D PKG_MOLECULE=ON
  -D PKG_ASPHERE=ON
  -D PKG_DIPOLE=ON
  -D PKG_OPENMP=ON
  -D PKG_DPD-BASIC=ON
  -D PKG_EXTRA-PAIR=ON
  -D PKG_MC=ON
  -D PKG_GPU=ON
  -D GPU_API=cuda
  -D GPU_PREC=mixed
  -D GPU_ARCH=sm_90
  -D CUDA_BUILD_MULTIARCH=OFF
  -D CUDA_CUDA_LIBRARY=/usr/local/cuda/lib64/stubs/libcuda.so
  -D CMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined
  -D WITH_GZIP=OFF
  -D BUILD_TOOLS=OFF
  -D BUILD_LAMMPS_GUI=OFF
  -D ENABLE_TESTING=OFF
  -D DOWNLOAD_POTENTIALS=OFF
)
case "$PROFILE" in
  default) HOST_ARGS=("${DEFAULT_ARGS[@]}") ;;
  device) HOST_ARGS=("${DEVICE_ARGS[@]}") ;;
  *) echo "[host-lammps] ERROR: unknown profile '$PROFILE' (default, device)" >&2; exit 1 ;;
esac
KEY=$(printf '%s\n' "$VERSION" "${HOST_ARGS[@]}" "$(c++ -dumpfullversion 2>/dev/null || true)" | sha256sum | cut -c1-12)
SRC="$CACHE/lammps-$VERSION"
if [ "$PROFILE" = default ]; then BUILD="$CACHE/lammps-$VERSION-build-$KEY"; else BUILD="$CACHE/lammps-$VERSION-build-$PROFILE-$KEY"; fi

log() { echo "[host-lammps] $*" >&2; }
die() { echo "[host-lammps] ERROR: $*" >&2; exit 1; }

mkdir -p "$CACHE"
# two runs at once (CI and a user) must not race: one lock for the source, one per build
exec 8>"$CACHE/.lock-source"
flock 8

if [ ! -f "$SRC/.complete" ]; then
  if [ ! -f "$CACHE/$TARBALL" ] || ! echo "$SHA256  $CACHE/$TARBALL" | sha256sum -c --quiet - 2>/dev/null; then
    log "fetching $TARBALL from the Debian archive"
    rm -f "$CACHE/$TARBALL"
    [ -x /usr/lib/apt/apt-helper ] || die "/usr/lib/apt/apt-helper not found (needs Debian's apt)"
    /usr/lib/apt/apt-helper download-file "$URL" "$CACHE/$TARBALL" "SHA256:$SHA256" >&2 \
      || die "download of $URL failed"
  fi
  echo "$SHA256  $CACHE/$TARBALL" | sha256sum -c --quiet - || die "sha256 mismatch for $CACHE/$TARBALL"
  log "unpacking into $SRC"
  rm -rf "$SRC" "$SRC.tmp"
  mkdir -p "$SRC.tmp"
  tar -xzf "$CACHE/$TARBALL" -C "$SRC.tmp"
  # the Debian orig tarball has no top-level folder; accept either layout
  if [ -d "$SRC.tmp/cmake" ]; then mv "$SRC.tmp" "$SRC"; else mv "$SRC.tmp"/*/ "$SRC"; rm -rf "$SRC.tmp"; fi
  [ -f "$SRC/cmake/CMakeLists.txt" ] || die "unexpected tarball layout in $SRC"
  touch "$SRC/.complete"
fi
exec 8>&-
if [ "$SOURCE_ONLY" = 1 ]; then
  echo "LAMMPS_SOURCE_DIR=$SRC"
  exit 0
fi
exec 9>"$BUILD.lock"
flock 9

if [ ! -f "$BUILD/.complete" ]; then
  log "configuring host LAMMPS in $BUILD ($JOBS jobs; this takes a while on few cores)"
  rm -rf "$BUILD"
  cmake -S "$SRC/cmake" -B "$BUILD" "${HOST_ARGS[@]}" >"$CACHE/host-configure-$KEY.log" 2>&1 \
    || { tail -40 "$CACHE/host-configure-$KEY.log" >&2; die "configure failed, log: $CACHE/host-configure-$KEY.log"; }
  log "building host LAMMPS"
  cmake --build "$BUILD" -j "$JOBS" >"$CACHE/host-build-$KEY.log" 2>&1 \
    || { tail -40 "$CACHE/host-build-$KEY.log" >&2; die "build failed, log: $CACHE/host-build-$KEY.log"; }
  [ -f "$BUILD/liblammps.so" ] && [ -x "$BUILD/lmp" ] || die "build finished without liblammps.so/lmp"
  touch "$BUILD/.complete"
  log "host LAMMPS ready"
fi

echo "LAMMPS_SOURCE_DIR=$SRC"
echo "LAMMPS_BINARY_DIR=$BUILD"
