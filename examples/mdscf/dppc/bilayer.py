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

Lengths in nm (the profile's z is in Angstrom, units real). Needs python3 with numpy
and scipy (Debian: python3-numpy python3-scipy). An incomplete last block of the
profile (a run still writing it) is left out; any other malformed input stops the
script with a one-line message and exit status 1.

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

try:
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import breadth_first_order, connected_components
    from scipy.spatial import cKDTree
except ImportError as exc:
    sys.stderr.write("bilayer.py: needs numpy and scipy (Debian: python3-numpy python3-scipy; "
                     "pip: numpy scipy): %s\n" % exc)
    sys.exit(2)

COLS = ("N", "P", "G", "C", "W")


class InputError(Exception):
    """Bad input: reported as one line, exit status 1."""


def read_lines(path):
    try:
        with open(path) as f:
            return f.read().split("\n")
    except OSError as e:
        raise InputError("cannot read %s: %s" % (path, e.strerror or e))


def read_blocks(path):
    """Blocks (step, rows) of a fix ave/time vector-mode file; rows: N_z x 6 array of
    z phi_N phi_P phi_G phi_C phi_W. An incomplete last block is left out."""
    blocks = []
    lines = [(k + 1, l.split()) for k, l in enumerate(read_lines(path)) if l.strip() and not l.startswith("#")]
    i = 0
    while i < len(lines):
        lineno, hdr = lines[i]
        try:
            if len(hdr) != 2:
                raise ValueError("expected 'TimeStep Number-of-rows'")
            step, nrows = int(hdr[0]), int(hdr[1])
        except ValueError as e:
            raise InputError("%s: line %d: not a block header (%s): %s" % (path, lineno, e, " ".join(hdr)))
        if nrows < 2:
            raise InputError("%s: line %d: block of %d rows (need at least 2)" % (path, lineno, nrows))
        rows = lines[i + 1:i + 1 + nrows]
        if len(rows) == nrows:
            short = [ln for ln, r in rows if len(r) < 1 + 1 + len(COLS)]
            if short:
                raise InputError("%s: line %d: a row needs 'row z %s' (%d columns), has fewer"
                                 % (path, short[0], " ".join("phi_" + c for c in COLS), 2 + len(COLS)))
            try:
                tab = np.array([r[1:2 + len(COLS)] for _, r in rows], dtype=float)
            except ValueError as e:
                raise InputError("%s: block at line %d: %s" % (path, lineno, e))
            if blocks and len(tab) != len(blocks[0][1]):
                raise InputError("%s: line %d: block of %d rows after blocks of %d"
                                 % (path, lineno, len(tab), len(blocks[0][1])))
            blocks.append((step, tab))
        i += 1 + nrows
    return blocks


def image_offsets(n, i, j, pos, lens):
    """Clusters of n points linked by the pairs (i, j), unwrapped along a breadth-first
    spanning tree from the lowest index of each: (labels, integer images I (n x 3)
    such that pos + I L is the unwrapped position)."""
    g = coo_matrix((np.ones(len(i)), (i, j)), shape=(n, n)).tocsr()
    _, labels = connected_components(g, directed=False)
    first = np.unique(labels, return_index=True)[1]
    # a root node n linked to the first node of every cluster: one search for all
    ii, jj = np.concatenate([i, np.full(len(first), n)]), np.concatenate([j, first])
    g = coo_matrix((np.ones(len(ii)), (ii, jj)), shape=(n + 1, n + 1)).tocsr()
    _, pred = breadth_first_order(g, n, directed=False, return_predecessors=True)
    root = pred[:n] == n
    anc = np.where(root, np.arange(n), pred[:n])
    img = -np.round((pos - pos[anc]) / lens)            # relative to the tree parent
    img[root] = 0.0
    while True:                                         # pointer jumping to the root
        nxt = anc[anc]
        if np.array_equal(nxt, anc):
            return labels, img
        img = img + img[anc]
        anc = nxt


def percolation(points, box, rc):
    """Axes along which a domain of points (cutoff rc, periodic box) connects to its
    own periodic image: with every point's image from a spanning tree of its cluster,
    a link whose two ends' images differ from the link's own minimum image closes a
    loop that wraps around the box. Returns (set of axes, size of the largest cluster)."""
    n = len(points)
    if n == 0:
        return set(), 0
    lo = np.array([b[0] for b in box])
    lens = np.array([hi - lo for lo, hi in box])
    if n == 1:
        return set(), 1
    s = np.mod(points - lo, lens)          # into [0, L) for the periodic tree
    s[s >= lens] = 0.0
    p = cKDTree(s, boxsize=lens).query_pairs(rc * (1 + 1e-9), output_type="ndarray")
    p = p.reshape(-1, 2)
    a, b = p[:, 0], p[:, 1]
    m = np.round((points[b] - points[a]) / lens)
    d = points[b] - points[a] - m * lens
    near = (d * d).sum(axis=1) < rc * rc
    a, b, img = a[near], b[near], -m[near]               # b's image next to a: b - m L
    labels, shift = image_offsets(n, a, b, points, lens)
    wrap = np.any(shift[b] - shift[a] != img, axis=0)
    return {"xyz"[k] for k in range(3) if wrap[k]}, int(np.bincount(labels).max())


def read_dump(path, bins, nbil):
    """Profiles along x, y and z from the snapshots of a dump file.

    Returns {axis: [(step, rows)]} and [(step, {axis: layering}, percolation)], where
    the layering of an axis is |sum_k phi_C(k) exp(2 pi i K k / n)| / sum_k phi_C(k)
    (K = nbil).
    """
    blocks, layering = {ax: [] for ax in "xyz"}, []
    lines = read_lines(path)
    i = 0
    while i < len(lines):
        if not lines[i].startswith("ITEM: TIMESTEP"):
            i += 1
            continue
        try:
            if not (lines[i + 2].startswith("ITEM: NUMBER OF ATOMS") and lines[i + 4].startswith("ITEM: BOX BOUNDS")
                    and lines[i + 8].startswith("ITEM: ATOMS")):
                raise InputError("%s: line %d: not a LAMMPS dump snapshot header" % (path, i + 1))
            if "xy" in lines[i + 4]:
                raise InputError("%s: line %d: needs an orthogonal box" % (path, i + 5))
            step = int(lines[i + 1])
            n = int(lines[i + 3])
            box = [tuple(map(float, lines[i + 5 + d].split()[:2])) for d in range(3)]
        except IndexError:
            raise InputError("%s: line %d: truncated snapshot header" % (path, i + 1))
        except ValueError as e:
            raise InputError("%s: line %d: bad snapshot header (%s)" % (path, i + 1, e))
        if any(len(b) != 2 or not b[1] > b[0] for b in box):
            raise InputError("%s: step %d: bad box bounds" % (path, step))
        cols = lines[i + 8].split()[2:]
        missing = [c for c in ("type", "x", "y", "z") if c not in cols]
        if missing:
            raise InputError("%s: step %d: dump needs the columns type x y z, has %s"
                             % (path, step, " ".join(cols)))
        it, ix = cols.index("type"), [cols.index(c) for c in "xyz"]
        atoms = [l.split() for l in lines[i + 9:i + 9 + n]]
        if len(atoms) < n or any(len(a) != len(cols) for a in atoms):
            raise InputError("%s: snapshot at step %d truncated or malformed (%d atoms, %d values each)"
                             % (path, step, n, len(cols)))
        try:
            tab = np.array(atoms, dtype=str).reshape(n, len(cols))
            types = tab[:, it].astype(np.int64)
            pos = tab[:, ix].astype(float)
        except ValueError as e:
            raise InputError("%s: snapshot at step %d: %s" % (path, step, e))
        if not np.all(np.isfinite(pos)):
            raise InputError("%s: snapshot at step %d: coordinates not finite" % (path, step))
        i += 9 + n
        lens = [hi - lo for lo, hi in box]
        rho0 = n / (lens[0] * lens[1] * lens[2])
        typed = (types >= 1) & (types <= len(COLS))
        lay = {}
        for d, ax in enumerate("xyz"):
            nb = bins or max(6, round(lens[d] / 3.0))
            h = lens[d] / nb
            k = np.minimum(np.mod((pos[typed, d] - box[d][0]) / h, nb).astype(int), nb - 1)
            hist = np.bincount((types[typed] - 1) * nb + k, minlength=len(COLS) * nb).reshape(len(COLS), nb)
            vbin = h * lens[0] * lens[1] * lens[2] / lens[d]
            rows = np.column_stack([box[d][0] + (np.arange(nb) + 0.5) * h, hist.T / (rho0 * vbin)])
            c = rows[:, 4]
            arg = 2 * math.pi * nbil * np.arange(nb) / nb
            amp = math.hypot((c * np.cos(arg)).sum(), (c * np.sin(arg)).sum())
            lay[ax] = amp / max(c.sum(), 1e-300)
            blocks[ax].append((step, rows))
        perc = {}
        for t, rc in ((4, 5.5), (5, 6.5)):      # tails, water: cutoffs in Angstrom
            perc[t] = percolation(pos[types == t], box, rc)
        layering.append((step, lay, perc))
    return blocks, layering


def periodic_interp(z, y, length, u):
    """Linear interpolation of samples y at equally spaced z (period length) at u."""
    n = len(z)
    h = length / n
    s = (u - z[0]) / h
    k = np.floor(s).astype(int)
    t = s - k
    return (1 - t) * y[k % n] + t * y[(k + 1) % n]


def analyse(blocks, nbil, nfine=240):
    z0 = blocks[0][1][0, 0]
    nz = len(blocks[0][1])
    h = blocks[0][1][1, 0] - z0
    lz = nz * h
    if not lz > 0:
        raise InputError("z of the profile rows does not increase")
    period = lz / nbil
    u = (-0.5 + (np.arange(nfine) + 0.5) / nfine) * period
    acc = np.zeros((len(COLS), nfine))
    centres = []
    for step, rows in blocks:
        z, prof = rows[:, 0], rows[:, 1:]
        # mid-plane: circular mean of the tail density with the period of the stack
        arg = 2 * math.pi * nbil * (z - z0) / lz
        wc = prof[:, COLS.index("C")]
        zc = z0 + (math.atan2((wc * np.sin(arg)).sum(), (wc * np.cos(arg)).sum()) / (2 * math.pi) % 1.0) * lz / nbil
        centres.append((step, zc))
        for c in range(len(COLS)):
            acc[c] += periodic_interp(z, prof[:, c], lz, zc + u)
    avg = {c: acc[k] / len(blocks) for k, c in enumerate(COLS)}
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
    idx = np.arange(mid, len(u)) if side > 0 else np.arange(mid - 1, -1, -1)
    hit = np.flatnonzero(y[idx] >= level)
    if len(hit) == 0:
        return None
    if hit[0] == 0:
        return u[idx[0]]
    i, prev = idx[hit[0]], idx[hit[0] - 1]
    t = (level - y[prev]) / (y[i] - y[prev])
    return u[prev] + t * (u[i] - u[prev])


def report(a):
    if a.dump:
        a.profile = a.dump
        by_axis, layering = read_dump(a.dump, a.bins, a.bilayers)
        if not layering:
            raise InputError(f"{a.dump}: no snapshots (ITEM: TIMESTEP) found")
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
        raise InputError(f"{a.profile}: no complete profile blocks")
    if a.skip is None:
        use = blocks[len(blocks) // 2:]
    else:
        use = [b for b in blocks if b[0] > a.skip]
    if not use:
        raise InputError(f"{a.profile}: no blocks after step {a.skip}")
    u, avg, period, centres = analyse(use, a.bilayers)
    nm = 0.1
    half = len(u) // 2
    P, W, C = avg["P"], avg["W"], avg["C"]
    il = int(np.argmax(P[:half]))
    ir = half + int(np.argmax(P[half:]))
    pp = (parabola_peak(u, P, ir) - parabola_peak(u, P, il)) * nm
    cl = (u[:half] * P[:half]).sum() / max(P[:half].sum(), 1e-300)
    cr = (u[half:] * P[half:]).sum() / max(P[half:].sum(), 1e-300)
    ppc = (cr - cl) * nm
    bulk = W[np.abs(u) >= 0.375 * period].mean()
    mid_w = 0.5 * (W[half - 1] + W[half])
    mid_p = 0.5 * (P[half - 1] + P[half])
    pmax = 0.5 * (P[il] + P[ir])

    def width(level):
        lo, hi = crossing(u, W, level, -1), crossing(u, W, level, +1)
        return None if lo is None or hi is None else (hi - lo) * nm

    core10, core50 = width(0.1 * bulk), width(0.5 * bulk)
    above = u[C >= 0.5 * C.max()]
    c_fwhm = (above.max() - above.min()) * nm
    fmt = lambda v: "nan" if v is None else f"{v:.3f}"
    with np.errstate(divide="ignore", invalid="ignore"):     # empty profiles: nan, as printed
        wrel, prel = np.float64(mid_w) / bulk, np.float64(mid_p) / pmax
    print(f"{a.profile}: {len(use)} of {len(blocks)} blocks (steps {use[0][0]}..{use[-1][0]}), "
          f"period {period * nm:.3f} nm, {a.bilayers} bilayer(s)")
    drift = [zc for _, zc in centres]
    print(f"  mid-plane position of the blocks: {min(drift) * nm:.3f} .. {max(drift) * nm:.3f} nm")
    print(f"  P-P distance: {pp:.3f} nm (maxima), {ppc:.3f} nm (centroids of the halves)")
    print(f"  phi_W bulk {bulk:.3f}; water-free core (phi_W < 10% bulk) {fmt(core10)} nm, "
          f"phi_W < 50% bulk {fmt(core50)} nm")
    print(f"  mid-plane: phi_W/bulk {wrel:.4f}, phi_P/max {prel:.4f}; "
          f"phi_C full width at half max {c_fwhm:.3f} nm")
    if a.table:
        print("  u(nm)      " + "".join(f"{c:>9s}" for c in COLS))
        for i in range(0, len(u), max(1, len(u) // 60)):
            print(f"  {u[i] * nm:8.3f} " + "".join(f"{avg[c][i]:9.4f}" for c in COLS))
    print(f"RESULT blocks {len(use)} PP {pp:.4f} PPc {ppc:.4f} core10 {fmt(core10)} "
          f"core50 {fmt(core50)} water_mid {wrel:.5f} P_mid {prel:.5f} "
          f"C_fwhm {c_fwhm:.4f}")


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
    if a.bilayers < 1:
        ap.error("--bilayers must be >= 1")
    if a.bins < 0:
        ap.error("--bins must be >= 0 (0: about 0.3 nm bins)")
    try:
        report(a)
    except InputError as e:
        sys.stdout.flush()
        sys.stderr.write(f"bilayer.py: error: {e}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
