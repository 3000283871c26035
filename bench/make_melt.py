#!/usr/bin/env python3
"""Write a LAMMPS data file of a soft homopolymer melt (random-walk bead-spring chains).

M chains of N beads (reduced LJ units, mass 1) at number density rho (default 3, the
density of DPD and MD-SCF soft melts: Groot & Warren 1997, examples/mdscf) in a cubic
periodic box, or in a box given with --box. Each chain is a freely jointed random walk
with bonds of length --bond (default 0.97), started at a uniformly random point; no
overlap check (the melts it is meant for, MD-SCF fields and DPD, have soft non-bonded
forces that are finite at r = 0). Chains alternate between the atom types 1, 2, ...,
--types (default 2: an A/B blend of homopolymers, chains 1, 3, 5, ... type 1).
atom_style bond (atom-ID molecule-ID type x y z ix iy iz), one bond type; coordinates
wrapped into the box with image flags. Standard library only; deterministic for a
given --seed.

  make_melt.py --chains 32768 --length 32 -o melt-1049k.data     # 1,048,576 beads
  make_melt.py --chains 2048 --length 32 -o melt-65k.data        # 65,536 beads
  make_melt.py --chains 128 --length 32 --density 3 -o melt-4k.data
"""
import argparse
import math
import random
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chains", type=int, required=True, help="number of chains M")
    ap.add_argument("--length", type=int, default=32, help="beads per chain N (32)")
    ap.add_argument("--density", type=float, default=3.0,
                    help="beads per unit volume; sets a cubic box (3.0)")
    ap.add_argument("--box", type=float, nargs="+", metavar="L",
                    help="box edge(s) instead of --density: L (cube) or LX LY LZ")
    ap.add_argument("--bond", type=float, default=0.97, help="bond length (0.97)")
    ap.add_argument("--types", type=int, default=2,
                    help="number of atom types, assigned to chains in turn (2)")
    ap.add_argument("--seed", type=int, default=20260704, help="random seed")
    ap.add_argument("-o", "--output", required=True, help="data file to write")
    a = ap.parse_args()
    if a.chains < 1 or a.length < 1 or a.types < 1 or a.bond <= 0 or a.density <= 0:
        ap.error("chains, length, types, bond and density must be positive")
    natoms = a.chains * a.length
    if a.box:
        if len(a.box) == 1:
            lx = ly = lz = a.box[0]
        elif len(a.box) == 3:
            lx, ly, lz = a.box
        else:
            ap.error("--box takes 1 or 3 values")
    else:
        lx = ly = lz = (natoms / a.density) ** (1.0 / 3.0)
    if min(lx, ly, lz) <= 0:
        ap.error("box edges must be positive")

    t0 = time.time()
    rng = random.Random(a.seed)
    gauss, uni = rng.gauss, rng.random
    floor = math.floor
    b = a.bond
    atoms = []
    atom_line = "%d %d %d %.6f %.6f %.6f %d %d %d\n"
    i = 0
    for m in range(a.chains):
        t = 1 + m % a.types
        x, y, z = uni() * lx, uni() * ly, uni() * lz
        for k in range(a.length):
            if k:
                dx, dy, dz = gauss(0, 1), gauss(0, 1), gauss(0, 1)
                s = b / math.sqrt(dx * dx + dy * dy + dz * dz)
                x += dx * s
                y += dy * s
                z += dz * s
            ix, iy, iz = floor(x / lx), floor(y / ly), floor(z / lz)
            i += 1
            atoms.append(atom_line % (i, m + 1, t, x - ix * lx, y - iy * ly, z - iz * lz,
                                      ix, iy, iz))
    nbonds = a.chains * (a.length - 1)
    bonds = []
    n = 0
    for m in range(a.chains):
        first = m * a.length + 1
        for k in range(a.length - 1):
            n += 1
            bonds.append("%d 1 %d %d\n" % (n, first + k, first + k + 1))

    with open(a.output, "w") as f:
        f.write("LAMMPS data file: polymer melt, %d chains x %d beads, bond %g, "
                "rho %.6g, %d types, seed %d (bench/make_melt.py)\n\n"
                % (a.chains, a.length, b, natoms / (lx * ly * lz), a.types, a.seed))
        f.write("%d atoms\n%d bonds\n\n%d atom types\n1 bond types\n\n"
                % (natoms, nbonds, a.types))
        f.write("0.0 %.6f xlo xhi\n0.0 %.6f ylo yhi\n0.0 %.6f zlo zhi\n\n" % (lx, ly, lz))
        f.write("Masses\n\n" + "".join("%d 1.0\n" % t for t in range(1, a.types + 1)))
        f.write("\nAtoms # bond\n\n")
        f.write("".join(atoms))
        if nbonds:
            f.write("\nBonds\n\n")
            f.write("".join(bonds))
    sys.stderr.write("make_melt.py: %d atoms, %d bonds, box %.4f x %.4f x %.4f, %.1f s\n"
                     % (natoms, nbonds, lx, ly, lz, time.time() - t0))


if __name__ == "__main__":
    main()
