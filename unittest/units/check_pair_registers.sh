#!/usr/bin/env bash
# The LJ pair kernels stay at full occupancy: 2048 threads per SM on sm_90 (65,536
# registers) leave 32 registers a thread. The force steps' kernels (no energies, one lane
# per atom) of pair lj/cut/cuda in mixed precision, 32-bit entries and 16-bit cell
# entries, must fit that without spilling. A kernel that walked its list by an index
# per entry took 38 and ran LJ 12-14 % slower on an H100 (bench/RESULTS.md, 2026-11-27);
# this compiles cuda/forces/pair_lj_cut.cu as a Release build does and reads ptxas's
# report. No GPU needed. The kernels over a list of rows (the overlap of the exchange on
# several ranks, run_style verlet/cuda overlap) are bounded the same way: free they took 37
# registers and ran 10 % slower on four H200s; bounded they spill a few bytes (4 and 12
# here), which cost nothing measurable, so up to 16 are allowed for them.
# Usage: check_pair_registers.sh NVCC SOURCE_DIR
set -uo pipefail
NVCC="$1"
SRC="$2"
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
"$NVCC" -O3 -DNDEBUG -std=c++17 --expt-relaxed-constexpr --generate-code=arch=compute_90,code=sm_90 \
  -Xptxas -v -I"$SRC/cuda" -I"$SRC/src" -c "$SRC/cuda/forces/pair_lj_cut.cu" -o "$T/pair_lj_cut.o" \
  >"$T/ptxas.txt" 2>&1 || { cat "$T/ptxas.txt"; echo "FAILED: nvcc"; exit 1; }
# per kernel: registers and spill bytes, from ptxas's lines after "Compiling entry function"
awk '
  /Compiling entry function/ { name = $0; sub(/.*function \047/, "", name); sub(/\047.*/, "", name) }
  /spill stores/ { match($0, /[0-9]+ bytes spill stores/); spill[name] = substr($0, RSTART, RLENGTH) + 0 }
  /Used [0-9]+ registers/ { match($0, /Used [0-9]+ registers/); regs[name] = substr($0, RSTART + 5, RLENGTH - 15) + 0 }
  END { for (k in regs) print k, regs[k], (k in spill ? spill[k] : 0) }' "$T/ptxas.txt" >"$T/kernels.txt"
fail=0
check() {    # description, pattern of the mangled name[, bytes of spill allowed]
  local line allowed=${3:-0}
  line=$(grep -E "$2" "$T/kernels.txt" | head -1)
  if [ -z "$line" ]; then
    echo "FAILED: $1: no kernel matching $2 in ptxas's report"
    fail=1
    return
  fi
  read -r _ regs spill <<<"$line"
  if [ "$regs" -le 32 ] && [ "$spill" -le "$allowed" ]; then
    echo "ok: $1: $regs registers, $spill bytes spilled"
  else
    echo "FAILED: $1: $regs registers (at most 32), $spill bytes spilled ($allowed allowed)"
    fail=1
  fi
}
check "LJ, 32-bit entries" 'pair_forces_kernelI.*PairLJDevENS[0-9]+_8WideListELb0ELb0ELi1EE'
check "LJ, 16-bit cell entries" 'pair_forces_kernel_cellI.*PairLJDevELi1EE'
check "LJ over rows, 32-bit entries" 'pair_forces_rows_kernel_boundedI.*PairLJDevENS[0-9]+_8WideListEEE' 16
check "LJ over rows, 16-bit cell entries" 'pair_forces_rows_kernel_boundedI.*PairLJDevENS[0-9]+_8CellListEEE' 16
exit $fail
