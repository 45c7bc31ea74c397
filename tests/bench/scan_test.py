#!/usr/bin/env python3
"""`stark scan` of the configured bench project: every kernel the benchmark
lists (bench_shapes) is found, with a launch site, no diagnostics, and the
manifest validates against its schema.

    scan_test.py STARK BENCH_BUILD_DIR VALIDATE_JSON_PY MANIFEST_SCHEMA
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

STARK, BUILD, VALIDATE, SCHEMA = sys.argv[1:5]


class BenchScan(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.path = os.path.join(tempfile.mkdtemp(), "manifest.json")
        cls.scan = subprocess.run([STARK, "scan", "-p", BUILD, "--target", "bench_kernels", "-o", cls.path],
                                  capture_output=True, text=True)
        shapes = subprocess.run([os.path.join(BUILD, "tools", "bench_shapes")], capture_output=True, text=True,
                                check=True)
        cls.problems = json.loads(shapes.stdout)["problems"]

    def manifest(self):
        self.assertEqual(self.scan.returncode, 0, self.scan.stdout + self.scan.stderr)
        with open(self.path) as f:
            return json.load(f)

    def test_finds_every_benchmark_kernel_without_diagnostics(self):
        m = self.manifest()
        self.assertEqual(m["diagnostics"], [], self.scan.stderr)
        ids = sorted(k["id"] for k in m["kernels"])
        self.assertEqual(ids, sorted(p["kernel_id"] for p in self.problems))
        self.assertGreaterEqual(len(ids), 16)

    def test_every_kernel_has_a_launch_and_the_suite_arch(self):
        for k in self.manifest()["kernels"]:
            self.assertTrue(k["launches"], k["id"])
            self.assertEqual(k["compile"]["target"], "bench_kernels", k["id"])
            self.assertEqual(k["compile"]["archs"], ["90"], k["id"])

    def test_manifest_validates_against_the_schema(self):
        self.manifest()
        check = subprocess.run([sys.executable, VALIDATE, SCHEMA, self.path], capture_output=True, text=True)
        self.assertEqual(check.returncode, 0, check.stdout + check.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
