#!/usr/bin/env bash
# ptmc benchmark (GPU machine; asserts nothing): sweeps per second of parallel-tempering
# Monte Carlo (bench/in.ptmc, the Gross et al. 2011 chain) for chains of N = 30, 100, 300,
# 1000 monomers and M = 32 .. 256 replicas: on the GPU (ptmc ... gpu yes, one rank), on one
# CPU core (gpu no, one rank) and on R MPI ranks (gpu no, replica r on rank r mod R).
# Prints a markdown table for bench/RESULTS.md; the logs stay in OUTDIR.
# Usage: bench/run_ptmc_bench.sh LMP OUTDIR [quick]
#   LMP: the host lmp; LAMMPS_PLUGIN_PATH must name mesogpu's plugin folder.
#   PTMC_N (default "30 100 300 1000"), PTMC_M (default "32 64 128 256"; quick: "32 256"),
#   PTMC_CPU_SECONDS (default 20; quick 5): rough time of a one-core run (sets its sweeps;
#   the R-rank run does R times as many, the GPU run PTMC_GPU_FACTOR (default 200) times as
#   many, at least 20), BENCH_CPU_RANKS (default 16; 0 skips), MPIRUN (default mpirun).
#   MESOGPU_PTMC_THREADS (threads per block), MESOGPU_PTMC_KERNEL (auto|warp|block) and
#   MESOGPU_PTMC_WARPS (replicas per block of the warp kernel) pass through to the GPU runs.
set -uo pipefail
LMP="$1"
OUT="$2"
QUICK="${3:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$OUT"
cd "$OUT"
NS="${PTMC_N:-30 100 300 1000}"
if [ -n "$QUICK" ]; then
  MS="${PTMC_M:-32 256}"
  CPU_S="${PTMC_CPU_SECONDS:-5}"
else
  MS="${PTMC_M:-32 64 128 256}"
  CPU_S="${PTMC_CPU_SECONDS:-20}"
fi
FACTOR="${PTMC_GPU_FACTOR:-200}"
RANKS="${BENCH_CPU_RANKS:-16}"
MPIRUN="${MPIRUN:-mpirun}"

# one chain on a serpentine path through a cubic lattice of spacing 0.7 (bonds at the FENE
# minimum, non-bonded neighbours at the LJ minimum), box with a wide margin, boundary f f f
make_chain() {
  awk -v n="$1" 'BEGIN {
    a = 0.7; s = 1; while (s * s * s < n) s++;
    L = s * a + 40.0;
    printf "ptmc bench chain\n\n%d atoms\n%d bonds\n1 atom types\n1 bond types\n\n", n, n - 1;
    printf "%g %g xlo xhi\n%g %g ylo yhi\n%g %g zlo zhi\n\nMasses\n\n1 1.0\n\nAtoms # bond\n\n",
           -L / 2, L / 2, -L / 2, L / 2, -L / 2, L / 2;
    for (i = 0; i < n; i++) {
      z = int(i / (s * s)); r = i % (s * s);
      if (z % 2 == 1) r = s * s - 1 - r;        # odd layers walked backwards
      y = int(r / s); x = r % s;
      if (y % 2 == 1) x = s - 1 - x;            # serpentine within a layer
      printf "%d 1 1 %.6f %.6f %.6f\n", i + 1, (x - s / 2) * a, (y - s / 2) * a, (z - s / 2) * a;
    }
    printf "\nBonds\n\n";
    for (i = 1; i < n; i++) printf "%d 1 %d %d\n", i, i, i + 1;
  }' > "chain.$1.data"
}

rate_of() { grep -a "^BENCH ptmc" "$1" | awk '{print $NF}'; }

printf "| N | M | CPU 1 core sweeps/s | CPU %s ranks sweeps/s | GPU sweeps/s | GPU ÷ 1 core | GPU ÷ %s ranks | GPU monomer trials/s |\n" "$RANKS" "$RANKS"
printf "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
for N in $NS; do
  make_chain "$N"
  for M in $MS; do
    # CPU: ~5e7 pair terms per second and core, 2 N terms per trial, N trials per sweep
    CS=$(awk -v n="$N" -v m="$M" -v t="$CPU_S" 'BEGIN { s = int(t * 5e7 / (2.0 * m * n * n));
                                                       if (s < 1) s = 1; if (s > 5000) s = 5000; print s }')
    GS=$(( CS * FACTOR )); [ "$GS" -lt 20 ] && GS=20
    run() {    # tag ranks sweeps gpu
      local cmd=("$LMP")
      [ "$2" -gt 1 ] && cmd=("$MPIRUN" -np "$2" "$LMP")
      "${cmd[@]}" -in "$HERE/in.ptmc" -var data "chain.$N.data" -var M "$M" -var sweeps "$3" \
        -var gpu "$4" -log "$1.$N.$M.log" -screen none -nocite
      rate_of "$1.$N.$M.log"
    }
    C=$(run cpu1 1 "$CS" no)
    P=0
    [ "$RANKS" -gt 1 ] && P=$(run cpu$RANKS "$RANKS" $(( CS * RANKS )) no)
    G=$(run gpu 1 "$GS" yes)
    awk -v n="$N" -v m="$M" -v c="${C:-0}" -v p="${P:-0}" -v g="${G:-0}" 'BEGIN {
      r1 = (c > 0 && g > 0) ? sprintf("%.1f", g / c) : "-";
      rp = (p > 0 && g > 0) ? sprintf("%.1f", g / p) : "-";
      printf "| %d | %d | %.4g | %.4g | %.4g | %s | %s | %.3g |\n", n, m, c, p, g, r1, rp, g * m * n }'
  done
done
echo
echo "ptmc: $(grep -a -h 'ptmc: on the GPU' gpu.*.log | sort -u | head -3)"
