#!/usr/bin/env python3
"""Plot of the coexistence curve (python3 standard library only, writes SVG): the
liquid and vapour densities per temperature with their block errors, the fitted scaling
law and rectilinear diameter through the critical point, argon's experimental critical
point in the same reduced units, and, on the right, the symmetrised density profiles.

    python3 plot_coexistence.py analysis.txt coexistence.svg [--profiles DIR]

analysis.txt is the output of analyse.py over several temperatures (its RESULT lines and
the "T_c* = ... (A = ...), rho_c* = ... (B = ...)" line); --profiles names the folder of
its profile_mean.T<T>.dat files. Stops with a message naming the problem when a file is
missing or holds too little.
"""
import argparse
import glob
import math
import os
import re
import sys

BETA = 0.325    # the exponent analyse.py fits with
# argon, experiment (Tegeler, Span, Wagner, J. Phys. Chem. Ref. Data 28, 779 (1999)) in
# the LJ units of analyse.py (eps/k = 119.8 K, sigma = 3.405 A)
ARGON_TC = 150.687 / 119.8
ARGON_RHOC = 13.407 * 1000 * 6.02214076e23 * (3.405e-10) ** 3


def die(msg):
    sys.exit("plot_coexistence.py: " + msg)


def read_analysis(path):
    try:
        text = open(path).read()
    except OSError as e:
        die(f"cannot read {path}: {e.strerror}")
    points = []
    for m in re.finditer(r"^RESULT T (\S+) nblocks \S+ rho_l (\S+) err_l (\S+) rho_v (\S+) err_v (\S+)",
                         text, re.M):
        points.append(tuple(float(x) for x in m.groups()))
    crit = re.search(r"^RESULT critical Tc (\S+) err \S+ rhoc (\S+) err", text, re.M)
    ab = re.search(r"\(A = (\S+),.*\(B = (\S+),", text)
    if len(points) < 2:
        die(f"{path}: fewer than two 'RESULT T ...' lines of analyse.py")
    if not crit or not ab:
        die(f"{path}: no critical point (analyse.py over at least three temperatures writes it)")
    return sorted(points), float(crit.group(1)), float(crit.group(2)), float(ab.group(1)), float(ab.group(2))


def read_profiles(folder):
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "profile_mean.T*.dat"))):
        t = float(re.search(r"profile_mean\.T([0-9.]+)\.dat$", path).group(1).rstrip("."))
        rows = []
        for line in open(path):
            w = line.split()
            if w and not line.startswith("#"):
                rows.append((float(w[0]), float(w[1])))
        if rows:
            out.append((t, rows))
    if not out:
        die(f"no profile_mean.T*.dat in {folder}")
    return out


class Panel:
    def __init__(self, x0, y0, w, h, xr, yr):
        self.x0, self.y0, self.w, self.h, self.xr, self.yr = x0, y0, w, h, xr, yr

    def px(self, x):
        return self.x0 + (x - self.xr[0]) / (self.xr[1] - self.xr[0]) * self.w

    def py(self, y):
        return self.y0 + self.h - (y - self.yr[0]) / (self.yr[1] - self.yr[0]) * self.h

    def axes(self, xlabel, ylabel, xticks, yticks):
        s = [f'<rect x="{self.x0}" y="{self.y0}" width="{self.w}" height="{self.h}" fill="none" stroke="black"/>']
        for t in xticks:
            s.append(f'<line x1="{self.px(t):.1f}" y1="{self.y0 + self.h}" x2="{self.px(t):.1f}" y2="{self.y0 + self.h + 4}" stroke="black"/>')
            s.append(f'<text x="{self.px(t):.1f}" y="{self.y0 + self.h + 16}" font-size="11" text-anchor="middle">{t:g}</text>')
        for t in yticks:
            s.append(f'<line x1="{self.x0 - 4}" y1="{self.py(t):.1f}" x2="{self.x0}" y2="{self.py(t):.1f}" stroke="black"/>')
            s.append(f'<text x="{self.x0 - 7}" y="{self.py(t) + 4:.1f}" font-size="11" text-anchor="end">{t:g}</text>')
        s.append(f'<text x="{self.x0 + self.w / 2}" y="{self.y0 + self.h + 32}" font-size="12" text-anchor="middle">{xlabel}</text>')
        s.append(f'<text x="{self.x0 - 40}" y="{self.y0 + self.h / 2}" font-size="12" text-anchor="middle" '
                 f'transform="rotate(-90 {self.x0 - 40} {self.y0 + self.h / 2})">{ylabel}</text>')
        return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("analysis")
    ap.add_argument("svg")
    ap.add_argument("--profiles", help="folder with profile_mean.T*.dat")
    a = ap.parse_args()
    points, tc, rhoc, amp, slope = read_analysis(a.analysis)
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="900" height="450" font-family="sans-serif">',
         '<rect width="900" height="450" fill="white"/>']
    # left: T against rho
    p = Panel(70, 30, 360, 290, (0.0, 0.9), (0.6, 1.35))
    s += p.axes("density rho*", "temperature T*", [0, 0.2, 0.4, 0.6, 0.8], [0.7, 0.9, 1.1, 1.3])
    # fitted curve: rho_l,v = rhoc + B (T - Tc) +- A/2 (1 - T/Tc)^beta
    for sign in (1, -1):
        pts = []
        for k in range(0, 201):
            t = 0.65 + (tc - 0.65) * k / 200
            r = rhoc + slope * (t - tc) + sign * 0.5 * amp * (1 - t / tc) ** BETA
            pts.append(f"{p.px(r):.1f},{p.py(t):.1f}")
        s.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="#888" stroke-width="1.2"/>')
    diam = [f"{p.px(rhoc + slope * (t - tc)):.1f},{p.py(t):.1f}" for t in (0.65, tc)]
    s.append(f'<polyline points="{" ".join(diam)}" fill="none" stroke="#888" stroke-dasharray="4 3"/>')
    for t, rl, el, rv, ev in points:
        for r, e, col in ((rl, el, "#1f5fb4"), (rv, ev, "#c0392b")):
            s.append(f'<line x1="{p.px(r - e):.1f}" y1="{p.py(t):.1f}" x2="{p.px(r + e):.1f}" y2="{p.py(t):.1f}" stroke="{col}"/>')
            s.append(f'<circle cx="{p.px(r):.1f}" cy="{p.py(t):.1f}" r="3.5" fill="{col}"/>')
        s.append(f'<circle cx="{p.px((rl + rv) / 2):.1f}" cy="{p.py(t):.1f}" r="2.5" fill="none" stroke="#444"/>')
    s.append(f'<rect x="{p.px(rhoc) - 4:.1f}" y="{p.py(tc) - 4:.1f}" width="8" height="8" fill="black"/>')
    s.append(f'<path d="M {p.px(ARGON_RHOC):.1f} {p.py(ARGON_TC) - 6:.1f} l 6 10 l -12 0 z" fill="#e67e22"/>')
    ly, lx = 382, p.x0
    for col, label in (("#1f5fb4", "liquid (block errors)"), ("#c0392b", "vapour"),
                       ("#444", "diameter (rho_l + rho_v)/2"), ("black", f"critical point T*={tc:.4f}, rho*={rhoc:.4f}"),
                       ("#e67e22", f"argon, experiment: T*={ARGON_TC:.4f}, rho*={ARGON_RHOC:.4f}"),
                       ("#888", f"fit: scaling law (beta {BETA}) + rectilinear diameter")):
        s.append(f'<circle cx="{lx}" cy="{ly - 4}" r="3.5" fill="{col}"/>')
        s.append(f'<text x="{lx + 8}" y="{ly}" font-size="11">{label}</text>')
        ly += 16
        if ly > 430:
            ly, lx = 382, lx + 400
    # right: profiles
    if a.profiles:
        prof = read_profiles(a.profiles)
        zmax = max(r[-1][0] for _, r in prof)
        q = Panel(520, 30, 350, 290, (0, zmax), (0, 0.9))
        s += q.axes("|z - z_c| (sigma)", "density rho*", [0, 5, 10, 15, 20][: int(zmax // 5) + 1], [0, 0.2, 0.4, 0.6, 0.8])
        tmin, tmax = prof[0][0], prof[-1][0]
        for t, rows in prof:
            f = 0 if tmax == tmin else (t - tmin) / (tmax - tmin)
            col = f"rgb({int(30 + 200 * f)},{int(80 + 40 * (1 - f))},{int(200 - 170 * f)})"
            pts = " ".join(f"{q.px(z):.1f},{q.py(r):.1f}" for z, r in rows)
            s.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="1.3"/>')
            z, r = rows[0]
            s.append(f'<text x="{q.px(z) + 3:.1f}" y="{q.py(r) - 2:.1f}" font-size="9" fill="{col}">{t:g}</text>')
        s.append(f'<text x="{q.x0 + q.w / 2}" y="{q.y0 - 8}" font-size="11" text-anchor="middle">'
                 'density profiles (symmetrised; T* at each curve)</text>')
    s.append("</svg>")
    with open(a.svg, "w") as fh:
        fh.write("\n".join(s) + "\n")
    print(f"wrote {a.svg}: {len(points)} temperatures")


if __name__ == "__main__":
    main()
