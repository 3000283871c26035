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

--svg FILE also writes a picture (hand-written SVG): on the left a side view of the last
frame used, every bead projected on the x-z plane with z about the midplane (water light
blue, tails grey, glycerol/esters orange, phosphates red, cholines blue), on the right the
mass density profiles of water, phosphate, choline and tail beads (mean over the frames
used) on the same z axis, and a title with the area per lipid and P-P thickness +- errors.
It needs the dump's x column (the rest needs only mol, type, z).

    python3 analyse.py                        # membrane.dump
    python3 analyse.py big.dump --blocks 5 --skip 10
    python3 analyse.py membrane.dump --svg membrane.svg

Ends with a line 'RESULT frames ... apl A err dA dpp D err dD core_water ... flips n
min_abs_zP z leaflets_intact yes|no'. Stops with a message (exit 1) on a missing, empty,
malformed or too short dump (or, with --svg, one without x, or an unwritable FILE).
Python 3 standard library only.
"""

import argparse
import math
import os
import sys
from xml.sax.saxutils import escape

AMU_A3_TO_G_CM3 = 1.66053907  # 1 amu / A^3 in g / cm^3
M_WATER = 18.0153
# bead masses (amu, README's table) of the profiles: water, choline, phosphate, tail
MASS = {1: M_WATER, 2: 90.0, 3: 90.0, 6: 42.0}


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
                ix = cols.index("x") if "x" in cols else None    # only --svg needs x
                atoms = []
                for _ in range(n):
                    w = next(lines).split()
                    atoms.append((int(w[im]), int(w[it]), float(w[iz]),
                                  None if ix is None else float(w[ix])))
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


# --svg: hand-written SVG (no plotting library). Side view: bead type -> (group, colour,
# radius in A), drawn in this order (water first, the head groups on top).
BEADS = (("water", (1,), "#9cd3f0", 0.5), ("tail", (6,), "#999", 1.0),
         ("ester-glycerol", (4, 5), "#f39c12", 1.2), ("phosphate", (3,), "#d62728", 1.4),
         ("choline", (2,), "#1f5fb4", 1.4))
# profiles: type -> (name, colour)
CURVES = ((1, "water", "#17becf"), (3, "phosphate", "#d62728"), (2, "choline", "#1f5fb4"),
          (6, "tail", "#666"))


def nice_ticks(lo, hi, n=5):
    """Round tick values (1, 2, 5 x 10^k apart) inside [lo, hi], about n of them."""
    raw = (hi - lo) / n
    e = 10 ** math.floor(math.log10(raw))
    step = next(m * e for m in (1, 2, 5, 10) if m * e >= raw)
    k = math.ceil(lo / step - 1e-9)
    ticks = []
    while k * step <= hi + 1e-9 * step:
        ticks.append(round(k * step, 10) + 0.0)
        k += 1
    return ticks


def write_svg(path, title, step, box, atoms, mid, zc, prof, nframes):
    """Side view of one frame (x-z, z about the midplane mid) and the mean profiles prof
    (type -> mass density per bin centre zc) on the same z axis. Returns the beads drawn."""
    (xlo, xhi), _, (zlo, zhi) = box
    lx, lz = xhi - xlo, zhi - zlo
    y0, ph = 80, 440                               # both panels share the z axis
    sc = min(ph / lz, 360 / lx)                    # px per A, equal in x and z
    ph = lz * sc
    x0, pw = 80, lx * sc
    q0, qw = x0 + pw + 100, 300                    # the profile panel
    W, H = int(max(q0 + qw + 30, 640)), int(y0 + ph + 100)

    def py(z):                                     # z about the midplane -> px
        return y0 + ph / 2 - z * sc

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         'font-family="sans-serif" font-size="12">', f'<rect width="{W}" height="{H}" fill="white"/>']
    for i, line in enumerate(title):                # two lines: what, and the results
        s.append(f'<text x="{W / 2:.1f}" y="{24 + 20 * i}" text-anchor="middle" '
                 f'font-size="14">{line}</text>')
    # (1) side view
    groups = {t: [] for g in BEADS for t in g[1]}
    other = []
    for _, t, z, x in atoms:
        px = x0 + ((x - xlo) % lx) * sc
        pz = py(wrap(z - mid, lz))
        groups.get(t, other).append(f'{px:.1f}" cy="{pz:.1f}')
    drawn = 0
    for name, types, col, r in BEADS + (("other", (), "#000", 1.0),):
        pts = [p for t in types for p in groups[t]] if types else other
        if not pts:
            continue
        rr = f"{max(0.5, r * sc):.1f}"
        s.append(f'<g id="{name}" fill="{col}">')
        s += [f'<circle cx="{p}" r="{rr}"/>' for p in pts]
        s.append("</g>")
        drawn += len(pts)
    s.append(f'<rect id="box" x="{x0}" y="{y0}" width="{pw:.1f}" height="{ph:.1f}" '
             'fill="none" stroke="black"/>')
    for t in nice_ticks(xlo, xhi, 4):
        px = x0 + (t - xlo) * sc
        s.append(f'<path d="M{px:.1f} {y0 + ph:.1f}v5" stroke="black"/>')
        s.append(f'<text x="{px:.1f}" y="{y0 + ph + 18:.1f}" text-anchor="middle">{t:g}</text>')
    for t in nice_ticks(-lz / 2, lz / 2, 6):
        s.append(f'<path d="M{x0} {py(t):.1f}h-5" stroke="black"/>')
        s.append(f'<text x="{x0 - 8}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    s.append(f'<text x="{x0 + pw / 2:.1f}" y="{y0 + ph + 36:.1f}" text-anchor="middle">x (Å)</text>')
    s.append(f'<text x="{x0 - 48}" y="{y0 + ph / 2:.1f}" text-anchor="middle" '
             f'transform="rotate(-90 {x0 - 48} {y0 + ph / 2:.1f})">z − midplane (Å)</text>')
    s.append(f'<text x="{x0 + pw / 2:.1f}" y="{y0 - 10}" text-anchor="middle">'
             f'side view (x–z), step {step}</text>')
    lx0, ly0 = 20, y0 + ph + 58                     # legend of the beads, one row
    for name, _, col, _ in BEADS:
        s.append(f'<rect x="{lx0}" y="{ly0 - 9}" width="10" height="10" fill="{col}"/>')
        s.append(f'<text x="{lx0 + 14}" y="{ly0}">{name.replace("-", "/")}</text>')
        lx0 += 30 + 7 * len(name)
    # (2) profiles, z vertical on the side view's scale
    rmax = max(max(v) for v in prof.values()) * 1.05 or 1.0
    dt = nice_ticks(0, rmax, 4)
    rmax = max(rmax, dt[-1])

    def qx(r):
        return q0 + r / rmax * qw
    s.append(f'<rect x="{q0:.1f}" y="{y0}" width="{qw}" height="{ph:.1f}" fill="none" stroke="black"/>')
    for t in dt:
        s.append(f'<path d="M{qx(t):.1f} {y0 + ph:.1f}v5" stroke="black"/>')
        s.append(f'<text x="{qx(t):.1f}" y="{y0 + ph + 18:.1f}" text-anchor="middle">{t:g}</text>')
    for t in nice_ticks(-lz / 2, lz / 2, 6):
        s.append(f'<path d="M{q0:.1f} {py(t):.1f}h-5" stroke="black"/>')
        s.append(f'<text x="{q0 - 8:.1f}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    s.append(f'<text x="{q0 + qw / 2:.1f}" y="{y0 + ph + 36:.1f}" text-anchor="middle">'
             'mass density (g/cm³)</text>')
    s.append(f'<text x="{q0 + qw / 2:.1f}" y="{y0 - 10}" text-anchor="middle">'
             f'density profiles, mean of {nframes} frames</text>')
    lq, ly0 = 20, ly0 + 20                         # legend of the curves, one row
    for t, name, col in CURVES:
        pts = " ".join(f"{qx(r):.1f},{py(z):.1f}" for z, r in zip(zc, prof[t]))
        s.append(f'<polyline id="{name}-profile" points="{pts}" fill="none" stroke="{col}" '
                 'stroke-width="1.5"/>')
        s.append(f'<path d="M{lq:.1f} {ly0 - 4:.1f}h18" stroke="{col}" stroke-width="2"/>')
        s.append(f'<text x="{lq + 22:.1f}" y="{ly0:.1f}">{name}</text>')
        lq += 32 + 7 * len(name)
    s.append("</svg>")
    try:
        with open(path, "w", encoding="utf-8") as fo:
            fo.write("\n".join(s) + "\n")
    except OSError as e:
        die(f"cannot write --svg {path}: {e.strerror}")
    return drawn


def main():
    p = argparse.ArgumentParser(description="area per lipid, P-P thickness, water profile")
    p.add_argument("dump", nargs="?", default="membrane.dump")
    p.add_argument("--blocks", type=int, default=5, help="blocks for the error bars (>= 2)")
    p.add_argument("--skip", type=int, default=0, help="frames to drop at the start")
    p.add_argument("--bin", type=float, default=1.0, help="profile bin width, A")
    p.add_argument("--core", type=float, default=10.0,
                   help="half-width of the hydrophobic core for core_water, A")
    p.add_argument("--prefix", default=None, help="output prefix (default: dump name)")
    p.add_argument("--svg", metavar="FILE", default=None,
                   help="write a picture: side view of the last frame used and the density profiles")
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
    if a.svg and frames[-1][2] and frames[-1][2][0][3] is None:
        die(f"{a.dump}: --svg needs the x column (dump custom ... id mol type x y z)")

    side0 = None
    apl, dpp, core, profiles, mids = [], [], [], [], []
    flips, min_abs_zp = 0, float("inf")
    lz_min = min(b[2][1] - b[2][0] for _, b, _ in frames)
    nbins = max(1, int(lz_min / a.bin))
    half = nbins * a.bin / 2
    for step, box, atoms in frames:
        lx, ly, lz = (hi - lo for lo, hi in box)
        zlo = box[2][0]
        tails = [z for _, t, z, _ in atoms if t == 6]
        phos = sorted((m, z) for m, t, z, _ in atoms if t == 3)
        if not tails or not phos:
            die(f"{a.dump}: step {step}: no tail (type 6) or phosphate (type 3) beads")
        c = midplane(tails, lz, zlo)
        mids.append(c)
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
        hist = {t: [0] * nbins for t in MASS}
        ncore = 0
        for _, t, z, _ in atoms:
            if t not in hist:
                continue
            d = wrap(z - c, lz)
            if t == 1 and abs(d) < a.core:
                ncore += 1
            k = int((d + half) // a.bin)
            if 0 <= k < nbins:
                hist[t][k] += 1
        core.append(ncore)
        prof = {}
        for t, ht in hist.items():
            f = MASS[t] * AMU_A3_TO_G_CM3 / (lx * ly * a.bin)
            prof[t] = [h * f for h in ht]
        profiles.append(prof)

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
            m, e = block_stats([pr[1][k] for pr in profiles[:used]], nb)
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
    if a.svg:
        mean_prof = {t: [sum(pr[t][k] for pr in profiles[:used]) / used for k in range(nbins)]
                     for t in MASS}
        zc = [-half + (k + 0.5) * a.bin for k in range(nbins)]
        step, box, atoms = frames[used - 1]
        title = (f"DMPC bilayer, {escape(os.path.basename(a.dump))}, {used} frames, {nb} blocks",
                 f"area per lipid {apl_m:.2f} ± {apl_e:.2f} Å², P–P thickness "
                 f"{dpp_m:.2f} ± {dpp_e:.2f} Å")
        nb_drawn = write_svg(a.svg, title, step, box, atoms, mids[used - 1], zc, mean_prof, used)
        print(f"picture          {a.svg}: side view of step {step} ({nb_drawn} beads), "
              f"profiles of {used} frames")
    print(f"RESULT frames {used} nlip {nlip} apl {apl_m:.3f} err {apl_e:.3f} dpp {dpp_m:.3f} "
          f"err {dpp_e:.3f} core_water {core_m:.3f} rho_bulk {rho_bulk:.4f} flips {flips} "
          f"min_abs_zP {min_abs_zp:.3f} leaflets_intact {'yes' if intact else 'no'}")


if __name__ == "__main__":
    main()
