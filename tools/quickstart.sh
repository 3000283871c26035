#!/usr/bin/env bash
# Command 1 of the README: build everything (Debian packages, the host LAMMPS once into
# a cache, the plugin) and run the flagship example, examples/table_r2.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
mesogpu_build
echo "== mesogpu built: plugin in $BUILD/plugin, launcher $BUILD/lmp-mesogpu"
cd "$ROOT/examples/table_r2"
"$BUILD/lmp-mesogpu" -in in.melt -var nsteps "${MESOGPU_EXAMPLE_STEPS:-5000}" -log none
