#!/usr/bin/env bash
# Benchmark driver (runs on the GPU machine; asserts nothing). Runs each input through
#   mesogpu resident      (-sf cuda: run_style verlet/cuda, lj/cut/cuda, nve/cuda)
#   LAMMPS GPU package    (-sf gpu -pk gpu 1, mixed precision, same host LAMMPS build)
#   LAMMPS OpenMP         (-sf omp -pk omp NTHREADS, all cores, one rank)
# and prints steps/s, atom-steps/s and the ratios to mesogpu.
# Usage: bench/run_bench.sh LMP OUTDIR [quick]   (BENCH_ONLY=regex picks systems by name)
#   LMP: the host lmp (device profile); LAMMPS_PLUGIN_PATH must name mesogpu's folder.
# The polyethylene data files (bench/make_pe.py, python3 only) are generated before the
# runs into BENCH_DATA_DIR (default: a folder in /tmp named by make_pe.py's hash, kept
# out of OUTDIR so that the logs stay small) and reused when present; the DPPC/water
# files (examples/mdscf/dppc/make_dppc.py) likewise, in a folder named by its hash, and
# the MD-SCF melt files (bench/make_melt.py) in a folder named by make_melt.py's hash.
set -uo pipefail
LMP="$1"
OUT="$2"
QUICK="${3:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
NT="${BENCH_THREADS:-$(nproc --all)}"    # --all: plain nproc obeys OMP_NUM_THREADS
mkdir -p "$OUT"
cd "$OUT"

DATA_CHAIN="${BENCH_DATA_CHAIN:-$HERE/data.chain}"    # LAMMPS's bench/data.chain
PE_HASH=$(cksum "$HERE/make_pe.py" | cut -d' ' -f1)
PE_DATA="${BENCH_DATA_DIR:-${TMPDIR:-/tmp}/mesogpu-bench-data-$PE_HASH}"
# united-atom polyethylene of Xu et al. 2010, Table III: data file -> make_pe.py arguments
declare -A PE_GEN=(
  [pe-I.data]="--chains 64 --box 100 100 160"       # system I: 10x10x16 nm^3, 19,200 atoms
  [pe-VII.data]="--chains 2250 --box 400 400 400"   # system VII: 40x40x40 nm^3, 675,000 atoms
)
# DPPC/water MD-SCF systems of the GALAMOST seed (Fig. 7, LW1 and LW2), random start,
# DPPC:W = 2:5 as its reference system B, 9.837 beads/nm^3: data file -> make_dppc.py args
DPPC_GEN_PY="$HERE/../examples/mdscf/dppc/make_dppc.py"
DPPC_HASH=$(cksum "$DPPC_GEN_PY" | cut -d' ' -f1)
DPPC_DATA="${BENCH_DATA_DIR:-${TMPDIR:-/tmp}/mesogpu-bench-data-dppc-$DPPC_HASH}"
declare -A DPPC_GEN=(
  [lw1.data]="--lipids 21186 --water 52968 --density 9.837 --layout random"    # 307,200 beads
  [lw2.data]="--lipids 72316 --water 180784 --density 9.837 --layout random"   # 1,048,576 beads
)
# MD-SCF melt (in.mdscf_melt): A/B blend of 32-bead chains at rho = 3, one data file per
# size for its three models (field, dpd, bonds): data file -> make_melt.py arguments
MELT_HASH=$(cksum "$HERE/make_melt.py" | cut -d' ' -f1)
MELT_DATA="${BENCH_DATA_DIR:-${TMPDIR:-/tmp}/mesogpu-bench-data-melt-$MELT_HASH}"
declare -A MELT_GEN=(
  [melt-65k.data]="--chains 2048 --length 32"      # 65,536 beads, box 27.95^3
  [melt-1049k.data]="--chains 32768 --length 32"   # 1,048,576 beads, box 70.44^3
)
# name | input | input variables | steps: mesogpu gpu omp [| extra -pk gpu options]
SYSTEMS=(
  "lj-32k|in.lj|-var x 1 -var y 1 -var z 1|5000|2000|500"
  "lj-256k|in.lj|-var x 2 -var y 2 -var z 2|2000|1000|100"
  "lj-2048k|in.lj|-var x 4 -var y 4 -var z 4|500|200|20"
  "kg-1024k|in.chain|-var x 4 -var y 4 -var z 2 -var datafile $DATA_CHAIN|500|100|20"
  "dpd-1000k|in.dpd|-var n 1000000|500|100|10"
  "pe-19k|in.pe|-var datafile $PE_DATA/pe-I.data|5000|2000|500"
  "pe-675k|in.pe|-var datafile $PE_DATA/pe-VII.data|500|200|20"
  # triblock Janus (soft/aniso aba + leapfrog/aniso): the LAMMPS GPU and OpenMP packages
  # have no variant of either style, so those two engines run the CPU styles on one core
  "triblock-24k|in.triblock|-var L 20|20000|100|100"
  "triblock-192k|in.triblock|-var L 40|10000|20|20"
  "triblock-648k|in.triblock|-var L 60|5000|10|10"
  "triblock-1536k|in.triblock|-var L 80|5000|5|5"
  # DPPC/water MD-SCF (bonds, angles, LJ within each lipid, field every 300 steps): the
  # LAMMPS GPU and OpenMP packages have no variant of fix mdscf, so those two engines run
  # the CPU fix on one rank (300 steps: one field update in the loop; LW2 fewer, without
  # one: the GPU package ran it at 1 step/s on 2026-11-23); the GPU package
  # builds its lists on the host here ('neigh no'): it refuses neigh_modify exclude
  # with its own builds
  "lw1-307k|in.dppc|-var datafile $DPPC_DATA/lw1.data|3000|300|300|neigh no"
  "lw2-1049k|in.dppc|-var datafile $DPPC_DATA/lw2.data|3000|30|100|neigh no"
  # MD-SCF melt, three models on one data file: the field (fix mdscf every 10 steps, pair
  # zero), DPD pair forces instead of the field, and bonds only (no field, no pair: the
  # reference for the field's share of a step, printed at the end). The LAMMPS GPU and
  # OpenMP packages have no variant of fix mdscf (nor of fix langevin): those two engines
  # run the CPU fixes on one thread, only the bonds (omp) and pair dpd (gpu, omp) go
  # parallel. Steps are multiples of 10, so every timed run has whole field periods.
  "mdscf-melt-65k|in.mdscf_melt|-var model field -var datafile $MELT_DATA/melt-65k.data|20000|200|200"
  "dpd-melt-65k|in.mdscf_melt|-var model dpd -var datafile $MELT_DATA/melt-65k.data|5000|200|200"
  "melt-bonds-65k|in.mdscf_melt|-var model bonds -var datafile $MELT_DATA/melt-65k.data|20000|200|200"
  "mdscf-melt-1049k|in.mdscf_melt|-var model field -var datafile $MELT_DATA/melt-1049k.data|5000|20|20"
  "dpd-melt-1049k|in.mdscf_melt|-var model dpd -var datafile $MELT_DATA/melt-1049k.data|1000|50|20"
  "melt-bonds-1049k|in.mdscf_melt|-var model bonds -var datafile $MELT_DATA/melt-1049k.data|5000|20|20"
)
[ -n "$QUICK" ] && SYSTEMS=("lj-32k|in.lj|-var x 1 -var y 1 -var z 1|1000|500|100")

run_one() {    # log input engine-args... ; prints "steps atoms seconds" of the last run
  local log="$1" input="$2"; shift 2
  OMP_NUM_THREADS="$NT" "$LMP" -in "$HERE/$input" -log "$log" -screen none "$@" >/dev/null 2>&1
  local rc=$?
  local line
  line=$(grep "^Loop time of" "$log" 2>/dev/null | tail -1)
  if [ $rc -ne 0 ] || [ -z "$line" ]; then echo "FAILED"; return; fi
  # Loop time of T on P procs for N steps with A atoms
  echo "$line" | awk '{print $9, $12, $4}'
}

# generate the data files the chosen systems read (skipped when present):
# gen_data GENERATOR DATA_DIR ASSOC_ARRAY_NAME SYSTEM_LINE
gen_data() {
  local gen="$1" dir="$2" s="$4"
  local -n table="$3"
  local f
  for f in "${!table[@]}"; do
    [[ "$s" == *"$dir/$f"* ]] || continue
    [ -s "$dir/$f" ] && continue
    mkdir -p "$dir"
    read -r -a genargs <<<"${table[$f]}"
    python3 "$gen" "${genargs[@]}" -o "$dir/$f.tmp" && mv "$dir/$f.tmp" "$dir/$f" ||
      echo "$(basename "$gen") failed for $f"
  done
}
for s in "${SYSTEMS[@]}"; do
  if [ -n "${BENCH_ONLY:-}" ] && ! [[ ${s%%|*} =~ $BENCH_ONLY ]]; then continue; fi
  gen_data "$HERE/make_pe.py" "$PE_DATA" PE_GEN "$s"
  gen_data "$DPPC_GEN_PY" "$DPPC_DATA" DPPC_GEN "$s"
  gen_data "$HERE/make_melt.py" "$MELT_DATA" MELT_GEN "$s"
done

printf "%-10s %10s %-16s %8s %10s %14s %9s\n" system atoms engine steps steps/s atom-steps/s vs-mesogpu
for s in "${SYSTEMS[@]}"; do
  IFS='|' read -r name input vars sm sg so gpu_extra <<<"$s"
  # BENCH_ONLY: a regular expression on the system names (default: all)
  if [ -n "${BENCH_ONLY:-}" ] && ! [[ $name =~ $BENCH_ONLY ]]; then continue; fi
  read -r -a vararr <<<"$vars"
  declare -A rate=()
  for engine in mesogpu gpu omp; do
    case $engine in
      mesogpu) args=(-sf cuda -var steps "$sm") ;;
      gpu)
        read -r -a gpu_opts <<<"${gpu_extra:-}"
        args=(-sf gpu -pk gpu 1 "${gpu_opts[@]}" -var steps "$sg")
        ;;
      omp) args=(-sf omp -pk omp "$NT" -var steps "$so") ;;
    esac
    res=$(run_one "log.$name.$engine" "$input" "${vararr[@]}" "${args[@]}")
    if [ "$res" = FAILED ]; then
      printf "%-10s %10s %-16s %s (see log.%s.%s)\n" "$name" - "$engine" FAILED "$name" "$engine"
      continue
    fi
    read -r steps atoms secs <<<"$res"
    sps=$(awk -v n="$steps" -v t="$secs" 'BEGIN{printf "%.1f", n/t}')
    rate[$engine]=$sps
    aps=$(awk -v n="$steps" -v a="$atoms" -v t="$secs" 'BEGIN{printf "%.3e", n*a/t}')
    ratio="-"
    [ -n "${rate[mesogpu]:-}" ] && ratio=$(awk -v m="${rate[mesogpu]}" -v r="$sps" 'BEGIN{printf "%.2fx", m/r}')
    printf "%-10s %10s %-16s %8s %10s %14s %9s\n" "$name" "$atoms" "$engine" "$steps" "$sps" "$aps" "$ratio"
  done
done

# MD-SCF melt: the field's share of a timestep, 1 - r(field)/r(bonds only) with r the
# steps/s of mdscf-melt-SIZE and melt-bonds-SIZE on the same engine (both thermostatted
# by fix langevin; bench/README.md), for the sizes where both ran in this call
for size in 65k 1049k; do
  [ -n "$QUICK" ] && break
  sf="mdscf-melt-$size" sb="melt-bonds-$size"
  if [ -n "${BENCH_ONLY:-}" ] && ! { [[ $sf =~ $BENCH_ONLY ]] && [[ $sb =~ $BENCH_ONLY ]]; }; then
    continue
  fi
  for engine in mesogpu gpu omp; do
    lf="log.$sf.$engine" lb="log.$sb.$engine"
    # both runs complete: the warm-up's and the timed run's Loop lines, no error
    [ "$(grep -c "^Loop time of" "$lf" 2>/dev/null)" = 2 ] && ! grep -q ERROR "$lf" || continue
    [ "$(grep -c "^Loop time of" "$lb" 2>/dev/null)" = 2 ] && ! grep -q ERROR "$lb" || continue
    tf=$(grep "^Loop time of" "$lf" 2>/dev/null | tail -1 | awk '{print $9 / $4}')
    tb=$(grep "^Loop time of" "$lb" 2>/dev/null | tail -1 | awk '{print $9 / $4}')
    [ -n "$tf" ] && [ -n "$tb" ] || continue
    nf=$(grep "^Neighbor list builds" "$lf" | tail -1 | awk '{print $5}')
    nb=$(grep "^Neighbor list builds" "$lb" | tail -1 | awk '{print $5}')
    awk -v s="$size" -v e="$engine" -v rf="$tf" -v rb="$tb" -v nf="${nf:-?}" -v nb="${nb:-?}" \
      'BEGIN{printf "field share of a step, melt-%s, %s: %.1f%% (%.1f steps/s with the field, %.1f bonds only; neighbour builds %s / %s)\n", s, e, 100 * (1 - rf / rb), rf, rb, nf, nb}'
  done
done
