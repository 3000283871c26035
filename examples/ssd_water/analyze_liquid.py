#!/usr/bin/env python3
"""Liquid properties of SSD water from in.liquid's output (python3, standard library only).

    python3 analyze_liquid.py liquid_rf            # reads liquid_rf.npt.dat, liquid_rf.nve.block*.dat
    python3 analyze_liquid.py liquid_e --npt-blocks 10 --fit 0.2 0.8

Reports, with block-averaged standard errors (mean of the block means, error =
standard deviation of the block means / sqrt(number of blocks)):
  * density (g/cm^3) and potential energy per molecule (kcal/mol) from the NPT production
    (liquid_<model>.npt.dat, cut into --npt-blocks contiguous blocks);
  * potential energy per molecule, temperature and the drift of the conserved energy
    from the NVE blocks (liquid_<model>.nve.block<k>.dat);
  * the self-diffusion coefficient D from the Einstein relation MSD(t) = 6 D t: in each
    NVE block, whose MSD is measured from that block's start (compute msd com yes), a
    least-squares line through MSD(t) for t between the fractions --fit of the block's
    length; D = slope / 6, and the blocks give the mean and the error.
and compares them with Fennell and Gezelter (2004) and experiment (README.md).

Stops with a message naming the problem when a file is missing or malformed, or when the
run is too short for block averages (--min-npt-ps, --min-block-ps, --min-blocks; --short
lowers them for a smoke test and marks the output as such).
"""
import argparse
import glob
import math
import os
import re
import sys

# Fennell and Gezelter, J. Chem. Phys. 120, 9175 (2004), liquid properties at ambient
# conditions (value, error in the last digits as printed); README.md says where these
# numbers were read. None: not found, to be filled from the paper.
PAPER = {
    "e": {"rho": (0.996, 0.001), "pe": None, "D": (2.51, 0.18)},
    "rf": {"rho": (0.997, 0.001), "pe": None, "D": (2.32, 0.06)},
}
EXPERIMENT = {"rho": 0.997, "D": 2.299}    # g/cm^3 at 298 K; 1e-5 cm^2/s (Mills 1973)
# OOPSE's reaction-field self term that pair ssd leaves out: -1/2 k_rf mu^2 per molecule
# (doc/pair_ssd.md) for SSD/RF at eps_RF = 80, r_c = 9 A
RF_SELF = -0.0596    # kcal/mol per molecule


def die(msg):
    sys.stderr.write("analyze_liquid.py: " + msg + "\n")
    sys.exit(2)


def read_table(path, ncol, made_by):
    if not os.path.isfile(path):
        die(f"{path} not found: it is written by {made_by}")
    rows = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            if len(parts) != ncol:
                die(f"{path}:{lineno}: expected {ncol} columns, found {len(parts)}")
            try:
                vals = [float(p) for p in parts]
            except ValueError:
                die(f"{path}:{lineno}: not a number in '{line}'")
            if not all(math.isfinite(v) for v in vals):
                die(f"{path}:{lineno}: not finite: '{line}'")
            rows.append(vals)
    if len(rows) < 2:
        die(f"{path}: {len(rows)} data line(s); the run stopped early or did not sample")
    return rows


def mean(xs):
    return sum(xs) / len(xs)


def block_stats(values):
    """mean and standard error of a list of block means"""
    n = len(values)
    m = mean(values)
    if n < 2:
        return m, float("nan")
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, math.sqrt(var / n)


def blocks_of(series, nblocks):
    """contiguous blocks of equal length (the first len % nblocks samples dropped)"""
    size = len(series) // nblocks
    start = len(series) - size * nblocks
    return [series[start + b * size:start + (b + 1) * size] for b in range(nblocks)]


def slope(xs, ys):
    mx, my = mean(xs), mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def fmt(value, err, digits):
    if value is None:
        return "-"
    if err is None or not math.isfinite(err):
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} ± {err:.{digits}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("prefix", help="output prefix of in.liquid: liquid_e or liquid_rf")
    ap.add_argument("--model", choices=["e", "rf"], help="default: from the prefix")
    ap.add_argument("--npt-blocks", type=int, default=10)
    ap.add_argument("--fit", type=float, nargs=2, default=(0.2, 0.8), metavar=("FROM", "TO"),
                    help="MSD fit window, fractions of an NVE block (default 0.2 0.8)")
    ap.add_argument("--min-npt-ps", type=float, default=500.0,
                    help="shortest NPT production accepted (ps, default 500)")
    ap.add_argument("--min-block-ps", type=float, default=50.0,
                    help="shortest NVE block accepted for D (ps, default 50)")
    ap.add_argument("--min-blocks", type=int, default=4,
                    help="fewest NVE blocks accepted (default 4)")
    ap.add_argument("--eta", type=float, default=0.89,
                    help="shear viscosity (mPa s) for the finite-size correction of D "
                         "(default 0.89, water at 298 K; the model's own is not computed)")
    ap.add_argument("--short", action="store_true",
                    help="smoke test: accept any length (>= 2 blocks); results marked SHORT")
    a = ap.parse_args()

    model = a.model
    if model is None:
        m = re.search(r"_(e|rf)$", os.path.basename(a.prefix))
        if not m:
            die(f"cannot tell the model from the prefix '{a.prefix}': give --model e or rf")
        model = m.group(1)
    if a.short:
        a.min_npt_ps, a.min_block_ps, a.min_blocks = 0.0, 0.0, 2
    if a.npt_blocks < 2:
        die("--npt-blocks must be at least 2 (an error bar needs two blocks)")
    if not 0.0 <= a.fit[0] < a.fit[1] <= 1.0:
        die(f"--fit {a.fit[0]} {a.fit[1]}: need 0 <= FROM < TO <= 1")

    # ---- NPT production ----
    npt_path = a.prefix + ".npt.dat"
    npt = read_table(npt_path, 7, "the npt stage of in.liquid (-var stage npt or all)")
    t_npt_ps = (npt[-1][1] - npt[0][1]) / 1000.0
    if t_npt_ps < a.min_npt_ps:
        die(f"{npt_path}: {t_npt_ps:.1f} ps of NPT production, fewer than --min-npt-ps "
            f"{a.min_npt_ps:g} (too short for block averages; run longer, -var tnpt)")
    if len(npt) < 2 * a.npt_blocks:
        die(f"{npt_path}: {len(npt)} samples for {a.npt_blocks} blocks: too short for block "
            f"averages (fewer blocks, --npt-blocks, or a longer run)")
    res = {}
    for key, col in (("rho", 2), ("pe_npt", 3), ("T_npt", 4), ("P_npt", 5)):
        res[key] = block_stats([mean([r[col] for r in b])
                                for b in blocks_of(npt, a.npt_blocks)])

    # ---- NVE blocks ----
    paths = glob.glob(a.prefix + ".nve.block*.dat")
    numbered = []
    for p in paths:
        m = re.search(r"\.nve\.block(\d+)\.dat$", p)
        if m:
            numbered.append((int(m.group(1)), p))
    numbered.sort()
    if not numbered:
        die(f"no {a.prefix}.nve.block<k>.dat files: they are written by the nve stage of "
            f"in.liquid (-var stage nve or all)")
    if [k for k, _ in numbered] != list(range(1, len(numbered) + 1)):
        die(f"NVE block files are not numbered 1..{len(numbered)}: "
            f"{[os.path.basename(p) for _, p in numbered]}")
    if len(numbered) < a.min_blocks:
        die(f"{len(numbered)} NVE block(s), fewer than --min-blocks {a.min_blocks}: too few "
            f"for block averages (-var nblocks)")
    D, pe_nve, T_nve, drift = [], [], [], []
    block_ps = None
    for k, p in numbered:
        rows = read_table(p, 6, "the nve stage of in.liquid")
        t = [r[1] for r in rows]
        length_ps = (t[-1] - t[0]) / 1000.0
        if length_ps < a.min_block_ps:
            die(f"{p}: {length_ps:.1f} ps, shorter than --min-block-ps {a.min_block_ps:g}: "
                f"too short for a diffusion fit (-var tblock)")
        block_ps = length_ps
        lo = t[0] + a.fit[0] * (t[-1] - t[0])
        hi = t[0] + a.fit[1] * (t[-1] - t[0])
        fit = [(r[1], r[5]) for r in rows if lo <= r[1] <= hi]
        if len(fit) < 3:
            die(f"{p}: {len(fit)} samples in the fit window {lo:g}-{hi:g} fs; sample more "
                f"often (-var sample) or widen --fit")
        s = slope([x for x, _ in fit], [y for _, y in fit])    # A^2 / fs
        D.append(s / 6.0 * 1e4)                                # 1e-5 cm^2/s
        pe_nve.append(mean([r[2] for r in rows]))
        T_nve.append(mean([r[3] for r in rows]))
        drift.append(slope(t, [r[4] for r in rows]) * 1e6)     # kcal/mol/ns per molecule
    res["D"] = block_stats(D)
    # Yeh-Hummer finite-size correction for a cubic periodic box of side L:
    # D_inf = D_pbc + xi k_B T / (6 pi eta L), xi = 2.837297 (informational: assumes eta)
    L = mean([r[6] for r in npt]) ** (1.0 / 3.0) * 1e-10                 # m
    T_mean = mean(T_nve)
    corr = 2.837297 * 1.380649e-23 * T_mean / (6 * math.pi * a.eta * 1e-3 * L) * 1e9
    res["D_corr"] = (res["D"][0] + corr, res["D"][1])
    res["pe_nve"] = block_stats(pe_nve)
    res["T_nve"] = block_stats(T_nve)
    res["drift"] = block_stats(drift)

    # ---- report ----
    paper = PAPER[model]
    name = {"e": "SSD/E", "rf": "SSD/RF"}[model]
    tag = " [SHORT RUN: smoke test only, not a result]" if a.short else ""
    print(f"{name} liquid, {a.prefix}{tag}")
    print(f"  NPT production {t_npt_ps:.1f} ps in {a.npt_blocks} blocks; "
          f"NVE {len(numbered)} blocks of {block_ps:.1f} ps, MSD fit over "
          f"{a.fit[0]:g}-{a.fit[1]:g} of each block")
    print(f"  NPT: T {fmt(*res['T_npt'], 1)} K, P {fmt(*res['P_npt'], 0)} atm;  "
          f"NVE: T {fmt(*res['T_nve'], 1)} K, drift of the conserved energy "
          f"{fmt(*res['drift'], 3)} kcal/mol/ns per molecule")
    print()
    print(f"  {'quantity':<34} {'this run':>20} {'Fennell & Gezelter 2004':>24} {'experiment':>11}")

    def row(label, value, ref, exp, digits):
        r = "to be filled" if ref is None else fmt(ref[0], ref[1], digits)
        e = "-" if exp is None else f"{exp:g}"
        print(f"  {label:<34} {fmt(*value, digits):>20} {r:>24} {e:>11}")

    row("density (g/cm^3), NPT", res["rho"], paper["rho"], EXPERIMENT["rho"], 4)
    row("pe per molecule (kcal/mol), NPT", res["pe_npt"], paper["pe"], None, 3)
    row("pe per molecule (kcal/mol), NVE", res["pe_nve"], paper["pe"], None, 3)
    if model == "rf":
        shifted = (res["pe_npt"][0] + RF_SELF, res["pe_npt"][1])
        row("  NPT + RF self term (OOPSE's pe)", shifted, paper["pe"], None, 3)
    row("D (1e-5 cm^2/s), NVE", res["D"], paper["D"], EXPERIMENT["D"], 2)
    row(f"  + finite size ({corr:.2f}, eta {a.eta:g} mPa s)", res["D_corr"], paper["D"],
        EXPERIMENT["D"], 2)
    print()

    def z(value, ref):
        if ref is None:
            return "nan"
        err = math.hypot(value[1], ref[1]) if math.isfinite(value[1]) else float("nan")
        return f"{(value[0] - ref[0]) / err:.2f}" if err > 0 else "nan"

    for key, label in (("rho", "density"), ("D", "D")):
        print(f"  {label}: (this run - paper) / combined error = {z(res[key], paper[key])}")
    # one machine-readable line (ctest, scripts)
    print(f"RESULT model {model} rho {res['rho'][0]:.5f} {res['rho'][1]:.5f} "
          f"pe_npt {res['pe_npt'][0]:.4f} {res['pe_npt'][1]:.4f} "
          f"pe_nve {res['pe_nve'][0]:.4f} {res['pe_nve'][1]:.4f} "
          f"D {res['D'][0]:.4f} {res['D'][1]:.4f} D_corr {res['D_corr'][0]:.4f} "
          f"T_nve {res['T_nve'][0]:.2f} "
          f"drift {res['drift'][0]:.4g} short {int(a.short)}")


if __name__ == "__main__":
    main()
