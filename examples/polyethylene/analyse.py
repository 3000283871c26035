#!/usr/bin/env python3
"""Block averages of the united-atom polyethylene melt (in.pe_melt), standard library only.

Reads pe_melt.meta, thermo.dat, chains.dat and the histograms bond.hist, angle.hist,
dihedral.hist written by in.pe_melt in FOLDER (default .) and prints, as block averages
with standard errors (blocks of `block` steps, taken as independent):
  T, potential energy, pressure, density (fixed in NVT);
  <R_g^2>, <R_ee^2>, <R_ee^2>/<R_g^2>, C_n = <R_ee^2> / (n l^2) with n = length - 1
  bonds and l = 1.53 A (the force field's bond length);
  mean and standard deviation of bond length and angle, trans / gauche fractions
  (trans: |phi| > 120 deg, IUPAC: trans = 180).
and, for comparison, what the force field alone gives (no simulation):
  bond and angle spreads from equipartition, sqrt(kT / 2K) for LAMMPS's E = K x^2;
  the trans fraction and <cos phi> of one isolated torsion, weight exp(-E/kT) with
  E = K_phi (1 + cos 3 phi) + LJ of the 1-4 pair (bonds and angle at their rest
  values; the chain's 1-5 and longer contacts are not in it);
  C_n and C_inf of the ideal chain with fixed bonds and angles and independent
  torsions of that distribution (Flory's matrix method).

  python3 analyse.py [FOLDER] [--skip N]     (N: blocks to drop at the start)
"""
import argparse
import math
import os
import sys

MIN_BLOCKS = 5
KB = 0.0019872067                      # kcal/mol/K
B0, K_BOND = 1.53, 350.0               # A, kcal/mol/A^2 (LAMMPS K, E = K (r - r0)^2)
TH0, K_ANGLE = 109.471, 50.0           # deg, kcal/mol/rad^2
K_PHI = 1.0                            # kcal/mol, E = K (1 + cos 3 phi)
SIG14, EPS14 = 3.6239, 0.1984          # C_32 - C_32 LJ (1-4 pairs interact)


class AnalysisError(Exception):
    pass


def mean_err(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def need(folder, name):
    p = os.path.join(folder, name)
    if not os.path.exists(p):
        raise AnalysisError("missing %s (written by in.pe_melt): run it in %s first"
                            % (name, os.path.abspath(folder)))
    return p


def data_lines(path):
    with open(path) as f:
        return [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]


def read_blocks(path):
    """fix ave/time mode vector or ave/histo files: list of (step, rows)."""
    lines = data_lines(path)
    out, i = [], 0
    while i < len(lines):
        step, n = int(lines[i][0]), int(lines[i][1])
        rows = lines[i + 1:i + 1 + n]
        if len(rows) < n:
            break                       # a block cut short by an interrupted run
        out.append((step, [[float(x) for x in r] for r in rows]))
        i += 1 + n
    return out


def check_blocks(name, n, skip):
    if n < MIN_BLOCKS:
        raise AnalysisError("%s: %d block(s) after skipping %d, need at least %d: run longer "
                            "(steps >= %d x block)" % (name, n, skip, MIN_BLOCKS, MIN_BLOCKS))


def hist_stats(rows):
    """Histogram rows (bin, coord, count, frac) -> mean, std, total count."""
    tot = sum(r[2] for r in rows)
    m = sum(r[1] * r[2] for r in rows) / tot
    v = sum((r[1] - m) ** 2 * r[2] for r in rows) / tot
    return m, math.sqrt(v), tot


# --- force-field references ----------------------------------------------------------
def torsion_reference(T):
    """Isolated torsion (torsion term + 1-4 LJ, rigid bond and angle): trans fraction,
    <cos phi'> with phi' = phi - 180 (0 = trans)."""
    th = math.radians(TH0)
    h = B0 * math.sin(th)
    ax = B0 - 2 * B0 * math.cos(th)
    kt = KB * T
    z = tr = c = 0.0
    n = 7200
    for k in range(n):
        phi = -math.pi + (k + 0.5) * 2 * math.pi / n
        r = math.sqrt(ax * ax + 2 * h * h * (1 - math.cos(phi)))
        s6 = (SIG14 / r) ** 6
        w = math.exp(-(K_PHI * (1 + math.cos(3 * phi)) + 4 * EPS14 * (s6 * s6 - s6)) / kt)
        z += w
        tr += w * (abs(phi) > 2 * math.pi / 3)
        c -= w * math.cos(phi)
    return tr / z, c / z


def ideal_cn(nbonds, eta):
    """C_n of a chain with fixed angle TH0 and independent symmetric torsions, <cos> = eta
    (P. J. Flory, Statistical Mechanics of Chain Molecules, 1969, ch. I: average
    transformation matrix T, C_n = 1 + (2/n) sum_k (n - k) [T^k]_11)."""
    a = math.pi - math.radians(TH0)        # supplement of the bond angle
    c, s = math.cos(a), math.sin(a)
    t = [[c, s, 0.0], [s * eta, -c * eta, 0.0], [0.0, 0.0, -eta]]
    p = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    acc = 0.0
    for k in range(1, nbonds):
        p = [[sum(p[i][m] * t[m][j] for m in range(3)) for j in range(3)] for i in range(3)]
        acc += (nbonds - k) * p[0][0]
    cinf = (1 + c) / (1 - c) * (1 + eta) / (1 - eta)
    return 1.0 + 2.0 * acc / nbonds, cinf


def run(folder, skip=0, out=print):
    meta_path = need(folder, "pe_melt.meta")
    w = open(meta_path).read().split()
    meta = dict(zip(w[::2], w[1::2]))
    length, T = int(meta["length"]), float(meta["T"])
    block, nchain = int(meta["block"]), int(meta["nchain"])
    res = {}
    # thermodynamics
    th = data_lines(need(folder, "thermo.dat"))[skip:]
    check_blocks("thermo.dat", len(th), skip)
    for k, name in enumerate(("T", "pe", "press", "density")):
        res[name] = mean_err([float(r[k + 1]) for r in th])
    # chains: every sample written; blocks of block/nchain samples
    samples = read_blocks(need(folder, "chains.dat"))
    per = max(1, block // nchain)
    rg2s, ree2s = [], []
    for _, rows in samples:
        rg2s.append(sum(r[1] + r[2] + r[3] for r in rows) / len(rows))
        ree2s.append(sum(r[4] ** 2 + r[5] ** 2 + r[6] ** 2 for r in rows) / len(rows))
    # the sample at step 0 of the production run starts block 1 alone: drop it
    rg2s, ree2s = rg2s[1:], ree2s[1:]
    nb = len(rg2s) // per
    bl_rg = [sum(rg2s[i * per:(i + 1) * per]) / per for i in range(nb)][skip:]
    bl_ree = [sum(ree2s[i * per:(i + 1) * per]) / per for i in range(nb)][skip:]
    check_blocks("chains.dat", len(bl_rg), skip)
    res["rg2"] = mean_err(bl_rg)
    res["ree2"] = mean_err(bl_ree)
    res["ratio"] = mean_err([a / b for a, b in zip(bl_ree, bl_rg)])
    nbonds = length - 1
    res["Cn"] = mean_err([x / (nbonds * B0 * B0) for x in bl_ree])
    # distributions
    for name in ("bond", "angle"):
        blocks = read_blocks(need(folder, name + ".hist"))[skip:]
        check_blocks(name + ".hist", len(blocks), skip)
        st = [hist_stats(rows) for _, rows in blocks]
        res[name + "_mean"] = mean_err([s[0] for s in st])
        res[name + "_std"] = mean_err([s[1] for s in st])
    blocks = read_blocks(need(folder, "dihedral.hist"))[skip:]
    check_blocks("dihedral.hist", len(blocks), skip)
    ftr, fgp, fgm, cosb = [], [], [], []
    for _, rows in blocks:
        tot = sum(r[2] for r in rows)
        ftr.append(sum(r[2] for r in rows if abs(r[1]) > 120) / tot)
        fgp.append(sum(r[2] for r in rows if 0 < r[1] < 120) / tot)
        fgm.append(sum(r[2] for r in rows if -120 < r[1] < 0) / tot)
        cosb.append(-sum(math.cos(math.radians(r[1])) * r[2] for r in rows) / tot)
    res["trans"], res["gplus"], res["gminus"] = mean_err(ftr), mean_err(fgp), mean_err(fgm)
    res["cos"] = mean_err(cosb)
    # references from the force field
    ref_tr, ref_eta = torsion_reference(T)
    ref_cn, ref_cinf = ideal_cn(nbonds, ref_eta)
    meas_cn, _ = ideal_cn(nbonds, res["cos"][0])
    ref_sb = math.sqrt(KB * T / (2 * K_BOND))
    ref_sa = math.degrees(math.sqrt(KB * T / (2 * K_ANGLE)))

    out("United-atom PE (in.pe_melt), %s: %s chains x %d sites, T = %g K, %d blocks of %d steps"
        % (os.path.abspath(folder), meta.get("nchains", "?"), length, T, len(th), block))
    f = "  %-34s %12.5g +- %-10.3g %s"
    out(f % ("T (K)", res["T"][0], res["T"][1], "(thermostat %g)" % T))
    out(f % ("potential energy (kcal/mol)", res["pe"][0], res["pe"][1], ""))
    out(f % ("pressure (atm)", res["press"][0], res["press"][1], ""))
    out(f % ("density (g/cm^3)", res["density"][0], res["density"][1], "(NVT: fixed)"))
    out(f % ("<R_g^2> (A^2)", res["rg2"][0], res["rg2"][1], ""))
    out(f % ("<R_ee^2> (A^2)", res["ree2"][0], res["ree2"][1], ""))
    out(f % ("<R_ee^2>/<R_g^2>", res["ratio"][0], res["ratio"][1], "(Gaussian chain: 6)"))
    out(f % ("C_n, n = %d, l = %.2f A" % (nbonds, B0), res["Cn"][0], res["Cn"][1],
             "(ideal chain, independent torsions: force field %.3g, from measured <cos> %.3g;"
             " C_inf %.3g)" % (ref_cn, meas_cn, ref_cinf)))
    out(f % ("bond length mean (A)", res["bond_mean"][0], res["bond_mean"][1], "(r0 %.3f)" % B0))
    out(f % ("bond length std (A)", res["bond_std"][0], res["bond_std"][1],
             "(equipartition sqrt(kT/2K) %.4f)" % ref_sb))
    out(f % ("angle mean (deg)", res["angle_mean"][0], res["angle_mean"][1], "(theta0 %.3f)" % TH0))
    out(f % ("angle std (deg)", res["angle_std"][0], res["angle_std"][1],
             "(equipartition %.3f)" % ref_sa))
    out(f % ("trans fraction (|phi| > 120)", res["trans"][0], res["trans"][1],
             "(isolated torsion + 1-4 LJ: %.4f)" % ref_tr))
    out("  %-34s %12.5f / %.5f" % ("gauche+ / gauche- fraction", res["gplus"][0], res["gminus"][0]))
    out(f % ("<cos(phi - 180)>", res["cos"][0], res["cos"][1],
             "(isolated torsion + 1-4 LJ: %.4f)" % ref_eta))
    out("RESULT pe T %.2f bond_mean %.5f bond_std %.5f ref_bond_std %.5f angle_mean %.3f "
        "angle_std %.3f ref_angle_std %.3f trans %.4f trans_err %.4f ref_trans %.4f "
        "rg2 %.2f ree2 %.2f Cn %.3f ref_Cn %.3f density %.5f" % (
            res["T"][0], res["bond_mean"][0], res["bond_std"][0], ref_sb, res["angle_mean"][0],
            res["angle_std"][0], ref_sa, res["trans"][0], res["trans"][1], ref_tr, res["rg2"][0],
            res["ree2"][0], res["Cn"][0], ref_cn, res["density"][0]))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?", default=".")
    ap.add_argument("--skip", type=int, default=0, help="blocks to drop at the start")
    a = ap.parse_args()
    try:
        run(a.folder, a.skip)
    except AnalysisError as e:
        print("analyse.py: error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
