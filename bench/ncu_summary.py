#!/usr/bin/env python3
"""Per-kernel summary of an Nsight Compute CSV (ncu --csv --metrics ... --log-file F).

Groups the profiled launches by kernel (its name and template arguments), and prints
for each: launches, time and its share of the recorded steps, DRAM bytes read + written
and the bandwidth they make over the kernel's time, L2 and L1 bytes, achieved occupancy,
registers per thread, the SM and DRAM throughput as percentages of peak and, where
recorded, the L1, L2 and issue-slot use as percentages of peak (time-weighted means; "-"
where the metric was not recorded). The metrics it reads are the ones bench/README.md
("Kernel profiles") passes to ncu.

Usage: ncu_summary.py FILE.csv [--steps N]   (N: steps recorded, for time per step)
"""
import argparse
import csv
import sys
from collections import OrderedDict

UNITS = {
    "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
    "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1,
    "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9,
    "%": 1, "": 1, "register/thread": 1, "inst": 1, "warp": 1, "block": 1,
    "thread": 1, "Kinst": 1e3, "Minst": 1e6, "Ginst": 1e9,
}


def short_name(name):
    """the kernel's name and template arguments, without return type, namespaces and
    parameters: "pair_forces_kernel<PairLJCutDev,1,0>" (ncu writes an anonymous namespace
    as "<unnamed>" or "unnamed>")"""
    s = name.replace("unnamed>::", "").replace("(anonymous namespace)::", "")
    if s.startswith("void "):
        s = s[5:]
    s = s.lstrip("<")
    depth, cut = 0, len(s)
    for k, ch in enumerate(s):   # the parameter list: the first "(" outside <...>
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            cut = k
            break
    s = s[:cut]
    head, _, args = s.partition("<")
    head = head.split("::")[-1]
    if not args:
        return head
    parts = [a.strip().split("::")[-1] for a in args.rstrip(">").split(",")]
    return head + "<" + ",".join(p for p in parts if p) + ">"


def value(text, unit):
    t = text.replace(",", "").strip()
    if t in ("", "n/a", "N/A"):
        return None
    try:
        v = float(t)
    except ValueError:
        return None
    if unit not in UNITS:
        raise SystemExit(f"ncu_summary: unknown unit '{unit}' (value {text})")
    return v * UNITS[unit]


def read(path):
    launches = OrderedDict()   # ID -> {name, metrics}
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]   # ncu's own messages start with ==
    if not lines:
        raise SystemExit(f"ncu_summary: {path}: no CSV rows (did ncu record anything?)")
    for row in csv.DictReader(lines):
        key = row["ID"]
        rec = launches.setdefault(key, {"name": short_name(row["Kernel Name"]), "m": {}})
        v = value(row["Metric Value"], row.get("Metric Unit", ""))
        if v is not None:
            rec["m"][row["Metric Name"]] = v
    return launches


# the optional columns: what bounds a kernel that is not DRAM-bound (gathers through L1
# and L2, or instruction issue)
EXTRA = OrderedDict([
    ("L1%", "l1tex__throughput.avg.pct_of_peak_sustained_active"),
    ("L2%", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
    ("iss%", "sm__inst_issued.avg.pct_of_peak_sustained_active"),
])


def extra_columns(k, w):
    return "".join(f" {'-' if k[x] is None else format(k[x] / w, '5.1f'):>5s}" for x in EXTRA)


def by_kernel(launches):
    """the launches summed per kernel name: count n, time t (s), DRAM/L2/L1 bytes, and the
    time-weighted sums of occupancy, SM and DRAM throughput (%) (divide by t), registers,
    and the time-weighted sums of the EXTRA columns (None where no launch recorded one)"""
    kern = OrderedDict()
    for rec in launches.values():
        m = rec["m"]
        t = m.get("gpu__time_duration.sum", 0.0)
        k = kern.setdefault(rec["name"], {"n": 0, "t": 0.0, "dram": 0.0, "l2": 0.0, "l1": 0.0,
                                          "occ": 0.0, "sm": 0.0, "dpct": 0.0, "regs": 0,
                                          **{x: None for x in EXTRA}})
        k["n"] += 1
        k["t"] += t
        k["dram"] += m.get("dram__bytes_read.sum", 0.0) + m.get("dram__bytes_write.sum", 0.0)
        k["l2"] += m.get("lts__t_bytes.sum", 0.0)
        k["l1"] += m.get("l1tex__t_bytes.sum", 0.0)
        k["occ"] += t * m.get("sm__warps_active.avg.pct_of_peak_sustained_active", 0.0)
        k["sm"] += t * m.get("sm__throughput.avg.pct_of_peak_sustained_elapsed", 0.0)
        k["dpct"] += t * m.get("dram__throughput.avg.pct_of_peak_sustained_elapsed", 0.0)
        k["regs"] = max(k["regs"], int(m.get("launch__registers_per_thread", 0)))
        for x, metric in EXTRA.items():
            if metric in m:
                k[x] = (k[x] or 0.0) + t * m[metric]
    return kern


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--steps", type=int, default=0, help="steps recorded (time per step)")
    a = ap.parse_args()
    launches = read(a.csv)
    kern = by_kernel(launches)
    total = sum(k["t"] for k in kern.values())
    if total <= 0:
        raise SystemExit(f"ncu_summary: {a.csv}: no kernel times")
    print(f"== {a.csv}: {len(launches)} launches, {total * 1e3:.3f} ms of kernels"
          + (f", {total / a.steps * 1e6:.1f} us per step" if a.steps else ""))
    print(f"{'kernel':56s} {'n':>4s} {'ms':>8s} {'share':>6s} {'DRAM MB':>9s} {'GB/s':>7s} "
          f"{'L2 MB':>9s} {'L1 MB':>9s} {'occ%':>5s} {'SM%':>5s} {'DRAM%':>5s} {'regs':>4s}"
          + "".join(f" {x:>5s}" for x in EXTRA))
    for name, k in sorted(kern.items(), key=lambda kv: -kv[1]["t"]):
        t = k["t"]
        w = t if t > 0 else 1
        print(f"{name[:56]:56s} {k['n']:4d} {t * 1e3:8.3f} {100 * t / total:5.1f}% "
              f"{k['dram'] / 1e6:9.1f} {k['dram'] / t / 1e9 if t else 0:7.0f} "
              f"{k['l2'] / 1e6:9.1f} {k['l1'] / 1e6:9.1f} {k['occ'] / w:5.1f} {k['sm'] / w:5.1f} "
              f"{k['dpct'] / w:5.1f} {k['regs']:4d}" + extra_columns(k, w))
    dram = sum(k["dram"] for k in kern.values())
    print(f"{'all kernels':56s} {len(launches):4d} {total * 1e3:8.3f} 100.0% {dram / 1e6:9.1f} "
          f"{dram / total / 1e9:7.0f}")


if __name__ == "__main__":
    sys.exit(main())
