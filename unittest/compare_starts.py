#!/usr/bin/env python3
"""Compares two LAMMPS custom dumps of one starting configuration, written on different
numbers of MPI ranks (unittest/lammps/in.example_start): the same atoms (type, position,
velocity, extra columns) must be there in both, whatever their IDs and order.
Rows are matched after sorting by type and position rounded to 1e-6; values must agree
to TOL (default 1e-9) absolute. Exit 0 when they agree, 1 with the first difference."""
import sys


def rows(path):
    with open(path) as f:
        lines = f.read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("ITEM: ATOMS")) + 1
    except StopIteration:
        sys.exit(f"{path}: no 'ITEM: ATOMS' section")
    out = [tuple(float(v) for v in l.split()) for l in lines[start:] if l.strip()]
    out.sort(key=lambda r: (r[0],) + tuple(round(v, 6) for v in r[1:4]))
    return out


def main():
    a, b = sys.argv[1], sys.argv[2]
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-9
    ra, rb = rows(a), rows(b)
    if len(ra) != len(rb):
        print(f"DIFFER atom counts {len(ra)} ({a}) vs {len(rb)} ({b})")
        return 1
    worst = 0.0
    for i, (x, y) in enumerate(zip(ra, rb)):
        if len(x) != len(y):
            print(f"DIFFER column counts in row {i}")
            return 1
        d = max(abs(p - q) for p, q in zip(x, y))
        if d > tol:
            print(f"DIFFER row {i} (sorted by type and position): {x} vs {y}")
            return 1
        worst = max(worst, d)
    print(f"SAME {len(ra)} atoms, max difference {worst:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
