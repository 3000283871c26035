#!/usr/bin/env python3
"""Lamellar period of examples/mdscf/diblock from its dump grid file.

Reads every snapshot of a `dump grid` file with the columns phi_A phi_B, forms the
composition psi = phi_A - phi_B on the grid nodes, and its structure factor
S(q) = |sum_g psi(g) exp(-i q.X_g)|^2 / N_nodes for the grid wave vectors
q = 2 pi (n_x/L_x, n_y/L_y, n_z/L_z), |n_d| <= nmax. Prints, per snapshot, the peak
S(q*), its wave vector, the period 2 pi/|q*|, the shell of |q| with the largest mean S,
and the period 2 pi/q_bar from the S-weighted mean |q| around that shell (the box
allows only discrete q; q_bar interpolates between them and does not depend on the
orientation of the lamellae). Plain Python (a separable DFT), no numpy.

    python3 period.py diblock.grid [nmax]
"""
import cmath
import math
import sys


def snapshots(path):
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("ITEM: TIMESTEP"):
            step = int(lines[i + 1])
            i += 2
            box = []
            while not lines[i].startswith("ITEM: GRID CELLS"):
                if lines[i].startswith("ITEM: BOX BOUNDS"):
                    box = [tuple(map(float, lines[i + k].split()[:2])) for k in (1, 2, 3)]
                if lines[i].startswith("ITEM: GRID SIZE"):
                    n = tuple(map(int, lines[i + 1].split()))
                i += 1
            i += 1
            count = n[0] * n[1] * n[2]
            psi = []
            for k in range(count):
                a, b = map(float, lines[i + k].split()[:2])
                psi.append(a - b)
            i += count
            yield step, box, n, psi
        else:
            i += 1


def structure_factor(n, psi, nmax):
    nx, ny, nz = n
    ks = [range(-min(nmax, m // 2), min(nmax, m // 2) + 1) for m in n]
    # x fastest, then y, then z (dump grid order)
    ex = {k: [cmath.exp(-2j * math.pi * k * x / nx) for x in range(nx)] for k in ks[0]}
    ey = {k: [cmath.exp(-2j * math.pi * k * y / ny) for y in range(ny)] for k in ks[1]}
    ez = {k: [cmath.exp(-2j * math.pi * k * z / nz) for z in range(nz)] for k in ks[2]}
    # sum over x for every (y, z), then y, then z
    ax = {}
    for kx in ks[0]:
        e = ex[kx]
        ax[kx] = [sum(psi[(z * ny + y) * nx + x] * e[x] for x in range(nx))
                  for z in range(nz) for y in range(ny)]
    s = {}
    for kx in ks[0]:
        for ky in ks[1]:
            e = ey[ky]
            az = [sum(ax[kx][z * ny + y] * e[y] for y in range(ny)) for z in range(nz)]
            for kz in ks[2]:
                if kx == ky == kz == 0:
                    continue
                amp = sum(az[z] * ez[kz][z] for z in range(nz))
                s[(kx, ky, kz)] = abs(amp) ** 2 / (nx * ny * nz)
    return s


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "diblock.grid"
    nmax = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    for step, box, n, psi in snapshots(path):
        L = [hi - lo for lo, hi in box]
        s = structure_factor(n, psi, nmax)
        qlen = {k: 2 * math.pi * math.sqrt(sum((k[d] / L[d]) ** 2 for d in range(3))) for k in s}
        peak = max(s, key=s.get)
        mean = sum(s.values()) / len(s)
        shells = {}
        for k, v in s.items():
            shells.setdefault(round(qlen[k], 6), []).append(v)
        shell = max(shells, key=lambda q: sum(shells[q]) / len(shells[q]))
        # orientation-free estimate: S-weighted mean |q| between half and 1.5 times the
        # strongest shell (the box allows only discrete q; this interpolates between them)
        band = [k for k in s if 0.5 * shell <= qlen[k] <= 1.5 * shell]
        qbar = sum(qlen[k] * s[k] for k in band) / sum(s[k] for k in band)
        print(f"step {step}: S(q*) = {s[peak]:.1f} ({s[peak] / mean:.1f} x mean) at n = {peak}, "
              f"|q*| = {qlen[peak]:.4f}, period 2pi/|q*| = {2 * math.pi / qlen[peak]:.3f}; "
              f"strongest shell |q| = {shell:.4f} (period {2 * math.pi / shell:.3f}); "
              f"S-weighted period {2 * math.pi / qbar:.3f}")
        print(f"RESULT step {step} period {2 * math.pi / qbar:.4f} "
              f"peak_over_mean {s[peak] / mean:.2f}")


if __name__ == "__main__":
    main()
