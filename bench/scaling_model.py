#!/usr/bin/env python3
"""Scaling model of resident runs on several MPI ranks (run_style verlet/cuda, one GPU per
rank), for LJ at liquid density (bench/in.lj: rho* = 0.8442, rc = 2.5, skin 0.3, a list
build every 20 steps). Python 3 standard library only; prints markdown tables.

    python3 bench/scaling_model.py [--rate-small 2.24e9] [--rate-large 2.36e9] ...

Per step and rank (the slowest rank; cubic box, LAMMPS's brick decomposition chosen by
least surface):
    t = n / R(n)                                   compute (n atoms per rank, R measured on
                                                   one GPU: atom-steps/s, mixed precision)
      + sum over swaps of split dimensions:        ghost positions, host-staged
          L_swap + 24 B * g_swap * (2 / B_pcie + 1 / B_link)
      + t_rebuild / k                              list build every k steps, now through
                                                   the host: t_rebuild = n * (c_host + c_io)
                                                   + t_fix
g_swap: atoms within the ghost cutoff of the face, rho * r_ghost * (cross-section including
ghost layers of earlier dimensions). Swaps along a dimension with one rank stay on the
device (self swap) and cost ~L_self.

Parameters and where they come from (bench/RESULTS.md):
  rate    2.24e9 (<= 4M atoms per rank) and 2.36e9 atom-steps/s (more): LJ 2.048M and 16.4M
          on one NVIDIA H200, mixed precision, list builds (by cell) included (2026-11-27)
  c_dev   0.197 ns per owned + ghost atom, and t_dev_dim 0.70 ms per rebuild for each
          dimension split between ranks (its exchange messages and border swaps, with
          their host synchronisations): the device rebuild's exchange and borders, fitted
          to LJ 16.4M on 2 H200s (2.45 ms per rebuild for 8.2M + 0.70M atoms, one split
          dimension) and on 4 H200s (2.29 ms for 4.1M + 0.44M atoms, two split
          dimensions), rank timing of 2026-11-27 after the selections became one pass
          each (before: 0.232 ns and 1.43 ms, from 3.5 and 3.92 ms per rebuild). The model
          leaves out the list build's extra work over ghosts and the overlap of the
          forward exchange with the interior forces
  B_pcie  70 GB/s, B_shm 12 GB/s: the forward exchange through page-locked host buffers
          and MPI shared memory on the 4-H200 machine (pack + copy down 231 us, MPI 1,392
          us, copy up + unpack 222 us for 2 swaps of 8.4 MB each per step)
  L_swap  30 us per host-staged swap (estimate); L_self 5 us (one kernel)
  c_host  6.6 ns/atom, c_io 40 ns/atom, t_fix 5 ms: the host rebuild path (c_io and t_fix
          estimates; one H100 with ranks sharing it measured 152 ms per host rebuild at
          1.02M atoms per rank, 2.7x this model)
  B_ib    25 GB/s (InfiniBand NDR200 between nodes, 8 GPUs per node)
The last column is the direct exchange between devices: CUDA IPC within a node over
NVLink (run_style verlet/cuda exchange ipc, the default; B_nvlink 300 GB/s, L_swap 30 us:
measured 160-220 us per step for 2-4 swaps at 16.4M atoms), GPUDirect RDMA between nodes
at B_ib (not built). For one NVIDIA H100 use --rate-small 1.86e9 --rate-large 1.80e9
(LJ 2.048M and 16.4M measured 2026-11-26).
"""
import argparse
import itertools
import math


def decompose(p):
    """LAMMPS-like: px*py*pz = p with the least surface for a cube."""
    best = None
    for px in range(1, p + 1):
        if p % px:
            continue
        for py in range(1, p // px + 1):
            if (p // px) % py:
                continue
            pz = p // px // py
            surf = 1 / (px * py) + 1 / (px * pz) + 1 / (py * pz)
            key = (surf, -px)
            if best is None or key < best[0]:
                best = (key, (px, py, pz))
    return best[1]


def step_time(natoms, p, a, device_rebuild=False, nodes=1, direct=False):
    rho, rg = a.rho, a.rc + a.skin
    L = (natoms / rho) ** (1.0 / 3.0)
    dims = decompose(p)
    sub = [L / d for d in dims]
    n = natoms / p
    rate = a.rate_small if n <= 4e6 else a.rate_large
    t = n / rate
    ext = list(sub)
    link = a.b_ib if nodes > 1 else a.b_shm
    lswap = a.l_swap
    for d in range(3):
        others = [ext[k] for k in range(3) if k != d]
        g = rho * rg * others[0] * others[1]
        if dims[d] > 1:
            if direct:    # CUDA-aware MPI: device buffers over NVLink (or GPUDirect RDMA)
                t += 2 * (lswap + 24.0 * g / (a.b_nvlink if nodes == 1 else a.b_ib))
            else:
                t += 2 * (lswap + 24.0 * g * (2.0 / a.b_pcie + 1.0 / link))
        else:
            t += 2 * a.l_self
        ext[d] += 2 * rg
    nghost = rho * (ext[0] * ext[1] * ext[2]) - n if p > 1 else 0.0
    if p > 1:
        if device_rebuild:
            split = sum(1 for d in dims if d > 1)
            trb = (n + nghost) * a.c_dev + split * a.t_dev_dim + a.t_dev_fix
        else:
            trb = (n + nghost) * (a.c_host + a.c_io) + a.t_fix
        t += trb / a.every
    return t, dims, nghost


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rho", type=float, default=0.8442)
    ap.add_argument("--rc", type=float, default=2.5)
    ap.add_argument("--skin", type=float, default=0.3)
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--rate-small", type=float, default=2.24e9, help="atom-steps/s, <= 4M atoms")
    ap.add_argument("--rate-large", type=float, default=2.36e9, help="atom-steps/s, > 4M atoms")
    ap.add_argument("--c-dev", type=float, default=0.197e-9,
                    help="device rebuild: s per owned+ghost atom (exchange + borders)")
    ap.add_argument("--t-dev-dim", type=float, default=0.70e-3,
                    help="device rebuild: s per split dimension (its messages and swaps)")
    ap.add_argument("--t-dev-fix", type=float, default=0.0)
    ap.add_argument("--c-host", type=float, default=6.6e-9)
    ap.add_argument("--c-io", type=float, default=40e-9)
    ap.add_argument("--t-fix", type=float, default=5e-3)
    ap.add_argument("--l-swap", type=float, default=30e-6)
    ap.add_argument("--l-self", type=float, default=5e-6)
    ap.add_argument("--b-pcie", type=float, default=70e9)
    ap.add_argument("--b-shm", type=float, default=12e9)
    ap.add_argument("--b-ib", type=float, default=25e9)
    ap.add_argument("--b-nvlink", type=float, default=300e9)
    a = ap.parse_args()

    print("Strong scaling (steps/s; speed-up over one GPU in parentheses)\n")
    print("| atoms | GPUs | bricks | ghosts per rank | host rebuild | device rebuild (measured cost) | + direct device exchange (exchange ipc) |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for natoms in (2_048_000, 16_384_000):
        t1, _, _ = step_time(natoms, 1, a)
        for p in (1, 2, 4, 8, 64):
            nodes = max(1, p // 8)
            t, dims, ng = step_time(natoms, p, a, False, nodes)
            td, _, _ = step_time(natoms, p, a, True, nodes)
            tc, _, _ = step_time(natoms, p, a, True, nodes, True)
            print(f"| {natoms:,} | {p} | {dims[0]}x{dims[1]}x{dims[2]} | {ng:,.0f} | "
                  f"{1 / t:,.0f} ({t1 / t:.2f}) | {1 / td:,.0f} ({t1 / td:.2f}) | "
                  f"{1 / tc:,.0f} ({t1 / tc:.2f}) |")
    print("\nWeak scaling, 2,048,000 atoms per GPU (steps/s; efficiency against one GPU)\n")
    print("| GPUs | atoms | host rebuild | device rebuild (measured cost) | + direct device exchange (exchange ipc) |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    t1, _, _ = step_time(2_048_000, 1, a)
    for p in (1, 2, 4, 8, 64):
        nodes = max(1, p // 8)
        t, _, _ = step_time(2_048_000 * p, p, a, False, nodes)
        td, _, _ = step_time(2_048_000 * p, p, a, True, nodes)
        tc, _, _ = step_time(2_048_000 * p, p, a, True, nodes, True)
        print(f"| {p} | {2_048_000 * p:,} | {1 / t:,.0f} ({t1 / t:.0%}) | {1 / td:,.0f} ({t1 / td:.0%}) "
              f"| {1 / tc:,.0f} ({t1 / tc:.0%}) |")


if __name__ == "__main__":
    main()
