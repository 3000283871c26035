#!/usr/bin/env python3
"""<E>(T) and <Rg^2>(T) of ptmc (in.ptmc) against Langevin MD (in.md), python3 stdlib only.

    python3 compare_md.py md.4.samples md.8.samples ... [--ptmc ptmc] [--dump chain]
                          [--blocks 25] [--max-z Z]

For each MD sample file (written by in.md: a '# in.md: ... T <T> ...' line, then rows
'step pe Rg^2 [rmin rmax]'), the temperature index k of ptmc's ladder with that T is looked up in
<ptmc>.stats; the Monte Carlo energies are column k of <ptmc>.energy (production samples,
potential energy: the MC has no kinetic energy), the Monte Carlo Rg^2 comes from the dump
<dump>.k (frames after the first energy sample; one chain assumed; without that dump
only the energy is compared). Printed per T and
quantity: MC mean +- error, MD mean +- error, the difference in units of the combined
error z = (MC - MD) / sqrt(err_MC^2 + err_MD^2). With the bond lengths rmin, rmax in the
file, also the fraction of MD samples with a bond where LAMMPS's fene/expand is clamped
(1 - ((r - 0.7)/0.3)^2 < 0.1; there LAMMPS's energy and force are not the exact FENE's that
ptmc uses: the two models differ).

Errors: the series is cut into --blocks equal blocks (the earliest samples left over are
dropped); error = standard deviation of the block means / sqrt(blocks). This is honest
only when a block is much longer than the integrated autocorrelation time tau, so tau is
estimated independently by blocking (Flyvbjerg and Petersen, J. Chem. Phys. 91, 461
(1989), doi:10.1063/1.457480): tau(L) = L var(means of blocks of L samples) / (2 var(x)),
for L doubling from 1; tau(L) grows until L >> tau and then stays flat. Printed: tau at a
quarter of the error block length (L/4) and at L; the line is flagged 'NOT CONVERGED' when
the block is shorter than 10 tau(L/4) or tau(L) exceeds tau(L/4) by more than 3 times its
statistical error (tau still growing: the error is underestimated). Blocking cannot see
a component slower than the blocks: near the collapse (T ~ 1) one 420,000-sweep PT run
was 5 errors off MD and a second seed agreed (README.md); there, use the spread of
independent seeds.

--runs DIR [DIR ...]: independent ptmc runs (other seeds), each in its own folder with its
<ptmc>.stats, <ptmc>.energy and dump; MD sample files at the same T are independent MD runs.
Then the error of each side is the spread of the per-run means, sd / sqrt(runs) (one MD file:
its block error), which sees every slow component; also printed: each run's mean and block
error, and the ratio of the observed spread to the typical block error (about 1 when the
block errors are honest).

--max-z Z: exit 1 if any |z| > Z or (unless --allow-unconverged) any line is flagged. Stops with a message
naming the problem for a missing or unreadable file, or a T not on the ladder.
"""
import argparse
import math
import sys


def die(msg):
    sys.exit("compare_md.py: " + msg)


def read_rows(path, what):
    try:
        text = open(path).read()
    except OSError as e:
        die(f"cannot read the {what} {path}: {e.strerror}")
    return text.splitlines()


def read_md(path):
    """(T, [pe], [Rg^2], fraction of samples with a clamped bond or None)."""
    T, pe, rg2, clamped, nb = None, [], [], 0, 0
    rc = 0.3 * math.sqrt(0.9)    # |r - r0| beyond which LAMMPS clamps the FENE log
    for line in read_rows(path, "MD sample file"):
        w = line.split()
        if not w:
            continue
        if w[0] == "#":
            if "in.md:" in w and "T" in w:
                T = float(w[w.index("T") + 1])
            continue
        if len(w) not in (3, 5):
            die(f"{path}: row '{line}' is not 'step pe Rg^2 [rmin rmax]'")
        pe.append(float(w[1]))
        rg2.append(float(w[2]))
        if len(w) == 5:
            nb += 1
            clamped += max(0.7 - float(w[3]), float(w[4]) - 0.7) > rc
    if T is None:
        die(f"{path}: no '# in.md: ... T <T>' line (written by in.md)")
    if len(pe) < 100:
        die(f"{path}: only {len(pe)} samples")
    return T, pe, rg2, (clamped / nb if nb else None)


def read_stats(prefix):
    """{k: (T, <E>, <Rg^2>)} from prefix.stats (k 1-based)."""
    out = {}
    for line in read_rows(prefix + ".stats", "ptmc statistics"):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        out[int(w[0])] = (float(w[1]), float(w[4]), float(w[7]))
    if not out:
        die(f"{prefix}.stats: no rows")
    return out


def read_energy(prefix, k):
    """(first sample sweep, [E at T_k]) from prefix.energy."""
    sweeps, e = [], []
    for line in read_rows(prefix + ".energy", "ptmc energy file"):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        sweeps.append(int(float(w[0])))
        e.append(float(w[k]))
    if len(e) < 100:
        die(f"{prefix}.energy: only {len(e)} samples")
    return sweeps[0], e


def read_dump_rg2(path, first_sweep):
    """[Rg^2] of the frames of a ptmc dump with sweep >= first_sweep."""
    lines = read_rows(path, "ptmc dump")
    out, i = [], 0
    while i < len(lines):
        if lines[i] != "ITEM: TIMESTEP":
            die(f"{path}: line {i + 1} '{lines[i]}' is not 'ITEM: TIMESTEP'")
        sweep, n = int(lines[i + 1]), int(lines[i + 3])
        cols = lines[i + 8].split()[2:]
        try:
            ix = [cols.index(c) for c in ("xu", "yu", "zu")]
        except ValueError:
            die(f"{path}: frame at sweep {sweep} has no xu yu zu columns")
        atoms = [lines[j].split() for j in range(i + 9, i + 9 + n)]
        i += 9 + n
        if sweep < first_sweep:
            continue
        xyz = [[float(a[c]) for c in ix] for a in atoms]
        cm = [sum(p[d] for p in xyz) / n for d in range(3)]
        out.append(sum((p[0] - cm[0])**2 + (p[1] - cm[1])**2 + (p[2] - cm[2])**2
                       for p in xyz) / n)
    if len(out) < 100:
        die(f"{path}: only {len(out)} frames after sweep {first_sweep}")
    return out


def mean_var(x):
    m = sum(x) / len(x)
    return m, sum((v - m)**2 for v in x) / (len(x) - 1)


def block_means(x, length):
    nb = len(x) // length
    x = x[len(x) - nb * length:]    # drop the earliest leftovers
    return [sum(x[b * length:(b + 1) * length]) / length for b in range(nb)]


def tau_blocking(x, var, length):
    """tau(L) = L var(block means) / (2 var), and its statistical error."""
    means = block_means(x, length)
    nb = len(means)
    t = length * mean_var(means)[1] / (2.0 * var)
    return t, t * math.sqrt(2.0 / (nb - 1))


def analyse(x, blocks):
    """mean, error, tau(L/4), tau(L), block length L (samples), converged?"""
    length = len(x) // blocks
    if length < 8:
        die(f"{len(x)} samples are too few for {blocks} blocks")
    means = block_means(x, length)
    m, v = mean_var(means)
    err = math.sqrt(v / blocks)
    var = mean_var(x)[1]
    if var == 0.0:
        return m, err, 0.0, 0.0, length, True
    t4, dt4 = tau_blocking(x, var, length // 4)
    t1, dt1 = tau_blocking(x, var, length)
    ok = length >= 10.0 * t4 and t1 - t4 <= 3.0 * math.hypot(dt1, dt4)
    return m, err, t4, t1, length, ok


def spread(means):
    """mean and its error sd / sqrt(n) of independent run means."""
    m, v = mean_var(means)
    return m, math.sqrt(v / len(means))


def combine(results):
    """mean and error of independent runs' (mean, error, ...): the spread of the means from
    three runs on, the block errors of fewer."""
    means = [r[0] for r in results]
    if len(results) >= 3:
        return spread(means)
    return sum(means) / len(means), math.hypot(*(r[1] for r in results)) / len(results)


def runs_mode(a):
    """--runs: the spread of independent runs as the error of each side."""
    if len(a.runs) < 3:
        die("--runs needs at least 3 run folders for a spread")
    by_T = {}
    for path in a.md:
        T, pe, rg2, _ = read_md(path)
        key = next((t for t in by_T if abs(t - T) <= 1e-9 * T), T)
        by_T.setdefault(key, []).append((path, pe, rg2))
    worst = 0.0
    print("# quantity  T  k  MC mean +- err (runs; observed spread / mean block error)"
          "  MD mean +- err (runs)  z = (MC - MD)/err")
    for T, mds in sorted(by_T.items()):
        mc = {"E": [], "Rg^2": []}
        for d in a.runs:
            prefix = f"{d.rstrip('/')}/{a.ptmc}"
            stats = read_stats(prefix)
            k = [k for k, s in stats.items() if abs(s[0] - T) <= 1e-9 * T]
            if not k:
                die(f"T = {T} is not a temperature of {prefix}.stats")
            k = k[0]
            first, e = read_energy(prefix, k)
            mc["E"].append(analyse(e, a.blocks))
            dump = f"{d.rstrip('/')}/{a.dump}.{k}"
            try:
                open(dump).close()
                mc["Rg^2"].append(analyse(read_dump_rg2(dump, first), a.blocks))
            except OSError:
                pass
        for name, col in (("E", 1), ("Rg^2", 2)):
            runs = mc[name]
            if len(runs) < len(a.runs):
                print(f"#     {name} at T {T:.6g}: a dump is missing in "
                      f"{len(a.runs) - len(runs)} run(s); not compared")
                continue
            m, err = spread([r[0] for r in runs])
            block = math.sqrt(sum(r[1]**2 for r in runs) / len(runs))
            md = [analyse(x[col], a.blocks) for x in mds]
            dm, derr = combine(md)
            z = (m - dm) / math.hypot(err, derr)
            worst = max(worst, abs(z))
            print(f"{name:5s} {T:.6g} {k:2d}  MC {m:.5f} +- {err:.5f} ({len(runs)} runs; "
                  f"spread/block {err * math.sqrt(len(runs)) / block:.2f})  MD {dm:.5f} +- "
                  f"{derr:.5f} ({len(md)} runs)  z = {z:+.2f}")
            print("#     runs: " + " ".join(f"{r[0]:.4f}+-{r[1]:.4f}" for r in runs))
            print("#     MD:   " + " ".join(f"{r[0]:.4f}+-{r[1]:.4f}" for r in md))
    print(f"compare_md.py: max |z| = {worst:.2f} (errors from the spread of runs)")
    if a.max_z is not None and worst > a.max_z:
        sys.exit(1)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("md", nargs="+", help="sample files of in.md")
    p.add_argument("--ptmc", default="ptmc", help="output prefix of in.ptmc")
    p.add_argument("--dump", default="chain", help="dump prefix of in.ptmc")
    p.add_argument("--blocks", type=int, default=25, help="blocks for the error")
    p.add_argument("--max-z", type=float, default=None)
    p.add_argument("--allow-unconverged", action="store_true")
    p.add_argument("--runs", nargs="+", default=None,
                   help="folders of independent ptmc runs (errors from their spread)")
    a = p.parse_args()
    if a.blocks < 4:
        die("--blocks must be >= 4")
    if a.runs is not None:
        runs_mode(a)
        return
    stats = read_stats(a.ptmc)
    worst, flagged = 0.0, 0
    print("# quantity  T  k  MC mean +- err (samples, tau L/4, tau L: per sample)"
          "  MD mean +- err (...)  z = (MC - MD)/err")
    for path in a.md:
        T, pe, rg2, clamp = read_md(path)
        k = [k for k, s in stats.items() if abs(s[0] - T) <= 1e-9 * T]
        if not k:
            die(f"{path}: T = {T} is not a temperature of {a.ptmc}.stats "
                f"({' '.join(f'{s[0]:.10g}' for s in stats.values())})")
        k = k[0]
        first, e_mc = read_energy(a.ptmc, k)
        pairs = [("E", e_mc, pe)]
        try:
            open(f"{a.dump}.{k}").close()
            pairs.append(("Rg^2", read_dump_rg2(f"{a.dump}.{k}", first), rg2))
        except OSError:
            print(f"#     no dump {a.dump}.{k}: Rg^2 not compared (MD {sum(rg2) / len(rg2):.5f})")
        for name, mc, md in pairs:
            rm, rd = analyse(mc, a.blocks), analyse(md, a.blocks)
            z = (rm[0] - rd[0]) / math.hypot(rm[1], rd[1])
            worst = max(worst, abs(z))
            flag = "" if rm[5] and rd[5] else "  NOT CONVERGED"
            flagged += bool(flag)
            print(f"{name:5s} {T:.6g} {k:2d}  MC {rm[0]:.5f} +- {rm[1]:.5f} ({len(mc)}, "
                  f"{rm[2]:.3g}, {rm[3]:.3g})  MD {rd[0]:.5f} +- {rd[1]:.5f} ({len(md)}, "
                  f"{rd[2]:.3g}, {rd[3]:.3g})  z = {z:+.2f}{flag}")
        s = stats[k]
        print(f"#     ptmc.stats at T_{k}: <E> {s[1]:.5f}, <Rg^2> {s[2]:.5f} (all samples; "
              f"the Rg^2 above is from the dump frames)")
        if clamp is not None:
            print(f"#     MD samples with a bond in LAMMPS's FENE clamp: {clamp:.2e}")
    print(f"compare_md.py: max |z| = {worst:.2f}, {flagged} line(s) not converged")
    if a.max_z is not None and (worst > a.max_z or (flagged and not a.allow_unconverged)):
        sys.exit(1)


if __name__ == "__main__":
    main()
