#!/usr/bin/env python3
"""bench/ncu_summary.py on a hand-made Nsight Compute CSV: kernel names shortened the way
ncu writes them, units converted, launches summed per kernel, time-weighted means, and
clear stops for files without rows or with a unit it does not know. The expected numbers
are worked out by hand below, not taken from the script."""
import csv
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import ncu_summary  # noqa: E402

HEADER = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
          "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name",
          "Metric Unit", "Metric Value"]
PAIR = ("void mesogpu::cuda::detail::pair_forces_kernel<unnamed>::PairLJDev, "
        "mesogpu::cuda::detail::WideList, 0, 0, 1>(int, const detail::PosType<float> *, int)")
NVE = "unnamed>::nve_initial_kernel(int, const double *, double *)"


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        f.write("==PROF== Connected to process 1\n")   # ncu's own lines are skipped
        w = csv.writer(f, quoting=csv.QUOTE_ALL)
        w.writerow(HEADER)
        for r in rows:
            w.writerow([r[0], "1", "lmp", "host", r[1], "1", "7", "(128, 1, 1)", "(8, 1, 1)", "0",
                        "9.0", "Command line profiler metrics", r[2], r[3], r[4]])


class NcuSummary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "p.csv")

    def tearDown(self):
        self.dir.cleanup()

    def test_names(self):
        self.assertEqual(ncu_summary.short_name(PAIR), "pair_forces_kernel<PairLJDev,WideList,0,0,1>")
        self.assertEqual(ncu_summary.short_name(NVE), "nve_initial_kernel")
        self.assertEqual(ncu_summary.short_name("void k<(anonymous namespace)::A, 2>(int)"), "k<A,2>")

    def test_sums_per_kernel(self):
        rows = []
        # two launches of the pair kernel (1 us and 3 us, 50 % and 90 % occupancy) and one of
        # nve (2,000 ns); bytes in byte, Kbyte and Mbyte; a value with a thousands separator
        for lid, name, t, unit, occ, rd, wr, regs in [
                ("0", PAIR, "1", "us", "50", ("1,000", "byte"), ("2", "Kbyte"), "32"),
                ("1", NVE, "2,000", "ns", "80", ("1", "Mbyte"), ("0", "byte"), "26"),
                ("2", PAIR, "3", "us", "90", ("4,000", "byte"), ("1", "Kbyte"), "40")]:
            rows += [(lid, name, "gpu__time_duration.sum", unit, t),
                     (lid, name, "sm__warps_active.avg.pct_of_peak_sustained_active", "%", occ),
                     (lid, name, "dram__bytes_read.sum", rd[1], rd[0]),
                     (lid, name, "dram__bytes_write.sum", wr[1], wr[0]),
                     (lid, name, "launch__registers_per_thread", "register/thread", regs)]
        write_csv(rows, self.path)
        kern = ncu_summary.by_kernel(ncu_summary.read(self.path))
        pair = kern["pair_forces_kernel<PairLJDev,WideList,0,0,1>"]
        nve = kern["nve_initial_kernel"]
        self.assertEqual(pair["n"], 2)
        self.assertAlmostEqual(pair["t"], 4e-6)
        self.assertAlmostEqual(pair["dram"], 1000 + 2000 + 4000 + 1000)
        self.assertAlmostEqual(pair["occ"] / pair["t"], (1 * 50 + 3 * 90) / 4)   # time-weighted
        self.assertEqual(pair["regs"], 40)
        self.assertEqual(nve["n"], 1)
        self.assertAlmostEqual(nve["t"], 2e-6)
        self.assertAlmostEqual(nve["dram"], 1e6)
        # the printed table: 6 us in all, 1 us per step over 6 steps, 0.5 TB/s for nve
        sys.argv = ["ncu_summary.py", self.path, "--steps", "6"]
        out = io.StringIO()
        with redirect_stdout(out):
            ncu_summary.main()
        text = out.getvalue()
        self.assertIn("3 launches, 0.006 ms of kernels, 1.0 us per step", text)
        nve_line = [l for l in text.splitlines() if l.startswith("nve_initial_kernel")][0]
        self.assertEqual(nve_line.split()[5], "500")   # GB/s: 1e6 B / 2e-6 s

    def test_extra_columns(self):
        # L2 use recorded for the pair kernel only (20 % over 1 us, 60 % over 3 us): its
        # time-weighted mean is 50 %; nve, without it, prints "-"
        rows = []
        for lid, name, t, l2 in [("0", PAIR, "1", "20"), ("1", NVE, "2", None), ("2", PAIR, "3", "60")]:
            rows.append((lid, name, "gpu__time_duration.sum", "us", t))
            if l2 is not None:
                rows.append((lid, name, "lts__throughput.avg.pct_of_peak_sustained_elapsed", "%", l2))
        write_csv(rows, self.path)
        kern = ncu_summary.by_kernel(ncu_summary.read(self.path))
        pair = kern["pair_forces_kernel<PairLJDev,WideList,0,0,1>"]
        self.assertAlmostEqual(pair["L2%"] / pair["t"], (1 * 20 + 3 * 60) / 4)
        self.assertIsNone(kern["nve_initial_kernel"]["L2%"])
        sys.argv = ["ncu_summary.py", self.path]
        out = io.StringIO()
        with redirect_stdout(out):
            ncu_summary.main()
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[1].split()[-3:], ["L1%", "L2%", "iss%"])
        pair_line = [l for l in lines if l.startswith("pair_forces_kernel")][0]
        self.assertEqual(pair_line.split()[-3:], ["-", "50.0", "-"])
        nve_line = [l for l in lines if l.startswith("nve_initial_kernel")][0]
        self.assertEqual(nve_line.split()[-3:], ["-", "-", "-"])

    def test_empty_and_bad_unit(self):
        with open(self.path, "w") as f:
            f.write("==PROF== No kernels were profiled.\n")
        with self.assertRaises(SystemExit) as e:
            ncu_summary.read(self.path)
        self.assertIn("no CSV rows", str(e.exception))
        write_csv([("0", NVE, "gpu__time_duration.sum", "fortnight", "1")], self.path)
        with self.assertRaises(SystemExit) as e:
            ncu_summary.read(self.path)
        self.assertIn("unknown unit 'fortnight'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
