#!/usr/bin/env python3
"""Analyse a dump of examples/membrane (in.membrane's production stage).

Reads a LAMMPS custom dump with columns id mol type x y z (types: 1 water, 3 phosphate,
6 tail; in.membrane writes <out>.dump) and reports, with block-average errors (the
standard error of the means of --blocks consecutive blocks of frames):

* area per lipid A = Lx Ly / (N_lipid / 2), N_lipid = number of phosphate beads;
* bilayer thickness D_PP: mean z of the upper leaflet's phosphates minus that of the
  lower's, z measured from the bilayer midplane (circular mean of the tail beads' z in the
  periodic box, so a bilayer that drifts across the box edge is handled);
* the water mass density profile rho(z) (g/cm^3) about the midplane (--bin A bins),
  written to <prefix>_water_profile.dat (z, rho, error);
* stability: each phosphate's leaflet is the side of the midplane it is on in the first
  frame; 'flips' counts phosphates found on the other side later, 'min_abs_zP' is the
  smallest |z - midplane| of any phosphate in any frame, 'core_water' the mean number of
  waters with |z - midplane| < --core A per frame.

    python3 analyse.py                        # membrane.dump
    python3 analyse.py big.dump --blocks 5 --skip 10

Ends with a line 'RESULT frames ... apl A err dA dpp D err dD core_water ... flips n
min_abs_zP z leaflets_intact yes|no'. Stops with a message (exit 1) on a missing, empty,
malformed or too short dump. Python 3 standard library only.
"""

import argparse
import math
import os
import sys

AMU_A3_TO_G_CM3 = 1.66053907  # 1 amu / A^3 in g / cm^3
M_WATER = 18.0153


def die(msg):
    sys.exit(f"analyse.py: {msg}")


def read_frames(path):
    if not os.path.exists(path):
        die(f"no dump file '{path}' (run in.membrane with nprod > 0 first)")
    frames = []
    with open(path) as f:
        lines = iter(f)
        for line in lines:
            if not line.startswith("ITEM: TIMESTEP"):
                continue
            try:
                step = int(next(lines))
                next(lines)
                n = int(next(lines))
                hdr = next(lines)
                if not hdr.startswith("ITEM: BOX BOUNDS") or "xy" in hdr:
                    die(f"{path}: step {step}: orthogonal box bounds expected, got '{hdr.strip()}'")
                box = [tuple(map(float, next(lines).split()[:2])) for _ in range(3)]
                cols = next(lines).split()[2:]
                need = ("mol", "type", "z")
                if any(c not in cols for c in need):
                    die(f"{path}: the dump needs columns {' '.join(need)}; it has {' '.join(cols)}")
                im, it, iz = cols.index("mol"), cols.index("type"), cols.index("z")
                atoms = []
                for _ in range(n):
                    w = next(lines).split()
                    atoms.append((int(w[im]), int(w[it]), float(w[iz])))
            except (StopIteration, ValueError, IndexError):
                print(f"analyse.py: warning: {path}: last frame incomplete, ignored", file=sys.stderr)
                break
            frames.append((step, box, atoms))
    if not frames:
        die(f"{path}: no complete frame")
    return frames


def midplane(zs, lz, zlo):
    """Circular mean of z in a periodic box of length lz starting at zlo."""
    s = sum(math.sin(2 * math.pi * (z - zlo) / lz) for z in zs)
    c = sum(math.cos(2 * math.pi * (z - zlo) / lz) for z in zs)
    return zlo + lz * (math.atan2(s, c) / (2 * math.pi) % 1.0)


def wrap(d, lz):
    return d - lz * round(d / lz)


def block_stats(values, nblocks):
    n = len(values) // nblocks
    means = [sum(values[b * n:(b + 1) * n]) / n for b in range(nblocks)]
    mean = sum(means) / nblocks
    var = sum((m - mean) ** 2 for m in means) / (nblocks - 1)
    return mean, math.sqrt(var / nblocks)


def main():
    p = argparse.ArgumentParser(description="area per lipid, P-P thickness, water profile")
    p.add_argument("dump", nargs="?", default="membrane.dump")
    p.add_argument("--blocks", type=int, default=5, help="blocks for the error bars (>= 2)")
    p.add_argument("--skip", type=int, default=0, help="frames to drop at the start")
    p.add_argument("--bin", type=float, default=1.0, help="profile bin width, A")
    p.add_argument("--core", type=float, default=10.0,
                   help="half-width of the hydrophobic core for core_water, A")
    p.add_argument("--prefix", default=None, help="output prefix (default: dump name)")
    a = p.parse_args()
    if a.blocks < 2:
        die("--blocks must be >= 2")
    if a.bin <= 0:
        die("--bin must be > 0")
    frames = read_frames(a.dump)[a.skip:]
    need = 2 * a.blocks
    if len(frames) < need:
        die(f"{a.dump}: {len(frames)} frame(s) after --skip {a.skip}; at least {need} needed "
            f"for {a.blocks} blocks (run longer, dump more often, or lower --blocks)")
    prefix = a.prefix or os.path.splitext(os.path.basename(a.dump))[0]

    side0 = None
    apl, dpp, core, profiles = [], [], [], []
    flips, min_abs_zp = 0, float("inf")
    lz_min = min(b[2][1] - b[2][0] for _, b, _ in frames)
    nbins = max(1, int(lz_min / a.bin))
    half = nbins * a.bin / 2
    for step, box, atoms in frames:
        lx, ly, lz = (hi - lo for lo, hi in box)
        zlo = box[2][0]
        tails = [z for _, t, z in atoms if t == 6]
        phos = sorted((m, z) for m, t, z in atoms if t == 3)
        if not tails or not phos:
            die(f"{a.dump}: step {step}: no tail (type 6) or phosphate (type 3) beads")
        c = midplane(tails, lz, zlo)
        dz = {m: wrap(z - c, lz) for m, z in phos}
        if side0 is None:
            side0 = {m: d > 0 for m, d in dz.items()}
            nup = sum(side0.values())
            if nup != len(side0) - nup:
                print(f"analyse.py: warning: first frame: {nup} phosphates above, "
                      f"{len(side0) - nup} below the midplane", file=sys.stderr)
        if set(dz) != set(side0):
            die(f"{a.dump}: step {step}: the phosphates differ from the first frame's")
        flips += sum(1 for m, d in dz.items() if (d > 0) != side0[m])
        min_abs_zp = min(min_abs_zp, min(abs(d) for d in dz.values()))
        up = [d for m, d in dz.items() if side0[m]]
        lo = [d for m, d in dz.items() if not side0[m]]
        nlip = len(dz)
        apl.append(lx * ly / (nlip / 2))
        dpp.append(sum(up) / len(up) - sum(lo) / len(lo))
        hist = [0] * nbins
        ncore = 0
        for _, t, z in atoms:
            if t != 1:
                continue
            d = wrap(z - c, lz)
            if abs(d) < a.core:
                ncore += 1
            k = int((d + half) // a.bin)
            if 0 <= k < nbins:
                hist[k] += 1
        core.append(ncore)
        f = M_WATER * AMU_A3_TO_G_CM3 / (lx * ly * a.bin)
        profiles.append([h * f for h in hist])

    nb = a.blocks
    used = (len(frames) // nb) * nb
    apl_m, apl_e = block_stats(apl[:used], nb)
    dpp_m, dpp_e = block_stats(dpp[:used], nb)
    core_m, core_e = block_stats(core[:used], nb)
    out = f"{prefix}_water_profile.dat"
    with open(out, "w") as fo:
        fo.write(f"# water mass density about the bilayer midplane, {used} frames of {a.dump}, "
                 f"{nb} blocks\n# z_A rho_g_cm3 err\n")
        bulk = []
        for k in range(nbins):
            m, e = block_stats([pr[k] for pr in profiles[:used]], nb)
            z = -half + (k + 0.5) * a.bin
            fo.write(f"{z:.2f} {m:.5f} {e:.5f}\n")
            if abs(z) > half - 6 * a.bin:
                bulk.append(m)
    rho_bulk = sum(bulk) / len(bulk)
    intact = flips == 0 and min_abs_zp > 0
    print(f"frames {len(frames)} (used {used}, {nb} blocks), lipids {nlip}")
    print(f"area per lipid   {apl_m:.2f} +- {apl_e:.2f} A^2   (DMPC 303 K, experiment: 60.6 A^2,"
          " Nagle and Tristram-Nagle 2000)")
    print(f"P-P thickness    {dpp_m:.2f} +- {dpp_e:.2f} A")
    print(f"water in core    {core_m:.2f} +- {core_e:.2f} per frame (|z| < {a.core} A)")
    print(f"water density    {rho_bulk:.3f} g/cm^3 far from the bilayer (profile: {out})")
    print(f"phosphates       {flips} leaflet changes, smallest |z - midplane| {min_abs_zp:.2f} A")
    print(f"RESULT frames {used} nlip {nlip} apl {apl_m:.3f} err {apl_e:.3f} dpp {dpp_m:.3f} "
          f"err {dpp_e:.3f} core_water {core_m:.3f} rho_bulk {rho_bulk:.4f} flips {flips} "
          f"min_abs_zP {min_abs_zp:.3f} leaflets_intact {'yes' if intact else 'no'}")


if __name__ == "__main__":
    main()
