#!/usr/bin/env python3
"""ctest example:membrane_analyse: examples/membrane/analyse.py (and its --svg picture) on
a synthetic dump whose answers are known by construction (no LAMMPS run).

The dump: 8 DMPC-like lipids (4 per leaflet, 13 beads each: choline, phosphate, glycerol,
2 esters, 2 x 4 tails, at fixed heights about the midplane) and waters in two slabs, in a
box whose midplane sits 8 A below the top edge, so the upper leaflet is wrapped across the
periodic boundary (the recentring must undo that). 11 frames; Lx grows frame by frame, so
the area per lipid Lx Ly / 4 and its block error are computed here from the box alone;
the P-P thickness is 2 x 18.3 A exactly. With --blocks 5 the script uses the first 10
frames; the 11th has 7 more waters, so the side view must show the 10th frame's beads.

Checks: the RESULT numbers; the SVG parses as XML (xml.etree), has one circle per bead of
the 10th frame in the right colour group, the phosphates and cholines at the right heights
on the side view's scale (upper above, lower below, midplane at the box's centre), the four
profile polylines with one point per bin, the phosphate peaks at the phosphates' height,
tail/phosphate peak ratio = mass ratio per bin (8 x 42 / 4 x 90); the title's numbers;
and the error messages for a missing dump, too few frames, no x column with --svg, an
unwritable --svg path.

    python3 test_membrane_analyse.py path/to/analyse.py WORK_DIR
"""
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
LY, LZ, ZLO, MID = 20.0, 60.0, -5.0, 47.0     # MID: midplane, 8 A below zhi = 55
NFRAMES, NBLOCKS = 11, 5
HEIGHTS = {2: [22.3], 3: [18.3], 4: [15.2], 5: [13.2, 13.2], 6: [10.5, 7.5, 4.5, 1.5] * 2}
WATER_D = [25.25 + 0.9 * j for j in range(5)]  # |z - midplane| of the water layers
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def lx_of(f):
    return 20.0 + 0.25 * f + 0.1 * (f % 3)


def frame_atoms(f):
    """(mol, type, x, y, z) of frame f, z wrapped into [ZLO, ZLO + LZ)."""
    lx = lx_of(f)
    atoms, mol = [], 0
    for side in (1, -1):
        for i in range(4):
            mol += 1
            x0, y0 = (0.25 + 0.5 * (i % 2)) * lx, (0.25 + 0.5 * (i // 2)) * LY
            for t in (2, 3, 4, 5, 6):
                for j, h in enumerate(HEIGHTS[t]):
                    atoms.append((mol, t, x0 + 0.6 * (j % 2), y0, MID + side * h))
    nw = 0
    for side in (1, -1):
        for d in WATER_D:
            for i in range(3):
                atoms.append((9 + nw, 1, (i + 0.5) * lx / 3, 0.3 * LY * (i + 1), MID + side * d))
                nw += 1
    if f == NFRAMES - 1:                        # the frame --blocks 5 leaves out
        for i in range(7):
            atoms.append((9 + nw, 1, 1.0 + i, 2.0, MID + 27.0))
            nw += 1
    return [(m, t, x, y, ZLO + (z - ZLO) % LZ) for m, t, x, y, z in atoms]


def write_dump(path, cols=("id", "mol", "type", "x", "y", "z")):
    with open(path, "w") as fo:
        for f in range(NFRAMES):
            atoms = frame_atoms(f)
            fo.write(f"ITEM: TIMESTEP\n{100 * f}\nITEM: NUMBER OF ATOMS\n{len(atoms)}\n"
                     f"ITEM: BOX BOUNDS pp pp pp\n0 {lx_of(f)}\n0 {LY}\n{ZLO} {ZLO + LZ}\n"
                     f"ITEM: ATOMS {' '.join(cols)}\n")
            for k, (m, t, x, y, z) in enumerate(atoms):
                v = {"id": k + 1, "mol": m, "type": t, "x": f"{x:.4f}", "y": f"{y:.4f}",
                     "z": f"{z:.4f}"}
                fo.write(" ".join(str(v[c]) for c in cols) + "\n")


def run(script, work, *args):
    p = subprocess.run([sys.executable, script, *args], cwd=work, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    script, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(work, exist_ok=True)
    write_dump(os.path.join(work, "syn.dump"))
    rc, out, err = run(script, work, "syn.dump", "--blocks", str(NBLOCKS), "--svg", "syn.svg")
    print(out + err)
    check(rc == 0, f"analyse.py --svg exits 0 (got {rc})")
    if rc != 0:
        sys.exit(1)

    # expected numbers from the box alone (the first 10 frames, 5 blocks of 2)
    used = (NFRAMES // NBLOCKS) * NBLOCKS
    apl = [lx_of(f) * LY / 4 for f in range(used)]
    n = used // NBLOCKS
    means = [sum(apl[b * n:(b + 1) * n]) / n for b in range(NBLOCKS)]
    apl_m = sum(means) / NBLOCKS
    apl_e = math.sqrt(sum((m - apl_m) ** 2 for m in means) / (NBLOCKS - 1) / NBLOCKS)
    dpp = 2 * HEIGHTS[3][0]
    m = re.search(r"RESULT frames (\d+) nlip (\d+) apl (\S+) err (\S+) dpp (\S+) err (\S+) "
                  r"core_water (\S+) .* flips (\d+)", out)
    check(bool(m), "RESULT line")
    if m:
        check(int(m.group(1)) == used and int(m.group(2)) == 8, "frames used 10, 8 lipids")
        check(abs(float(m.group(3)) - apl_m) < 2e-3 and abs(float(m.group(4)) - apl_e) < 2e-3,
              f"apl {m.group(3)} +- {m.group(4)} = {apl_m:.3f} +- {apl_e:.3f}")
        check(abs(float(m.group(5)) - dpp) < 2e-3 and float(m.group(6)) < 2e-3,
              f"dpp {m.group(5)} +- {m.group(6)} = {dpp:.3f} +- 0")
        check(float(m.group(7)) == 0 and int(m.group(8)) == 0, "no core water, no flips")

    # the SVG
    try:
        root = ET.parse(os.path.join(work, "syn.svg")).getroot()
    except ET.ParseError as e:
        check(False, f"syn.svg is well-formed XML: {e}")
        sys.exit(1)
    check(root.tag == NS + "svg", "root element is <svg>")
    check(os.path.getsize(os.path.join(work, "syn.svg")) < 200000, "syn.svg is small")
    last = frame_atoms(used - 1)
    circles = root.findall(f".//{NS}circle")
    check(len(circles) == len(last), f"{len(circles)} circles = {len(last)} beads of frame {used}")
    groups = {g.get("id"): g.findall(f"{NS}circle") for g in root.iter(NS + "g")}
    want = {"water": (1,), "tail": (6,), "ester-glycerol": (4, 5), "phosphate": (3,),
            "choline": (2,)}
    for name, types in want.items():
        k = sum(1 for a in last if a[1] in types)
        check(len(groups.get(name, [])) == k, f"group {name}: {len(groups.get(name, []))} circles = {k}")
    order = [g.get("id") for g in root.iter(NS + "g")]
    check(order[:2] == ["water", "tail"] and order[-1] == "choline",
          f"water drawn first, choline last: {order}")
    box = root.find(f".//{NS}rect[@id='box']")
    check(box is not None, "side view box outline <rect id='box'>")
    if box is None:
        sys.exit(1)
    bx, by, bw, bh = (float(box.get(k)) for k in ("x", "y", "width", "height"))
    sc = bh / LZ
    check(abs(bw / sc - lx_of(used - 1)) < 0.05, f"box outline {bw / sc:.2f} x {LZ} A, equal scales")
    cx = [float(c.get("cx")) for c in circles]
    cy = [float(c.get("cy")) for c in circles]
    check(min(cx) >= bx - 0.05 and max(cx) <= bx + bw + 0.05 and min(cy) >= by - 0.05
          and max(cy) <= by + bh + 0.05, "every bead inside the box outline")
    mid = by + bh / 2
    for name, t in (("phosphate", 3), ("choline", 2)):
        ys = sorted({round(float(c.get("cy")), 1) for c in groups.get(name, [])})
        h = HEIGHTS[t][0]
        check(len(ys) == 2 and abs(ys[0] - (mid - h * sc)) < 0.15 and abs(ys[1] - (mid + h * sc)) < 0.15,
              f"{name} circles at z = +-{h} A about the midplane: {ys}, expected "
              f"{mid - h * sc:.1f}, {mid + h * sc:.1f}")

    lines = {p.get("id"): p for p in root.iter(NS + "polyline")}
    nbins = int(LZ / 1.0)
    prof = {}
    for name in ("water", "phosphate", "choline", "tail"):
        p = lines.get(f"{name}-profile")
        check(p is not None, f"polyline {name}-profile")
        if p is None:
            continue
        prof[name] = [tuple(map(float, q.split(","))) for q in p.get("points").split()]
        check(len(prof[name]) == nbins, f"{name}-profile has {len(prof[name])} points = {nbins} bins")
    if len(prof) == 4:
        x0 = min(x for pts in prof.values() for x, _ in pts)       # density 0
        peaks = sorted(prof["phosphate"], key=lambda q: -q[0])[:2]
        want_y = sorted([mid - 18.5 * sc, mid + 18.5 * sc])         # bin centres +-18.5
        got_y = sorted(y for _, y in peaks)
        check(all(abs(g - w) < 0.15 for g, w in zip(got_y, want_y)),
              f"phosphate peaks at {got_y}, expected {want_y}")
        tp, pp, cp = (max(x for x, _ in prof[k]) - x0 for k in ("tail", "phosphate", "choline"))
        check(abs(tp / pp - (8 * 42) / (4 * 90)) < 0.01 and abs(cp / pp - 1) < 0.01,
              f"peak ratios tail/phosphate {tp / pp:.3f} (336/360), choline/phosphate {cp / pp:.3f}")
        wz = [x - x0 for x, y in prof["water"] if abs(y - mid) < 20 * sc]
        check(max(wz) < 0.05, "no water within 20 A of the midplane in the water profile")
    title = " ".join(t.text or "" for t in root.iter(NS + "text"))
    check(f"{apl_m:.2f} ± {apl_e:.2f} Å²" in title and f"{dpp:.2f} ± 0.00 Å" in title,
          "title gives apl and P-P thickness with errors")
    check(f"step {100 * (used - 1)}" in title, f"side view of step {100 * (used - 1)}")

    # errors
    rc, o, e = run(script, work, "no_such.dump", "--svg", "x.svg")
    check(rc != 0 and "no dump file" in e, f"missing dump refused: {e.strip()}")
    rc, o, e = run(script, work, "syn.dump", "--blocks", "6", "--svg", "x.svg")
    check(rc != 0 and "at least 12 needed" in e, f"too few frames refused: {e.strip()}")
    write_dump(os.path.join(work, "nox.dump"), ("id", "mol", "type", "z"))
    rc, o, e = run(script, work, "nox.dump", "--svg", "x.svg")
    check(rc != 0 and "needs the x column" in e, f"--svg without x refused: {e.strip()}")
    rc, o, e = run(script, work, "nox.dump")
    check(rc == 0 and "RESULT" in o, "without --svg a dump without x is still analysed")
    rc, o, e = run(script, work, "syn.dump", "--svg", "no_such_dir/x.svg")
    check(rc != 0 and "cannot write --svg" in e, f"unwritable --svg refused: {e.strip()}")
    check(not os.path.exists(os.path.join(work, "x.svg")), "no x.svg left by a refused run")

    if failures:
        sys.exit(f"{len(failures)} check(s) failed: " + "; ".join(failures))
    print("all checks passed")


if __name__ == "__main__":
    main()
