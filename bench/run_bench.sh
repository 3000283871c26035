#!/usr/bin/env bash
# Benchmark driver (runs on the GPU machine; asserts nothing). Runs each input through
#   mesogpu resident    one rank, -sf cuda (run_style verlet/cuda and the /cuda styles)
#   LAMMPS GPU package  -sf gpu -pk gpu 1 on N MPI ranks sharing the GPU, N = 1, 4, 8, 16,
#                       and for N <= 4 also -sf hybrid gpu omp -pk omp T with T = cores/N
#                       OpenMP threads for the styles that stay on the CPU; the fastest
#                       configuration is kept
#   LAMMPS CPU          16 MPI ranks (all cores), plain styles and -sf omp -pk omp 1;
#                       the faster is kept
# (LAMMPS's own advice for both packages: several MPI ranks per GPU, MPI before threads)
# and prints steps/s, atom-steps/s and the ratio of mesogpu to the best of each peer,
# naming the winning configuration. Every configuration's rate is printed too.
# Usage: bench/run_bench.sh LMP OUTDIR [quick]   (BENCH_ONLY=regex picks systems by name)
#   LMP: the host lmp (device profile, MPI); LAMMPS_PLUGIN_PATH must name mesogpu's folder.
#   BENCH_GPU_RANKS (default "1 4 8 16": GPU-package ranks per GPU), BENCH_CPU_RANKS
#   (default: all cores; "none" runs no CPU row), MPIRUN (default mpirun).
#   BENCH_GPUS (default "1"): the GPU counts G of a scaling run. For each G > 1 mesogpu
#   runs on G ranks, one per GPU (the rank picks the GPU of its local rank), and the GPU
#   package on G GPUs (-pk gpu G) with each BENCH_GPU_RANKS count of ranks per GPU that
#   the cores allow; the summary adds mesogpu's speed-up over its own one-GPU run. The
#   CPU rows run once, on all cores. The systems of the multi-GPU scaling run:
#   BENCH_ONLY='^(lj-2048k|lj-4096k|lj-8192k|lj-16384k|kg-8192k|lw2x8-8389k)$'.
# The polyethylene data files (bench/make_pe.py, python3 only) are generated before the
# runs into BENCH_DATA_DIR (default: a folder in /tmp named by make_pe.py's hash, kept
# out of OUTDIR so that the logs stay small) and reused when present; the DPPC/water
# files (examples/mdscf/dppc/make_dppc.py) likewise, in a folder named by its hash, and
# the MD-SCF melt files (bench/make_melt.py) in a folder named by make_melt.py's hash,
# and the membrane cells (examples/membrane/make_bilayer.py) by make_bilayer.py's hash.
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
# DPPC/water MD-SCF systems of GALAMOST (Zhu et al. 2013, Fig. 7: LW1, LW2), random start,
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
# DMPC bilayer of examples/membrane (in.membrane): make_bilayer.py's 128-lipid cell (5504
# atoms) for the two models of bench/in.membrane: data file -> make_bilayer.py arguments
MEMB_GEN_PY="$HERE/../examples/membrane/make_bilayer.py"
MEMB_HASH=$(cksum "$MEMB_GEN_PY" | cut -d' ' -f1)
MEMB_DATA="${BENCH_DATA_DIR:-${TMPDIR:-/tmp}/mesogpu-bench-data-membrane-$MEMB_HASH}"
declare -A MEMB_GEN=(
  [membrane-ssd.data]=""                   # atom_style hybrid full ellipsoid (model ssd)
  [membrane-dipole.data]="--style dipole"  # hybrid full sphere dipole (model dipole)
)
MEMB_FILES="-var data $MEMB_DATA/membrane-ssd.data -var ddata $MEMB_DATA/membrane-dipole.data"
# name | input | input variables | steps: mesogpu gpu cpu | extra -pk gpu options | peer-only variables
# A "-" for gpu steps: the LAMMPS GPU package has no variant of the input's main styles
# (soft/aniso, leapfrog/aniso; pair zero with fix mdscf), so no GPU-package row is run.
SYSTEMS=(
  "lj-32k|in.lj|-var x 1 -var y 1 -var z 1|5000|3000|2000"
  "lj-2048k|in.lj|-var x 4 -var y 4 -var z 4|2000|300|50"
  "kg-1024k|in.chain|-var x 4 -var y 4 -var z 2 -var datafile $DATA_CHAIN|500|100|50"
  "dpd-1000k|in.dpd|-var n 1000000|500|200|30"
  "pe-19k|in.pe|-var datafile $PE_DATA/pe-I.data|5000|2000|2000"
  "pe-675k|in.pe|-var datafile $PE_DATA/pe-VII.data|500|100|100"
  # triblock Janus (soft/aniso aba + leapfrog/aniso): no GPU-package or OPENMP variant;
  # the CPU peer runs mesogpu's CPU styles on 16 ranks (short warm-up for the peers)
  "triblock-24k|in.triblock|-var L 20|20000|-|1000||-var warmup 20"
  "triblock-1536k|in.triblock|-var L 80|2000|-|20||-var warmup 5"
  # DPPC/water MD-SCF (bonds, angles, LJ within each lipid, field every 300 steps): the
  # GPU package runs pair lj/cut on the GPU (its lists built on the host, 'neigh no': it
  # refuses neigh_modify exclude with its own builds) and the CPU fix mdscf on every rank
  "lw1-307k|in.dppc|-var datafile $DPPC_DATA/lw1.data|3000|300|300|neigh no"
  "lw2-1049k|in.dppc|-var datafile $DPPC_DATA/lw2.data|3000|60|60|neigh no"
  # MD-SCF melt on one data file, three models: the field (fix mdscf every 10 steps, pair
  # zero: nothing for the GPU package), DPD pair forces instead of the field, and bonds
  # only (no field, no pair: the reference for the field's share of a step). Steps are
  # multiples of 10, so every timed run has whole field periods.
  "mdscf-melt-1049k|in.mdscf_melt|-var model field -var datafile $MELT_DATA/melt-1049k.data|5000|-|200"
  "dpd-melt-1049k|in.mdscf_melt|-var model dpd -var datafile $MELT_DATA/melt-1049k.data|1000|100|50"
  "melt-bonds-1049k|in.mdscf_melt|-var model bonds -var datafile $MELT_DATA/melt-1049k.data|5000|-|200"
  # SSD/E water (pair ssd + fix nvt/rigid/single; bench/in.ssd), 32,000 and 2,048,000
  # molecules. ssd-*: the GPU package and the CPU run the dipolar Lennard-Jones sphere
  # with SSD/E's sigma, epsilon, mu (-var model dipole: lj/sf/dipole/sf + nvt/sphere), the
  # nearest model they have; ssd-cpu-*: the CPU runs mesogpu's own SSD styles (no
  # GPU-package variant). mesogpu runs SSD in both (the second run a repeat).
  "ssd-32k|in.ssd|-var cells 20|20000|1000|500||-var model dipole"
  "ssd-cpu-32k|in.ssd|-var cells 20|20000|-|200"
  "ssd-2048k|in.ssd|-var cells 80|2000|100|20||-var model dipole -var warmup 50"
  "ssd-cpu-2048k|in.ssd|-var cells 80|1000|-|10||-var warmup 20"
  # DMPC bilayer in SSD/E water (examples/membrane: pair ssd + lj/cut + coul/dipole/body,
  # fix nvt/rigid/single), the 5504-atom cell relaxed (minimise, 1/2/5 fs) and replicated
  # 14 x 14 in x and y: 1,078,784 beads. membrane-*: the GPU package and the CPU run the
  # dipolar-sphere form (-var model dipole: lj/sf/dipole/sf + nvt/sphere update dipole),
  # the nearest model they have; membrane-cpu-*: the CPU runs mesogpu's own styles (no
  # GPU-package variant). mesogpu runs model ssd in both (the second run a repeat).
  # 'neigh no': with its own GPU list builds the GPU package stops at the first force
  # call of this input ("Cuda driver error 1", geryon nvd_kernel.h; H100, LAMMPS 4 Jul
  # 2026), with host-built lists it runs (bench/README.md)
  "membrane-1079k|in.membrane|-var rx 14 -var ry 14 $MEMB_FILES|1000|200|30|neigh no|-var model dipole -var warmup 20"
  "membrane-cpu-1079k|in.membrane|-var rx 14 -var ry 14 $MEMB_FILES|1000|-|20||-var warmup 10"
  # surface-initiated polymerization from a frozen ball (GALAMOST Table 2, R = 5 and 45):
  # LJ liquid, fix polymerize every 50 steps (fix polymerize/cuda under -sf cuda; the GPU
  # package has no variant, so its ranks run the CPU fix on the host next to
  # lj/cut/gpu); 'neigh no': the GPU package refuses neigh_modify exclude (ball-ball)
  # with its own list builds. Steps are multiples of 50 (whole reaction periods).
  "sip-47k|in.sip|-var R 5 -var L 19.125|20000|2000|2000|neigh no"
  "sip-3852k|in.sip|-var R 45 -var L 84.765|2000|200|50|neigh no|-var warmup 100"
  # sip-bc-*: the CPU peer runs LAMMPS's own fix bond/create (two fixes, in.sip -var rxn
  # bondcreate: another rule on the same set-up, its header says where it differs); no
  # GPU-package row (it would be lj/cut/gpu beside the same CPU fixes). mesogpu runs
  # fix polymerize/cuda as in sip-* (the second run a repeat).
  "sip-bc-47k|in.sip|-var R 5 -var L 19.125|20000|-|2000||-var rxn bondcreate"
  "sip-bc-3852k|in.sip|-var R 45 -var L 84.765|2000|-|50||-var rxn bondcreate -var warmup 100"
  # LJ liquid-vapour slab of Malyshev et al. 2014 (examples/coexistence): the paper's
  # 24 x 24 x 48 box and every edge x 14 (the seed: ~20 M atoms), r_c = 5, Berendsen
  "coex-7k|in.coexistence|-var n 1|20000|5000|2000"
  "coex-17672k|in.coexistence|-var n 14|200|20|5"
  # smaller sizes, run on request (BENCH_ONLY)
  "lj-256k|in.lj|-var x 2 -var y 2 -var z 2|2000|1000|300"
  "triblock-192k|in.triblock|-var L 40|10000|-|100||-var warmup 10"
  "triblock-648k|in.triblock|-var L 60|5000|-|40||-var warmup 5"
  "mdscf-melt-65k|in.mdscf_melt|-var model field -var datafile $MELT_DATA/melt-65k.data|20000|-|2000"
  "dpd-melt-65k|in.mdscf_melt|-var model dpd -var datafile $MELT_DATA/melt-65k.data|5000|1000|500"
  "melt-bonds-65k|in.mdscf_melt|-var model bonds -var datafile $MELT_DATA/melt-65k.data|20000|-|2000"
  "ssd-256k|in.ssd|-var cells 40|5000|100|30||-var model dipole"
  "ssd-cpu-256k|in.ssd|-var cells 40|5000|-|50"
  "sip-436k|in.sip|-var R 15 -var L 40.03|5000|500|200|neigh no"
  "sip-bc-436k|in.sip|-var R 15 -var L 40.03|5000|-|200||-var rxn bondcreate"
  "membrane-88k|in.membrane|-var rx 4 -var ry 4 $MEMB_FILES|5000|1000|300|neigh no|-var model dipole -var warmup 50"
  "membrane-cpu-88k|in.membrane|-var rx 4 -var ry 4 $MEMB_FILES|5000|-|200||-var warmup 50"
  "coex-808k|in.coexistence|-var n 5|2000|500|100"
  # the multi-GPU scaling run (BENCH_GPUS="1 2 4"): strong scaling of LJ 2 M and 16 M, the
  # KG melt at 8 M and LW2 replicated to 8 M beads; weak scaling at 2 M atoms per GPU
  # from lj-2048k, lj-4096k (2 GPUs) and lj-8192k (4 GPUs)
  "lj-4096k|in.lj|-var x 4 -var y 4 -var z 8|1000|100|20"
  "lj-8192k|in.lj|-var x 4 -var y 8 -var z 8|1000|100|20"
  "lj-16384k|in.lj|-var x 8 -var y 8 -var z 8|1000|50|10"
  "kg-8192k|in.chain|-var x 4 -var y 4 -var z 16 -var datafile $DATA_CHAIN|300|50|10"
  "lw2x8-8389k|in.dppc|-var datafile $DPPC_DATA/lw2.data -var rep 2|300|10|10|neigh no"
)
# default selection: the systems above the "smaller sizes" line
DEFAULT_ONLY='^(lj-32k|lj-2048k|kg-1024k|dpd-1000k|pe-19k|pe-675k|triblock-24k|triblock-1536k|lw1-307k|lw2-1049k|mdscf-melt-1049k|dpd-melt-1049k|melt-bonds-1049k|ssd-32k|ssd-cpu-32k|ssd-2048k|ssd-cpu-2048k|sip-47k|sip-bc-47k|sip-3852k|sip-bc-3852k|membrane-1079k|membrane-cpu-1079k|coex-7k|coex-17672k)$'
BENCH_ONLY="${BENCH_ONLY:-$DEFAULT_ONLY}"
[ -n "$QUICK" ] && SYSTEMS=("lj-32k|in.lj|-var x 1 -var y 1 -var z 1|1000|500|200") && BENCH_ONLY=.
GPU_RANKS="${BENCH_GPU_RANKS:-1 4 8 16}"
GPUS="${BENCH_GPUS:-1}"
CPU_RANKS="${BENCH_CPU_RANKS:-$NT}"
MPIRUN="${MPIRUN:-mpirun}"

run_one() {    # log ranks threads input engine-args... ; prints "steps atoms seconds" of the last run
  local log="$1" np="$2" nt="$3" input="$4"; shift 4
  # CPU runs: one core for each thread of each rank. GPU-package runs unbound: a rank
  # pinned to one core shares it with the CUDA driver's threads (bench/RESULTS.md)
  local bind=(--map-by "slot:PE=$nt" --bind-to core)
  [ "${BIND_NONE:-}" = 1 ] && bind=(--bind-to none)
  local launch=("$MPIRUN" --allow-run-as-root -np "$np" "${bind[@]}"
    -x OMP_NUM_THREADS="$nt" -x LD_LIBRARY_PATH -x LAMMPS_PLUGIN_PATH -x LAMMPS_POTENTIALS)
  OMP_NUM_THREADS="$nt" timeout "${BENCH_RUN_LIMIT:-300}" "${launch[@]}" "$LMP" -in "$HERE/$input" \
    -log "$log" -screen none "$@" >"$log.out" 2>&1
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
  [[ ${s%%|*} =~ $BENCH_ONLY ]] || continue
  gen_data "$HERE/make_pe.py" "$PE_DATA" PE_GEN "$s"
  gen_data "$DPPC_GEN_PY" "$DPPC_DATA" DPPC_GEN "$s"
  gen_data "$HERE/make_melt.py" "$MELT_DATA" MELT_GEN "$s"
  gen_data "$MEMB_GEN_PY" "$MEMB_DATA" MEMB_GEN "$s"
done

# one configuration: run it, print its line, remember the best rate of its peer
declare -A best_rate=() best_conf=()
measure() {    # name peer conf np nt steps input args...
  local name="$1" peer="$2" conf="$3" np="$4" nt="$5" steps="$6" input="$7"; shift 7
  local res
  res=$(run_one "log.$name.$conf" "$np" "$nt" "$input" "$@" -var steps "$steps")
  if [ "$res" = FAILED ]; then
    printf "  %-16s %-22s FAILED (log.%s.%s: %s)\n" "$name" "$conf" "$name" "$conf" \
      "$(grep -h -m1 -E "ERROR|Error|error" "log.$name.$conf" "log.$name.$conf.out" 2>/dev/null | cut -c1-120)"
    return
  fi
  read -r nsteps atoms secs <<<"$res"
  local sps
  sps=$(awk -v n="$nsteps" -v t="$secs" 'BEGIN{printf "%.1f", n/t}')
  printf "  %-16s %-22s %8s steps %10s steps/s\n" "$name" "$conf" "$nsteps" "$sps"
  natoms[$name]=$atoms
  if [ -z "${best_rate[$name.$peer]:-}" ] || awk -v a="$sps" -v b="${best_rate[$name.$peer]}" 'BEGIN{exit !(a > b)}'; then
    best_rate[$name.$peer]=$sps best_conf[$name.$peer]=$conf
  fi
}

declare -A natoms=()
echo "every configuration (steps/s from LAMMPS's Loop time):"
for s in "${SYSTEMS[@]}"; do
  IFS='|' read -r name input vars sm sg sc gpu_extra peer_vars <<<"$s"
  [[ $name =~ $BENCH_ONLY ]] || continue
  read -r -a vararr <<<"$vars"
  read -r -a peerarr <<<"${peer_vars:-}"
  read -r -a gpu_opts <<<"${gpu_extra:-}"
  for g in $GPUS; do
    # G = 1 keeps the configuration names of single-GPU runs; several GPUs prefix them
    pre="" peer_mg=mesogpu peer_gpu=gpu
    [ "$g" -gt 1 ] && pre="${g}gpu-" peer_mg="mesogpu@$g" peer_gpu="gpu@$g"
    # a scaling run starts every mesogpu run unbound, one GPU too, so that all compare alike
    BIND_NONE=$([ "$GPUS" = 1 ] || echo 1) measure "$name" "$peer_mg" "${pre}mesogpu" "$g" 1 "$sm" "$input" "${vararr[@]}" -sf cuda
    [ "$sg" != - ] || continue
    export BIND_NONE=1
    for rpg in $GPU_RANKS; do
      np=$((g * rpg)) nt=$((NT / (g * rpg)))
      [ "$np" -le "$NT" ] || continue
      measure "$name" "$peer_gpu" "${pre}gpu-${np}" "$np" 1 "$sg" "$input" "${vararr[@]}" "${peerarr[@]}" \
        -sf gpu -pk gpu "$g" "${gpu_opts[@]}"
      # with few ranks, the styles that stay on the CPU may gain from OpenMP threads
      [ "$nt" -gt 2 ] && [ "$rpg" -le 4 ] && measure "$name" "$peer_gpu" "${pre}gpu+omp-${np}x${nt}" "$np" "$nt" "$sg" \
        "$input" "${vararr[@]}" "${peerarr[@]}" -sf hybrid gpu omp -pk gpu "$g" "${gpu_opts[@]}" -pk omp "$nt"
    done
    unset BIND_NONE
  done
  for np in $CPU_RANKS; do
    [ "$np" = none ] && continue
    measure "$name" cpu "cpu-${np}" "$np" 1 "$sc" "$input" "${vararr[@]}" "${peerarr[@]}"
    measure "$name" cpu "cpu-omp-${np}" "$np" 1 "$sc" "$input" "${vararr[@]}" "${peerarr[@]}" -sf omp -pk omp 1
  done
done

echo
echo "best of each engine (ratio: mesogpu steps/s over the engine's):"
printf "%-18s %10s %-10s %-14s %10s %14s %9s\n" system atoms engine best-config steps/s atom-steps/s vs-mesogpu
for s in "${SYSTEMS[@]}"; do
  IFS='|' read -r name _ _ _ sg _ _ _ <<<"$s"
  [[ $name =~ $BENCH_ONLY ]] || continue
  peers=()
  for g in $GPUS; do
    if [ "$g" -gt 1 ]; then peers+=("mesogpu@$g" "gpu@$g"); else peers+=(mesogpu gpu); fi
  done
  [ "$CPU_RANKS" = none ] || peers+=(cpu)
  for peer in "${peers[@]}"; do
    mg=mesogpu
    [[ $peer == *@* ]] && mg="mesogpu@${peer#*@}"
    r="${best_rate[$name.$peer]:-}"
    if [ -z "$r" ]; then
      why="FAILED in every configuration"
      [[ $peer == gpu* ]] && [ "$sg" = - ] && why="no GPU-package variant of this input's styles"
      printf "%-18s %10s %-10s %s\n" "$name" "${natoms[$name]:--}" "$peer" "$why"
      continue
    fi
    aps=$(awk -v r="$r" -v a="${natoms[$name]}" 'BEGIN{printf "%.3e", r*a}')
    ratio=-
    [ -n "${best_rate[$name.$mg]:-}" ] && ratio=$(awk -v m="${best_rate[$name.$mg]}" -v r="$r" 'BEGIN{printf "%.1fx", m/r}')
    # mesogpu on G GPUs: its speed-up over its own one-GPU run
    [[ $peer == mesogpu@* ]] && [ -n "${best_rate[$name.mesogpu]:-}" ] &&
      ratio="$ratio ($(awk -v m="$r" -v r="${best_rate[$name.mesogpu]}" 'BEGIN{printf "%.2fx of 1 GPU", m/r}'))"
    printf "%-18s %10s %-10s %-14s %10s %14s %9s\n" "$name" "${natoms[$name]}" "$peer" "${best_conf[$name.$peer]}" "$r" "$aps" "$ratio"
  done
done

# MD-SCF melt: the field's share of a timestep, 1 - r(field)/r(bonds only) with r the
# steps/s of mdscf-melt-SIZE and melt-bonds-SIZE on the same engine (both thermostatted
# by fix langevin; bench/README.md), for the sizes where both ran in this call
for size in 65k 1049k; do
  [ -n "$QUICK" ] && break
  sf="mdscf-melt-$size" sb="melt-bonds-$size"
  { [[ $sf =~ $BENCH_ONLY ]] && [[ $sb =~ $BENCH_ONLY ]]; } || continue
  for engine in mesogpu cpu-$NT cpu-omp-$NT; do
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
