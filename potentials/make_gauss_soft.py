#!/usr/bin/env python3
"""Writes the soft Gaussian-core potential used by examples/table_r2 in both input
forms of pair_style table/r2:

  gauss_soft.table  LAMMPS pair-table format (r, E, F samples), keyword GAUSS_SOFT
  gauss_soft.coeff  per-interval r^2-spline coefficients (COEFF format), same keyword

Potential (LJ units), with z = r^2, g(z) = exp(-z / (2 s^2)), zc = rc^2:
    U(z) = A [ g(z) - g(zc) - g'(zc) (z - zc) ]   for r < rc,
shifted in value and slope at the cutoff so energy and force both go to zero there.
A = 8, s = 0.5, rc = 2.

The coefficient file is fitted here, independently of the C++ code: a clamped cubic
spline in z through the exact knot values with the exact end slopes dU/dz. The unit
tests compare it with what table/r2 fits from gauss_soft.table and with the formula.
Plain Python 3, no modules beyond math.

With arguments, `make_gauss_soft.py A S RC KEYWORD OUTFILE [UNITS]`, it writes only a
coefficient file for other parameters (the LAMMPS harness tests use one in real units);
UNITS, if given, goes on the file's first line (UNITS: real).
"""
import math
import os
import sys

A, S, RC = 8.0, 0.5, 2.0
ZC = RC * RC


def g(z):
    return math.exp(-z / (2 * S * S))


def dg(z):
    return -g(z) / (2 * S * S)


def energy(r):
    z = r * r
    return A * (g(z) - g(ZC) - dg(ZC) * (z - ZC))


def dudz(z):
    return A * (dg(z) - dg(ZC))


def force(r):  # F = -dU/dr = -2 r dU/dz
    return -2.0 * r * dudz(r * r)


def clamped_spline(v, h, s0, sn):
    """Coefficients c0..c3 per interval of the clamped cubic spline through v."""
    n = len(v) - 1
    a = [0.0] * (n + 1); b = [0.0] * (n + 1); c = [0.0] * (n + 1); d = [0.0] * (n + 1)
    b[0], c[0], d[0] = 2.0, 1.0, 6.0 / h * ((v[1] - v[0]) / h - s0)
    for i in range(1, n):
        a[i], b[i], c[i] = 1.0, 4.0, 1.0
        d[i] = 6.0 * (v[i + 1] - 2 * v[i] + v[i - 1]) / (h * h)
    a[n], b[n], d[n] = 1.0, 2.0, 6.0 / h * (sn - (v[n] - v[n - 1]) / h)
    for i in range(1, n + 1):
        w = a[i] / b[i - 1]
        b[i] -= w * c[i - 1]
        d[i] -= w * d[i - 1]
    m = [0.0] * (n + 1)
    m[n] = d[n] / b[n]
    for i in range(n - 1, -1, -1):
        m[i] = (d[i] - c[i] * m[i + 1]) / b[i]
    return [(v[k], (v[k + 1] - v[k]) / h - h * (2 * m[k] + m[k + 1]) / 6.0, 0.5 * m[k],
             (m[k + 1] - m[k]) / (6.0 * h)) for k in range(n)]


def header(units):
    # first line as in LAMMPS potential files: pair_style table/r2 (and LAMMPS's own
    # pair_style table) stop when the UNITS: named there differ from the units in use
    first = "# DATE: 2026-11-23 UNITS: %s " % units if units else "# "
    return (first + "soft Gaussian core, A = %g, s = %g, rc = %g, value and slope shifted "
            "to 0 at rc\n# written by potentials/make_gauss_soft.py\n\n" % (A, S, RC))


def write_coeff(path, keyword, n, units):
    dz = ZC / n
    knots = [energy(math.sqrt(k * dz)) for k in range(n + 1)]
    coeff = clamped_spline(knots, dz, dudz(0.0), dudz(ZC))
    with open(path, "w") as out:
        out.write(header(units))
        out.write("%s\nN %d COEFF 0.0 %g\n\n" % (keyword, n, RC))
        for k, c in enumerate(coeff):
            out.write("%d %.16e %.16e %.16e %.16e\n" % (k + 1, c[0], c[1], c[2], c[3]))


def main():
    global A, S, RC, ZC
    if len(sys.argv) in (6, 7):
        A, S, RC = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
        ZC = RC * RC
        write_coeff(sys.argv[5], sys.argv[4], 400, sys.argv[6] if len(sys.argv) == 7 else None)
        return
    here = os.path.dirname(os.path.abspath(__file__))

    n = 501
    with open(os.path.join(here, "gauss_soft.table"), "w") as out:
        out.write(header("lj"))
        out.write("GAUSS_SOFT\nN %d R 0.0 %g\n\n" % (n, RC))
        for i in range(n):
            r = RC * i / (n - 1)
            out.write("%d %.10f %.16e %.16e\n" % (i + 1, r, energy(r), force(r)))
        # LAMMPS's own pair_style table rejects a table that starts at r = 0: the same
        # potential from r = 0.004 for comparisons with it (examples/table_r2/in.check)
        out.write("\n# the same from r = 0.004, for LAMMPS pair_style table\n")
        out.write("GAUSS_SOFT_FROM_0.004\nN %d R 0.004 %g\n\n" % (n - 1, RC))
        for i in range(1, n):
            r = RC * i / (n - 1)
            out.write("%d %.10f %.16e %.16e\n" % (i, r, energy(r), force(r)))

    write_coeff(os.path.join(here, "gauss_soft.coeff"), "GAUSS_SOFT", 400, "lj")


if __name__ == "__main__":
    main()
