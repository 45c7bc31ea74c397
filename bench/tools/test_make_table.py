#!/usr/bin/env python3
"""make_table.py on a hand-written run: figures computed by hand below."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

PROBLEMS = {"problems": [
    # bound: max(4e9 B / 4e12 B/s, 1e9 / 1e13) = 1000 us
    {"name": "copyish", "kernel_id": "src/a.cu:a", "shape": "1G", "kernelbench": "", "scale": 1,
     "bytes": 4e9, "flops": 1e9, "dims": [1]},
    # bound: max(4e6 / 4e12, 1e11 / 1e13) = 10000 us (compute-bound)
    {"name": "mathy", "kernel_id": "src/b.cu:b", "shape": "4k", "kernelbench": "1", "scale": 1,
     "bytes": 4e6, "flops": 1e11, "dims": [1]},
    {"name": "lost", "kernel_id": "src/c.cu:c", "shape": "8", "kernelbench": "", "scale": 1,
     "bytes": 4e6, "flops": 0, "dims": [1]},
]}
ROOFLINE = {"gpu": "Test GPU", "copy_bytes_per_s": 4e12, "fp32_flops_per_s": 1e13}
CHECKS = [{"name": "outputs on captured inputs", "ok": True}, {"name": "compute-sanitizer", "ok": None},
          {"name": "repeat launch", "ok": True}]
RESULT_A = {"schema": "stark.result/1", "source_root": "/x", "manifest": "m.json", "gpu": {"name": "Test GPU"},
            "kernels": [{"id": "src/a.cu:a", "status": "improved", "baseline_us": 4000.0, "best_us": 2000.0,
                         "speedup": 2.0, "attempts": 30, "checks": CHECKS, "tree": []}]}
# no_gain: the best attempt was slower, the naive kernel stays.
RESULT_B = {"schema": "stark.result/1", "source_root": "/x", "manifest": "m.json",
            "kernels": [{"id": "src/b.cu:b", "status": "no_gain", "baseline_us": 40000.0, "best_us": 41000.0,
                         "speedup": 0.97, "attempts": 10, "checks": [], "tree": []}]}
# Two captured launches: the benchmark shape (900 -> 300 us) and a small one for the sanitizers.
RESULT_C = {"schema": "stark.result/1", "source_root": "/x", "manifest": "m.json",
            "kernels": [{"id": "src/c.cu:c", "status": "improved", "baseline_us": 910.0, "best_us": 305.0,
                         "speedup": 2.98, "attempts": 4, "tree": [],
                         "checks": CHECKS + [{"name": "speedup_plausible", "ok": None, "detail": "12x is above 10x"}],
                         "captures": [{"id": "c-small", "baseline_us": 10.0, "best_us": 5.0},
                                      {"id": "c-big", "baseline_us": 900.0, "best_us": 300.0}]}]}
TORCH = {"torch": "2.9.0", "times": {"copyish": 3000.0, "mathy": 10000.0}}
VENDOR = {"times": {"mathy": {"library": "cuBLAS sgemm", "us": 20000.0}}}


class MakeTable(unittest.TestCase):
    def run_tool(self, with_torch=True, with_roofline=True, extra_result=False):
        d = tempfile.mkdtemp()
        files = {"problems.json": PROBLEMS, "roofline.json": ROOFLINE, "a.json": RESULT_A, "b.json": RESULT_B,
                 "torch.json": TORCH, "vendor.json": VENDOR}
        if extra_result:
            files["missing.json"] = RESULT_C
        for name, doc in files.items():
            with open(os.path.join(d, name), "w") as f:
                json.dump(doc, f)
        with open(os.path.join(d, "runs.tsv"), "w") as f:
            f.write(f"{d}/a.json\t60\t0\t30\n{d}/b.json\t30\t0\t30\n{d}/missing.json\t5\t1\n")
        args = [sys.executable, os.path.join(HERE, "make_table.py"), "--problems", f"{d}/problems.json",
                "--runs", f"{d}/runs.tsv", "--vendor", f"{d}/vendor.json", "-o", f"{d}/table.md"]
        args += ["--torch", f"{d}/torch.json"] if with_torch else []
        args += ["--roofline", f"{d}/roofline.json"] if with_roofline else []
        subprocess.run(args, check=True)
        with open(f"{d}/table.md") as f:
            return f.read()

    def row(self, text, name):
        rows = [line for line in text.splitlines() if line.startswith(f"| {name} |")]
        self.assertEqual(len(rows), 1, text)
        return [c.strip() for c in rows[0].strip("|").split("|")]

    def test_improved_row(self):
        c = self.row(self.run_tool(), "copyish")
        # naive, best, speedup, torch, vs torch, vendor, vs vendor, roofline 1000/4000 -> 1000/2000
        self.assertEqual(c[2:11], ["4,000.0", "2,000.0", "2.00x", "3,000.0", "1.50x", "-", "-", "25.0 → 50.0", "30"])
        self.assertEqual(c[11:13], ["60", "30.0"])  # wall s, attempts per minute
        self.assertEqual(c[13], "improved")
        self.assertEqual(c[14], "2 passed, 1 not run: compute-sanitizer")

    def test_the_largest_capture_is_the_benchmark_shape(self):
        # 'lost' gets a result with a small capture beside the big one: the row shows the big one's times.
        c = self.row(self.run_tool(extra_result=True), "lost")
        self.assertEqual(c[2:5], ["900.0", "300.0", "3.00x"])
        self.assertEqual(c[14], "2 passed, 1 not run: compute-sanitizer; speedup flagged for review")

    def test_no_gain_keeps_the_naive_time(self):
        c = self.row(self.run_tool(), "mathy")
        self.assertEqual(c[2:5], ["40,000.0", "40,000.0", "1.00x"])
        self.assertEqual(c[7:10], ["20,000.0 (cuBLAS sgemm)", "0.50x", "25.0 → 25.0"])
        self.assertEqual(c[13:15], ["no_gain", "naive kept"])

    def test_failed_run_still_has_a_row(self):
        text = self.run_tool()
        c = self.row(text, "lost")
        self.assertEqual(c[2], "-")
        self.assertEqual(c[13], "no result")
        self.assertIn("missing.json (exit 1)", text)

    def test_geometric_means(self):
        text = self.run_tool()
        self.assertIn("- speedup over naive: 1.41x (2 rows)", text)  # sqrt(2 * 1)
        self.assertIn("- best vs torch eager (torch µs / best µs): 0.61x (2 rows)", text)  # sqrt(1.5 * 0.25)
        self.assertIn("- % of roofline, best: 35.4% (2 rows)", text)  # sqrt(50 * 25)
        self.assertIn("4.00 TB/s, fp32 FMA peak 10.0 TFLOP/s", text)

    def test_the_papers_measures_beside_ours(self):
        text = self.run_tool()
        # copyish and mathy came back checked; lost has no result: 2 of 3.
        self.assertIn("| verified (a checked kernel came back) | 2/3 (66.7%) | 100% |", text)
        self.assertIn("| faster than the naive kernel | 1/3 (33.3%) | - |", text)
        # torch timed copyish (1.5x, faster) and mathy (0.25x): 1 of 2.
        self.assertIn("| fast_1 vs torch eager | 1/2 (50.0%) | 71.4% |", text)
        self.assertIn("| speedup over torch eager (geometric mean) | 0.61x | 3.03x |", text)
        self.assertIn("KernelBench measures (B=30;", text)
        self.assertEqual(self.row(text, "copyish")[15], "30")
        self.assertEqual(self.row(text, "lost")[15], "-")

    def test_without_torch_the_columns_are_empty(self):
        text = self.run_tool(with_torch=False)
        self.assertEqual(self.row(text, "copyish")[5], "-")
        self.assertIn("- best vs torch eager (torch µs / best µs): - (0 rows)", text)

    def test_without_roofline_the_percentages_are_empty(self):
        text = self.run_tool(with_roofline=False)
        self.assertEqual(self.row(text, "copyish")[9], "- → -")
        self.assertEqual(self.row(text, "copyish")[4], "2.00x")
        self.assertIn("no roofline measurement", text)


if __name__ == "__main__":
    unittest.main()
