#!/bin/bash
# Device call for the mrperf branch (several ranks sharing one GPU: page-locked exchange
# staging, no per-step message for the rebuild decision, MESOGPU_RANK_TIMING). Copy to
# .device/ and run from the repository root on nvidia-h100-x1 (about 8 minutes).
# Before: .device/baseline-src.tar.gz = the parent tree (git archive of main before the
# merge), mixed; after: this tree. Tests: the multirank GPU suites in double.
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
  cmake --build /tmp/base-build -j16 --target mesogpuplugin >/dev/null) || el "baseline build failed"
el "built"
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps-log; mkdir -p /tmp/mps-pipe /tmp/mps-log; nvidia-cuda-mps-control -d && el "MPS on"
# correctness first: the multirank suites in double (decide: check no / every+delay check yes / timing)
(cd $B/double && timeout 330 ctest -R "gpu:multirank" -j 3 --timeout 300 --output-on-failure > $OUT/ctest-double.txt 2>&1; echo "rc $?" >> $OUT/ctest-double.txt)
el "ctest gpu:multirank $(tail -1 $OUT/ctest-double.txt) $(grep -c 'Passed' $OUT/ctest-double.txt) passed"
grep -h "^\[gpu\]" $OUT/ctest-double.txt | sort -u > $OUT/gpu-lines.txt
# LJ 2,048,000 atoms (bench/in.lj: list every 20 steps, check no), 1000 steps, rebuild device,
# 1/2/4 ranks sharing the H100: base, new, new with MESOGPU_RANK_TIMING=1
LMP=$B/lammps/lmp
mkdir -p $R/mrperf && cd $R/mrperf
sed 's|^fix             1 all nve|run_style verlet/cuda rebuild device\nfix             1 all nve|' $ROOT/bench/in.lj > in.lj
for np in 1 2 4; do for v in base new timed; do
  plug=$B/mixed/plugin; [ $v = base ] && plug=/tmp/base-build/plugin
  tm=0; [ $v = timed ] && tm=1
  MESOGPU_RANK_TIMING=$tm MESOGPU_GPU_SHARE=1 LAMMPS_PLUGIN_PATH=$plug timeout 90 mpirun -np $np -x MESOGPU_GPU_SHARE -x MESOGPU_RANK_TIMING $LMP -sf cuda -in in.lj -var x 4 -var y 4 -var z 4 -var steps 1000 -log log.$np.$v > out.$np.$v 2>&1
  el "LJ 2048k np $np $v rc $? $(grep -m1 'Loop time' log.$np.$v) $(grep -m1 'rebuilds on' log.$np.$v)"
done; done
# check yes variant (decision test every 20 steps, reduced; other steps no message)
sed -i 's/check no/check yes/' in.lj
for np in 2; do for v in base new timed; do
  plug=$B/mixed/plugin; [ $v = base ] && plug=/tmp/base-build/plugin
  tm=0; [ $v = timed ] && tm=1
  MESOGPU_RANK_TIMING=$tm MESOGPU_GPU_SHARE=1 LAMMPS_PLUGIN_PATH=$plug timeout 90 mpirun -np $np -x MESOGPU_GPU_SHARE -x MESOGPU_RANK_TIMING $LMP -sf cuda -in in.lj -var x 4 -var y 4 -var z 4 -var steps 1000 -log log.yes.$np.$v > out.yes.$np.$v 2>&1
  el "LJ 2048k check yes np $np $v rc $? $(grep -m1 'Loop time' log.yes.$np.$v)"
done; done
grep -H "Loop time\|Performance\|rebuilds on\|rank timing" log.* > $OUT/mrperf.txt
echo quit | nvidia-cuda-mps-control
el done
