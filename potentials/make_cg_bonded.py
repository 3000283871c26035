#!/usr/bin/env python3
"""Writes cg_bonded.table: the bonded potentials of examples/table_r2/in.bonded as
LAMMPS bond_style table and angle_style table sections, the form an iterative
Boltzmann inversion produces. Here they are tabulated from analytic forms, so the
example can check the tabulated styles against the analytic ones (bond_style harmonic,
angle_style cosine/squared) on the same configuration:

  BOND_HARM    E(r) = K (r - r0)^2,                K = 20, r0 = 0.9,
               r from 0.02 to 2.2 (1091 points: soft beads let bonds compress far), F = -dE/dr, with FP and EQ
  ANGLE_COSSQ  E(theta) = K (cos theta - cos theta0)^2,  K = 3, theta0 = 120 degrees,
               theta from 0 to 180 degrees (181 points), F = -dE/dtheta per degree

Plain Python 3, no modules beyond math. Usage: make_cg_bonded.py [OUTFILE]
"""
import math
import os
import sys

KB, R0 = 20.0, 0.9
RLO, RHI, NB = 0.02, 2.2, 1091
KA, T0 = 3.0, 120.0
NA = 181
DEG = math.pi / 180.0


def bond(r):
    return KB * (r - R0) ** 2, -2.0 * KB * (r - R0)


def angle(theta_deg):
    t = theta_deg * DEG
    c0 = math.cos(T0 * DEG)
    e = KA * (math.cos(t) - c0) ** 2
    dedt = -2.0 * KA * (math.cos(t) - c0) * math.sin(t)    # per radian
    return e, -dedt * DEG                                     # force per degree


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "cg_bonded.table")
    with open(out, "w") as f:
        f.write("# bonded tables of examples/table_r2/in.bonded (potentials/make_cg_bonded.py)\n")
        f.write("# harmonic bond K = 20, r0 = 0.9; cosine-squared angle K = 3, theta0 = 120 deg\n\n")
        fp = -2.0 * KB    # FP: dF/dr at the first and last point (exact: -2 K)
        f.write("BOND_HARM\nN %d FP %.10g %.10g EQ %.10g\n\n" % (NB, fp, fp, R0))
        for i in range(NB):
            r = RLO + (RHI - RLO) * i / (NB - 1)
            e, fr = bond(r)
            f.write("%d %.10f %.16e %.16e\n" % (i + 1, r, e, fr))
        f.write("\nANGLE_COSSQ\nN %d EQ %.10g\n\n" % (NA, T0))
        for i in range(NA):
            t = 180.0 * i / (NA - 1)
            e, ft = angle(t)
            f.write("%d %.10f %.16e %.16e\n" % (i + 1, t, e, ft))


if __name__ == "__main__":
    main()
