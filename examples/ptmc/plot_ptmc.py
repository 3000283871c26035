#!/usr/bin/env python3
"""Plot of the ptmc example (python3 standard library only, writes SVG): the specific heat
per monomer C_V/N(T) and <Rg^2>(T) from the multiple-histogram reweighting (ptmc.cv, lines)
with the per-temperature averages of ptmc.stats (points), and snapshots of the chain at
three temperatures (the last frame of the dumps chain.k: x-y projection about the centre of
mass, monomers as circles of diameter 0.6 sigma shaded by depth z, consecutive atom IDs joined
as bonds: one linear chain assumed).

    python3 plot_ptmc.py [--ptmc ptmc] [--dump chain] [--snap 1 8 12] [--md md.4.samples ...]
                         [-o ptmc.svg]

--md: in.md sample files; their mean Rg^2 and pe are drawn as open squares.
Stops with a message naming the problem when a file is missing or holds no data.
"""
import argparse
import math
import sys


def die(msg):
    sys.exit("plot_ptmc.py: " + msg)


def table(path, what, ncol):
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die(f"cannot read the {what} {path}: {e.strerror}")
    rows = [[float(v) for v in l.split()] for l in lines if l.strip() and l[0] != "#"]
    if not rows or any(len(r) < ncol for r in rows):
        die(f"{path}: no rows of at least {ncol} columns (run in.ptmc first)")
    return rows


def last_frame(path):
    """(sweep, [(id, x, y, z)]) of the last frame of a ptmc dump."""
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die(f"cannot read the dump {path}: {e.strerror}")
    starts = [i for i, l in enumerate(lines) if l == "ITEM: TIMESTEP"]
    if not starts:
        die(f"{path}: no frame")
    i = starts[-1]
    sweep, n = int(lines[i + 1]), int(lines[i + 3])
    cols = lines[i + 8].split()[2:]
    try:
        c = [cols.index(x) for x in ("id", "xu", "yu", "zu")]
    except ValueError:
        die(f"{path}: no id xu yu zu columns")
    atoms = [lines[j].split() for j in range(i + 9, i + 9 + n)]
    if len(atoms) != n:
        die(f"{path}: last frame truncated")
    return sweep, sorted((int(a[c[0]]), float(a[c[1]]), float(a[c[2]]), float(a[c[3]]))
                         for a in atoms)


def md_means(path):
    T, pe, rg2 = None, [], []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die(f"cannot read the MD sample file {path}: {e.strerror}")
    for l in lines:
        w = l.split()
        if w and w[0] == "#" and "in.md:" in w and "T" in w:
            T = float(w[w.index("T") + 1])
        elif len(w) in (3, 5) and w[0] != "#":
            pe.append(float(w[1]))
            rg2.append(float(w[2]))
    if T is None or not pe:
        die(f"{path}: not an in.md sample file")
    return T, sum(pe) / len(pe), sum(rg2) / len(rg2)


def nice_max(v):
    e = 10**math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * e >= v:
            return m * e
    return 10 * e


def panel(x0, y0, w, h, xr, yr, xlabel, ylabel, title):
    (xa, xb), (ya, yb) = xr, yr
    s = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="black"/>',
         f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle">{xlabel}</text>',
         f'<text x="{x0 - 44}" y="{y0 + h / 2}" text-anchor="middle" '
         f'transform="rotate(-90 {x0 - 44} {y0 + h / 2})">{ylabel}</text>',
         f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle">{title}</text>']
    for k in range(5):
        fx, fy = xa + (xb - xa) * k / 4, ya + (yb - ya) * k / 4
        px, py = x0 + w * k / 4, y0 + h - h * k / 4
        s.append(f'<text x="{px}" y="{y0 + h + 16}" text-anchor="middle">{fx:.3g}</text>')
        s.append(f'<text x="{x0 - 6}" y="{py + 4}" text-anchor="end">{fy:.3g}</text>')

    def to(x, y):
        return x0 + w * (x - xa) / (xb - xa), y0 + h - h * (y - ya) / (yb - ya)
    return s, to


def curve(to, xy, colour):
    pts = " ".join("%.1f,%.1f" % to(x, y) for x, y in xy)
    return f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>'


def dots(to, xy, colour, square=False):
    out = []
    for x, y in xy:
        px, py = to(x, y)
        if square:
            out.append(f'<rect x="{px - 5:.1f}" y="{py - 5:.1f}" width="10" height="10" '
                       f'fill="none" stroke="{colour}" stroke-width="1.5"/>')
        else:
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>')
    return out


def snapshot(x0, y0, size, half, atoms, sigma, title):
    """x-y projection about the centre of mass; half: half-width of the view (sigma)."""
    n = len(atoms)
    cm = [sum(a[d] for a in atoms) / n for d in (1, 2, 3)]
    sc = size / (2 * half)
    zs = [a[3] - cm[2] for a in atoms]
    zlo, zhi = min(zs), max(zs)

    def px(a):
        return x0 + size / 2 + sc * (a[1] - cm[0]), y0 + size / 2 - sc * (a[2] - cm[1])
    s = [f'<rect x="{x0}" y="{y0}" width="{size}" height="{size}" fill="none" '
         'stroke="#999"/>',
         f'<text x="{x0 + size / 2}" y="{y0 - 10}" text-anchor="middle">{title}</text>']
    for a, b in zip(atoms, atoms[1:]):
        if b[0] == a[0] + 1:
            (ax, ay), (bx, by) = px(a), px(b)
            s.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                     'stroke="#444" stroke-width="2.5"/>')
    for a, z in sorted(zip(atoms, zs), key=lambda t: t[1]):    # far ones first
        f = (z - zlo) / (zhi - zlo) if zhi > zlo else 0.5
        r, g, b = int(40 + 60 * f), int(90 + 100 * f), int(160 + 90 * f)
        x, y = px(a)
        s.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{0.3 * sc * sigma:.1f}" '
                 f'fill="rgb({r},{g},{b})" stroke="black" stroke-width="0.6"/>')
    bar = 1.0    # a scale bar of one length unit
    s.append(f'<line x1="{x0 + 10}" y1="{y0 + size - 10}" x2="{x0 + 10 + sc * bar:.1f}" '
             f'y2="{y0 + size - 10}" stroke="black" stroke-width="2"/>')
    s.append(f'<text x="{x0 + 14 + sc * bar:.1f}" y="{y0 + size - 6}">1</text>')
    return s


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ptmc", default="ptmc", help="output prefix of in.ptmc")
    p.add_argument("--dump", default="chain", help="dump prefix of in.ptmc")
    p.add_argument("--snap", type=int, nargs=3, default=[1, 8, 12],
                   help="temperature indices of the snapshots")
    p.add_argument("--md", nargs="*", default=[], help="in.md sample files")
    p.add_argument("--sigma", type=float, default=0.7 / 2**(1 / 6))
    p.add_argument("-o", "--out", default="ptmc.svg")
    a = p.parse_args()
    cv = table(a.ptmc + ".cv", "reweighted C_V file", 5)
    st = table(a.ptmc + ".stats", "statistics", 8)
    temps = {int(r[0]): r[1] for r in st}
    n_mono = None
    frames = []
    for k in a.snap:
        if k not in temps:
            die(f"--snap {k}: no temperature index {k} in {a.ptmc}.stats")
        sweep, atoms = last_frame(f"{a.dump}.{k}")
        n_mono = len(atoms)
        frames.append((k, sweep, atoms))
    md = [md_means(f) for f in a.md]

    W, H = 1000, 700
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    T = [r[0] for r in cv]
    tr = (0.0, nice_max(max(T)))
    # C_V/N: the reweighted curve; points: var(E)/(N T^2) of each temperature's samples
    cmax = nice_max(max(max(r[3] for r in cv), max(r[6] / n_mono for r in st)) * 1.05)
    s, to = panel(80, 40, 380, 260, tr, (0, cmax), "T", "C_V / N",
                  "specific heat per monomer")
    svg += s + [curve(to, [(r[0], r[3]) for r in cv], "#1f77b4")]
    svg += dots(to, [(r[1], r[6] / n_mono) for r in st], "#d62728")
    # Rg^2
    rmax = nice_max(max(max(r[4] for r in cv), max(r[7] for r in st),
                        max([m[2] for m in md] or [0])) * 1.05)
    s, to = panel(580, 40, 380, 260, tr, (0, rmax), "T", "&lt;Rg²&gt;",
                  "squared radius of gyration")
    svg += s + [curve(to, [(r[0], r[4]) for r in cv], "#1f77b4")]
    svg += dots(to, [(r[1], r[7]) for r in st], "#d62728")
    svg += dots(to, [(m[0], m[2]) for m in md], "#2ca02c", square=True)
    legend = [("#1f77b4", "line: reweighted (ptmc.cv)"),
              ("#d62728", "dots: per temperature (ptmc.stats)")]
    if md:
        legend.append(("#2ca02c", "squares: Langevin MD (in.md)"))
    for i, (c, t) in enumerate(legend):
        svg.append(f'<text x="600" y="{62 + 16 * i}" fill="{c}">{t}</text>')
    # snapshots: one scale for all three (the largest extent)
    half = 0.6
    for k, sweep, atoms in frames:
        n = len(atoms)
        cm = [sum(x[d] for x in atoms) / n for d in (1, 2)]
        half = max(half, max(max(abs(x[1] - cm[0]), abs(x[2] - cm[1])) for x in atoms))
    half += 0.5 * a.sigma
    for i, (k, sweep, atoms) in enumerate(frames):
        svg += snapshot(40 + 320 * i, 400, 280, half, atoms, a.sigma,
                        f"T = {temps[k]:.3g} (T_{k}), sweep {sweep}")
    svg.append(f'<text x="{W / 2}" y="{H - 8}" text-anchor="middle">x-y projections, '
               'shaded by z (light: near), scale bar 1 length unit</text>')
    svg.append("</svg>")
    with open(a.out, "w") as f:
        f.write("\n".join(svg) + "\n")
    peak = max(cv, key=lambda r: r[3])
    print(f"plot_ptmc.py: wrote {a.out} ({len(cv)} reweighted temperatures, max C_V/N "
          f"{peak[3]:.4g} at T = {peak[0]:.4g}; snapshots of T_{a.snap} at sweeps "
          f"{[f[1] for f in frames]})")


if __name__ == "__main__":
    main()
