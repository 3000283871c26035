#!/usr/bin/env python3
"""Write a LAMMPS data file of coarse-grained DPPC lipids and water for MD-SCF.

Model (examples/mdscf/dppc/README.md): the 12-bead DPPC of the hybrid particle-field
phospholipid models of Milano and co-workers as GALAMOST runs it: N (choline), P
(phosphate), two G (glycerol), two tails of four C; one-bead water W. All beads 72 g/mol.

    bead  0 N   1 P   2 G   3 G   4-7 C (tail on G 2)   8-11 C (tail on G 3)
    bonds  N-P, P-G, G-G, G-C (2), C-C (6)                       11 per lipid
    angles P-G-G, P-G-C, G-C-C (2), C-C-C (4)                     8 per lipid

Types: atoms 1 N, 2 P, 3 G, 4 C, 5 W; bonds 1 N-P, 2 P-G, 3 G-G, 4 G-C, 5 C-C;
angles 1 P-G-G, 2 P-G-C, 3 G-C-C, 4 C-C-C (coefficients are set by the input script).
Units real (Angstrom, g/mol), atom_style molecular; every molecule (each water bead
too) has its own molecule ID, so `neigh_modify exclude molecule/inter all` leaves
only the pairs within one lipid. Coordinates are wrapped into the box with image
flags, so bonded atoms are consistent when unwrapped.

Layouts:
  bilayer  K flat bilayers normal to z (--bilayers, default 1), centred at
           z = (k + 1/2) Lz / K; each leaflet a jittered lateral lattice of lipids
           turned at random about z; tails in a zig-zag so that the P-P distance
           starts at about 3.8 nm; water fills the space between the bilayers (at
           random, at the mean bead density).
  random   lipids at random positions and orientations, water at random (for
           self-assembly and for the benchmark systems).

Pure Python 3 standard library; deterministic for a given --seed.

  make_dppc.py --lipids 208 --water 1600 --box 80 80 65 -o dppc.data          # example
  make_dppc.py --lipids 1664 --water 4160 --box 134.86 134.86 134.86 \\
               --bilayers 3 -o systemB.data                # GALAMOST reference system B
  make_dppc.py --lipids 21186 --water 52968 --density 9.837 --layout random \\
               -o lw1.data                                 # benchmark LW1, 307,200 beads
"""
import argparse
import math
import random
import sys

MASS = 72.0                    # g/mol, every bead (GALAMOST/molgen setMass(72.0))
BOND = 4.7                     # A, all bonds but G-G
BOND_GG = 3.7                  # A
TYPES = ("N", "P", "G", "C", "W")
# (i, j, bond type) within one lipid, 0-based bead indices
LIPID_BONDS = [(0, 1, 1), (1, 2, 2), (2, 3, 3), (2, 4, 4), (3, 8, 4),
               (4, 5, 5), (5, 6, 5), (6, 7, 5), (8, 9, 5), (9, 10, 5), (10, 11, 5)]
# (i, j, k, angle type): P-G-G 120, P-G-C 180, G-C-C 180, C-C-C 180 deg
LIPID_ANGLES = [(1, 2, 3, 1), (1, 2, 4, 2), (2, 4, 5, 3), (3, 8, 9, 3),
                (4, 5, 6, 4), (5, 6, 7, 4), (8, 9, 10, 4), (9, 10, 11, 4)]
LIPID_TYPES = [1, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]


def lipid_template(z_p=19.0):
    """Bead positions of one upper-leaflet lipid (heads towards +z), x/y about 0.

    P sits at z_p above the bilayer mid-plane (z_p = 19 A: P-P distance 3.8 nm), N
    one bond above it, the two G one bond below P and 3.7 A apart along x, the tails
    5.3 A apart (near the LJ minimum of the intramolecular pairs) running down in a
    zig-zag along y whose steps are 3.3 A in z, so that the tail ends meet at z = 0.
    All bond lengths are exact (4.7 A, G-G 3.7 A).
    """
    zg = z_p - math.sqrt(BOND ** 2 - (BOND_GG / 2) ** 2)
    pos = [(0.0, 0.0, z_p + BOND), (0.0, 0.0, z_p),
           (-BOND_GG / 2, 0.0, zg), (BOND_GG / 2, 0.0, zg)]
    dx = 2.65 - BOND_GG / 2                         # tails at x = -+2.65
    zc0 = zg - math.sqrt(BOND ** 2 - dx ** 2)
    dz = 3.3
    dy = math.sqrt(BOND ** 2 - dz ** 2)
    tails = []
    for side in (-1, 1):
        tails.append([(side * 2.65, dy * (k % 2), zc0 - dz * k) for k in range(4)])
    return pos + tails[0] + tails[1]


def rotation_z(phi):
    c, s = math.cos(phi), math.sin(phi)
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


def random_rotation(rng):
    """Uniform random rotation matrix (from a uniform unit quaternion)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    q0, q1 = a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2)
    q2, q3 = b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3)
    return ((1 - 2 * (q2 * q2 + q3 * q3), 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)),
            (2 * (q1 * q2 + q0 * q3), 1 - 2 * (q1 * q1 + q3 * q3), 2 * (q2 * q3 - q0 * q1)),
            (2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), 1 - 2 * (q1 * q1 + q2 * q2)))


def apply(rot, p):
    return tuple(rot[i][0] * p[0] + rot[i][1] * p[1] + rot[i][2] * p[2] for i in range(3))


def split(n, k):
    """n items into k near-equal parts."""
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


def bilayer_lipids(n_lipids, box, n_bilayers, rng):
    """Lipid bead positions (unwrapped) for n_bilayers flat bilayers normal to z."""
    lx, ly, lz = box
    template = lipid_template()
    mols = []
    for k, nb in enumerate(split(n_lipids, n_bilayers)):
        zc = (k + 0.5) * lz / n_bilayers
        for leaflet, nl in enumerate(split(nb, 2)):
            if nl == 0:
                continue
            ncol = max(1, math.ceil(math.sqrt(nl * lx / ly)))
            nrow = math.ceil(nl / ncol)
            ax, ay = lx / ncol, ly / nrow
            sites = list(range(ncol * nrow))
            rng.shuffle(sites)
            shift = 0.5 if leaflet else 0.0       # lower leaflet offset by half a cell
            flip = -1.0 if leaflet else 1.0
            for s in sorted(sites[:nl]):
                x0 = (s % ncol + 0.5 + shift + rng.uniform(-0.15, 0.15)) * ax
                y0 = (s // ncol + 0.5 + shift + rng.uniform(-0.15, 0.15)) * ay
                rot = rotation_z(rng.uniform(0, 2 * math.pi))
                beads = []
                for p in template:
                    q = apply(rot, p)
                    beads.append((x0 + q[0], y0 + q[1], zc + flip * q[2]))
                mols.append(beads)
    return mols


def random_lipids(n_lipids, box, rng):
    template = lipid_template()
    # centre the template on its centroid so that rotations keep it compact
    c = [sum(p[d] for p in template) / len(template) for d in range(3)]
    template = [tuple(p[d] - c[d] for d in range(3)) for p in template]
    mols = []
    for _ in range(n_lipids):
        rot = random_rotation(rng)
        o = [rng.uniform(0, box[d]) for d in range(3)]
        mols.append([tuple(o[d] + q[d] for d in range(3)) for q in
                     (apply(rot, p) for p in template)])
    return mols


def water_positions(n_water, box, rng, layout, n_bilayers, n_lipids):
    lx, ly, lz = box
    if layout == "random" or n_lipids == 0:
        return [(rng.uniform(0, lx), rng.uniform(0, ly), rng.uniform(0, lz))
                for _ in range(n_water)]
    # water between the bilayers: each bilayer takes the slab its beads fill at the
    # mean density, the water the rest of the period (water-slab thickness h_w)
    period = lz / n_bilayers
    rho = (12 * n_lipids + n_water) / (lx * ly * lz)
    h_lip = 12 * n_lipids / n_bilayers / (lx * ly * rho)
    h_w = period - h_lip
    out = []
    for k, nw in enumerate(split(n_water, n_bilayers)):
        z_lo = (k + 0.5) * period + h_lip / 2
        for _ in range(nw):
            out.append((rng.uniform(0, lx), rng.uniform(0, ly), z_lo + rng.uniform(0, h_w)))
    return out


def wrap(x, lo, length):
    img = math.floor((x - lo) / length)
    return x - img * length, img


def write_data(path, box, mols, waters, title):
    n_lip = len(mols)
    natoms = 12 * n_lip + len(waters)
    nbonds = len(LIPID_BONDS) * n_lip
    nangles = len(LIPID_ANGLES) * n_lip
    out = sys.stdout if path == "-" else open(path, "w")
    w = out.write
    w(f"{title}\n\n{natoms} atoms\n{nbonds} bonds\n{nangles} angles\n\n")
    w("5 atom types\n5 bond types\n4 angle types\n\n")
    w(f"0.0 {box[0]:.6f} xlo xhi\n0.0 {box[1]:.6f} ylo yhi\n0.0 {box[2]:.6f} zlo zhi\n\n")
    w("Masses\n\n")
    for t, name in enumerate(TYPES, 1):
        w(f"{t} {MASS} # {name}\n")
    def section(rows):
        """write the rows of one section in chunks (the big systems have millions)"""
        lines = []
        for row in rows:
            lines.append(row)
            if len(lines) >= 100000:
                w("\n".join(lines) + "\n")
                lines = []
        w("\n".join(lines) + "\n")

    def atom_rows():
        aid = 0
        beads = [(m, t, p) for m, mol in enumerate(mols, 1) for t, p in zip(LIPID_TYPES, mol)]
        beads += [(n_lip + k + 1, 5, p) for k, p in enumerate(waters)]
        for m, t, p in beads:
            aid += 1
            xs, im = zip(*(wrap(p[d], 0.0, box[d]) for d in range(3)))
            yield f"{aid} {m} {t} {xs[0]:.4f} {xs[1]:.4f} {xs[2]:.4f} {im[0]} {im[1]} {im[2]}"

    def topology_rows(terms):
        """one row per bond or angle of every lipid: id type atom ids"""
        n = 0
        for m in range(n_lip):
            base = 12 * m + 1
            for *atoms, t in terms:
                n += 1
                yield " ".join([str(n), str(t)] + [str(base + a) for a in atoms])

    w("\nAtoms # molecular\n\n")
    section(atom_rows())
    w("\nBonds\n\n")
    section(topology_rows(LIPID_BONDS))
    w("\nAngles\n\n")
    section(topology_rows(LIPID_ANGLES))
    if out is not sys.stdout:
        out.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--lipids", type=int, required=True, help="number of DPPC molecules")
    ap.add_argument("--water", type=int, required=True, help="number of water beads")
    ap.add_argument("--box", type=float, nargs=3, metavar=("LX", "LY", "LZ"),
                    help="box edges in Angstrom")
    ap.add_argument("--density", type=float,
                    help="instead of --box: cubic box at this bead density (1/nm^3; "
                         "GALAMOST system B: 9.837)")
    ap.add_argument("--layout", choices=("bilayer", "random"), default="bilayer")
    ap.add_argument("--bilayers", type=int, default=1,
                    help="bilayer layout: number of bilayers stacked along z")
    ap.add_argument("--seed", type=int, default=20260704)
    ap.add_argument("-o", "--output", default="-", help="data file (default: stdout)")
    a = ap.parse_args()
    if (a.box is None) == (a.density is None):
        ap.error("give exactly one of --box and --density")
    if a.lipids < 0 or a.water < 0 or a.lipids + a.water == 0:
        ap.error("need a positive number of beads")
    if a.bilayers < 1:
        ap.error("--bilayers must be >= 1")
    if a.box is None:
        edge = 10.0 * ((12 * a.lipids + a.water) / a.density) ** (1 / 3)
        box = (edge, edge, edge)
    else:
        box = tuple(a.box)
    rng = random.Random(a.seed)
    if a.layout == "bilayer":
        mols = bilayer_lipids(a.lipids, box, a.bilayers, rng)
    else:
        mols = random_lipids(a.lipids, box, rng)
    waters = water_positions(a.water, box, rng, a.layout, a.bilayers, a.lipids)
    ntot = 12 * a.lipids + a.water
    rho = ntot / (box[0] * box[1] * box[2]) * 1000.0
    title = (f"DPPC/water for MD-SCF: {a.lipids} DPPC (12 beads) + {a.water} W = {ntot} beads, "
             f"box {box[0]:.3f} x {box[1]:.3f} x {box[2]:.3f} A, {rho:.3f} beads/nm^3, "
             f"layout {a.layout}" + (f" ({a.bilayers} bilayers)" if a.layout == "bilayer" else "")
             + f", seed {a.seed} (make_dppc.py)")
    write_data(a.output, box, mols, waters, title)
    if a.output != "-":
        apl = box[0] * box[1] / 100.0 / (a.lipids / (2 * a.bilayers)) if a.lipids else 0
        extra = f", area per lipid {apl:.3f} nm^2" if a.layout == "bilayer" and a.lipids else ""
        print(f"make_dppc.py: wrote {a.output}: {ntot} beads, {rho:.3f} beads/nm^3{extra}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
