#!/usr/bin/env python3
"""Liquid-vapour coexistence of the LJ fluid from slab density profiles (in.coexistence).

Reads, for every temperature run in a folder, coexistence.T<T>.meta (geometry) and
profile.T<T>.dat (one block-averaged density profile per block, recentred on the
slab), and gives per temperature:
  * the mean profile, symmetrised about the slab centre, and a fit of
    rho(z) = (rho_l + rho_v)/2 - (rho_l - rho_v)/2 tanh((|z| - z0)/d)
    that places the interfaces (z0) and their width (d);
  * rho_l and rho_v as means over the flat parts, |z| <= z0 - m d and |z| >= z0 + m d
    (m = --margin, default 3: the tanh is then within 0.25 % of its plateau), per block,
    then block averages with standard errors (blocks taken as independent: the error of
    blocks merged in pairs is printed too, a larger value says the blocks are too short);
  * a symmetry check of the profile: for each pair of slabs at +z and -z the block mean
    of the difference against its standard error.
Over all temperatures: the critical point from the scaling law
rho_l - rho_v = A (T_c - T)^beta with beta = 0.325 (weighted linear least squares of
(rho_l - rho_v)^(1/beta) against T) and the law of rectilinear diameters
(rho_l + rho_v)/2 = rho_c + B (T - T_c), and a table against argon.

Standard library only. Writes coexistence.dat (T rho_l err rho_v err), and
profile_mean.T<T>.dat (z rho err, symmetrised) per temperature; no plots (no gnuplot
here).

  python3 analyse.py [FOLDER] [--margin M] [--skip N] [--tmin T] [--tmax T]
  python3 analyse.py --selftest        # synthetic profiles with a known critical point
"""
import argparse
import glob
import math
import os
import random
import sys
import tempfile

BETA = 0.325
MIN_BLOCKS = 5
# argon: LJ parameters (Rowley, Nicholson, Parsonage / common textbook values used in the
# task) and the experimental critical point (Tegeler, Span, Wagner, J. Phys. Chem. Ref.
# Data 28, 779 (1999): T_c = 150.687 K, rho_c = 13.407 mol/dm^3 ~ 13.41 mol/L)
EPS_K = 119.8           # K
SIGMA = 3.405e-10       # m
M_AR = 39.948           # g/mol
NA = 6.02214076e23      # 1/mol
TC_AR = 150.687         # K
RHOC_AR = 13.41         # mol/L


def to_reduced_density(mol_per_l):
    """mol/L -> rho* = rho N_A sigma^3."""
    return mol_per_l * 1e3 * NA * SIGMA ** 3


def from_reduced_density(rho):
    """rho* -> (mol/L, kg/m^3)."""
    n = rho / SIGMA ** 3 / NA          # mol/m^3
    return n / 1e3, n * M_AR / 1e3


class AnalysisError(Exception):
    pass


# --- reading -------------------------------------------------------------------------
def read_meta(path):
    try:
        with open(path) as f:
            words = f.read().split()
    except OSError as e:
        raise AnalysisError("cannot read %s: %s" % (path, e.strerror))
    if len(words) % 2:
        raise AnalysisError("%s: expected 'key value' pairs" % path)
    meta = dict(zip(words[::2], words[1::2]))
    for k in ("T", "Lx", "Ly", "Lz", "nbins"):
        if k not in meta:
            raise AnalysisError("%s: no '%s' (written by in.coexistence)" % (path, k))
    return meta


def read_profile(path, nbins):
    """Blocks of fix ave/chunk output -> list of (step, [Ncount per bin])."""
    if not os.path.exists(path):
        raise AnalysisError("missing profile file %s (fix ave/chunk of in.coexistence)" % path)
    blocks = []
    with open(path) as f:
        lines = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
    i = 0
    while i < len(lines):
        head = lines[i]
        if len(head) != 3:
            raise AnalysisError("%s: unexpected line %d: %s" % (path, i + 1, " ".join(head)))
        step, n = int(head[0]), int(head[1])
        if n != nbins:
            raise AnalysisError("%s: block at step %d has %d slabs, the meta file says %d"
                                % (path, step, n, nbins))
        rows = lines[i + 1:i + 1 + n]
        if len(rows) < n:
            raise AnalysisError("%s: block at step %d is cut short (run interrupted?)"
                                % (path, step))
        counts = [0.0] * n
        for r in rows:
            counts[int(r[0]) - 1] = float(r[1])
        blocks.append((step, counts))
        i += 1 + n
    return blocks


# --- statistics and fits -------------------------------------------------------------
def mean_err(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def solve(a, b):
    """Gaussian elimination with partial pivoting; a is n x n, b length n."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            raise ZeroDivisionError("singular matrix")
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def tanh_model(p, z):
    rl, rv, z0, d = p
    return 0.5 * (rl + rv) - 0.5 * (rl - rv) * math.tanh((abs(z) - z0) / d)


def fit_tanh(zs, rhos, p0):
    """Levenberg-Marquardt fit of tanh_model to (|z|, rho); returns the parameters."""
    p = list(p0)

    def chi2(q):
        return sum((tanh_model(q, z) - r) ** 2 for z, r in zip(zs, rhos))

    lam, c = 1e-3, chi2(p)
    for _ in range(200):
        jt = [[0.0] * len(zs) for _ in range(4)]
        res = []
        for k, (z, r) in enumerate(zip(zs, rhos)):
            rl, rv, z0, d = p
            t = math.tanh((abs(z) - z0) / d)
            s = 1.0 - t * t
            jt[0][k] = 0.5 - 0.5 * t
            jt[1][k] = 0.5 + 0.5 * t
            jt[2][k] = 0.5 * (rl - rv) * s / d
            jt[3][k] = 0.5 * (rl - rv) * s * (abs(z) - z0) / (d * d)
            res.append(r - tanh_model(p, z))
        jtj = [[sum(a * b for a, b in zip(jt[i], jt[j])) for j in range(4)] for i in range(4)]
        jtr = [sum(a * b for a, b in zip(jt[i], res)) for i in range(4)]
        while True:
            a = [[jtj[i][j] * (1.0 + lam if i == j else 1.0) for j in range(4)] for i in range(4)]
            try:
                step = solve(a, jtr)
            except ZeroDivisionError:
                lam *= 10
                continue
            q = [x + s for x, s in zip(p, step)]
            q[3] = max(abs(q[3]), 1e-3)
            cq = chi2(q)
            if cq <= c:
                improved = c - cq
                p, c, lam = q, cq, max(lam / 10, 1e-12)
                break
            lam *= 10
            if lam > 1e12:
                return p
        if improved <= 1e-14 * max(c, 1e-30):
            break
    return p


def linfit(xs, ys, sig):
    """Weighted least squares y = a + b x; returns a, b, var_a, var_b, cov_ab, chi2/dof."""
    w = [1.0 / (s * s) for s in sig]
    s, sx, sy = sum(w), sum(wi * x for wi, x in zip(w, xs)), sum(wi * y for wi, y in zip(w, ys))
    sxx = sum(wi * x * x for wi, x in zip(w, xs))
    sxy = sum(wi * x * y for wi, x, y in zip(w, xs, ys))
    det = s * sxx - sx * sx
    a = (sxx * sy - sx * sxy) / det
    b = (s * sxy - sx * sy) / det
    dof = len(xs) - 2
    chi2 = sum(wi * (y - a - b * x) ** 2 for wi, x, y in zip(w, xs, ys))
    return a, b, sxx / det, s / det, -sx / det, (chi2 / dof if dof > 0 else float("nan"))


# --- one temperature -----------------------------------------------------------------
def analyse_temperature(folder, meta_path, margin, skip, out=print):
    meta = read_meta(meta_path)
    tag = meta["T"]
    T = float(tag)
    lx, ly, lz, nb = float(meta["Lx"]), float(meta["Ly"]), float(meta["Lz"]), int(meta["nbins"])
    dz = lz / nb
    blocks = read_profile(os.path.join(folder, "profile.T%s.dat" % tag), nb)[skip:]
    if len(blocks) < MIN_BLOCKS:
        raise AnalysisError(
            "T* = %s: %d block(s) in profile.T%s.dat after skipping %d, need at least %d: "
            "run longer (steps >= %d x block) or use a shorter block"
            % (tag, len(blocks), tag, skip, MIN_BLOCKS, MIN_BLOCKS))
    scale = 1.0 / (lx * ly * dz)
    profs = [[c * scale for c in counts] for _, counts in blocks]
    zc = [(k + 0.5) * dz - 0.5 * lz for k in range(nb)]
    half = nb // 2
    # symmetrised profile over the upper half: slab k pairs with nb-1-k (|z| equal)
    zs = [abs(zc[k]) for k in range(nb - half, nb)]
    sym_blocks = [[0.5 * (p[k] + p[nb - 1 - k]) for k in range(nb - half, nb)] for p in profs]
    mean_sym = [mean_err([b[i] for b in sym_blocks]) for i in range(half)]
    rho_mean = [m for m, _ in mean_sym]
    # starting guesses: plateau values, crossing of the middle value
    rl0 = max(rho_mean[:max(1, half // 8)])
    rv0 = sum(rho_mean[-max(1, half // 8):]) / max(1, half // 8)
    mid = 0.5 * (rl0 + rv0)
    z00 = next((z for z, r in zip(zs, rho_mean) if r < mid), 0.5 * zs[-1])
    rl, rv, z0, d = fit_tanh(zs, rho_mean, (rl0, rv0, z00, 1.0))
    if not (rl > rv and 0 < z0 < 0.5 * lz):
        raise AnalysisError("T* = %s: the profile shows no liquid slab (tanh fit rho_l %.4f, "
                            "rho_v %.4f, z0 %.3f): one phase only, or above T_c" % (tag, rl, rv, z0))
    m = margin
    while True:
        liq = [i for i, z in enumerate(zs) if z <= z0 - m * d]
        vap = [i for i, z in enumerate(zs) if z >= z0 + m * d]
        if liq and vap:
            break
        if m <= 1.0:
            raise AnalysisError(
                "T* = %s: no flat part (z0 = %.2f, width d = %.2f, box half-length %.2f): the "
                "slab is too thin or the box too short for this temperature"
                % (tag, z0, d, 0.5 * lz))
        m -= 0.5
    if m < margin:
        out("  warning: T* = %s: flat parts taken at %.1f d from the interfaces (not %.1f): "
            "slab or box too small for this interface width" % (tag, m, margin))
    rl_b = [sum(b[i] for i in liq) / len(liq) for b in sym_blocks]
    rv_b = [sum(b[i] for i in vap) / len(vap) for b in sym_blocks]
    rho_l, err_l = mean_err(rl_b)
    rho_v, err_v = mean_err(rv_b)
    pair_err = (float("nan"), float("nan"))
    if len(rl_b) >= 2 * MIN_BLOCKS:
        pl = [0.5 * (rl_b[2 * i] + rl_b[2 * i + 1]) for i in range(len(rl_b) // 2)]
        pv = [0.5 * (rv_b[2 * i] + rv_b[2 * i + 1]) for i in range(len(rv_b) // 2)]
        pair_err = (mean_err(pl)[1], mean_err(pv)[1])
    # symmetry: block mean of rho(+z) - rho(-z) against its standard error
    nin, npairs, chi2 = 0, 0, 0.0
    for k in range(nb - half, nb):
        diffs = [p[k] - p[nb - 1 - k] for p in profs]
        md, se = mean_err(diffs)
        if all(x == 0.0 for x in diffs):
            continue
        npairs += 1
        if se > 0:
            chi2 += (md / se) ** 2
            nin += abs(md) <= 3 * se
    with open(os.path.join(folder, "profile_mean.T%s.dat" % tag), "w") as f:
        f.write("# T* = %s, profile symmetrised about the slab centre, %d blocks\n" % (tag, len(profs)))
        f.write("# tanh fit: rho_l %.5f rho_v %.5f z0 %.4f d %.4f\n# |z| rho err\n" % (rl, rv, z0, d))
        for z, (mm, ee) in zip(zs, mean_sym):
            f.write("%.4f %.6f %.6f\n" % (z, mm, ee))
    # the input's own estimate (fixed widths), if present
    inp = None
    rho_file = os.path.join(folder, "rho.T%s.dat" % tag)
    if os.path.exists(rho_file):
        with open(rho_file) as f:
            rows = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")][skip:]
        if len(rows) >= 2:
            inp = (mean_err([float(r[1]) for r in rows]), mean_err([float(r[2]) for r in rows]))
    return dict(T=T, tag=tag, nblocks=len(profs), rho_l=rho_l, err_l=err_l, rho_v=rho_v,
                err_v=err_v, pair_err=pair_err, fit=(rl, rv, z0, d), margin=m,
                zliq=z0 - m * d, zvap=z0 + m * d, sym=(nin, npairs, chi2), inp=inp)


# --- critical point --------------------------------------------------------------------
def critical_point(res):
    """Scaling law and rectilinear diameters; res: list of dicts with T, rho_l/v, errs."""
    ts = [r["T"] for r in res]
    dl = [r["rho_l"] - r["rho_v"] for r in res]
    sd = [math.hypot(r["err_l"], r["err_v"]) for r in res]
    if any(x <= 0 for x in dl):
        raise AnalysisError("rho_l <= rho_v at some temperature: no fit")
    # floor on the errors: blocks may show no spread at all for tiny vapour densities
    sd = [max(s, 1e-6) for s in sd]
    y = [x ** (1.0 / BETA) for x in dl]
    sy = [(1.0 / BETA) * x ** (1.0 / BETA - 1.0) * s for x, s in zip(dl, sd)]
    a, b, va, vb, cab, chi_s = linfit(ts, y, sy)
    if b >= 0:
        raise AnalysisError("(rho_l - rho_v)^(1/beta) does not fall with T: no critical point")
    tc = -a / b
    var_tc = (va + tc * tc * vb + 2 * tc * cab) / (b * b)
    amp = (-b) ** BETA
    diam = [0.5 * (r["rho_l"] + r["rho_v"]) for r in res]
    sdd = [max(0.5 * s, 1e-6) for s in sd]
    c, e, vc, ve, cce, chi_d = linfit(ts, diam, sdd)
    rhoc = c + e * tc
    var_rhoc = vc + tc * tc * ve + 2 * tc * cce + e * e * var_tc
    return dict(Tc=tc, err_Tc=math.sqrt(max(var_tc, 0.0)), A=amp, rhoc=rhoc,
                err_rhoc=math.sqrt(max(var_rhoc, 0.0)), B=e, chi2_scaling=chi_s,
                chi2_diam=chi_d, n=len(ts))


# --- driver --------------------------------------------------------------------------
def run(folder, margin=3.0, skip=0, tmin=None, tmax=None, out=print):
    metas = sorted(glob.glob(os.path.join(folder, "coexistence.T*.meta")),
                   key=lambda p: float(os.path.basename(p)[len("coexistence.T"):-len(".meta")]))
    if not metas:
        raise AnalysisError("no coexistence.T<T>.meta files in %s: run in.coexistence there "
                            "first (one run per temperature)" % os.path.abspath(folder))
    res = [analyse_temperature(folder, mp, margin, skip, out) for mp in metas]
    out("Liquid-vapour coexistence of the LJ fluid (slab), %s" % os.path.abspath(folder))
    out("block averages (standard error; in brackets: error with blocks merged in pairs)")
    out("%7s %4s %20s %20s %7s %6s %6s %9s %s" % ("T*", "nblk", "rho_l", "rho_v", "z0", "d",
                                                   "m", "sym", "input estimate l / v"))
    for r in res:
        pe = r["pair_err"]
        sl = "%.5f(%.5f)" % (r["rho_l"], r["err_l"]) + ("[%.5f]" % pe[0] if pe[0] == pe[0] else "")
        sv = "%.5f(%.5f)" % (r["rho_v"], r["err_v"]) + ("[%.5f]" % pe[1] if pe[1] == pe[1] else "")
        nin, npairs, _ = r["sym"]
        inp = ("%.4f / %.4f" % (r["inp"][0][0], r["inp"][1][0])) if r["inp"] else "-"
        out("%7s %4d %20s %20s %7.3f %6.3f %6.1f %4d/%-4d %s" % (
            r["tag"], r["nblocks"], sl, sv, r["fit"][2], r["fit"][3], r["margin"], nin, npairs, inp))
    for r in res:
        out("RESULT T %s nblocks %d rho_l %.6f err_l %.6f rho_v %.6f err_v %.6f z0 %.4f d %.4f "
            "sym_within3se %d sym_pairs %d sym_chi2 %.3f" % (
                r["tag"], r["nblocks"], r["rho_l"], r["err_l"], r["rho_v"], r["err_v"],
                r["fit"][2], r["fit"][3], r["sym"][0], r["sym"][1], r["sym"][2]))
    with open(os.path.join(folder, "coexistence.dat"), "w") as f:
        f.write("# T* rho_l err rho_v err (block averages, analyse.py)\n")
        for r in res:
            f.write("%s %.6f %.6f %.6f %.6f\n" % (r["tag"], r["rho_l"], r["err_l"], r["rho_v"],
                                                r["err_v"]))
    sel = [r for r in res if (tmin is None or r["T"] >= tmin) and (tmax is None or r["T"] <= tmax)]
    cp = None
    if len(sel) < 3:
        out("critical point: needs runs at 3 or more temperatures (have %d in range): skipped"
            % len(sel))
    else:
        cp = critical_point(sel)
        tck = cp["Tc"] * EPS_K
        molc, kgc = from_reduced_density(cp["rhoc"])
        out("critical point from %d temperatures (%s ... %s), beta = %.3f:" % (
            cp["n"], sel[0]["tag"], sel[-1]["tag"], BETA))
        out("  T_c* = %.4f +- %.4f (A = %.4f, chi2/dof %.2f), rho_c* = %.4f +- %.4f "
            "(B = %.4f, chi2/dof %.2f)" % (cp["Tc"], cp["err_Tc"], cp["A"], cp["chi2_scaling"],
                                           cp["rhoc"], cp["err_rhoc"], cp["B"], cp["chi2_diam"]))
        out("RESULT critical Tc %.5f err %.5f rhoc %.5f err %.5f" % (
            cp["Tc"], cp["err_Tc"], cp["rhoc"], cp["err_rhoc"]))
        out("  as argon (eps/k = %.1f K, sigma = %.3f A): T_c = %.1f K, rho_c = %.2f mol/L = "
            "%.0f kg/m^3" % (EPS_K, SIGMA * 1e10, tck, molc, kgc))
    # comparison table
    out("")
    out("comparison (reduced units; argon: T* = T / %.1f K, rho* = rho[mol/L] x 1000 x N_A x "
        "sigma^3 with sigma = %.3f A, i.e. rho* = %.5f x rho[mol/L])" % (
            EPS_K, SIGMA * 1e10, to_reduced_density(1.0)))
    out("%-26s %10s %10s" % ("", "T_c*", "rho_c*"))
    if cp:
        out("%-26s %10.4f %10.4f" % ("this run (r_c = %s)" % fmt_rc(folder, metas), cp["Tc"],
                                     cp["rhoc"]))
    out("%-26s %10.4f %10.4f" % ("argon, experiment", TC_AR / EPS_K, to_reduced_density(RHOC_AR)))
    out("%-26s %10s %10s" % ("LJ r_c = 5 (T&A 1999)", "to fill", "to fill"))
    out("per temperature: T* rho_l rho_v (this run) | LJ r_c = 5 slab (Trokhymchuk & Alejandre "
        "1999): to fill | T in K for argon")
    for r in res:
        out("  %6s %9.5f %9.5f | %8s %8s | %6.1f K" % (r["tag"], r["rho_l"], r["rho_v"],
                                                     "-", "-", r["T"] * EPS_K))
    return res, cp


def fmt_rc(folder, metas):
    try:
        return read_meta(metas[0]).get("rc", "?")
    except AnalysisError:
        return "?"


# --- self test ----------------------------------------------------------------------
def write_synthetic(folder, T, rl, rv, nblocks, rng, lx=10.0, lz=40.0, nb=80, z0=7.0, d=1.0):
    """Blocks of Poisson-like noisy tanh profiles in in.coexistence's file format."""
    dz = lz / nb
    vol = lx * lx * dz
    with open(os.path.join(folder, "coexistence.T%s.meta" % T), "w") as f:
        f.write("T %s Lx %g Ly %g Lz %g nbins %d nevery 100 block 1000 steps %d natoms 0 rc 5.0\n"
                % (T, lx, lx, lz, nb, nblocks * 1000))
    with open(os.path.join(folder, "profile.T%s.dat" % T), "w") as f:
        f.write("# LJ slab density profile\n# Timestep Number-of-chunks Total-count\n"
                "# Chunk Ncount density/number\n")
        for b in range(nblocks):
            rows = []
            for k in range(nb):
                z = (k + 0.5) * dz - 0.5 * lz
                n = tanh_model((rl, rv, z0, d), z) * vol
                n = max(0.0, n + rng.gauss(0.0, math.sqrt(n / 20.0)))   # 20 samples a block
                rows.append(n)
            f.write("%d %d %.1f\n" % ((b + 1) * 1000, nb, sum(rows)))
            for k, n in enumerate(rows):
                f.write("  %d %.4f %.6f\n" % (k + 1, n, n / (lx * lx * lz)))


def selftest():
    rng = random.Random(2014)
    tc, rhoc, amp, bdiam = 1.30, 0.31, 0.98, -0.18
    temps = ["0.80", "0.90", "1.00", "1.10", "1.20"]
    exact = {}
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for t in temps:
            T = float(t)
            half = 0.5 * amp * (tc - T) ** BETA
            dia = rhoc + bdiam * (T - tc)
            exact[t] = (dia + half, dia - half)
            write_synthetic(tmp, t, dia + half, dia - half, 10, rng)
        res, cp = run(tmp, out=lambda s: None)
        for r in res:
            el, ev = exact[r["tag"]]
            for what, got, err, want in (("rho_l", r["rho_l"], r["err_l"], el),
                                         ("rho_v", r["rho_v"], r["err_v"], ev)):
                good = abs(got - want) <= max(5 * err, 2e-3)
                ok &= good
                print("selftest T %s %s %.5f +- %.5f, exact %.5f: %s" % (
                    r["tag"], what, got, err, want, "ok" if good else "FAIL"))
            good = r["sym"][0] >= 0.8 * r["sym"][1]
            ok &= good
            print("selftest T %s symmetry %d of %d pairs within 3 se: %s" % (
                r["tag"], r["sym"][0], r["sym"][1], "ok" if good else "FAIL"))
        for what, got, err, want in (("T_c", cp["Tc"], cp["err_Tc"], tc),
                                     ("rho_c", cp["rhoc"], cp["err_rhoc"], rhoc)):
            good = abs(got - want) <= max(5 * err, 0.005)
            ok &= good
            print("selftest %s %.5f +- %.5f, exact %.5f: %s" % (what, got, err, want,
                                                                "ok" if good else "FAIL"))
        # an asymmetric profile must fail the symmetry check
        asym = os.path.join(tmp, "asym")
        os.mkdir(asym)
        write_synthetic(asym, "0.80", *exact["0.80"], 10, rng)
        p = os.path.join(asym, "profile.T0.80.dat")
        lines = open(p).read().splitlines()
        out_lines, k = [], 0
        for ln in lines:        # shift the profile by one slab: centre off by dz
            w = ln.split()
            if len(w) == 3 and not ln.startswith("#") and ln.startswith("  "):
                k = int(w[0])
                out_lines.append("  %d %s %s" % (k % 80 + 1, w[1], w[2]))
            else:
                out_lines.append(ln)
        open(p, "w").write("\n".join(out_lines) + "\n")
        r = run(asym, out=lambda s: None)[0][0]
        good = r["sym"][0] < 0.8 * r["sym"][1]
        ok &= good
        print("selftest shifted profile: %d of %d pairs within 3 se (must fail the check): %s" % (
            r["sym"][0], r["sym"][1], "ok" if good else "FAIL"))
        # too few blocks and missing files stop with a message
        short = os.path.join(tmp, "short")
        os.mkdir(short)
        write_synthetic(short, "0.80", *exact["0.80"], 3, rng)
        for folder, expect in ((short, "need at least 5"), (os.path.join(tmp, "empty"), "no coexistence")):
            os.makedirs(folder, exist_ok=True)
            try:
                run(folder, out=lambda s: None)
                msg = ""
            except AnalysisError as e:
                msg = str(e)
            good = expect in msg
            ok &= good
            print("selftest error message '%s': %s" % (msg, "ok" if good else "FAIL"))
        os.remove(os.path.join(short, "profile.T0.80.dat"))
        try:
            run(short, out=lambda s: None)
            msg = ""
        except AnalysisError as e:
            msg = str(e)
        good = "missing profile file" in msg
        ok &= good
        print("selftest error message '%s': %s" % (msg, "ok" if good else "FAIL"))
    print("SELFTEST %s" % ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", nargs="?", default=".", help="folder of the runs (default .)")
    ap.add_argument("--margin", type=float, default=3.0,
                    help="flat parts start this many interface widths d from z0 (default 3)")
    ap.add_argument("--skip", type=int, default=0, help="blocks to drop at the start (default 0)")
    ap.add_argument("--tmin", type=float, help="lowest T* in the critical-point fits")
    ap.add_argument("--tmax", type=float, help="highest T* in the critical-point fits")
    ap.add_argument("--selftest", action="store_true", help="check on synthetic profiles")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    try:
        run(a.folder, a.margin, a.skip, a.tmin, a.tmax)
    except AnalysisError as e:
        print("analyse.py: error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
