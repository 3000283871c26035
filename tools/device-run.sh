#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with .device/ carried
# (tools/device-pack.sh). Writes logs to $OUT (the device tool's output folder).
# Usage: tools/device-run.sh [tests|bench|all] [quick]
set -uo pipefail
ROOT="$(pwd)"
D="$ROOT/.device"
OUT="${OUT:-$ROOT/device-out}"
WHAT="${1:-all}"
QUICK="${2:-}"
mkdir -p "$OUT"
chmod +x "$D"/bin/* "$D"/lammps/lmp
export LD_LIBRARY_PATH="$D/lammps:${LD_LIBRARY_PATH:-}"
export LAMMPS_PLUGIN_PATH="$D/plugin"
export MESOGPU_SOURCE_DIR="$ROOT" MESOGPU_POTENTIALS="$ROOT/potentials"
export MESOGPU_TEST_INPUTS="$ROOT/unittest/force-styles/inputs"
export OMP_NUM_THREADS=1
export BENCH_DATA_CHAIN="$D/bench/data.chain"
# at most 8 files come back: a summary, the test logs, and the bench logs as one tarball
exec > >(tee "$OUT/summary.txt") 2>&1
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv
rc=0
if [ "$WHAT" = tests ] || [ "$WHAT" = all ]; then
  "$D/bin/test_gpu_table_r2" 2>&1 | tee "$OUT/test_gpu_table_r2.log" | grep -E "^\[gpu\]|PASSED|FAILED|Failure" ; rc=$((rc | PIPESTATUS[0]))
  "$D/bin/test_gpu_resident" 2>&1 | tee "$OUT/test_gpu_resident.log" | grep -E "^\[gpu\]|PASSED|FAILED|Failure|Expected|Which|actual" ; rc=$((rc | PIPESTATUS[0]))
  for prec in double single; do
    LAMMPS_PLUGIN_PATH="$D/plugin-$prec" "$D/bin/test_gpu_resident_$prec" 2>&1 | tee "/tmp/test_gpu_resident_$prec.log" |
      grep -E "^\[gpu\]|PASSED|FAILED|Failure|Expected|Which|actual"
    rc=$((rc | PIPESTATUS[0]))
  done
  cat /tmp/test_gpu_resident_double.log /tmp/test_gpu_resident_single.log >"$OUT/test_gpu_resident_other_precisions.log"
  compute-sanitizer --tool memcheck --error-exitcode 9 "$D/bin/test_gpu_resident" \
    --gtest_filter='GpuResident.Forces*:GpuResident.OutputEvery*' >"$OUT/memcheck.log" 2>&1
  echo "memcheck exit $? : $(grep -m1 'ERROR SUMMARY' "$OUT/memcheck.log")"
  compute-sanitizer --tool racecheck --error-exitcode 9 "$D/bin/test_gpu_resident" \
    --gtest_filter='GpuResident.ForcesTableR2*:GpuResident.ForcesMDSCF*' >"$OUT/racecheck.log" 2>&1
  echo "racecheck exit $? : $(grep -m1 'RACECHECK SUMMARY\|ERROR SUMMARY' "$OUT/racecheck.log")"
fi
if [ "$WHAT" = bench ] || [ "$WHAT" = all ]; then
  "$D/bin/bandwidth"
  bench/run_bench.sh "$D/lammps/lmp" /tmp/mesogpu-bench $QUICK
  tar -czf "$OUT/bench-logs.tgz" -C /tmp mesogpu-bench
fi
echo "device-run: tests rc=$rc"
exit $rc
