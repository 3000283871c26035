#!/usr/bin/env bash
# Writes the reference logs shipped with the examples, as LAMMPS examples do:
# log.<DDMonYY>.<input>.g++.<ranks> for 1 and 4 MPI ranks, each run in a copy of the
# example folder (potentials through LAMMPS_POTENTIALS, set by build/lmp-mesogpu).
# The Janus inputs run their quick-check size (their full runs take hours on a CPU).
# Usage: tools/example-logs.sh [name ...]   (names below; default: all)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LMP="${MESOGPU_BUILD:-$ROOT/build}/lmp-mesogpu"
PY=/usr/bin/python3
DATE=$(LC_ALL=C date +%d%b%y)
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# name | folder | input | arguments | preparation
RUNS=(
  "melt|table_r2|in.melt||"
  "check|table_r2|in.check||"
  "bonded|table_r2|in.bonded||"
  "blend|mdscf/blend|in.blend||"
  "diblock|mdscf/diblock|in.diblock||"
  "dppc|mdscf/dppc|in.dppc||$PY make_dppc.py --lipids 208 --water 1600 --box 81.6 81.6 62.6 -o dppc.data"
  "micelles|janus|in.micelles|-var L 8 -var nsteps 3000 -var dumpevery 1500|"
  "triblock|janus|in.triblock|-var L 6 -var nsteps 1000 -var dumpevery 500 -var thermoevery 100|"
)
want=" ${*:-} "
for run in "${RUNS[@]}"; do
  IFS='|' read -r name dir input args prep <<<"$run"
  [ "$want" = "  " ] || [[ "$want" == *" $name "* ]] || continue
  for np in 1 4; do
    work=$(mktemp -d)
    cp -r "$ROOT/examples/$dir/." "$work/"
    (cd "$work" && { [ -z "$prep" ] || $prep >/dev/null; } &&
      mpirun --oversubscribe -np "$np" "$LMP" -in "$input" $args -log log.out >/dev/null) ||
      { echo "FAILED: $name on $np ranks (kept in $work)"; exit 1; }
    rm -f "$ROOT/examples/$dir"/log.*."${input#in.}".g++."$np"
    cp "$work/log.out" "$ROOT/examples/$dir/log.$DATE.${input#in.}.g++.$np"
    echo "examples/$dir/log.$DATE.${input#in.}.g++.$np"
    rm -rf "$work"
  done
done
