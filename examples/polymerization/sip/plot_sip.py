#!/usr/bin/env python3
"""Plot of the SIP example (python3 standard library only, writes SVG): conversion versus
time from the log's polymerization run, and the chains' degree-of-polymerisation
distribution from dp_hist.txt (fix ave/histo).

    python3 plot_sip.py log.lammps dp_hist.txt sip.svg [--dt 0.005]

Stops with a message naming the problem when a file is missing or holds no data.
"""
import argparse
import sys


def die(msg):
    sys.exit("plot_sip.py: " + msg)


def read_conversion(path):
    """(step, conversion) of the thermo block whose header has f_poly[1]."""
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die(f"cannot read the log {path}: {e.strerror}")
    blocks, rows, cols = [], [], None
    for line in lines:
        w = line.split()
        if w and w[0] == "Step" and "f_poly[1]" in w:
            cols, rows = w, []
            blocks.append(rows)
            continue
        if cols is None:
            continue
        if w and w[0] == "Loop":
            cols = None
            continue
        if len(w) == len(cols):
            try:
                vals = [float(x) for x in w]
            except ValueError:
                continue
            rows.append((vals[0], vals[cols.index("f_poly[1]")]))
    # the polymerization run: the longest such block (the final 'run 0' has one row)
    rows = max(blocks, key=len) if blocks else []
    if len(rows) < 2:
        die(f"{path}: no thermo block with f_poly[1] and at least two rows (run in.sip first)")
    return rows


def read_histogram(path):
    """(bin centre, count) of the last histogram in a fix ave/histo file."""
    try:
        lines = [l for l in open(path).read().splitlines() if l.strip() and l[0] != "#"]
    except OSError as e:
        die(f"cannot read the histogram {path}: {e.strerror}")
    bins, i = [], 0
    while i < len(lines):
        head = lines[i].split()
        if len(head) != 6:
            die(f"{path}: line '{lines[i]}' is not a fix ave/histo block header")
        nbins = int(head[1])
        block = lines[i + 1:i + 1 + nbins]
        if len(block) != nbins:
            die(f"{path}: truncated histogram block ({len(block)} of {nbins} bins)")
        bins = [(float(b.split()[1]), float(b.split()[2])) for b in block]
        i += 1 + nbins
    if not bins:
        die(f"{path}: no histogram")
    return bins


def axes(x0, y0, w, h, xmax, ymax, xlabel, ylabel, title):
    s = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="black"/>',
         f'<text x="{x0 + w / 2}" y="{y0 + h + 36}" text-anchor="middle">{xlabel}</text>',
         f'<text x="{x0 - 48}" y="{y0 + h / 2}" text-anchor="middle" '
         f'transform="rotate(-90 {x0 - 48} {y0 + h / 2})">{ylabel}</text>',
         f'<text x="{x0 + w / 2}" y="{y0 - 10}" text-anchor="middle">{title}</text>']
    for k in range(5):
        fx, fy = xmax * k / 4, ymax * k / 4
        px, py = x0 + w * k / 4, y0 + h - h * k / 4
        s.append(f'<text x="{px}" y="{y0 + h + 16}" text-anchor="middle">{fx:.3g}</text>')
        s.append(f'<text x="{x0 - 6}" y="{py + 4}" text-anchor="end">{fy:.3g}</text>')
    return s


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("log")
    p.add_argument("hist")
    p.add_argument("svg")
    p.add_argument("--dt", type=float, default=0.005, help="timestep (tau) of the run")
    a = p.parse_args()
    conv = read_conversion(a.log)
    hist = read_histogram(a.hist)

    W, H, w, h = 900, 380, 340, 260
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    # conversion versus time
    tmax = max(r[0] for r in conv) * a.dt or 1.0
    cmax = max(r[1] for r in conv) * 1.1 or 1.0
    x0, y0 = 80, 40
    svg += axes(x0, y0, w, h, tmax, cmax, "time (tau)", "conversion", "monomer conversion")
    pts = " ".join(f"{x0 + w * s * a.dt / tmax:.1f},{y0 + h - h * c / cmax:.1f}" for s, c in conv)
    svg.append(f'<polyline points="{pts}" fill="none" stroke="#1f77b4" stroke-width="2"/>')
    # degree of polymerisation of the chains
    used = [b for b in hist if b[1] > 0]
    dmax = (max(b[0] for b in used) + 1) if used else 10.0
    nmax = max(b[1] for b in hist) * 1.1 or 1.0
    x0 = 520
    svg += axes(x0, y0, w, h, dmax, nmax, "degree of polymerisation", "chains",
                "chain-length distribution")
    bw = w / dmax
    for centre, count in hist:
        if count <= 0 or centre > dmax:
            continue
        bh = h * count / nmax
        svg.append(f'<rect x="{x0 + w * (centre - 0.5) / dmax:.1f}" y="{y0 + h - bh:.1f}" '
                   f'width="{bw:.1f}" height="{bh:.1f}" fill="#ff7f0e" stroke="black" '
                   'stroke-width="0.5"/>')
    svg.append("</svg>")
    with open(a.svg, "w") as f:
        f.write("\n".join(svg) + "\n")
    print(f"plot_sip.py: wrote {a.svg} ({len(conv)} thermo rows, final conversion "
          f"{conv[-1][1]:.4f}; {int(sum(b[1] for b in hist))} chains in the histogram)")


if __name__ == "__main__":
    main()
