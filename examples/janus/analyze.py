#!/usr/bin/env python3
"""Structure analysis of the soft anisotropic particle examples (python3, standard
library only). Reads LAMMPS text dumps written with

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
      core, as in a micelle; 0 for random orientations).

  analyze.py order FILE [--type all] [--beta 45] [--rc 1.0] [--frames all|last]
      Triblock ABA packing: nematic order S (largest eigenvalue of
      Q = <3/2 n n - 1/2 I>) and director; pole bonds (pairs closer than rc whose
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
"""
import argparse
import math
import sys


def read_dump(path):
    """Yields (step, box_lo, box_len, atoms) with atoms = list of (id, type, x, n, mu_len)."""
    with open(path) as fh:
        while True:
            line = fh.readline()
            if not line:
                return
            if not line.startswith("ITEM: TIMESTEP"):
                continue
            step = int(fh.readline())
            assert fh.readline().startswith("ITEM: NUMBER OF ATOMS")
            natoms = int(fh.readline())
            hdr = fh.readline()
            if not hdr.startswith("ITEM: BOX BOUNDS") or "xy" in hdr:
                raise ValueError("need an orthogonal box, got: " + hdr.strip())
            lo, ln = [], []
            for _ in range(3):
                a, b = (float(v) for v in fh.readline().split()[:2])
                lo.append(a)
                ln.append(b - a)
            cols = fh.readline().split()[2:]
            try:
                ci = [cols.index(c) for c in ("id", "type", "x", "y", "z", "mux", "muy", "muz")]
            except ValueError:
                raise ValueError("dump needs columns id type x y z mux muy muz, has " + " ".join(cols))
            atoms = []
            for _ in range(natoms):
                f = fh.readline().split()
                i, t = int(f[ci[0]]), int(f[ci[1]])
                x = [float(f[ci[2]]), float(f[ci[3]]), float(f[ci[4]])]
                m = [float(f[ci[5]]), float(f[ci[6]]), float(f[ci[7]])]
                ml = math.sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2])
                n = [c / ml for c in m] if ml > 0 else [0.0, 0.0, 0.0]
                atoms.append((i, t, x, n, ml))
            yield step, lo, ln, atoms


def pairs_within(pos, lo, ln, rc):
    """All pairs (i, j, d) with |d| < rc, d = minimum image of pos[j] - pos[i]."""
    nc = [max(1, int(L // rc)) for L in ln]
    cells = {}
    for k, p in enumerate(pos):
        key = tuple(int(((p[d] - lo[d]) / ln[d]) % 1.0 * nc[d]) % nc[d] for d in range(3))
        cells.setdefault(key, []).append(k)
    rc2 = rc * rc
    offs = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    out = []
    for key, members in cells.items():
        seen = set()
        for o in offs:
            nk = tuple((key[d] + o[d]) % nc[d] for d in range(3))
            if nk in seen:
                continue
            seen.add(nk)
            other = cells.get(nk)
            if not other:
                continue
            for i in members:
                pi = pos[i]
                for j in other:
                    if j <= i:
                        continue
                    d = [pos[j][k] - pi[k] for k in range(3)]
                    for k in range(3):
                        d[k] -= ln[k] * round(d[k] / ln[k])
                    r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
                    if r2 < rc2:
                        out.append((i, j, d))
    return out


def jacobi_eig(a):
    """Eigenvalues and eigenvectors (columns) of a symmetric 3x3 matrix, descending."""
    a = [row[:] for row in a]
    v = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    for _ in range(50):
        off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2
        if off < 1e-30:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if abs(a[p][q]) < 1e-300:
                continue
            th = (a[q][q] - a[p][p]) / (2 * a[p][q])
            t = (1.0 if th >= 0 else -1.0) / (abs(th) + math.sqrt(th * th + 1))
            c = 1 / math.sqrt(t * t + 1)
            s = t * c
            for k in range(3):
                akp, akq = a[k][p], a[k][q]
                a[k][p], a[k][q] = c * akp - s * akq, s * akp + c * akq
            for k in range(3):
                apk, aqk = a[p][k], a[q][k]
                a[p][k], a[q][k] = c * apk - s * aqk, s * apk + c * aqk
            for k in range(3):
                vkp, vkq = v[k][p], v[k][q]
                v[k][p], v[k][q] = c * vkp - s * vkq, s * vkp + c * vkq
    order = sorted(range(3), key=lambda i: -a[i][i])
    return [a[i][i] for i in order], [[v[k][i] for k in range(3)] for i in order]


def components(n, links):
    """Connected components: returns list of lists of local indices."""
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in links:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[ri] = rj
    groups = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def check_frame(step, atoms, natoms0):
    bad = []
    if natoms0 is not None and len(atoms) != natoms0:
        bad.append("atom count %d != %d" % (len(atoms), natoms0))
    for (i, t, x, n, ml) in atoms:
        if not all(math.isfinite(c) for c in x):
            bad.append("atom %d: coordinate not finite" % i)
        if ml > 0 and abs(ml - 1.0) > 1e-6:
            bad.append("atom %d: |mu| = %.9g" % (i, ml))
        if len(bad) > 5:
            break
    for b in bad:
        print("CHECK FAILED step %d: %s" % (step, b))
    return not bad


def weight_avg(sizes):
    return sum(s * s for s in sizes) / max(1, sum(sizes))


def analyze_clusters(args, step, lo, ln, atoms):
    sel = [a for a in atoms if args.type == "all" or a[1] == int(args.type)]
    pos = [a[2] for a in sel]
    nn = [a[3] for a in sel]
    cb = math.cos(math.radians(args.beta))
    pairs = pairs_within(pos, lo, ln, args.rc)
    contact, bond, vec = [], [], {}
    for i, j, d in pairs:
        contact.append((i, j))
        r = math.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2)
        if r == 0:
            continue
        ci = sum(nn[i][k] * d[k] for k in range(3)) / r
        cj = -sum(nn[j][k] * d[k] for k in range(3)) / r
        if ci >= cb and cj >= cb:
            bond.append((i, j))
            vec[(i, j)] = d
    res = {}
    for name, links in (("contact", contact), ("bond", bond)):
        comps = components(len(sel), links)
        sizes = sorted((len(c) for c in comps), reverse=True)
        agg = [s for s in sizes if s >= args.smin]
        res[name] = (comps, sizes, agg)
        print("FRAME %d %s clusters %d aggregates(>=%d) %d in_aggregates %.3f weight_avg %.2f largest %d"
              % (step, name, len(sizes), args.smin, len(agg), sum(agg) / max(1, len(sel)),
                 weight_avg(sizes), sizes[0] if sizes else 0))
    # shape and polarity of the 'bond' aggregates (unwrapped through their bonds)
    comps = [c for c in res["bond"][0] if len(c) >= args.smin]
    adj = {}
    for (i, j), d in vec.items():
        adj.setdefault(i, []).append((j, d))
        adj.setdefault(j, []).append((i, [-c for c in d]))
    shapes = []
    for c in comps:
        un = {c[0]: pos[c[0]][:]}
        stack = [c[0]]
        while stack:
            i = stack.pop()
            for j, d in adj.get(i, []):
                if j not in un:
                    un[j] = [un[i][k] + d[k] for k in range(3)]
                    stack.append(j)
        pts = [un[i] for i in c]
        m = len(pts)
        cm = [sum(p[k] for p in pts) / m for k in range(3)]
        g = [[sum((p[a] - cm[a]) * (p[b] - cm[b]) for p in pts) / m for b in range(3)] for a in range(3)]
        lam, _ = jacobi_eig(g)
        tr = sum(lam)
        rg = math.sqrt(max(tr, 0.0))
        k2 = 1 - 3 * (lam[0] * lam[1] + lam[1] * lam[2] + lam[2] * lam[0]) / tr ** 2 if tr > 0 else 0.0
        pol = 0.0
        for i in c:
            d = [cm[k] - un[i][k] for k in range(3)]
            dl = math.sqrt(sum(x * x for x in d))
            if dl > 1e-9:
                pol += sum(nn[i][k] * d[k] for k in range(3)) / dl
        shapes.append((m, rg, k2, pol / m))
    if shapes:
        w = sum(s[0] for s in shapes)
        print("FRAME %d bond_aggregates %d mean_size %.1f Rg %.2f kappa2 %.3f polarity %.3f (particle-weighted)"
              % (step, len(shapes), w / len(shapes), sum(s[0] * s[1] for s in shapes) / w,
                 sum(s[0] * s[2] for s in shapes) / w, sum(s[0] * s[3] for s in shapes) / w))
        if args.verbose:
            for s in sorted(shapes, reverse=True):
                print("  aggregate size %4d Rg %.2f kappa2 %.3f polarity %.3f" % s)
    else:
        print("FRAME %d bond_aggregates 0" % step)
    hist = {}
    for s in res["bond"][1]:
        b = s if s < 5 else (5 if s < 10 else (10 if s < 20 else (20 if s < 50 else (50 if s < 100 else 100))))
        hist[b] = hist.get(b, 0) + s
    lab = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5-9", 10: "10-19", 20: "20-49", 50: "50-99", 100: ">=100"}
    print("FRAME %d bond_size_histogram (particles in clusters of size) %s" % (
        step, " ".join("%s:%d" % (lab[k], hist[k]) for k in sorted(hist))))
    return {"clusters": len(res["bond"][1]), "aggregates": len(res["bond"][2]),
            "in_agg": sum(res["bond"][2]) / max(1, len(sel)),
            "kappa2": (sum(s[0] * s[2] for s in shapes) / sum(s[0] for s in shapes)) if shapes else float("nan"),
            "polarity": (sum(s[0] * s[3] for s in shapes) / sum(s[0] for s in shapes)) if shapes else float("nan"),
            "mean_size": (sum(s[0] for s in shapes) / len(shapes)) if shapes else 0.0}


def analyze_order(args, step, lo, ln, atoms):
    sel = [a for a in atoms if (args.type == "all" or a[1] == int(args.type)) and a[4] > 0]
    pos = [a[2] for a in sel]
    nn = [a[3] for a in sel]
    m = len(sel)
    q = [[sum(1.5 * n[a] * n[b] for n in nn) / m - (0.5 if a == b else 0.0) for b in range(3)] for a in range(3)]
    lam, vecs = jacobi_eig(q)
    S, dirv = lam[0], vecs[0]
    cb = math.cos(math.radians(args.beta))
    # side neighbours: 0.35 < r_perp < 0.9, |z| < 1.0 (cylindrical shell around the
    # director through each particle); g(|z|) = 1 for an ideal gas
    rin, rout, zmax, nbin = 0.35, 0.9, 1.0, 10
    pairs = pairs_within(pos, lo, ln, max(args.rc, math.hypot(rout, zmax)))
    rc2 = args.rc * args.rc
    # in-plane bond order of the side neighbours (0.35 < r_perp < 0.9, |z| < 0.5), in a
    # fixed basis e1, e2 perpendicular to the director: psi_k = |sum exp(i k phi)| / count
    # (about 0 without order; 1 for a single domain with k-fold neighbour directions:
    # k = 6 hexagonal columns, k = 4 square / tetragonal)
    tmp = [1.0, 0.0, 0.0] if abs(dirv[0]) < 0.9 else [0.0, 1.0, 0.0]
    e1 = [tmp[k] - sum(tmp[a] * dirv[a] for a in range(3)) * dirv[k] for k in range(3)]
    e1n = math.sqrt(sum(c * c for c in e1))
    e1 = [c / e1n for c in e1]
    e2 = [dirv[1] * e1[2] - dirv[2] * e1[1], dirv[2] * e1[0] - dirv[0] * e1[2], dirv[0] * e1[1] - dirv[1] * e1[0]]
    psi = {4: [0.0, 0.0], 6: [0.0, 0.0]}
    npsi = 0
    nb = [0] * m
    ang = [0] * 9
    reg = [0] * nbin
    for i, j, d in pairs:
        r2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2
        if r2 == 0:
            continue
        r = math.sqrt(r2)
        z = sum(dirv[k] * d[k] for k in range(3))
        rp = math.sqrt(max(r2 - z * z, 0.0))
        if rin < rp < rout and abs(z) < zmax:
            reg[int(abs(z) / zmax * nbin)] += 1
            if abs(z) < 0.5:
                phi = math.atan2(sum(e2[k] * d[k] for k in range(3)), sum(e1[k] * d[k] for k in range(3)))
                for kk in psi:
                    psi[kk][0] += math.cos(kk * phi)
                    psi[kk][1] += math.sin(kk * phi)
                npsi += 1
        if r2 >= rc2:
            continue
        ci = abs(sum(nn[i][k] * d[k] for k in range(3))) / r
        cj = abs(sum(nn[j][k] * d[k] for k in range(3))) / r
        if ci >= cb and cj >= cb:
            nb[i] += 1
            nb[j] += 1
            a = math.degrees(math.acos(min(1.0, abs(z) / r)))
            ang[min(8, int(a / 10))] += 1
    nbond = sum(nb) / 2
    dist = [0] * 6
    for c in nb:
        dist[min(c, 5)] += 1
    print("FRAME %d S %.3f director %.3f %.3f %.3f pole_bonds_per_particle %.2f"
          % (step, S, dirv[0], dirv[1], dirv[2], 2 * nbond / m))
    print("FRAME %d bonds_per_particle_fraction 0:%.2f 1:%.2f 2:%.2f 3:%.2f 4:%.2f 5+:%.2f"
          % ((step,) + tuple(x / m for x in dist)))
    print("FRAME %d bond_angle_to_director_deg %s" % (
        step, " ".join("%d-%d:%.2f" % (10 * k, 10 * k + 10, ang[k] / max(1, nbond)) for k in range(9))))
    vol = ln[0] * ln[1] * ln[2]
    ideal = 0.5 * m * (m - 1) / vol * math.pi * (rout ** 2 - rin ** 2) * 2 * zmax / nbin
    g = [reg[k] / ideal for k in range(nbin)]
    print("FRAME %d side_neighbours_g(|z|) %s" % (
        step, " ".join("%.1f:%.2f" % (zmax * k / nbin, g[k]) for k in range(nbin))))
    contrast = max(g) / max(min(g), 1e-9)
    psi4 = math.hypot(*psi[4]) / max(1, npsi)
    psi6 = math.hypot(*psi[6]) / max(1, npsi)
    print("FRAME %d in_plane_order psi4 %.3f psi6 %.3f" % (step, psi4, psi6))
    return {"S": S, "bonds": 2 * nbond / m, "contrast": contrast, "psi4": psi4, "psi6": psi6,
            "frac2": dist[2] / m, "ang0": ang[0] / max(1, nbond) + ang[1] / max(1, nbond)}


def write_data(path, step, lo, ln, atoms):
    ntypes = max(a[1] for a in atoms)
    dens = 6.0 / math.pi    # mass 1 for diameter 1
    with open(path, "w") as out:
        out.write("LAMMPS data file from analyze.py (timestep %d)\n\n%d atoms\n%d atom types\n\n" % (
            step, len(atoms), ntypes))
        for d, nm in enumerate("xyz"):
            out.write("%.10g %.10g %slo %shi\n" % (lo[d], lo[d] + ln[d], nm, nm))
        out.write("\nAtoms # hybrid\n\n")
        for (i, t, x, n, ml) in atoms:
            out.write("%d %d %.8g %.8g %.8g 1 %.10g 0 %.9g %.9g %.9g\n" % (
                i, t, x[0], x[1], x[2], dens, n[0], n[1], n[2]))


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
    if args.beta is None:
        args.beta = 90.0 if args.mode == "clusters" else 45.0
    if args.mode == "data":
        if not args.output:
            ap.error("data mode needs -o OUT.data")
        chosen = None
        for f in read_dump(args.dump):
            if args.step is None or f[0] == args.step:
                chosen = f
        if chosen is None:
            print("no frame%s in %s" % ("" if args.step is None else " with step %d" % args.step, args.dump))
            return 1
        write_data(args.output, *chosen)
        print("wrote %s: step %d, %d atoms" % (args.output, chosen[0], len(chosen[3])))
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
                ok &= check_frame(f[0], f[3], natoms0)
                natoms0 = len(f[3]) if natoms0 is None else natoms0
            lastf = f
        frames = [lastf] if lastf else []
    for step, lo, ln, atoms in frames:
        if args.check and args.frames == "all":
            ok &= check_frame(step, atoms, natoms0)
            natoms0 = len(atoms) if natoms0 is None else natoms0
        nframes += 1
        if args.mode == "clusters":
            last = (step, analyze_clusters(args, step, lo, ln, atoms))
        else:
            last = (step, analyze_order(args, step, lo, ln, atoms))
    if not nframes:
        print("no frames in %s" % args.dump)
        return 1
    step, r = last
    print("SUMMARY frames %d last_step %d %s checks %s" % (
        nframes, step, " ".join("%s %.4g" % kv for kv in r.items()),
        ("passed" if ok else "FAILED") if args.check else "off"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
