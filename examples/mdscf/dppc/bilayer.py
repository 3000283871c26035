#!/usr/bin/env python3
"""Bilayer structure of examples/mdscf/dppc from the field's density profile.

Reads the file of `fix ave/time ... f_field[*] mode vector` (in.dppc: profile.dat):
blocks of N_z rows "row z phi_N phi_P phi_G phi_C phi_W", the plane-averaged volume
fractions of the fix mdscf grid along z. For every block after --skip (default: the
second half of the blocks) it finds the bilayer mid-plane (circular mean of the C
(tail) profile, with period Lz/K for K stacked bilayers), shifts the profile there
(periodic linear interpolation onto a fine grid over one period) and averages the
shifted profiles. From the average it reports

  P-P distance      distance between the two P (phosphate) maxima (parabola through
                    the fine-grid maximum and its neighbours), and between the P
                    centroids of the two halves;
  water-free core   width of the region around the mid-plane where phi_W stays below
                    10 % of its bulk value (bulk: mean phi_W over the quarter of the
                    period farthest from the mid-plane); also the width at 50 %;
  mid-plane         phi_W and phi_P at the mid-plane, relative to bulk water and to
                    the P maximum;
  tails             full width at half maximum of phi_C.

Lengths in nm (the profile's z is in Angstrom, units real). Plain Python 3.

    python3 bilayer.py profile.dat [--skip STEP] [--bilayers K] [--table]
    python3 bilayer.py --dump dppc.lammpstrj [--axis x|y|z|auto] [--bins N] ...

With --dump the same profiles are made from the particle positions of a LAMMPS dump
(columns type x y z, types 1-5 = N P G C W) in N bins per box edge (default: bins of
about 0.3 nm), as volume fractions n_t/(rho0 V_bin); --axis auto picks
the axis along which the tails are most layered over the averaged snapshots (largest
K-th Fourier amplitude of phi_C, printed per snapshot for x, y and z), for a bilayer
that self-assembled with its normal along x or y. Per snapshot it also prints along
which axes the tail domain (C beads linked within 5.5 A) and the water domain (W
within 6.5 A) connect to their own periodic images: a flat bilayer stack normal to z
has both connected along x and y only ("lamellar"); a random or bicontinuous
structure along all three axes.

The last line is machine-readable:
RESULT blocks n PP d PPc d core10 w core50 w water_mid r P_mid r C_fwhm w
"""
import argparse
import math
import sys

COLS = ("N", "P", "G", "C", "W")


def read_blocks(path):
    blocks = []
    with open(path) as f:
        lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
    i = 0
    while i < len(lines):
        step, nrows = int(lines[i][0]), int(lines[i][1])
        rows = [list(map(float, r[1:])) for r in lines[i + 1:i + 1 + nrows]]
        if len(rows) == nrows:
            blocks.append((step, rows))
        i += 1 + nrows
    return blocks


def percolation(points, box, rc):
    """Axes along which a domain of points (cutoff rc, periodic box) connects to its
    own periodic image: union-find that keeps, for every point, its image shift
    relative to the root; a link that closes a loop with a non-zero net shift wraps.
    Returns (set of axes, size of the largest cluster)."""
    lens = [hi - lo for lo, hi in box]
    n = len(points)
    parent = list(range(n))
    shift = [(0, 0, 0)] * n                  # image of a point relative to its parent

    def find(x):
        path = []
        while parent[x] != x:
            path.append(x)
            x = parent[x]
        root, acc = x, (0, 0, 0)
        for y in reversed(path):                # nearest the root first
            acc = tuple(acc[d] + shift[y][d] for d in range(3))
            parent[y], shift[y] = root, acc
        return root

    wraps = set()
    ncell = [max(1, int(lens[d] // rc)) for d in range(3)]
    cells = {}
    for k, p in enumerate(points):
        c = tuple(int((p[d] - box[d][0]) / lens[d] * ncell[d]) % ncell[d] for d in range(3))
        cells.setdefault(c, []).append(k)
    offs = [(i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)]
    for c, members in cells.items():
        near = set()
        for o in offs:
            near.update(cells.get(tuple((c[d] + o[d]) % ncell[d] for d in range(3)), ()))
        for a in members:
            for b in near:
                if b <= a:
                    continue
                img, r2 = [0, 0, 0], 0.0
                for d in range(3):
                    dx = points[b][d] - points[a][d]
                    m = round(dx / lens[d])
                    img[d] = -m                 # b's image next to a: b - m L
                    dx -= m * lens[d]
                    r2 += dx * dx
                if r2 >= rc * rc:
                    continue
                ra, rb = find(a), find(b)
                sa, sb = shift[a] if a != ra else (0, 0, 0), shift[b] if b != rb else (0, 0, 0)
                if ra != rb:
                    parent[rb] = ra
                    shift[rb] = tuple(sa[d] + img[d] - sb[d] for d in range(3))
                else:
                    for d in range(3):
                        if sb[d] - sa[d] != img[d]:
                            wraps.add("xyz"[d])
    sizes = {}
    for k in range(n):
        r = find(k)
        sizes[r] = sizes.get(r, 0) + 1
    return wraps, max(sizes.values()) if sizes else 0


def read_dump(path, bins, nbil):
    """Profiles along x, y and z from the snapshots of a dump file.

    Returns {axis: [(step, rows)]} and [(step, {axis: layering})], where the layering
    of an axis is |sum_k phi_C(k) exp(2 pi i K k / n)| / sum_k phi_C(k) (K = nbil).
    """
    blocks, layering = {ax: [] for ax in "xyz"}, []
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("ITEM: TIMESTEP"):
            i += 1
            continue
        step = int(lines[i + 1])
        n = int(lines[i + 3])
        box = [tuple(map(float, lines[i + 5 + d].split()[:2])) for d in range(3)]
        cols = lines[i + 8].split()[2:]
        it, ix = cols.index("type"), [cols.index(c) for c in "xyz"]
        atoms = [lines[i + 9 + k].split() for k in range(n)]
        i += 9 + n
        lens = [hi - lo for lo, hi in box]
        rho0 = n / (lens[0] * lens[1] * lens[2])
        lay = {}
        for d, ax in enumerate("xyz"):
            nb = bins or max(6, round(lens[d] / 3.0))
            h = lens[d] / nb
            hist = [[0] * nb for _ in COLS]
            for a in atoms:
                t = int(a[it])
                if 1 <= t <= len(COLS):
                    k = int(((float(a[ix[d]]) - box[d][0]) / h) % nb)
                    hist[t - 1][k] += 1
            vbin = h * lens[0] * lens[1] * lens[2] / lens[d]
            rows = [[box[d][0] + (k + 0.5) * h] + [hist[c][k] / (rho0 * vbin) for c in range(len(COLS))]
                    for k in range(nb)]
            c = [r[4] for r in rows]
            amp = math.hypot(sum(v * math.cos(2 * math.pi * nbil * k / nb) for k, v in enumerate(c)),
                             sum(v * math.sin(2 * math.pi * nbil * k / nb) for k, v in enumerate(c)))
            lay[ax] = amp / max(sum(c), 1e-300)
            blocks[ax].append((step, rows))
        perc = {}
        for t, rc in ((4, 5.5), (5, 6.5)):      # tails, water: cutoffs in Angstrom
            pts = [[float(a[j]) for j in ix] for a in atoms if int(a[it]) == t]
            perc[t] = percolation(pts, box, rc)
        layering.append((step, lay, perc))
    return blocks, layering


def periodic_interp(z, y, length, u):
    """Linear interpolation of samples y at equally spaced z (period length) at u."""
    n = len(z)
    h = length / n
    s = (u - z[0]) / h
    k = math.floor(s)
    t = s - k
    return (1 - t) * y[k % n] + t * y[(k + 1) % n]


def analyse(blocks, nbil, nfine=240):
    z0 = blocks[0][1][0][0]
    nz = len(blocks[0][1])
    h = blocks[0][1][1][0] - z0
    lz = nz * h
    period = lz / nbil
    u = [(-0.5 + (i + 0.5) / nfine) * period for i in range(nfine)]
    acc = {c: [0.0] * nfine for c in COLS}
    centres = []
    for step, rows in blocks:
        z = [r[0] for r in rows]
        prof = {c: [r[1 + k] for r in rows] for k, c in enumerate(COLS)}
        # mid-plane: circular mean of the tail density with the period of the stack
        sc = sum(w * math.cos(2 * math.pi * nbil * (zz - z0) / lz) for zz, w in zip(z, prof["C"]))
        ss = sum(w * math.sin(2 * math.pi * nbil * (zz - z0) / lz) for zz, w in zip(z, prof["C"]))
        zc = z0 + (math.atan2(ss, sc) / (2 * math.pi) % 1.0) * lz / nbil
        centres.append((step, zc))
        for c in COLS:
            for i, uu in enumerate(u):
                acc[c][i] += periodic_interp(z, prof[c], lz, zc + uu)
    avg = {c: [v / len(blocks) for v in acc[c]] for c in COLS}
    return u, avg, period, centres


def parabola_peak(x, y, i):
    """Vertex of the parabola through (x[i-1..i+1], y[i-1..i+1])."""
    if i <= 0 or i >= len(x) - 1:
        return x[i]
    y0, y1, y2 = y[i - 1], y[i], y[i + 1]
    den = y0 - 2 * y1 + y2
    if den >= 0:
        return x[i]
    return x[i] + 0.5 * (y0 - y2) / den * (x[1] - x[0])


def crossing(u, y, level, side):
    """First u from the mid-plane outwards (side -1 or +1) where y rises to level."""
    mid = len(u) // 2
    idx = range(mid, len(u)) if side > 0 else range(mid - 1, -1, -1)
    prev = None
    for i in idx:
        if y[i] >= level:
            if prev is None:
                return u[i]
            t = (level - y[prev]) / (y[i] - y[prev])
            return u[prev] + t * (u[i] - u[prev])
        prev = i
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", nargs="?", default="profile.dat")
    ap.add_argument("--skip", type=int, default=None,
                    help="average blocks after this step (default: the second half)")
    ap.add_argument("--bilayers", type=int, default=1, help="bilayers stacked along z")
    ap.add_argument("--table", action="store_true", help="print the averaged profile")
    ap.add_argument("--dump", help="make the profiles from this dump file instead")
    ap.add_argument("--axis", default="z", choices=("x", "y", "z", "auto"),
                    help="with --dump: profile axis (auto: the most layered one)")
    ap.add_argument("--bins", type=int, default=0, help="with --dump: bins per box edge")
    a = ap.parse_args()
    if a.dump:
        a.profile = a.dump
        by_axis, layering = read_dump(a.dump, a.bins, a.bilayers)
        for step, lay, perc in layering:
            ax = {t: "".join(sorted(perc[t][0])) or "none" for t in perc}
            kind = ("lamellar, normal " + "xyz".replace(ax[4][0], "").replace(ax[4][1], "")
                    if len(ax[4]) == 2 and ax[4] == ax[5] else "not lamellar")
            print(f"  step {step}: tail layering |C_K|/C_0 along x {lay['x']:.3f}, "
                  f"y {lay['y']:.3f}, z {lay['z']:.3f}; tails connected along {ax[4]}, "
                  f"water along {ax[5]}: {kind}")
        axis = a.axis
        if axis == "auto":    # the most layered axis over the blocks that are averaged
            half = len(layering) // 2 if a.skip is None else 0
            use_l = [l for st, l, _ in layering[half:] if a.skip is None or st > a.skip]
            axis = max("xyz", key=lambda ax: sum(l[ax] for l in use_l))
        print(f"  profile axis {axis}")
        blocks = by_axis[axis]
    else:
        blocks = read_blocks(a.profile)
    if not blocks:
        sys.exit(f"{a.profile}: no profile blocks")
    if a.skip is None:
        use = blocks[len(blocks) // 2:]
    else:
        use = [b for b in blocks if b[0] > a.skip]
    if not use:
        sys.exit(f"{a.profile}: no blocks after step {a.skip}")
    u, avg, period, centres = analyse(use, a.bilayers)
    nm = 0.1
    half = len(u) // 2
    P, W, C = avg["P"], avg["W"], avg["C"]
    il = max(range(half), key=lambda i: P[i])
    ir = max(range(half, len(u)), key=lambda i: P[i])
    pp = (parabola_peak(u, P, ir) - parabola_peak(u, P, il)) * nm
    cl = sum(uu * p for uu, p in zip(u[:half], P[:half])) / max(sum(P[:half]), 1e-300)
    cr = sum(uu * p for uu, p in zip(u[half:], P[half:])) / max(sum(P[half:]), 1e-300)
    ppc = (cr - cl) * nm
    far = [i for i, uu in enumerate(u) if abs(uu) >= 0.375 * period]
    bulk = sum(W[i] for i in far) / len(far)
    mid_w = 0.5 * (W[half - 1] + W[half])
    mid_p = 0.5 * (P[half - 1] + P[half])
    pmax = 0.5 * (P[il] + P[ir])

    def width(level):
        lo, hi = crossing(u, W, level, -1), crossing(u, W, level, +1)
        return None if lo is None or hi is None else (hi - lo) * nm

    core10, core50 = width(0.1 * bulk), width(0.5 * bulk)
    cmax = max(C)
    above = [uu for uu, c in zip(u, C) if c >= 0.5 * cmax]
    c_fwhm = (max(above) - min(above)) * nm
    fmt = lambda v: "nan" if v is None else f"{v:.3f}"
    print(f"{a.profile}: {len(use)} of {len(blocks)} blocks (steps {use[0][0]}..{use[-1][0]}), "
          f"period {period * nm:.3f} nm, {a.bilayers} bilayer(s)")
    drift = [zc for _, zc in centres]
    print(f"  mid-plane position of the blocks: {min(drift) * nm:.3f} .. {max(drift) * nm:.3f} nm")
    print(f"  P-P distance: {pp:.3f} nm (maxima), {ppc:.3f} nm (centroids of the halves)")
    print(f"  phi_W bulk {bulk:.3f}; water-free core (phi_W < 10% bulk) {fmt(core10)} nm, "
          f"phi_W < 50% bulk {fmt(core50)} nm")
    print(f"  mid-plane: phi_W/bulk {mid_w / bulk:.4f}, phi_P/max {mid_p / pmax:.4f}; "
          f"phi_C full width at half max {c_fwhm:.3f} nm")
    if a.table:
        print("  u(nm)      " + "".join(f"{c:>9s}" for c in COLS))
        for i in range(0, len(u), max(1, len(u) // 60)):
            print(f"  {u[i] * nm:8.3f} " + "".join(f"{avg[c][i]:9.4f}" for c in COLS))
    print(f"RESULT blocks {len(use)} PP {pp:.4f} PPc {ppc:.4f} core10 {fmt(core10)} "
          f"core50 {fmt(core50)} water_mid {mid_w / bulk:.5f} P_mid {mid_p / pmax:.5f} "
          f"C_fwhm {c_fwhm:.4f}")


if __name__ == "__main__":
    main()
