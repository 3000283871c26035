#!/usr/bin/env python3
"""Write a LAMMPS data file of united-atom polyethylene chains (Xu et al. 2010).

The chains of J. Xu, Y. Ren, W. Ge, X. Yu, X. Yang and J. Li, "Molecular dynamics
simulation of macromolecules using graphics processing unit", Mol. Simul. 36,
1131-1140 (2010).

Each chain has LENGTH united atoms: CH3 (type 2, C_33) at both ends and CH2 (type 1,
C_32) in between; Xu et al.'s chains are 150 monomers = 298 C_32 + 2 C_33 = 300 sites.
Units real (Angstrom, g/mol), atom_style molecular, with every bond, angle and
dihedral listed (one type each). Pure Python 3 standard library, deterministic for a
given --seed.

Chains grow as random walks with the bond length 1.53 A and the angle 109.471 deg,
each drawn with its thermal spread at --temp (Gaussian, variance kT/(2K) for the
input's harmonic K; --rigid holds them exact), so that bonds and angles start with
their equipartition energy and the thermostat has little to make up. Each torsion is drawn from exp(-E(phi)/kT) at --temp, where E(phi) is the
input's own torsion term plus the LJ energy of the 1-4 pair (Dreiding, as Xu et al.
use it, excludes only 1-2 and 1-3 pairs, so 1-4 pairs interact), which keeps the
chain locally near equilibrium and the start gentle. A step that comes closer than
--min-dist to any other atom except the three preceding ones of its own chain is
rejected (cell grid, periodic box); dead ends back off a few atoms, and a chain that
keeps failing starts again elsewhere.

  make_pe.py --chains 64 --box 100 100 160 -o pe-I.data        # Table III system I
  make_pe.py --chains 2250 --box 400 400 400 -o pe-VII.data    # Table III system VII
"""
import argparse
import bisect
import math
import random
import sys
import time

BOND = 1.53                     # A, Dreiding C_3 - C_3 (0.153 nm, Xu et al. Table I)
THETA = math.radians(109.471)   # Xu et al. Table I
MASS = {1: 14.027, 2: 15.035}   # C_32 (CH2), C_33 (CH3), g/mol
# Dreiding (Mayo, Olafson, Goddard, J. Phys. Chem. 94, 8897 (1990)), Table II (R0 in A,
# D0 in kcal/mol); sigma = R0 / 2^(1/6), epsilon = D0.
LJ = {1: (4.0677 / 2 ** (1 / 6), 0.1984), 2: (4.1524 / 2 ** (1 / 6), 0.2500)}
K_PHI = 1.0                     # kcal/mol: 4.184 kJ/mol, E = K (1 + cos 3 phi)
K_BOND = 350.0                  # kcal/mol/A^2, LAMMPS E = K (r - r0)^2 (in.pe)
K_ANGLE = 50.0                  # kcal/mol/rad^2, LAMMPS E = K (theta - theta0)^2
KB = 0.0019872067               # kcal/mol/K (LAMMPS real units)
NGRID = 3600                    # torsion table resolution (0.1 deg)


def lj_pair(ti, tj):
    (si, ei), (sj, ej) = LJ[ti], LJ[tj]
    return math.sqrt(si * sj), math.sqrt(ei * ej)   # Dreiding: geometric mixing


def r14(phi):
    """1-4 distance for bonds BOND, angles THETA, dihedral phi (IUPAC: trans = pi)."""
    # atoms 2,3 on the x axis; 1 and 4 at distance BOND*sin(THETA) from it
    h = BOND * math.sin(THETA)
    ax = BOND - 2 * BOND * math.cos(THETA)   # axial separation of 1 and 4
    d2 = ax * ax + 2 * h * h * (1 - math.cos(phi))
    return math.sqrt(d2)


def torsion_table(t_end, temp):
    """Cumulative distribution of phi in [-pi, pi) for a 1-4 pair of type 1 - t_end."""
    sig, eps = lj_pair(1, t_end)
    kt = KB * temp
    w = []
    for k in range(NGRID):
        phi = -math.pi + (k + 0.5) * 2 * math.pi / NGRID
        r = r14(phi)
        sr6 = (sig / r) ** 6
        e = K_PHI * (1 + math.cos(3 * phi)) + 4 * eps * (sr6 * sr6 - sr6)
        w.append(e)
    emin = min(w)
    w = [math.exp(-(e - emin) / kt) for e in w]
    cdf, s = [], 0.0
    for x in w:
        s += x
        cdf.append(s)
    return [c / s for c in cdf]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chains", type=int, required=True, help="number of chains M")
    ap.add_argument("--length", type=int, default=300,
                    help="united atoms per chain (default 300 = 150 monomers, as Xu et al.)")
    ap.add_argument("--box", type=float, nargs=3, required=True, metavar=("LX", "LY", "LZ"),
                    help="box edges in Angstrom")
    ap.add_argument("--seed", type=int, default=20100, help="random seed")
    ap.add_argument("--temp", type=float, default=1000.0,
                    help="temperature of the torsion distribution, K (default 1000)")
    ap.add_argument("--min-dist", type=float, default=3.5,
                    help="smallest distance to non-bonded atoms, A (default 3.5)")
    ap.add_argument("--rigid", action="store_true",
                    help="exact bond length and angle (no thermal spread)")
    ap.add_argument("-o", "--output", required=True, help="data file to write")
    a = ap.parse_args()
    if a.length < 4 or a.chains < 1:
        sys.exit("make_pe.py: need --chains >= 1 and --length >= 4")
    t0 = time.time()
    rng = random.Random(a.seed)
    lx, ly, lz = a.box
    dmin2 = a.min_dist ** 2
    nx, ny, nz = (max(3, int(L // a.min_dist)) for L in a.box)
    csx, csy, csz = lx / nx, ly / ny, lz / nz
    if min(csx, csy, csz) < a.min_dist:
        sys.exit("make_pe.py: box edge below 3 x min-dist")
    grid = [[] for _ in range(nx * ny * nz)]

    def neigh(n, L):   # per cell index: the 3 neighbour cells and the shift to add to xj
        out = []
        for c in range(n):
            row = []
            for o in (-1, 0, 1):
                m = c + o
                s = 0.0
                if m < 0:
                    m += n
                    s = -L
                elif m >= n:
                    m -= n
                    s = L
                row.append((m, s))
            out.append(row)
        return out
    nbx, nby, nbz = neigh(nx, lx), neigh(ny, ly), neigh(nz, lz)

    natoms = a.chains * a.length
    ux, uy, uz = [0.0] * natoms, [0.0] * natoms, [0.0] * natoms   # unwrapped
    wx, wy, wz = [0.0] * natoms, [0.0] * natoms, [0.0] * natoms   # wrapped into box
    cell_of = [0] * natoms
    cdf_mid = torsion_table(1, a.temp)
    cdf_end = torsion_table(2, a.temp)
    dphi = 2 * math.pi / NGRID
    # thermal spread of bond length and angle: E = K x^2 -> variance kT / (2K)
    sd_b = 0.0 if a.rigid else math.sqrt(KB * a.temp / (2 * K_BOND))
    sd_t = 0.0 if a.rigid else math.sqrt(KB * a.temp / (2 * K_ANGLE))

    def cell(x, y, z):
        return ((min(int(x / csx), nx - 1) * ny + min(int(y / csy), ny - 1)) * nz
                + min(int(z / csz), nz - 1))

    def free(x, y, z, skip):   # wrapped coordinates; atoms j >= skip are ignored
        cx, cy, cz = min(int(x / csx), nx - 1), min(int(y / csy), ny - 1), min(int(z / csz), nz - 1)
        for mx, sx in nbx[cx]:
            bx = mx * ny
            for my, sy in nby[cy]:
                by = (bx + my) * nz
                for mz, sz in nbz[cz]:
                    for j in grid[by + mz]:
                        if j >= skip:
                            continue
                        dx = x - wx[j] - sx
                        dy = y - wy[j] - sy
                        dz = z - wz[j] - sz
                        if dx * dx + dy * dy + dz * dz < dmin2:
                            return False
        return True

    def place(i, x, y, z):
        ux[i], uy[i], uz[i] = x, y, z
        x0, y0, z0 = x % lx, y % ly, z % lz
        wx[i], wy[i], wz[i] = x0, y0, z0
        c = cell(x0, y0, z0)
        cell_of[i] = c
        grid[c].append(i)

    def unplace(i):
        grid[cell_of[i]].remove(i)

    def try_put(i, x, y, z, start):
        if free(x % lx, y % ly, z % lz, max(start, i - 3)):
            place(i, x, y, z)
            return True
        return False

    def rand_unit():
        while True:
            x, y, z = rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)
            r2 = x * x + y * y + z * z
            if 1e-4 < r2 <= 1:
                r = math.sqrt(r2)
                return x / r, y / r, z / r

    def grow_one(i, start):
        """Place atom i (index in chain i - start >= 1); True on success."""
        k = i - start
        if k == 0:
            x, y, z = rng.uniform(0, lx), rng.uniform(0, ly), rng.uniform(0, lz)
            return try_put(i, x, y, z, start)
        if k == 1:
            ex, ey, ez = rand_unit()
            bl = BOND + rng.gauss(0.0, sd_b) if sd_b else BOND
            return try_put(i, ux[i - 1] + bl * ex, uy[i - 1] + bl * ey,
                           uz[i - 1] + bl * ez, start)
        # bond direction b = unit(p[i-1] - p[i-2]); n, m complete the frame
        bx, by, bz = ux[i - 1] - ux[i - 2], uy[i - 1] - uy[i - 2], uz[i - 1] - uz[i - 2]
        inv = 1.0 / math.sqrt(bx * bx + by * by + bz * bz)
        bx, by, bz = bx * inv, by * inv, bz * inv
        if k == 2:
            rx, ry, rz = rand_unit()   # any vector not along b
        else:
            rx, ry, rz = ux[i - 2] - ux[i - 3], uy[i - 2] - uy[i - 3], uz[i - 2] - uz[i - 3]
        nx_, ny_, nz_ = ry * bz - rz * by, rz * bx - rx * bz, rx * by - ry * bx
        nn = math.sqrt(nx_ * nx_ + ny_ * ny_ + nz_ * nz_)
        if nn < 1e-6:
            return False
        nx_, ny_, nz_ = nx_ / nn, ny_ / nn, nz_ / nn
        mx, my, mz = ny_ * bz - nz_ * by, nz_ * bx - nx_ * bz, nx_ * by - ny_ * bx
        cdf = cdf_end if (k == 3 or k == a.length - 1) else cdf_mid
        for _ in range(20):
            if k == 2:
                phi = rng.uniform(-math.pi, math.pi)
            else:
                phi = -math.pi + (bisect.bisect_left(cdf, rng.random()) + rng.random()) * dphi
            # NeRF: d = -cos(theta) b + sin(theta) (cos(phi) m + sin(phi) n); phi = 0
            # puts atom i cis to atom i-3 (IUPAC convention: trans = 180 deg)
            cp, sp = math.cos(phi), math.sin(phi)
            th = THETA + rng.gauss(0.0, sd_t) if sd_t else THETA
            cos_t, sin_t = math.cos(th), math.sin(th)
            bl = BOND + rng.gauss(0.0, sd_b) if sd_b else BOND
            dx = -cos_t * bx + sin_t * (cp * mx + sp * nx_)
            dy = -cos_t * by + sin_t * (cp * my + sp * ny_)
            dz = -cos_t * bz + sin_t * (cp * mz + sp * nz_)
            if try_put(i, ux[i - 1] + bl * dx, uy[i - 1] + bl * dy,
                       uz[i - 1] + bl * dz, start):
                return True
        return False

    restarts = backoffs = 0
    for c in range(a.chains):
        start = c * a.length
        fails = 0
        i = start
        while i < start + a.length:
            if grow_one(i, start):
                i += 1
                continue
            fails += 1
            if fails > 50:      # give the chain up and start it somewhere else
                for j in range(start, i):
                    unplace(j)
                i, fails = start, 0
                restarts += 1
                continue
            back = min(i - start, rng.randint(1, 6))   # back off a few atoms
            for j in range(i - back, i):
                unplace(j)
            i -= back
            backoffs += 1
    t_grow = time.time() - t0

    with open(a.output, "w") as f:
        nb, na, nd = a.chains * (a.length - 1), a.chains * (a.length - 2), a.chains * (a.length - 3)
        f.write("LAMMPS data file: united-atom polyethylene, %d chains x %d sites "
                "(bench/make_pe.py --seed %d --temp %g --min-dist %g)\n\n"
                % (a.chains, a.length, a.seed, a.temp, a.min_dist))
        f.write("%d atoms\n%d bonds\n%d angles\n%d dihedrals\n\n" % (natoms, nb, na, nd))
        f.write("2 atom types\n1 bond types\n1 angle types\n1 dihedral types\n\n")
        f.write("0.0 %.6f xlo xhi\n0.0 %.6f ylo yhi\n0.0 %.6f zlo zhi\n\n" % (lx, ly, lz))
        f.write("Masses\n\n1 %.3f # C_32 CH2\n2 %.3f # C_33 CH3\n\n" % (MASS[1], MASS[2]))
        f.write("Atoms # molecular\n\n")
        out = []
        for c in range(a.chains):
            for k in range(a.length):
                i = c * a.length + k
                t = 2 if k == 0 or k == a.length - 1 else 1
                ix, iy, iz = (math.floor(ux[i] / lx), math.floor(uy[i] / ly),
                              math.floor(uz[i] / lz))
                out.append("%d %d %d %.4f %.4f %.4f %d %d %d\n" % (
                    i + 1, c + 1, t, wx[i], wy[i], wz[i], ix, iy, iz))
        f.write("".join(out))
        out = []
        n = 0
        for c in range(a.chains):
            base = c * a.length + 1
            for k in range(a.length - 1):
                n += 1
                out.append("%d 1 %d %d\n" % (n, base + k, base + k + 1))
        f.write("\nBonds\n\n" + "".join(out))
        out = []
        n = 0
        for c in range(a.chains):
            base = c * a.length + 1
            for k in range(a.length - 2):
                n += 1
                out.append("%d 1 %d %d %d\n" % (n, base + k, base + k + 1, base + k + 2))
        f.write("\nAngles\n\n" + "".join(out))
        out = []
        n = 0
        for c in range(a.chains):
            base = c * a.length + 1
            for k in range(a.length - 3):
                n += 1
                out.append("%d 1 %d %d %d %d\n" % (n, base + k, base + k + 1, base + k + 2,
                                                   base + k + 3))
        f.write("\nDihedrals\n\n" + "".join(out))
    t_all = time.time() - t0
    vol = lx * ly * lz
    dens = natoms * (MASS[1] * (a.length - 2) + 2 * MASS[2]) / a.length / 6.02214076e23 / (vol * 1e-24)
    print("make_pe.py: %d chains x %d = %d atoms in %.1f x %.1f x %.1f A^3 (%.3f g/cm^3); "
          "grown in %.1f s (%d back-offs, %d restarts), written in %.1f s total -> %s"
          % (a.chains, a.length, natoms, lx, ly, lz, dens, t_grow, backoffs, restarts,
             t_all, a.output), file=sys.stderr)


if __name__ == "__main__":
    main()
