#!/usr/bin/env python3
"""Composition structure factor of the PIPS example (python3 standard library only).

    python3 structure_factor.py pips.dump [--atypes 2 3 4] [--ptype 3] [--mtype 2]
                                [--spacing 1.5] [--svg pips_sk.svg]

For every frame of a LAMMPS dump (dump custom with id, type and x y z, xu yu zu or xs ys
zs; orthogonal periodic box) the beads are counted on a grid of about --spacing, the
composition fluctuation c(r) = n_a(r) - x_a n(r) is formed (n_a: beads of the types
--atypes, x_a their fraction: total density fluctuations drop out), and

    S(k) = |sum_r c(r) exp(-i k.r)|^2 / N

is averaged over shells of |k| (width 2 pi / L, centred on multiples of 2 pi / L). Printed per frame: the step, the
conversion (beads of --ptype over those of --ptype and --mtype: captured monomers turn
into --ptype), the peak k* and S(k*), and the mean k1 = sum k S / sum S over the shells
below the grid's Nyquist |k| (a domain size 2 pi / k1). --svg writes S(k) of the frames
and k1, S(k*) against conversion. Stops with a message on a missing or malformed dump.
"""
import argparse
import cmath
import math
import sys


def die(msg):
    sys.exit("structure_factor.py: " + msg)


def frames(path):
    """yield (step, box lengths, lo, [(type, x, y, z)]) per frame"""
    try:
        f = open(path)
    except OSError as e:
        die(f"cannot read the dump {path}: {e.strerror}")
    with f:
        line = f.readline()
        while line:
            if not line.startswith("ITEM: TIMESTEP"):
                die(f"{path}: expected 'ITEM: TIMESTEP', found '{line.strip()}'")
            step = int(f.readline())
            if not f.readline().startswith("ITEM: NUMBER OF ATOMS"):
                die(f"{path}: step {step}: no NUMBER OF ATOMS item")
            n = int(f.readline())
            head = f.readline()
            if not head.startswith("ITEM: BOX BOUNDS"):
                die(f"{path}: step {step}: no BOX BOUNDS item")
            if "xy" in head:
                die(f"{path}: a triclinic box is not supported")
            lo, L = [], []
            for _ in range(3):
                a, b = (float(v) for v in f.readline().split()[:2])
                lo.append(a)
                L.append(b - a)
            cols = f.readline().split()[2:]
            if "type" not in cols:
                die(f"{path}: the dump needs the column 'type'")
            for names, scaled in ((("x", "y", "z"), False), (("xu", "yu", "zu"), False),
                                  (("xs", "ys", "zs"), True)):
                if all(c in cols for c in names):
                    ix = [cols.index(c) for c in names]
                    break
            else:
                die(f"{path}: the dump needs x y z, xu yu zu or xs ys zs")
            it = cols.index("type")
            atoms = []
            for _ in range(n):
                w = f.readline().split()
                if len(w) < len(cols):
                    die(f"{path}: step {step}: truncated atom lines")
                r = [float(w[k]) for k in ix]
                if scaled:
                    r = [lo[d] + r[d] * L[d] for d in range(3)]
                atoms.append((int(w[it]), r[0], r[1], r[2]))
            yield step, L, lo, atoms
            line = f.readline()


def dft_axis(grid, n, axis):
    """in-place 1d DFT along one axis of an n^3 complex grid stored flat [(i n + j) n + k]"""
    tw = [[cmath.exp(-2j * math.pi * p * q / n) for q in range(n)] for p in range(n)]
    stride = (n * n, n, 1)[axis]
    others = [s for a, s in enumerate((n * n, n, 1)) if a != axis]
    for u in range(n):
        for v in range(n):
            base = u * others[0] + v * others[1]
            line = [grid[base + q * stride] for q in range(n)]
            for p in range(n):
                row = tw[p]
                grid[base + p * stride] = sum(a * b for a, b in zip(line, row))


def structure_factor(L, lo, atoms, atypes, spacing):
    n = max(4, int(round(min(L) / spacing)))
    N = len(atoms)
    na = sum(1 for a in atoms if a[0] in atypes)
    xa = na / N
    grid = [0j] * n ** 3
    for t, x, y, z in atoms:
        c = [int(((r - lo[d]) / L[d]) * n) % n for d, r in enumerate((x, y, z))]
        grid[(c[0] * n + c[1]) * n + c[2]] += (1.0 if t in atypes else 0.0) - xa
    for axis in range(3):
        dft_axis(grid, n, axis)
    # shells of |k| in units of 2 pi / L (cubic boxes; |k| from the integer vector)
    dk = 2 * math.pi / min(L)
    shells = {}
    half = n // 2
    for i in range(n):
        for j in range(n):
            for k in range(n):
                m = [(q if q <= half else q - n) for q in (i, j, k)]
                if m == [0, 0, 0]:
                    continue
                km = math.sqrt(sum((2 * math.pi * m[d] / L[d]) ** 2 for d in range(3)))
                b = int(round(km / dk))
                s = abs(grid[(i * n + j) * n + k]) ** 2 / N
                acc = shells.setdefault(b, [0.0, 0.0, 0])
                acc[0] += km
                acc[1] += s
                acc[2] += 1
    kny = math.pi * n / min(L)
    # a shell's k is its centre b dk (b = round(|k| / dk))
    out = sorted((b * dk, a[1] / a[2], a[2]) for b, a in shells.items())
    return [p[:2] for p in out if p[0] <= kny], n, out


def svg_plot(path, curves, summary):
    W, H, w, h = 900, 380, 340, 260
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         'font-family="sans-serif" font-size="12">', f'<rect width="{W}" height="{H}" fill="white"/>']

    def axes(x0, y0, xmax, ymax, xl, yl, title):
        s.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="black"/>')
        s.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle">{xl}</text>')
        s.append(f'<text x="{x0 - 48}" y="{y0 + h / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 {x0 - 48} {y0 + h / 2})">{yl}</text>')
        s.append(f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle">{title}</text>')
        for q in range(5):
            s.append(f'<text x="{x0 + w * q / 4}" y="{y0 + h + 16}" text-anchor="middle">'
                     f'{xmax * q / 4:.3g}</text>')
            s.append(f'<text x="{x0 - 6}" y="{y0 + h - h * q / 4 + 4}" text-anchor="end">'
                     f'{ymax * q / 4:.3g}</text>')

    kmax = max(k for c in curves for k, _ in c[1]) or 1.0
    smax = max(v for c in curves for _, v in c[1]) * 1.1 or 1.0
    x0, y0 = 80, 40
    axes(x0, y0, kmax, smax, "k (1/sigma)", "S(k)", "composition structure factor")
    for idx, (label, pts) in enumerate(curves):
        g = idx / max(1, len(curves) - 1)
        colour = f"rgb({int(30 + 200 * g)},{int(100 - 60 * g)},{int(220 - 200 * g)})"
        p = " ".join(f"{x0 + w * k / kmax:.1f},{y0 + h - h * v / smax:.1f}" for k, v in pts)
        s.append(f'<polyline points="{p}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        s.append(f'<text x="{x0 + w - 4}" y="{y0 + 14 + 13 * idx}" text-anchor="end" '
                 f'fill="{colour}">{label}</text>')
    x0 = 520
    cmax = max(1e-9, max(r[0] for r in summary))
    ymax = max(r[2] for r in summary) * 1.1 or 1.0
    axes(x0, y0, cmax, ymax, "conversion", "S(k*) (red circles)",
         "peak height vs conversion")
    for c, k1, speak in summary:
        s.append(f'<circle cx="{x0 + w * c / cmax:.1f}" cy="{y0 + h - h * speak / ymax:.1f}" '
                 'r="3" fill="#d62728"/>')
    k1max = max(r[1] for r in summary) or 1.0
    p = " ".join(f"{x0 + w * c / cmax:.1f},{y0 + h - h * k1 / k1max:.1f}" for c, k1, _ in summary)
    s.append(f'<polyline points="{p}" fill="none" stroke="#2ca02c" stroke-width="1.5"/>')
    s.append(f'<text x="{x0 + 6}" y="{y0 + 14}" fill="#2ca02c">k1 / {k1max:.3g} (domain '
             'wave number)</text>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def selftest():
    """independent checks: random beads give S(k) = x_a (1 - x_a) at every k (no
    correlations); lamellae of period L/2 along x give the peak at k = 4 pi / L"""
    import random
    rng = random.Random(7)
    L, lo = [12.0] * 3, [0.0] * 3
    atoms = [(2 if rng.random() < 0.3 else 1, rng.uniform(0, 12), rng.uniform(0, 12),
              rng.uniform(0, 12)) for _ in range(20000)]
    xa = sum(1 for t in atoms if t[0] == 2) / len(atoms)
    _, _, shells = structure_factor(L, lo, atoms, {2}, 1.0)
    # the mean over all wave vectors (12^3 - 1: the relative error of the mean of
    # exponentially distributed values over ~860 independent ones is ~3.5 %)
    mean = sum(v * c for _, v, c in shells) / sum(c for _, _, c in shells)
    ok1 = abs(mean / (xa * (1 - xa)) - 1) < 0.12
    print(f"random mixture: mean S(k) {mean:.4f}, x_a (1 - x_a) {xa * (1 - xa):.4f}: "
          f"{'ok' if ok1 else 'WRONG'}")
    lam = [(2 if math.sin(2 * math.pi * 2 * x / 12) > 0 else 1, x, y, z) for _, x, y, z in atoms]
    sk, _, _ = structure_factor(L, lo, lam, {2}, 1.0)
    kpk = max(sk, key=lambda q: q[1])[0]
    ok2 = abs(kpk - 4 * math.pi / 12) < 1e-9    # the shell of 4 pi / L
    print(f"lamellae of period 6: peak at k = {kpk:.4f}, 4 pi / 12 = {4 * math.pi / 12:.4f}: "
          f"{'ok' if ok2 else 'WRONG'}")
    if not (ok1 and ok2):
        die("SELFTEST FAILED")
    print("SELFTEST PASSED")


def main():
    if "--selftest" in sys.argv[1:]:
        selftest()
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dump")
    p.add_argument("--atypes", type=int, nargs="+", default=[2, 3, 4])
    p.add_argument("--ptype", type=int, default=3)
    p.add_argument("--mtype", type=int, default=2)
    p.add_argument("--spacing", type=float, default=1.5)
    p.add_argument("--svg")
    a = p.parse_args()
    atypes = set(a.atypes)
    rows, curves = [], []
    print("#   step  conversion  grid   k*      S(k*)     k1      2pi/k1")
    for step, L, lo, atoms in frames(a.dump):
        if not atoms:
            die(f"{a.dump}: step {step} has no atoms")
        npoly = sum(1 for t in atoms if t[0] == a.ptype)
        nmono = sum(1 for t in atoms if t[0] == a.mtype)
        conv = npoly / (npoly + nmono) if npoly + nmono else 0.0
        sk, n, _ = structure_factor(L, lo, atoms, atypes, a.spacing)
        if not sk:
            die(f"{a.dump}: step {step}: no |k| below the grid's Nyquist (spacing too large)")
        kpk, spk = max(sk, key=lambda q: q[1])
        k1 = sum(k * v for k, v in sk) / sum(v for _, v in sk)
        print(f"{step:8d}  {conv:9.4f}  {n:4d}  {kpk:6.3f}  {spk:9.4f}  {k1:6.3f}  {2 * math.pi / k1:7.2f}")
        rows.append((conv, k1, spk))
        curves.append((f"conversion {conv:.2f}", sk))
    if not rows:
        die(f"{a.dump}: no frames")
    if a.svg:
        pick = curves if len(curves) <= 6 else [curves[int(i * (len(curves) - 1) / 5)] for i in range(6)]
        svg_plot(a.svg, pick, rows)
        print(f"# wrote {a.svg}")


if __name__ == "__main__":
    main()
