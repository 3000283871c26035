#!/usr/bin/env python3
"""Structure analysis of the soft anisotropic particle examples (python3 with numpy and
scipy; Debian: python3-numpy python3-scipy). Reads LAMMPS text dumps written with

    dump ID all custom N FILE id type x y z mux muy muz

(orientation n = mu/|mu|, as pair_style soft/aniso uses it; periodic orthogonal box).

  analyze.py clusters FILE [--type 2] [--beta 90] [--rc 1.0] [--smin 5] [--frames all|last]
      Janus micelles: clusters of the particles of --type. Two particles are linked
      (a) 'contact': centres closer than rc, whatever their orientations;
      (b) 'bond': closer than rc AND both patches facing the other particle
          (n_i.e >= cos(beta) and -n_j.e >= cos(beta), e = unit vector i -> j),
          i.e. the pair attracts in the janus model (f > 0).
      Per frame: number of clusters, aggregates (size >= smin), fraction of particles
      in aggregates, weight-average and largest size, and for the 'bond' aggregates
      their radius of gyration, shape anisotropy kappa^2 (0 sphere, 0.25 disc,
      1 rod) and polarity <n_i . (c - r_i)/|c - r_i|> (> 0: patches point into the
      core, as in a micelle; 0 for random orientations). An aggregate connected to its
      own periodic image (percolating) cannot be unwrapped uniquely: its Rg, kappa^2
      and polarity then depend on the spanning tree used to unwrap it.

  analyze.py order FILE [--type all] [--beta 45] [--rc 1.0] [--frames all|last]
      Triblock ABA packing: nematic order S (largest eigenvalue of
      Q = <3/2 n n - 1/2 I>) and director (sign: its largest component positive);
      pole bonds (pairs closer than rc whose
      nearer poles face each other: arccos|n.e| < beta for both, f > 0 in the aba
      model) per particle; the angle between bond vectors and the director; the
      axial registry of side neighbours: the pair density g(|z|) (1 for an ideal gas)
      of particles at 0.35 < r_perp < 0.9 from the director axis through a particle,
      against their separation |z| along the director (flat: neighbouring columns
      slide freely past each other, a columnar phase; peaked: they are in register,
      a 3-d lattice such as body-centred tetragonal; 'contrast' = max g / min g);
      the in-plane bond order psi4, psi6 of those neighbours (|z| < 0.5) around the
      director (hexagonal columns: psi6 high; square/tetragonal: psi4 high).

  analyze.py data FILE -o OUT.data [--frames all|last] [--step N]
      Writes one frame (the last, or timestep N) as a LAMMPS data file for
      atom_style hybrid sphere dipole (diameter 1, mass 1, mu = n), e.g. for in.render.

  --check: also fail (exit 1) if an orientation is not a unit vector (|mu| - 1 >
  1e-6), a coordinate is not finite, or the atom count changes between frames.
Prints one 'FRAME step ...' line per frame (plus details) and ends with 'SUMMARY'.
A file that cannot be read as such a dump (missing, truncated frame, missing columns)
stops the script with a one-line message and exit status 1.
"""
import argparse
import math
import sys
from collections import namedtuple

try:
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import breadth_first_order, connected_components
    from scipy.spatial import cKDTree
except ImportError as exc:
    sys.stderr.write("analyze.py: needs numpy and scipy (Debian: python3-numpy python3-scipy; "
                     "pip: numpy scipy): %s\n" % exc)
    sys.exit(2)

COLUMNS = ("id", "type", "x", "y", "z", "mux", "muy", "muz")

# one dump frame: ids, types (int arrays, N), x (N x 3), n = mu/|mu| (N x 3, 0 where
# mu = 0), ml = |mu| (N); lo, ln: box origin and edge lengths (3)
Frame = namedtuple("Frame", "step lo ln ids types x n ml")


class InputError(Exception):
    """Bad input: reported as one line, exit status 1."""


def read_dump(path):
    """Yields the Frames of a dump file."""
    try:
        fh = open(path)
    except OSError as e:
        raise InputError("cannot read %s: %s" % (path, e.strerror or e))
    with fh:
        lineno = 0

        def line(what):
            nonlocal lineno
            s = fh.readline()
            lineno += 1
            if not s:
                raise InputError("%s: truncated frame at line %d (expected %s)" % (path, lineno, what))
            return s

        while True:
            s = fh.readline()
            lineno += 1
            if not s:
                return
            if not s.startswith("ITEM: TIMESTEP"):
                continue
            try:
                step = int(line("the timestep"))
                if not line("ITEM: NUMBER OF ATOMS").startswith("ITEM: NUMBER OF ATOMS"):
                    raise InputError("%s: line %d: expected ITEM: NUMBER OF ATOMS" % (path, lineno))
                natoms = int(line("the number of atoms"))
                hdr = line("ITEM: BOX BOUNDS")
                if not hdr.startswith("ITEM: BOX BOUNDS") or "xy" in hdr:
                    raise InputError("%s: line %d: need an orthogonal box, got: %s" % (path, lineno, hdr.strip()))
                bounds = [[float(v) for v in line("the box bounds").split()[:2]] for _ in range(3)]
            except ValueError as e:
                raise InputError("%s: line %d: bad frame header (%s)" % (path, lineno, e))
            if any(len(b) != 2 for b in bounds):
                raise InputError("%s: line %d: bad box bounds" % (path, lineno))
            lo = np.array([b[0] for b in bounds])
            ln = np.array([b[1] - b[0] for b in bounds])
            if not np.all(ln > 0):
                raise InputError("%s: line %d: box edge not positive" % (path, lineno))
            hdr = line("ITEM: ATOMS")
            if not hdr.startswith("ITEM: ATOMS"):
                raise InputError("%s: line %d: expected ITEM: ATOMS, got: %s" % (path, lineno, hdr.strip()))
            cols = hdr.split()[2:]
            missing = [c for c in COLUMNS if c not in cols]
            if missing:
                raise InputError("%s: line %d: dump needs columns %s, has %s (missing %s)" % (
                    path, lineno, " ".join(COLUMNS), " ".join(cols), " ".join(missing)))
            ci = [cols.index(c) for c in COLUMNS]
            rows = []
            for k in range(natoms):
                f = fh.readline().split()
                lineno += 1
                if len(f) != len(cols):
                    raise InputError("%s: line %d: frame at step %d truncated or malformed (atom %d of %d: "
                                     "%d values, expected %d)" % (path, lineno, step, k + 1, natoms,
                                                                  len(f), len(cols)))
                rows.append(f)
            try:
                tab = np.array(rows, dtype=str).reshape(natoms, len(cols))
                ids = tab[:, ci[0]].astype(np.int64)
                types = tab[:, ci[1]].astype(np.int64)
                x = tab[:, ci[2:5]].astype(float)
                mu = tab[:, ci[5:8]].astype(float)
            except ValueError as e:
                raise InputError("%s: frame at step %d: bad atom values (%s)" % (path, step, e))
            ml = np.sqrt(mu[:, 0] * mu[:, 0] + mu[:, 1] * mu[:, 1] + mu[:, 2] * mu[:, 2])
            n = np.zeros_like(mu)
            ok = ml > 0
            n[ok] = mu[ok] / ml[ok, None]
            yield Frame(step, lo, ln, ids, types, x, n, ml)


def pairs_within(pos, lo, ln, rc):
    """All pairs i < j with |d| < rc, d = minimum image of pos[j] - pos[i] (sorted by
    i, then j): arrays i, j and d (M x 3)."""
    if len(pos) < 2:
        return np.zeros(0, int), np.zeros(0, int), np.zeros((0, 3))
    s = np.mod(pos - lo, ln)          # into [0, L) for the periodic tree
    s[s >= ln] = 0.0                  # (-tiny) mod L rounds to L
    tree = cKDTree(s, boxsize=ln)
    p = tree.query_pairs(rc * (1 + 1e-9), output_type="ndarray")
    if len(p) == 0:
        return np.zeros(0, int), np.zeros(0, int), np.zeros((0, 3))
    p = p[np.lexsort((p[:, 1], p[:, 0]))]
    i, j = p[:, 0], p[:, 1]
    d = pos[j] - pos[i]
    d -= ln * np.round(d / ln)
    r2 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1] + d[:, 2] * d[:, 2]
    keep = r2 < rc * rc
    return i[keep], j[keep], d[keep]


def clusters(n, i, j):
    """Connected components of n nodes linked by the pairs (i, j): (number, labels);
    labels numbered in the order of the lowest index of each cluster."""
    if n == 0:
        return 0, np.zeros(0, int)
    g = coo_matrix((np.ones(len(i)), (i, j)), shape=(n, n)).tocsr()
    return connected_components(g, directed=False)


def image_offsets(n, i, j, pos, ln, labels):
    """Periodic images that unwrap every cluster through its links: integer (n x 3)
    image counts I such that pos + I L is whole, relative to the lowest index of each
    cluster (a breadth-first spanning tree from it)."""
    if n == 0:
        return np.zeros((0, 3))
    first = np.unique(labels, return_index=True)[1]          # lowest index per cluster
    # a root node n linked to the first node of every cluster: one search for all
    ii = np.concatenate([i, np.full(len(first), n)])
    jj = np.concatenate([j, first])
    g = coo_matrix((np.ones(len(ii)), (ii, jj)), shape=(n + 1, n + 1)).tocsr()
    _, pred = breadth_first_order(g, n, directed=False, return_predecessors=True)
    root = pred[:n] == n
    anc = np.where(root, np.arange(n), pred[:n])
    # image of a node relative to its tree parent, then pointer jumping to the root
    img = -np.round((pos - pos[anc]) / ln)
    img[root] = 0.0
    while True:
        nxt = anc[anc]
        if np.array_equal(nxt, anc):
            return img
        img = img + img[anc]
        anc = nxt


def check_frame(fr, natoms0):
    bad = []
    if natoms0 is not None and len(fr.ids) != natoms0:
        bad.append("atom count %d != %d" % (len(fr.ids), natoms0))
    notfinite = ~np.all(np.isfinite(fr.x), axis=1)
    badmu = (fr.ml > 0) & (np.abs(fr.ml - 1.0) > 1e-6)
    for k in np.flatnonzero(notfinite | badmu):
        if notfinite[k]:
            bad.append("atom %d: coordinate not finite" % fr.ids[k])
        if badmu[k]:
            bad.append("atom %d: |mu| = %.9g" % (fr.ids[k], fr.ml[k]))
        if len(bad) > 5:
            break
    for b in bad:
        print("CHECK FAILED step %d: %s" % (fr.step, b))
    return not bad


def weight_avg(sizes):
    return float(np.sum(sizes * sizes)) / max(1, int(np.sum(sizes)))


def select(args, fr):
    if not np.all(np.isfinite(fr.x)):
        raise InputError("step %d: coordinates not finite, cannot analyse the frame" % fr.step)
    return np.ones(len(fr.ids), bool) if args.type == "all" else fr.types == int(args.type)


def analyze_clusters(args, fr):
    step, lo, ln = fr.step, fr.lo, fr.ln
    sel = select(args, fr)
    pos, nn = fr.x[sel], fr.n[sel]
    nsel = len(pos)
    cb = math.cos(math.radians(args.beta))
    i, j, d = pairs_within(pos, lo, ln, args.rc)
    r = np.sqrt(d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)
    nz = r != 0
    rs = np.where(nz, r, 1.0)
    ci = (nn[i, 0] * d[:, 0] + nn[i, 1] * d[:, 1] + nn[i, 2] * d[:, 2]) / rs
    cj = -(nn[j, 0] * d[:, 0] + nn[j, 1] * d[:, 1] + nn[j, 2] * d[:, 2]) / rs
    isbond = nz & (ci >= cb) & (cj >= cb)
    res = {}
    for name, (a, b) in (("contact", (i, j)), ("bond", (i[isbond], j[isbond]))):
        ncl, labels = clusters(nsel, a, b)
        csize = np.bincount(labels, minlength=ncl)
        sizes = np.sort(csize)[::-1]
        agg = sizes[sizes >= args.smin]
        res[name] = (labels, csize, sizes, agg)
        print("FRAME %d %s clusters %d aggregates(>=%d) %d in_aggregates %.3f weight_avg %.2f largest %d"
              % (step, name, len(sizes), args.smin, len(agg), int(agg.sum()) / max(1, nsel),
                 weight_avg(sizes), sizes[0] if len(sizes) else 0))
    # shape and polarity of the 'bond' aggregates (unwrapped through their bonds)
    labels, csize, sizes, _ = res["bond"]
    shapes = []
    aggs = np.flatnonzero(csize >= args.smin)       # in the order of their lowest index
    if len(aggs):
        un = pos + image_offsets(nsel, i[isbond], j[isbond], pos, ln, labels) * ln
        member = np.isin(labels, aggs)
        idx = np.searchsorted(aggs, labels[member])
        p, nm = un[member], nn[member]
        m = np.bincount(idx, minlength=len(aggs)).astype(float)
        cm = np.stack([np.bincount(idx, p[:, k], len(aggs)) for k in range(3)], axis=1) / m[:, None]
        q = p - cm[idx]
        g = np.einsum("ia,ib->iab", q, q)
        gyr = np.stack([np.bincount(idx, g[:, a, b], len(aggs)) for a in range(3) for b in range(3)],
                       axis=1).reshape(-1, 3, 3) / m[:, None, None]
        lam = np.linalg.eigvalsh(gyr)                # ascending; kappa^2 is symmetric in them
        tr = lam.sum(axis=1)
        rg = np.sqrt(np.maximum(tr, 0.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            k2 = np.where(tr > 0, 1 - 3 * (lam[:, 0] * lam[:, 1] + lam[:, 1] * lam[:, 2]
                                           + lam[:, 2] * lam[:, 0]) / tr ** 2, 0.0)
        dc = -q                                       # towards the centre
        dl = np.sqrt((dc * dc).sum(axis=1))
        far = dl > 1e-9
        cosp = np.zeros(len(dl))
        cosp[far] = (nm[far] * dc[far]).sum(axis=1) / dl[far]
        pol = np.bincount(idx, cosp, len(aggs)) / m
        shapes = [(int(a), float(b), float(c), float(e)) for a, b, c, e in zip(m, rg, k2, pol)]
    if shapes:
        sh = np.array(shapes)
        w = sh[:, 0].sum()
        print("FRAME %d bond_aggregates %d mean_size %.1f Rg %.2f kappa2 %.3f polarity %.3f (particle-weighted)"
              % (step, len(shapes), w / len(shapes), (sh[:, 0] * sh[:, 1]).sum() / w,
                 (sh[:, 0] * sh[:, 2]).sum() / w, (sh[:, 0] * sh[:, 3]).sum() / w))
        if args.verbose:
            for s in sorted(shapes, reverse=True):
                print("  aggregate size %4d Rg %.2f kappa2 %.3f polarity %.3f" % s)
    else:
        print("FRAME %d bond_aggregates 0" % step)
    # particles in 'bond' clusters by size class
    edges = [1, 2, 3, 4, 5, 10, 20, 50, 100]
    labs = ["1", "2", "3", "4", "5-9", "10-19", "20-49", "50-99", ">=100"]
    hist = np.histogram(sizes, bins=edges + [max(101, int(sizes.max()) + 1) if len(sizes) else 101],
                        weights=sizes)[0]
    print("FRAME %d bond_size_histogram (particles in clusters of size) %s" % (
        step, " ".join("%s:%d" % (labs[k], hist[k]) for k in range(len(labs)) if hist[k] > 0)))
    agg = res["bond"][3]
    if shapes:
        w = sh[:, 0].sum()
        kappa2, polarity = (sh[:, 0] * sh[:, 2]).sum() / w, (sh[:, 0] * sh[:, 3]).sum() / w
        mean_size = w / len(shapes)
    else:
        kappa2 = polarity = float("nan")
        mean_size = 0.0
    return {"clusters": len(sizes), "aggregates": len(agg),
            "in_agg": int(agg.sum()) / max(1, nsel),
            "kappa2": float(kappa2), "polarity": float(polarity), "mean_size": float(mean_size)}


def analyze_order(args, fr):
    step, lo, ln = fr.step, fr.lo, fr.ln
    sel = select(args, fr) & (fr.ml > 0)
    pos, nn = fr.x[sel], fr.n[sel]
    m = len(pos)
    if m < 2:
        raise InputError("step %d: %d oriented particle(s) of type %s, need at least 2" % (step, m, args.type))
    q = 1.5 * (nn.T @ nn) / m - 0.5 * np.eye(3)
    lam, vecs = np.linalg.eigh(q)
    S, dirv = float(lam[-1]), vecs[:, -1]
    if dirv[np.argmax(np.abs(dirv))] < 0:            # the director's sign is arbitrary
        dirv = -dirv
    cb = math.cos(math.radians(args.beta))
    # side neighbours: 0.35 < r_perp < 0.9, |z| < 1.0 (cylindrical shell around the
    # director through each particle); g(|z|) = 1 for an ideal gas
    rin, rout, zmax, nbin = 0.35, 0.9, 1.0, 10
    i, j, d = pairs_within(pos, lo, ln, max(args.rc, math.hypot(rout, zmax)))
    r2 = d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2
    keep = r2 != 0
    i, j, d, r2 = i[keep], j[keep], d[keep], r2[keep]
    r = np.sqrt(r2)
    rc2 = args.rc * args.rc
    # in-plane bond order of the side neighbours (0.35 < r_perp < 0.9, |z| < 0.5), in a
    # fixed basis e1, e2 perpendicular to the director: psi_k = |sum exp(i k phi)| / count
    # (about 0 without order; 1 for a single domain with k-fold neighbour directions:
    # k = 6 hexagonal columns, k = 4 square / tetragonal)
    tmp = np.array([1.0, 0.0, 0.0] if abs(dirv[0]) < 0.9 else [0.0, 1.0, 0.0])
    e1 = tmp - (tmp @ dirv) * dirv
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(dirv, e1)
    z = d @ dirv
    az = np.abs(z)
    rp = np.sqrt(np.maximum(r2 - z * z, 0.0))
    side = (rin < rp) & (rp < rout) & (az < zmax)
    reg = np.bincount(np.minimum((az[side] / zmax * nbin).astype(int), nbin - 1), minlength=nbin)
    plane = side & (az < 0.5)
    phi = np.arctan2(d[plane] @ e2, d[plane] @ e1)
    npsi = int(plane.sum())
    psi = {k: (np.cos(k * phi).sum(), np.sin(k * phi).sum()) for k in (4, 6)}
    close = r2 < rc2
    ci = np.abs(nn[i, 0] * d[:, 0] + nn[i, 1] * d[:, 1] + nn[i, 2] * d[:, 2]) / r
    cj = np.abs(nn[j, 0] * d[:, 0] + nn[j, 1] * d[:, 1] + nn[j, 2] * d[:, 2]) / r
    bonded = close & (ci >= cb) & (cj >= cb)
    nb = np.bincount(i[bonded], minlength=m) + np.bincount(j[bonded], minlength=m)
    a = np.degrees(np.arccos(np.minimum(1.0, az[bonded] / r[bonded])))
    ang = np.bincount(np.minimum(8, (a / 10).astype(int)), minlength=9)
    nbond = nb.sum() / 2
    dist = np.bincount(np.minimum(nb, 5), minlength=6)
    print("FRAME %d S %.3f director %.3f %.3f %.3f pole_bonds_per_particle %.2f"
          % (step, S, dirv[0], dirv[1], dirv[2], 2 * nbond / m))
    print("FRAME %d bonds_per_particle_fraction 0:%.2f 1:%.2f 2:%.2f 3:%.2f 4:%.2f 5+:%.2f"
          % ((step,) + tuple(dist / m)))
    print("FRAME %d bond_angle_to_director_deg %s" % (
        step, " ".join("%d-%d:%.2f" % (10 * k, 10 * k + 10, ang[k] / max(1, nbond)) for k in range(9))))
    vol = ln[0] * ln[1] * ln[2]
    ideal = 0.5 * m * (m - 1) / vol * math.pi * (rout ** 2 - rin ** 2) * 2 * zmax / nbin
    g = reg / ideal
    print("FRAME %d side_neighbours_g(|z|) %s" % (
        step, " ".join("%.1f:%.2f" % (zmax * k / nbin, g[k]) for k in range(nbin))))
    contrast = g.max() / max(g.min(), 1e-9)
    psi4 = math.hypot(*psi[4]) / max(1, npsi)
    psi6 = math.hypot(*psi[6]) / max(1, npsi)
    print("FRAME %d in_plane_order psi4 %.3f psi6 %.3f" % (step, psi4, psi6))
    return {"S": S, "bonds": float(2 * nbond / m), "contrast": float(contrast), "psi4": psi4, "psi6": psi6,
            "frac2": float(dist[2] / m), "ang0": float(ang[0] / max(1, nbond) + ang[1] / max(1, nbond))}


def write_data(path, fr):
    ntypes = int(fr.types.max())
    dens = 6.0 / math.pi    # mass 1 for diameter 1
    with open(path, "w") as out:
        out.write("LAMMPS data file from analyze.py (timestep %d)\n\n%d atoms\n%d atom types\n\n" % (
            fr.step, len(fr.ids), ntypes))
        for d, nm in enumerate("xyz"):
            out.write("%.10g %.10g %slo %shi\n" % (fr.lo[d], fr.lo[d] + fr.ln[d], nm, nm))
        out.write("\nAtoms # hybrid\n\n")
        for i, t, x, n in zip(fr.ids.tolist(), fr.types.tolist(), fr.x.tolist(), fr.n.tolist()):
            out.write("%d %d %.8g %.8g %.8g 1 %.10g 0 %.9g %.9g %.9g\n" % (
                i, t, x[0], x[1], x[2], dens, n[0], n[1], n[2]))


def run(args):
    if args.mode == "data":
        chosen = None
        for f in read_dump(args.dump):
            if args.step is None or f.step == args.step:
                chosen = f
        if chosen is None:
            print("no frame%s in %s" % ("" if args.step is None else " with step %d" % args.step, args.dump))
            return 1
        if len(chosen.ids) == 0:
            raise InputError("%s: frame at step %d has no atoms" % (args.dump, chosen.step))
        try:
            write_data(args.output, chosen)
        except OSError as e:
            raise InputError("cannot write %s: %s" % (args.output, e.strerror or e))
        print("wrote %s: step %d, %d atoms" % (args.output, chosen.step, len(chosen.ids)))
        return 0
    ok = True
    natoms0 = None
    last = None
    nframes = 0
    frames = read_dump(args.dump)
    if args.frames == "last":
        lastf = None
        for f in frames:
            if args.check:
                ok &= check_frame(f, natoms0)
                natoms0 = len(f.ids) if natoms0 is None else natoms0
            lastf = f
        frames = [lastf] if lastf else []
    for fr in frames:
        if args.check and args.frames == "all":
            ok &= check_frame(fr, natoms0)
            natoms0 = len(fr.ids) if natoms0 is None else natoms0
        nframes += 1
        if args.mode == "clusters":
            last = (fr.step, analyze_clusters(args, fr))
        else:
            last = (fr.step, analyze_order(args, fr))
    if not nframes:
        print("no frames in %s" % args.dump)
        return 1
    step, r = last
    print("SUMMARY frames %d last_step %d %s checks %s" % (
        nframes, step, " ".join("%s %.4g" % kv for kv in r.items()),
        ("passed" if ok else "FAILED") if args.check else "off"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["clusters", "order", "data"])
    ap.add_argument("dump")
    ap.add_argument("--type", default=None, help="atom type to analyse ('all': every oriented atom)")
    ap.add_argument("--beta", type=float, default=None, help="patch half-angle in degrees")
    ap.add_argument("--rc", type=float, default=1.0)
    ap.add_argument("--smin", type=int, default=5)
    ap.add_argument("--frames", choices=["all", "last"], default="all")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("-o", "--output", help="data mode: the data file to write")
    ap.add_argument("--step", type=int, default=None, help="data mode: the timestep to write")
    args = ap.parse_args()
    if args.type is None:
        args.type = "2" if args.mode == "clusters" else "all"
    if args.type != "all":
        try:
            int(args.type)
        except ValueError:
            ap.error("--type must be an atom type (integer) or 'all', not %r" % args.type)
    if args.beta is None:
        args.beta = 90.0 if args.mode == "clusters" else 45.0
    if not args.rc > 0:
        ap.error("--rc must be positive")
    if args.mode == "data" and not args.output:
        ap.error("data mode needs -o OUT.data")
    try:
        return run(args)
    except InputError as e:
        sys.stdout.flush()
        sys.stderr.write("analyze.py: error: %s\n" % e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
