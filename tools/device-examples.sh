#!/usr/bin/env bash
# The long runs of examples/coexistence and examples/polyethylene (issue 16), resident on
# the GPU, with their analysis. Runs on the GPU machine from the repository root after
# tools/device-build.sh (MESOGPU_DEVICE_PRECISIONS=mixed is enough); writes to $OUT:
#   examples16-summary.txt  what ran, wall times, steps/s, both analyse.py outputs
#   examples16.tgz          the runs' small files (logs, profiles, coexistence.dat,
#                           profile_mean.T*.dat, chains.dat, histograms, analysis)
# Usage: tools/device-examples.sh [all|coexistence|polyethylene] [test]
#   test: also run the GPU test of both examples against the CPU
#   ($B/mixed/unittest/test_gpu_coex_pe, built by tools/device-build.sh; about 30 s)
#   beside the long runs; its output goes into the summary and its status is the
#   script's exit status.
# All runs start at once and share the GPU (each is small: latency-bound alone):
#   coexistence: in.coexistence at each T* of COEX_TEMPS (default 0.70 0.80 0.90 1.00
#     1.10 1.15 1.20 1.25), the paper's 24 x 24 x 48 box (6,760 atoms), COEX_EQUIL
#     (20000) + COEX_STEPS (100000) steps in blocks of COEX_BLOCK (10000), profile
#     samples every 100 steps;
#   polyethylene: in.pe_melt on Xu et al.'s system I (64 chains x 300 sites, 19,200
#     atoms, made by bench/make_pe.py, 0.6 s), PE_EQUIL (50000) + PE_STEPS (200000)
#     steps of 1 fs in blocks of PE_BLOCK (20000), distributions every 100 steps, chains
#     every 1000.
# Every run stops by itself BUDGET_S (default 200) seconds after the script started
# (LAMMPS 'timer timeout', checked every 100 steps): whole blocks written until then are
# analysed, so the script ends within about BUDGET_S + 15 s whatever the GPU's speed.
# Then each temperature's profile goes through analyse.py alone; those it accepts (at
# least 5 blocks, a liquid slab with flat parts) are analysed together (coexistence
# curve, critical point), the others are named with analyse.py's message.
# Dry run without a GPU (checks the script, proves nothing about the device):
#   SUFFIX=none LMP=/path/to/lmp COEX_BOX="8 8 24" COEX_NBINS=48 COEX_EQUIL=2000 \
#   COEX_STEPS=5000 COEX_BLOCK=1000 COEX_TEMPS="0.7 0.8 0.9" \
#   PE_DATA=examples/polyethylene/data.pe_4x300 PE_EQUIL=1000 PE_STEPS=5000 \
#   PE_BLOCK=1000 PE_NCHAIN=100 OUT=/tmp/ex16 tools/device-examples.sh
set -uo pipefail
ROOT="$(pwd)"
B="$ROOT/.device-build"
OUT="${OUT:-$ROOT/device-out}"
WHAT="${1:-all}"
LMP="${LMP:-$B/lammps/lmp}"
SUFFIX="${SUFFIX:-cuda}"
BUDGET_S="${BUDGET_S:-200}"
W="${EXAMPLES_WORK:-/tmp/mesogpu-examples16}"
COEX_TEMPS="${COEX_TEMPS:-0.70 0.80 0.90 1.00 1.10 1.15 1.20 1.25}"
COEX_BOX="${COEX_BOX:-24 24 48}"
COEX_NBINS="${COEX_NBINS:-100}"
COEX_EQUIL="${COEX_EQUIL:-20000}"
COEX_STEPS="${COEX_STEPS:-100000}"
COEX_BLOCK="${COEX_BLOCK:-10000}"
PE_DATA="${PE_DATA:-}"
PE_EQUIL="${PE_EQUIL:-50000}"
PE_STEPS="${PE_STEPS:-200000}"
PE_BLOCK="${PE_BLOCK:-20000}"
PE_NCHAIN="${PE_NCHAIN:-1000}"
PE_NEVERY="${PE_NEVERY:-100}"

[ -x "$LMP" ] || { echo "device-examples: no LAMMPS executable $LMP (run tools/device-build.sh first, or set LMP)"; exit 1; }
export LD_LIBRARY_PATH="$B/lammps:${LD_LIBRARY_PATH:-}"
export LAMMPS_PLUGIN_PATH="${LAMMPS_PLUGIN_PATH:-$B/mixed/plugin}"
export OMP_NUM_THREADS=1
SF=(-sf "$SUFFIX")
[ "$SUFFIX" = none ] && SF=()
T0=$(date +%s)
rm -rf "$W"
mkdir -p "$W" "$OUT"
SUM="$OUT/examples16-summary.txt"
: >"$SUM"
say() { echo "$@" | tee -a "$SUM"; }
left() { echo $((BUDGET_S - ($(date +%s) - T0))); }

say "device-examples ($WHAT): LMP $LMP ${SF[*]:-(CPU styles)}, budget ${BUDGET_S} s, $(date -u)"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee -a "$SUM"

pids=()
test_pid=
if [ "${2:-}" = test ]; then
  tbin="${TEST_BIN:-$B/mixed/unittest/test_gpu_coex_pe}"
  say "test: $tbin"
  (cd "$W" && MESOGPU_SOURCE_DIR="$ROOT" "$tbin" >"$W/test_gpu_coex_pe.log" 2>&1) &
  test_pid=$!
fi
if [ "$WHAT" = all ] || [ "$WHAT" = polyethylene ]; then
  mkdir -p "$W/polyethylene"
  data="$PE_DATA"
  if [ -z "$data" ]; then
    data="$W/pe-I.data"
    python3 "$ROOT/bench/make_pe.py" --chains 64 --box 100 100 160 -o "$data" >/dev/null ||
      { say "make_pe.py failed"; exit 1; }
  fi
  data="$(cd "$(dirname "$data")" && pwd)/$(basename "$data")"
  say "polyethylene: $(basename "$data"), $PE_EQUIL + $PE_STEPS steps, blocks of $PE_BLOCK"
  (cd "$W/polyethylene" && "$LMP" "${SF[@]}" -in "$ROOT/examples/polyethylene/in.pe_melt" \
    -var datafile "$data" -var equil "$PE_EQUIL" -var steps "$PE_STEPS" -var block "$PE_BLOCK" \
    -var nevery "$PE_NEVERY" -var nchain "$PE_NCHAIN" -var tlimit "$(left)" \
    -log log.pe_melt -screen none >out.txt 2>&1; echo "exit $?" >>out.txt) &
  pids+=($!)
fi
if [ "$WHAT" = all ] || [ "$WHAT" = coexistence ]; then
  read -r lx ly lz <<<"$COEX_BOX"
  say "coexistence: T* = $COEX_TEMPS, box $lx x $ly x $lz, $COEX_EQUIL + $COEX_STEPS steps, blocks of $COEX_BLOCK"
  for T in $COEX_TEMPS; do
    d="$W/coexistence/T$T"
    mkdir -p "$d"
    (cd "$d" && "$LMP" "${SF[@]}" -in "$ROOT/examples/coexistence/in.coexistence" -var T "$T" \
      -var Lx "$lx" -var Ly "$ly" -var Lz "$lz" -var nbins "$COEX_NBINS" \
      -var equil "$COEX_EQUIL" -var steps "$COEX_STEPS" -var block "$COEX_BLOCK" \
      -var tlimit "$(left)" -log "log.T$T" -screen none >out.txt 2>&1; echo "exit $?" >>out.txt) &
    pids+=($!)
  done
fi
wait "${pids[@]}"
say "all runs done after $(($(date +%s) - T0)) s"
rc=0
if [ -n "$test_pid" ]; then
  wait "$test_pid"
  rc=$?
  say ""
  say "=== test_gpu_coex_pe: exit $rc after $(($(date +%s) - T0)) s"
  grep -E "^\[gpu\]|OK|PASSED|FAILED|Failure|Expected|Which|actual|SKIPPED|error" "$W/test_gpu_coex_pe.log" |
    tee -a "$SUM"
fi

# steps/s of each run's last 'Loop time' line (the production, or where it stopped)
rates() {
  local log="$1"
  grep "^Loop time of" "$log" 2>/dev/null | awk '{printf "%s steps in %.1f s (%.0f steps/s); ", $9, $4, $9 / $4}'
}

if [ -d "$W/polyethylene" ]; then
  d="$W/polyethylene"
  say ""
  say "=== polyethylene: $(tail -1 "$d/out.txt"); $(rates "$d/log.pe_melt")"
  grep -E "^(ERROR|RESULT|WARNING: Wall)" "$d/log.pe_melt" | tee -a "$SUM"
  python3 "$ROOT/examples/polyethylene/analyse.py" "$d" >"$d/analysis.txt" 2>&1
  echo "analyse.py exit $?" >>"$d/analysis.txt"
  tee -a "$SUM" <"$d/analysis.txt"
fi

if [ -d "$W/coexistence" ]; then
  ok="$W/coexistence/all"
  mkdir -p "$ok"
  say ""
  say "=== coexistence"
  for T in $COEX_TEMPS; do
    d="$W/coexistence/T$T"
    say "T* = $T: $(tail -1 "$d/out.txt"); $(rates "$d/log.T$T")"
    grep -E "^(ERROR|RESULT|WARNING: Wall)" "$d/log.T$T" | tee -a "$SUM"
    # this temperature alone through analyse.py: kept for the joint analysis if accepted
    if python3 "$ROOT/examples/coexistence/analyse.py" "$d" >"$d/analysis.txt" 2>&1; then
      for f in "$d"/coexistence.T*.meta "$d"/profile.T*.dat "$d"/rho.T*.dat; do
        ln -s "$f" "$ok/"
      done
    else
      say "  T* = $T left out of the joint analysis: $(grep -m1 "error" "$d/analysis.txt")"
    fi
  done
  python3 "$ROOT/examples/coexistence/analyse.py" "$ok" >"$ok/analysis.txt" 2>&1
  echo "analyse.py exit $?" >>"$ok/analysis.txt"
  tee -a "$SUM" <"$ok/analysis.txt"
fi

say ""
say "device-examples: $(($(date +%s) - T0)) s in all"
# the small files only (not the data file); symlinks resolved
(cd "$W" && find . -type f ! -name '*.data' -print0 | tar -czf "$OUT/examples16.tgz" --null -T -)
ls -la "$OUT/examples16.tgz" | tee -a "$SUM"
exit $rc
