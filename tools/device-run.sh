#!/usr/bin/env bash
# Runs on the GPU machine from the repository root after tools/device-build.sh. Writes
# logs to $OUT (the device tool's output folder).
# Usage: tools/device-run.sh [tests|bench|all] [quick]
#   tests: the GPU tests in the three precisions, compute-sanitizer memcheck/racecheck
#   bench: bench/run_bench.sh (mesogpu, the LAMMPS GPU package scanned over 1/4/8/16
#          MPI ranks, the CPU on 16 MPI ranks); BENCH_ONLY picks systems by name
#   big:   bench/in.lj resident at the sizes in BIG_X (default "10 15": 32 M and 108 M
#          atoms), with setup time, steps/s and the device memory line of each
#   scaling: on a machine of several GPUs, the multi-rank GPU tests with one rank per GPU,
#          then bench/run_bench.sh's scaling run (BENCH_GPUS = 1, 2, 4, 8 up to the GPUs
#          there; the GPU package with SCALING_GPU_RANKS, default 16, ranks per GPU; the
#          CPU on all cores) of LJ 2 M and 16 M, the KG melt at 8 M and LW2 x 8, the weak
#          scaling rows (2 M atoms per GPU) and LJ 16.4 M on all GPUs with
#          MESOGPU_RANK_TIMING=1 (where the time goes)
set -uo pipefail
ROOT="$(pwd)"
B="$ROOT/.device-build"
OUT="${OUT:-$ROOT/device-out}"
WHAT="${1:-all}"
QUICK="${2:-}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B/lammps:${LD_LIBRARY_PATH:-}"
export LAMMPS_PLUGIN_PATH="$B/mixed/plugin"
export MESOGPU_SOURCE_DIR="$ROOT" MESOGPU_POTENTIALS="$ROOT/potentials" LAMMPS_POTENTIALS="$ROOT/potentials"
export MESOGPU_TEST_INPUTS="$ROOT/unittest/force-styles/inputs"
export OMP_NUM_THREADS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export BENCH_DATA_CHAIN="$B/cache/lammps-20260704/bench/data.chain"
# at most 8 files come back: a summary, the test logs and the bench logs as tarballs
exec > >(tee -a "$OUT/summary.txt") 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv
rc=0
if [ "$WHAT" = tests ] || [ "$WHAT" = all ]; then
  LOGS=/tmp/mesogpu-test-logs
  mkdir -p "$LOGS"
  "$B/mixed/unittest/test_gpu_table_r2" 2>&1 | tee "$LOGS/test_gpu_table_r2.log" | grep -E "^\[gpu\]|PASSED|FAILED|Failure"
  rc=$((rc | PIPESTATUS[0]))
  # every GPU test but the table/r2 kernel test (run once above), in each precision built;
  # GPU_TESTS (space-separated names) narrows them
  for prec in mixed double single; do
    for t in ${GPU_TESTS:-$(cd "$ROOT/unittest/gpu" && ls test_gpu_*.cpp | sed 's/\.cpp$//' | grep -v '^test_gpu_table_r2$')}; do
      [ -x "$B/$prec/unittest/$t" ] || continue
      LAMMPS_PLUGIN_PATH="$B/$prec/plugin" "$B/$prec/unittest/$t" ${GTEST_FILTER:+--gtest_filter=$GTEST_FILTER} 2>&1 |
        tee "$LOGS/${t}_$prec.log" | grep -E "^\[gpu\]|PASSED|FAILED|Failure|Expected|Which|actual"
      rc=$((rc | PIPESTATUS[0]))
    done
  done
  if [ -z "${SKIP_SANITIZER:-}" ]; then
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/mixed/unittest/test_gpu_resident" \
      --gtest_filter='GpuResident.Forces*:GpuResident.OutputEvery*:-GpuResident.ForcesPast32Bit*' >/tmp/memcheck.log 2>&1
    echo "memcheck exit $? : $(grep -m1 'ERROR SUMMARY' /tmp/memcheck.log)"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/mixed/unittest/test_gpu_hybrid" \
      --gtest_filter='-*Trajectory*' >/tmp/memcheck-hybrid.log 2>&1
    echo "memcheck (hybrid) exit $? : $(grep -m1 'ERROR SUMMARY' /tmp/memcheck-hybrid.log)"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/mixed/unittest/test_gpu_geometry" \
      --gtest_filter='*SmallBox*:*Column*:*Template*' >/tmp/memcheck-geometry.log 2>&1
    echo "memcheck (geometry) exit $? : $(grep -m1 'ERROR SUMMARY' /tmp/memcheck-geometry.log)"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/mixed/unittest/test_gpu_table_bonded" \
      --gtest_filter='*Forces*' >/tmp/memcheck-table.log 2>&1
    echo "memcheck (table bonded) exit $? : $(grep -m1 'ERROR SUMMARY' /tmp/memcheck-table.log)"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/mixed/unittest/test_gpu_npt" \
      --gtest_filter='*NptIsoFollowsCpu*' >/tmp/memcheck-npt.log 2>&1
    echo "memcheck (npt) exit $? : $(grep -m1 'ERROR SUMMARY' /tmp/memcheck-npt.log)"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/mixed/unittest/test_gpu_topology" \
      >/tmp/memcheck-topology.log 2>&1
    echo "memcheck (topology) exit $? : $(grep -m1 'ERROR SUMMARY' /tmp/memcheck-topology.log)"
    compute-sanitizer --tool racecheck --error-exitcode 9 "$B/mixed/unittest/test_gpu_resident" \
      --gtest_filter='GpuResident.ForcesTableR2*:GpuResident.ForcesMDSCF*' >/tmp/racecheck.log 2>&1
    echo "racecheck exit $? : $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' /tmp/racecheck.log)"
  fi
  tar -czf "$OUT/test-logs.tgz" -C /tmp mesogpu-test-logs
fi
if [ "$WHAT" = big ]; then
  for x in ${BIG_X:-10 15}; do
    t0=$(date +%s)
    "$B/lammps/lmp" -sf cuda -in bench/in.lj -var x "$x" -var y "$x" -var z "$x" -var steps "${BIG_STEPS:-100}" \
      -log "$OUT/log.lj-big-$x" -screen none
    echo "lj x=y=z=$x: exit $?, $(($(date +%s) - t0)) s wall in all"
    grep -E "verlet/cuda setup|^Loop time|Created [0-9]+ atoms|device memory|ERROR" "$OUT/log.lj-big-$x"
  done
fi
if [ "$WHAT" = scaling ]; then
  NG=$(nvidia-smi -L | wc -l)
  G=1
  for g in 2 4 8; do [ "$NG" -ge "$g" ] && G="$G $g"; done
  echo "scaling run on GPU counts: $G"
  (cd "$B/mixed" && ctest -R "gpu:multirank(_rebuild|_molecular|_ipc)?_np$([ "$NG" -ge 4 ] && echo 4 || echo 2)" \
    --output-on-failure 2>&1 | tail -15)
  rc=$((rc | PIPESTATUS[0]))
  SC=/tmp/mesogpu-scaling
  BENCH_GPUS="$G" BENCH_GPU_RANKS="${SCALING_GPU_RANKS:-16}" BENCH_ONLY="${BENCH_ONLY:-^(lj-2048k|lj-16384k|kg-8192k|lw2x8-8389k)$}" \
    bench/run_bench.sh "$B/lammps/lmp" "$SC/strong"
  # weak scaling: 2 M atoms per GPU (lj-2048k above is the one-GPU row; on 8 GPUs the
  # weak row is lj-16384k of the strong run, not run twice)
  for g in $G; do
    case $g in 2) w=lj-4096k ;; 4) w=lj-8192k ;; *) continue ;; esac
    BENCH_GPUS=$g BENCH_GPU_RANKS="${SCALING_GPU_RANKS:-16}" BENCH_CPU_RANKS=none BENCH_ONLY="^$w\$" \
      bench/run_bench.sh "$B/lammps/lmp" "$SC/weak-$g"
  done
  mpirun --allow-run-as-root -np "$NG" --bind-to none -x MESOGPU_RANK_TIMING=1 -x LD_LIBRARY_PATH \
    -x LAMMPS_PLUGIN_PATH "$B/lammps/lmp" -sf cuda -in bench/in.lj -var x 8 -var y 8 -var z 8 \
    -var steps 1000 -log "$SC/log.rank-timing-lj16m" -screen none
  grep -E "rank timing|^Loop time" "$SC/log.rank-timing-lj16m"
  tar -czf "$OUT/scaling-logs.tgz" -C /tmp mesogpu-scaling
fi
if [ "$WHAT" = bench ] || [ "$WHAT" = all ]; then
  "$B/bandwidth"
  bench/run_bench.sh "$B/lammps/lmp" /tmp/mesogpu-bench $QUICK
  tar -czf "$OUT/bench-logs.tgz" -C /tmp mesogpu-bench
fi
echo "device-run: tests rc=$rc"
exit $rc
