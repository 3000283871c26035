#!/usr/bin/env bash
# unit test of bench/run_bench.sh's bookkeeping (no GPU, no LAMMPS): a stand-in mpirun
# records its options and a stand-in lmp writes a Loop line whose time follows a known
# rule, so the configurations run, the binding, the best configuration kept and
# mesogpu's speed-up over one GPU can be checked against values worked out by hand.
#   mesogpu (-sf cuda) on G ranks: 100 G steps/s (so the speed-up on G GPUs is G)
#   GPU package (-sf gpu -pk gpu G) on N ranks: N steps/s (the most ranks win)
#   CPU: 7 steps/s
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
RUN_BENCH="$HERE/../../bench/run_bench.sh"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
fail=0
check() {    # description, command...
  local what="$1"
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fail=1; fi
}

cat >"$T/mpirun" <<'EOS'
#!/usr/bin/env bash
np=1 opts=""
while [ $# -gt 0 ]; do
  case "$1" in
    -np) np=$2; shift 2 ;;
    -x|--map-by|--bind-to) opts="$opts $1 $2"; shift 2 ;;
    --allow-run-as-root) shift ;;
    *) break ;;
  esac
done
echo "np=$np$opts :: $*" >>"$FAKE_CALLS"
exec "$@" -var FAKE_NP "$np"
EOS
cat >"$T/lmp" <<'EOS'
#!/usr/bin/env bash
log="" steps=100 np=1 sf="" pkg=1
while [ $# -gt 0 ]; do
  case "$1" in
    -log) log=$2; shift 2 ;;
    -var) [ "$2" = steps ] && steps=$3; [ "$2" = FAKE_NP ] && np=$3; shift 3 ;;
    -sf) sf=$2; shift 2 ;;
    -pk) [ "$2" = gpu ] && pkg=$3; shift 3 ;;
    *) shift ;;
  esac
done
case "$sf" in
  cuda) rate=$((100 * np)) ;;
  gpu) rate=$np ;;
  *) rate=7 ;;
esac
t=$(awk -v s="$steps" -v r="$rate" 'BEGIN{print s / r}')
echo "Loop time of $t on $np procs for $steps steps with 16384000 atoms" >"$log"
EOS
chmod +x "$T/mpirun" "$T/lmp"
export FAKE_CALLS="$T/calls"

# a scaling run on 1, 2 and 4 GPUs of a 16-core machine, 4 and 8 GPU-package ranks per GPU
MPIRUN="$T/mpirun" BENCH_THREADS=16 BENCH_GPUS="1 2 4" BENCH_GPU_RANKS="4 8" BENCH_CPU_RANKS=16 \
  BENCH_ONLY='^lj-16384k$' "$RUN_BENCH" "$T/lmp" "$T/out" >"$T/summary" 2>&1
cat "$T/summary"
check "mesogpu on 2 GPUs: 2 ranks, 200 steps/s, 2.00x of one" \
  bash -c "grep -q -- '^np=2 --bind-to none.* -sf cuda' '$FAKE_CALLS' && [[ \"\$(grep -E '^lj-16384k +16384000 mesogpu@2 ' '$T/summary')\" == *'200.0'*'(2.00x of 1 GPU)'* ]]"
check "mesogpu on 4 GPUs: 4.00x of one" bash -c "[[ \"\$(grep -E '^lj-16384k +16384000 mesogpu@4 ' '$T/summary')\" == *'400.0'*'(4.00x of 1 GPU)'* ]]"
check "a scaling run starts mesogpu's one-GPU run unbound too" \
  grep -q -- '^np=1 --bind-to none.* -sf cuda' "$FAKE_CALLS"
check "GPU package on 4 GPUs: 16 ranks (4 per GPU) and no 32 (more than the cores)" \
  bash -c "grep -q -- '^np=16 .*-sf gpu -pk gpu 4' '$FAKE_CALLS' && ! grep -q -- '^np=32 ' '$FAKE_CALLS'"
check "GPU package on 2 GPUs: the best of 8 and 16 ranks is 16" \
  bash -c "[[ \"\$(grep -E '^lj-16384k +16384000 gpu@2 ' '$T/summary')\" == *'2gpu-gpu-16'*'16.0'* ]]"
check "ratio against the GPU package on the same GPUs: 200 / 16 = 12.5x" \
  bash -c "[[ \"\$(grep -E '^lj-16384k +16384000 gpu@2 ' '$T/summary')\" == *'12.5x'* ]]"
check "the CPU row once, on 16 ranks" \
  bash -c "[ \$(grep -c -- '^np=16 --map-by slot:PE=1 --bind-to core.* -in [^ ]*in.lj -log [^ ]*cpu-16 ' '$FAKE_CALLS') = 1 ]"

# the default (one GPU): configuration names as before, mesogpu bound to a core, no CPU row
: >"$FAKE_CALLS"
MPIRUN="$T/mpirun" BENCH_THREADS=16 BENCH_GPU_RANKS="4" BENCH_CPU_RANKS=none \
  BENCH_ONLY='^lj-16384k$' "$RUN_BENCH" "$T/lmp" "$T/out1" >"$T/summary1" 2>&1
cat "$T/summary1"
check "one GPU: mesogpu bound to a core, named mesogpu" \
  bash -c "grep -q -- '^np=1 --map-by slot:PE=1 --bind-to core.* -sf cuda' '$FAKE_CALLS' && grep -qE '^lj-16384k +16384000 mesogpu +mesogpu +100.0' '$T/summary1'"
check "one GPU: the GPU package with OpenMP threads on 4 ranks (4 x 4)" \
  grep -q -- '^np=4 .*-sf hybrid gpu omp -pk gpu 1 -pk omp 4' "$FAKE_CALLS"
check "BENCH_CPU_RANKS=none: no CPU run and no CPU row" \
  bash -c "! grep -q 'cpu-' '$FAKE_CALLS' && ! grep -qE '^lj-16384k +[0-9]+ cpu ' '$T/summary1'"
exit $fail
