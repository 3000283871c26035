#!/usr/bin/env python3
"""Write a LAMMPS data file of a DMPC bilayer in SSD/E water for examples/membrane.

Lipids: the ELBA mapping of DMPC (Orsi and Essex, PLoS ONE 6, e28637 (2011),
doi:10.1371/journal.pone.0028637): 13 beads per lipid,

    CHOL - PHOS - GLY - EST1 - T - T - T - T      (chain 1)
                   |
                   EST2 - T - T - T - T            (chain 2)

12 bonds and 11 valence angles per lipid (angles listed in README.md). The same
connectivity (glycerol bonded to both esters, four tail beads per myristoyl chain) is
that of the ELBA DMPC data files of the ELBA distribution (github.com/SGenheden/Elba,
Liquids/Elba_mem). Water: one SSD/E molecule per site (Fennell and Gezelter, J. Chem.
Phys. 120, 9175 (2004)).

Types: 1 water (SSD/E, oriented), 2 choline, 3 phosphate, 4 glycerol (oriented, dipole),
5 ester (oriented, dipole), 6 tail. Bond types: 1 CHOL-PHOS, 2 PHOS-GLY, 3 GLY-EST,
4 EST-T, 5 T-T. Angle types: 1 CHOL-PHOS-GLY, 2 PHOS-GLY-EST, 3 GLY-EST-T, EST-T-T and
T-T-T (all 180 degrees in ELBA).

Atom style: hybrid full ellipsoid (Atoms: id type x y z molecule q ellipsoidflag
density). Oriented beads (water, glycerol, ester) get an ellipsoid bonus with a dummy
shape 1 1 1 (the shape enters neither pair style; the inertia is given to the rigid-body
fix) and a random quaternion; their density is mass / volume of that shape, so the data
file carries the right masses. Plain beads (choline, phosphate, tails) have no bonus and
density = mass.

Geometry: N x N lipids per leaflet on a square lattice of spacing sqrt(--apl); tails
straight along z, the two chains of a lipid at +-(a/4, a/4) from its head column; the
lower leaflet is the upper one mirrored in z and shifted by a/2 in x. Waters fill a
simple cubic lattice (about 3.1 A, 30 A^3 per molecule) outside |z| > head top + gap;
surplus sites are dropped at random (seeded) to get exactly --water-per-lipid per lipid.

    python3 make_bilayer.py                       # 8 x 8 per leaflet: 128 lipids
    python3 make_bilayer.py -n 4 -o data.small    # 32 lipids (the ctest)
    python3 make_bilayer.py --style dipole -o data.dipole   # the same system as dipolar
                                                  # spheres (bench/in.membrane, model dipole)

--style dipole writes the same atoms (same positions, N and box) for atom_style hybrid full
sphere dipole (Atoms: id type x y z molecule q diameter density mux muy muz), the form the
LAMMPS DIPOLE and GPU packages run (pair lj/sf/dipole/sf, fix nve/sphere update dipole):
every bead is a sphere; the point dipole of water (2.42 D, SSD/E), glycerol (1.6 D) and
ester (2.0 D) (ELBA; README.md) lies along the body z axis of the quaternion the ellipsoid
file gets, so both files start from the same orientations. Diameters (they set only the
moment of inertia, 0.1 m d^2): water 0.8092 A (SSD's mean moment of inertia, 1.1797 amu
A^2, as bench/in.ssd), glycerol and ester 12.7 A (ELBA; 1000 amu A^2 as in.membrane's
inertia), choline, phosphate and tail beads the sigma of their self-pair (5.4, 5.2, 4.5 A;
our choice: they carry no dipole, so nothing depends on it but their free spin).
"""

import argparse
import math
import random
import sys

MASS = {1: 18.0153, 2: 90.0, 3: 90.0, 4: 62.0, 5: 62.0, 6: 42.0}
# bond lengths r0 (A), ELBA (forcefield.elba of the ELBA distribution; Orsi and Essex 2011)
R0 = {1: 4.770, 2: 4.410, 3: 4.140, 4: 4.095, 5: 4.050}
ORIENTED = (1, 4, 5)
SHAPE = 1.0  # dummy diameter of the oriented beads' ellipsoid bonus (A)
# --style dipole: sphere diameters (A) and point dipoles along body z (Debye; README.md)
DIAM = {1: 0.8092, 2: 5.4, 3: 5.2, 4: 12.7, 5: 12.7, 6: 4.5}
DIPOLE_D = {1: 2.42, 4: 1.6, 5: 2.0}
DEBYE = 0.208194  # e A per Debye


def random_quat(rng):
    """Uniform random unit quaternion (Shoemake)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1.0 - u1), math.sqrt(u1)
    return (b * math.cos(2 * math.pi * u3), a * math.sin(2 * math.pi * u2),
            a * math.cos(2 * math.pi * u2), b * math.sin(2 * math.pi * u3))


def build(n, apl, wpl, seed, gap, wspacing):
    rng = random.Random(seed)
    a = math.sqrt(apl)
    L = n * a
    atoms, bonds, angles, ellipsoids = [], [], [], []  # atoms: (type, x, y, z, mol, q)

    # upper leaflet z positions (head up); bead coordinates relative to the head column
    dxy = a / 4.0
    zt = [2.5 + 3 * R0[5], 2.5 + 2 * R0[5], 2.5 + R0[5], 2.5]  # T1..T4 (T4 at the midplane)
    zest = zt[0] + R0[4]
    zgly = zest + math.sqrt(max(R0[3] ** 2 - 2 * dxy * dxy, 1.0))
    zphos = zgly + R0[2]
    zchol = zphos + R0[1]
    mol = 0
    for leaflet in (+1, -1):
        shift = 0.0 if leaflet > 0 else a / 2.0
        for i in range(n):
            for j in range(n):
                mol += 1
                x0, y0 = (i + 0.5) * a + shift, (j + 0.5) * a
                first = len(atoms) + 1

                def add(t, x, y, z):
                    atoms.append((t, x, y, leaflet * z, mol, 0.0))  # read_data wraps, sets images
                    return len(atoms)

                chol = add(2, x0, y0, zchol)
                phos = add(3, x0, y0, zphos)
                gly = add(4, x0, y0, zgly)
                chains = []
                for sgn in (-1, +1):
                    cx, cy = x0 + sgn * dxy, y0 + sgn * dxy
                    est = add(5, cx, cy, zest)
                    tails = [add(6, cx, cy, z) for z in zt]
                    chains.append((est, tails))
                assert len(atoms) - first + 1 == 13
                bonds.append((1, chol, phos))
                bonds.append((2, phos, gly))
                angles.append((1, chol, phos, gly))
                for est, tails in chains:
                    bonds.append((3, gly, est))
                    bonds.append((4, est, tails[0]))
                    for k in range(3):
                        bonds.append((5, tails[k], tails[k + 1]))
                    angles.append((2, phos, gly, est))
                    angles.append((3, gly, est, tails[0]))
                    angles.append((3, est, tails[0], tails[1]))
                    angles.append((3, tails[0], tails[1], tails[2]))
                    angles.append((3, tails[1], tails[2], tails[3]))
    nlip = mol

    # water: a simple cubic lattice outside the bilayer
    nw = wpl * nlip
    nx = max(1, round(L / wspacing))
    h = L / nx
    per_layer = nx * nx
    layers = -(-nw // per_layer)
    zlo_w = zchol + gap  # first water layer above the upper heads
    Lz = 2 * zlo_w + (layers - 1) * wspacing  # the last layer sits at -zlo_w (symmetric)
    sites = []
    for k in range(layers):
        z = zlo_w + k * wspacing
        if z >= Lz / 2:
            z -= Lz
        for i in range(nx):
            for j in range(nx):
                sites.append(((i + 0.25) * h, (j + 0.25) * h, z))
    rng.shuffle(sites)
    sites = sorted(sites[:nw], key=lambda s: (s[2], s[0], s[1]))
    for x, y, z in sites:
        mol += 1
        atoms.append((1, x, y, z, mol, 0.0))

    for idx, (t, *_rest) in enumerate(atoms, start=1):
        if t in ORIENTED:
            ellipsoids.append((idx, random_quat(rng)))
    return dict(atoms=atoms, bonds=bonds, angles=angles, ellipsoids=ellipsoids, L=L, Lz=Lz,
                nlip=nlip, nw=nw, zhead=zchol, zphos=zphos)


def body_z(q):
    """Third column of the rotation matrix of unit quaternion q = (w, i, j, k)."""
    w, i, j, k = q
    return (2 * (i * k + w * j), 2 * (j * k - w * i), 1 - 2 * (i * i + j * j))


def write(sysd, path, qhead, style="ellipsoid"):
    vol = math.pi / 6.0 * SHAPE ** 3
    quat = dict(sysd["ellipsoids"])
    L, Lz = sysd["L"], sysd["Lz"]
    with open(path, "w") as f:
        f.write(f"DMPC (ELBA mapping) bilayer, {sysd['nlip']} lipids, {sysd['nw']} SSD/E "
                f"waters (examples/membrane/make_bilayer.py)\n\n")
        f.write(f"{len(sysd['atoms'])} atoms\n6 atom types\n")
        if style == "ellipsoid":
            f.write(f"{len(sysd['ellipsoids'])} ellipsoids\n")
        f.write(f"{len(sysd['bonds'])} bonds\n5 bond types\n")
        f.write(f"{len(sysd['angles'])} angles\n3 angle types\n\n")
        f.write(f"0 {L:.10f} xlo xhi\n0 {L:.10f} ylo yhi\n{-Lz / 2:.10f} {Lz / 2:.10f} zlo zhi\n\n")
        f.write("Masses\n\n")  # per type (atom style full); the per-atom masses are used
        for t in sorted(MASS):
            f.write(f"{t} {MASS[t]}\n")
        f.write("\n")
        f.write("Atoms # hybrid\n\n")
        for idx, (t, x, y, z, mol, _) in enumerate(sysd["atoms"], start=1):
            q = qhead if t == 2 else (-qhead if t == 3 else 0.0)
            if style == "dipole":
                d = DIAM[t]
                mu = DIPOLE_D.get(t, 0.0) * DEBYE
                ez = body_z(quat[idx]) if t in ORIENTED else (0.0, 0.0, 1.0)
                f.write(f"{idx} {t} {x:.6f} {y:.6f} {z:.6f} {mol} {q:.4f} {d} "
                        f"{MASS[t] / (math.pi / 6.0 * d ** 3):.17g} "
                        f"{mu * ez[0]:.10f} {mu * ez[1]:.10f} {mu * ez[2]:.10f}\n")
                continue
            if t in ORIENTED:
                flag, dens = 1, MASS[t] / vol
            else:
                flag, dens = 0, MASS[t]
            f.write(f"{idx} {t} {x:.6f} {y:.6f} {z:.6f} {mol} {q:.4f} {flag} {dens:.17g}\n")
        if style == "ellipsoid":
            f.write("\nEllipsoids\n\n")
            for idx, (w, i, j, k) in sysd["ellipsoids"]:
                f.write(f"{idx} {SHAPE} {SHAPE} {SHAPE} {w:.15f} {i:.15f} {j:.15f} {k:.15f}\n")
        f.write("\nBonds\n\n")
        for n, (t, i, j) in enumerate(sysd["bonds"], start=1):
            f.write(f"{n} {t} {i} {j}\n")
        f.write("\nAngles\n\n")
        for n, (t, i, j, k) in enumerate(sysd["angles"], start=1):
            f.write(f"{n} {t} {i} {j} {k}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("-n", type=int, default=8, help="lipids per leaflet along x and y (8: 128 lipids)")
    p.add_argument("--apl", type=float, default=64.0, help="initial area per lipid, A^2")
    p.add_argument("--water-per-lipid", type=int, default=30)
    p.add_argument("--qhead", type=float, default=0.7,
                   help="choline charge (phosphate: minus it), e; ELBA distribution: 0.7")
    p.add_argument("--gap", type=float, default=3.5, help="head top to first water layer, A")
    p.add_argument("--wspacing", type=float, default=3.1, help="water lattice spacing, A")
    p.add_argument("--seed", type=int, default=20081)
    p.add_argument("--style", choices=("ellipsoid", "dipole"), default="ellipsoid",
                   help="ellipsoid: atom_style hybrid full ellipsoid (in.membrane); dipole: "
                   "hybrid full sphere dipole, the dipolar-sphere form (bench/in.membrane)")
    p.add_argument("-o", "--output", default="data.membrane")
    args = p.parse_args()
    if args.n < 2:
        sys.exit("make_bilayer.py: -n must be >= 2")
    if args.apl <= 40.0:
        sys.exit("make_bilayer.py: --apl must be > 40 A^2 (tail beads would overlap)")
    if args.water_per_lipid < 1:
        sys.exit("make_bilayer.py: --water-per-lipid must be >= 1")
    s = build(args.n, args.apl, args.water_per_lipid, args.seed, args.gap, args.wspacing)
    if s["L"] < 2 * 14.0:
        print(f"make_bilayer.py: warning: box {s['L']:.1f} A < 28 A = twice the 12 A cutoff "
              "+ skin; LAMMPS needs -n >= 4 at 64 A^2", file=sys.stderr)
    write(s, args.output, args.qhead, args.style)
    print(f"wrote {args.output}: {s['nlip']} lipids, {s['nw']} waters, {len(s['atoms'])} atoms, "
          f"box {s['L']:.3f} x {s['L']:.3f} x {s['Lz']:.3f} A, phosphate z = +-{s['zphos']:.2f} A")


if __name__ == "__main__":
    main()
