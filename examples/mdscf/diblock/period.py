#!/usr/bin/env python3
"""Lamellar period of examples/mdscf/diblock from its dump grid file.

Reads every snapshot of a `dump grid` file with the columns phi_A phi_B, forms the
composition psi = phi_A - phi_B on the grid nodes, and its structure factor
S(q) = |sum_g psi(g) exp(-i q.X_g)|^2 / N_nodes for the grid wave vectors
q = 2 pi (n_x/L_x, n_y/L_y, n_z/L_z), |n_d| <= nmax. Prints, per snapshot, the peak
S(q*), its wave vector, the period 2 pi/|q*|, the shell of |q| with the largest mean S,
and the period 2 pi/q_bar from the S-weighted mean |q| around that shell (the box
allows only discrete q; q_bar interpolates between them and does not depend on the
orientation of the lamellae). S(q) = S(-q) for the real psi; of such a pair the peak
names the first in the order n_x, n_y, n_z from -nmax up. Needs python3 with numpy
(numpy.fft.fftn; Debian: python3-numpy).

    python3 period.py diblock.grid [nmax]
"""
import argparse
import math
import sys

try:
    import numpy as np
except ImportError as exc:
    sys.stderr.write("period.py: needs numpy (Debian: python3-numpy; pip: numpy): %s\n" % exc)
    sys.exit(2)


class InputError(Exception):
    """Bad input: reported as one line, exit status 1."""


def snapshots(path):
    """Yields (step, box [(lo, hi)] * 3, grid size (nx, ny, nz), psi) per snapshot;
    psi in dump grid order (x fastest, then y, then z)."""
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise InputError("cannot read %s: %s" % (path, e.strerror or e))
    i = 0
    while i < len(lines):
        if not lines[i].startswith("ITEM: TIMESTEP"):
            i += 1
            continue
        start = i + 1
        try:
            step = int(lines[i + 1])
            i += 2
            box, n = None, None
            while not lines[i].startswith("ITEM: GRID CELLS"):
                if lines[i].startswith("ITEM: TIMESTEP"):
                    raise IndexError
                if lines[i].startswith("ITEM: BOX BOUNDS"):
                    box = [tuple(map(float, lines[i + k].split()[:2])) for k in (1, 2, 3)]
                if lines[i].startswith("ITEM: GRID SIZE"):
                    n = tuple(map(int, lines[i + 1].split()[:3]))
                i += 1
        except IndexError:
            raise InputError("%s: snapshot at line %d: truncated header (no ITEM: GRID CELLS)" % (path, start))
        except ValueError as e:
            raise InputError("%s: snapshot at line %d: bad header (%s)" % (path, start, e))
        if box is None or len(box) != 3 or any(len(b) != 2 or not b[1] > b[0] for b in box):
            raise InputError("%s: snapshot at step %d: no valid ITEM: BOX BOUNDS" % (path, step))
        if n is None or len(n) != 3 or min(n) < 1:
            raise InputError("%s: snapshot at step %d: no valid ITEM: GRID SIZE" % (path, step))
        i += 1
        count = n[0] * n[1] * n[2]
        rows = lines[i:i + count]
        if len(rows) < count or any(r.startswith("ITEM:") for r in rows):
            raise InputError("%s: snapshot at step %d truncated: expected %d grid rows" % (path, step, count))
        try:
            ab = np.array([r.split()[:2] for r in rows], dtype=float)
        except ValueError as e:
            raise InputError("%s: snapshot at step %d: grid rows need the columns phi_A phi_B (%s)"
                             % (path, step, e))
        if ab.shape != (count, 2):
            raise InputError("%s: snapshot at step %d: grid rows need the columns phi_A phi_B" % (path, step))
        i += count
        yield step, box, n, ab[:, 0] - ab[:, 1]


def structure_factor(n, psi, nmax):
    """S(n) for the wave vectors n = (n_x, n_y, n_z), |n_d| <= min(nmax, N_d/2), n != 0.

    Returns the wave vectors (K x 3, n_x slowest, n_z fastest, each from its lowest
    value up) and S (K)."""
    nx, ny, nz = n
    amp = np.fft.fftn(np.asarray(psi, dtype=float).reshape(nz, ny, nx))     # [k_z, k_y, k_x]
    s = np.abs(amp) ** 2 / (nx * ny * nz)
    # psi is real: S(-k) = S(k); make the pairs exactly equal (the peak then picks the
    # first of a pair in the order below, not the one favoured by rounding)
    s = 0.5 * (s + np.roll(np.flip(s), 1, axis=(0, 1, 2)))
    ks = [np.arange(-min(nmax, m // 2), min(nmax, m // 2) + 1) for m in n]
    k = np.stack([a.ravel() for a in np.meshgrid(*ks, indexing="ij")], axis=1)
    k = k[np.any(k != 0, axis=1)]
    return k, s[k[:, 2] % nz, k[:, 1] % ny, k[:, 0] % nx]


def analyse(step, box, n, psi, nmax):
    L = [hi - lo for lo, hi in box]
    k, s = structure_factor(n, psi, nmax)
    if len(s) == 0:
        raise InputError("step %d: grid %s has no wave vectors" % (step, "x".join(map(str, n))))
    qlen = 2 * math.pi * np.sqrt((k[:, 0] / L[0]) ** 2 + (k[:, 1] / L[1]) ** 2 + (k[:, 2] / L[2]) ** 2)
    if not s.max() > 1e-24 * float(np.dot(psi, psi)):
        # no composition wave within |n_d| <= nmax (e.g. a uniform psi): no period
        print(f"step {step}: S(q) = 0 for every wave vector with |n_d| <= {nmax}: no period")
        print(f"RESULT step {step} period nan peak_over_mean nan")
        return
    ip = int(np.argmax(s))
    peak, speak, qpeak = tuple(int(v) for v in k[ip]), float(s[ip]), float(qlen[ip])
    mean = s.sum() / len(s)
    # shells of |q| (to 6 decimals); the strongest: largest mean S (the first on a tie)
    keys = np.array([round(q, 6) for q in qlen.tolist()])
    shells, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    smean = np.bincount(inv, s) / np.bincount(inv)
    best = np.flatnonzero(smean == smean.max())
    shell = float(shells[best[np.argmin(first[best])]])
    # orientation-free estimate: S-weighted mean |q| between half and 1.5 times the
    # strongest shell (the box allows only discrete q; this interpolates between them)
    band = (0.5 * shell <= qlen) & (qlen <= 1.5 * shell)
    qbar = (qlen[band] * s[band]).sum() / s[band].sum()
    print(f"step {step}: S(q*) = {speak:.1f} ({speak / mean:.1f} x mean) at n = {peak}, "
          f"|q*| = {qpeak:.4f}, period 2pi/|q*| = {2 * math.pi / qpeak:.3f}; "
          f"strongest shell |q| = {shell:.4f} (period {2 * math.pi / shell:.3f}); "
          f"S-weighted period {2 * math.pi / qbar:.3f}")
    print(f"RESULT step {step} period {2 * math.pi / qbar:.4f} "
          f"peak_over_mean {speak / mean:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 epilog="python3 period.py diblock.grid [nmax]")
    ap.add_argument("grid", nargs="?", default="diblock.grid", help="dump grid file (phi_A phi_B)")
    ap.add_argument("nmax", nargs="?", type=int, default=4, help="largest |n_d| (default 4)")
    a = ap.parse_args()
    if a.nmax < 1:
        ap.error("nmax must be positive")
    path, nmax = a.grid, a.nmax
    try:
        found = 0
        for step, box, n, psi in snapshots(path):
            analyse(step, box, n, psi, nmax)
            found += 1
        if not found:
            raise InputError("%s: no snapshots (ITEM: TIMESTEP) found" % path)
    except InputError as e:
        sys.stdout.flush()
        sys.stderr.write("period.py: error: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
