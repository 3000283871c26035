#!/bin/bash
# Device call for the rebperf branch (a cheaper device rebuild on several ranks: in-place
# exchange in CommBrick's order, page-locked border/exchange staging, no per-rebuild
# reallocation). Copy to .device/ and run from the repository root on nvidia-h200-x4
# (about 9 minutes). Before: .device/baseline-src.tar.gz = git archive of main a37661a.
# Tests: the multirank GPU suites in double; then LJ 16.4 M on 2 and 4 GPUs, one rank
# per GPU, MESOGPU_RANK_TIMING=1, base and new.
set -u
t0=$(date +%s)
ROOT=$PWD; B=$PWD/.device-build; R=$B/runs
export LD_LIBRARY_PATH=$B/lammps MESOGPU_SOURCE_DIR=$PWD LAMMPS_POTENTIALS=$PWD/potentials MESOGPU_POTENTIALS=$PWD/potentials OMP_NUM_THREADS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH
el() { echo "$* $(( $(date +%s)-t0 )) s" | tee -a $OUT/summary.txt; }
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader >> $OUT/summary.txt
MESOGPU_DEVICE_TESTS=" " MESOGPU_DEVICE_PRECISIONS="mixed" tools/device-build.sh 2>&1 | tail -1
MESOGPU_DEVICE_TESTS="test_gpu_multirank test_gpu_multirank_rebuild test_gpu_multirank_decide" MESOGPU_DEVICE_PRECISIONS="double" tools/device-build.sh 2>&1 | tail -1
SRC=$B/cache/lammps-20260704; BIN=$(readlink -f $B/lammps)
mkdir -p /tmp/base && tar -xzf .device/baseline-src.tar.gz -C /tmp/base
(cmake -S /tmp/base -B /tmp/base-build -DLAMMPS_SOURCE_DIR=$SRC -DLAMMPS_BINARY_DIR=$BIN \
  -DMESOGPU_CUDA=ON -DMESOGPU_PRECISION=mixed -DMESOGPU_TESTS=OFF >/dev/null && \
  cmake --build /tmp/base-build -j32 --target mesogpuplugin >/dev/null) || el "baseline build failed"
el "built"
(cd $B/double && timeout 330 ctest -R "gpu:multirank" -j 3 --timeout 300 --output-on-failure > $OUT/ctest-double.txt 2>&1; echo "rc $?" >> $OUT/ctest-double.txt)
el "ctest gpu:multirank $(tail -1 $OUT/ctest-double.txt) $(grep -c 'Passed' $OUT/ctest-double.txt) passed"
LMP=$B/lammps/lmp
mkdir -p $R/rebperf && cd $R/rebperf
sed 's|^fix             1 all nve|run_style verlet/cuda rebuild device\nfix             1 all nve|' $ROOT/bench/in.lj > in.lj
for np in 2 4; do for v in base new; do
  plug=$B/mixed/plugin; [ $v = base ] && plug=/tmp/base-build/plugin
  MESOGPU_RANK_TIMING=1 LAMMPS_PLUGIN_PATH=$plug timeout 120 mpirun -np $np --bind-to none -x MESOGPU_RANK_TIMING -x LAMMPS_PLUGIN_PATH $LMP -sf cuda -in in.lj -var x 8 -var y 8 -var z 8 -var steps 500 -log log.$np.$v > out.$np.$v 2>&1
  el "LJ 16.4M np $np $v rc $? $(grep -m1 'Loop time' log.$np.$v) $(grep -m1 'rebuilds on' log.$np.$v)"
done; done
grep -H -A30 "Loop time\|rank timing" log.* > $OUT/rebperf.txt
el done
