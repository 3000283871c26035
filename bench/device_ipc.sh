#!/bin/bash
# Device call for the ipcx branch (run_style verlet/cuda exchange ipc: ghost positions
# forwarded device to device through CUDA IPC). Copy to .device/ and run from the
# repository root on nvidia-h200-x4 or nvidia-h100-x4 (about 9 minutes).
# 1. the multirank GPU suites in double (ranks sharing GPU 0: IPC within one device);
# 2. LJ 16,384,000 atoms (bench/in.lj -var x 8 -var y 8 -var z 8, list every 20 steps,
#    check no), 500 steps, rebuild device, one rank per GPU on 2 and 4 GPUs, exchange host
#    vs exchange ipc, MESOGPU_RANK_TIMING=1 (the forward lines say where the time went).
set -u
t0=$(date +%s)
ROOT=$PWD; B=$PWD/.device-build; R=$B/runs
export LD_LIBRARY_PATH=$B/lammps MESOGPU_SOURCE_DIR=$PWD LAMMPS_POTENTIALS=$PWD/potentials MESOGPU_POTENTIALS=$PWD/potentials OMP_NUM_THREADS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PYTHONUNBUFFERED=1 PATH=/usr/local/cuda/bin:$PATH
el() { echo "$* $(( $(date +%s)-t0 )) s" | tee -a $OUT/summary.txt; }
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader >> $OUT/summary.txt
nvidia-smi topo -m >> $OUT/summary.txt 2>&1
MESOGPU_DEVICE_TESTS=" " MESOGPU_DEVICE_PRECISIONS="mixed" tools/device-build.sh 2>&1 | tail -1
MESOGPU_DEVICE_TESTS="test_gpu_multirank_ipc test_gpu_multirank test_gpu_multirank_rebuild" MESOGPU_DEVICE_PRECISIONS="double" tools/device-build.sh 2>&1 | tail -1
el "built"
(cd $B/double && CUDA_VISIBLE_DEVICES=0 timeout 330 ctest -R "gpu:multirank" -j 3 --timeout 300 --output-on-failure > $OUT/ctest-double.txt 2>&1; echo "rc $?" >> $OUT/ctest-double.txt)
el "ctest gpu:multirank $(tail -1 $OUT/ctest-double.txt) $(grep -c 'Passed' $OUT/ctest-double.txt) passed"
grep -h "^\[gpu\]" $OUT/ctest-double.txt | sort -u > $OUT/gpu-lines.txt
LMP=$B/lammps/lmp; plug=$B/mixed/plugin
mkdir -p $R/ipc && cd $R/ipc
for ex in host ipc; do
  sed "s|^fix             1 all nve|run_style verlet/cuda rebuild device exchange $ex\nfix             1 all nve|" $ROOT/bench/in.lj > in.$ex.lj
done
for np in 2 4; do for ex in host ipc; do
  MESOGPU_RANK_TIMING=1 LAMMPS_PLUGIN_PATH=$plug timeout 150 mpirun -np $np --bind-to none \
    -x MESOGPU_RANK_TIMING -x LAMMPS_PLUGIN_PATH $LMP -sf cuda -in in.$ex.lj \
    -var x 8 -var y 8 -var z 8 -var steps 500 -log log.$np.$ex > out.$np.$ex 2>&1
  el "np $np exchange $ex rc $? $(grep -h 'Loop time' log.$np.$ex) $(grep -h 'exchange ipc' log.$np.$ex | head -1)"
  grep -h "rank timing" log.$np.$ex > $OUT/timing.$np.$ex.txt
  cp log.$np.$ex $OUT/
done; done
