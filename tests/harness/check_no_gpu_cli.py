#!/usr/bin/env python3
"""Without a GPU, `capture` and `eval` (of stark-harness, and of stark when it
is built) fail with one clear line on stderr and exit code 1. Exit 77
(skipped) on a machine that has a GPU."""
import json
import os
import subprocess
import sys
import tempfile

worker, harness_tool = sys.argv[1], sys.argv[2]
stark = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None

hello = subprocess.run([worker], input='{"op":"hello"}\n', capture_output=True, text=True)
if json.loads(hello.stdout.splitlines()[0]).get("ok"):
    print("this machine has a GPU: skipped")
    sys.exit(77)

tmp = tempfile.mkdtemp(prefix="stark_no_gpu_")
param = lambda n, t, k, pointee=None: {"name": n, "type": t, "kind": k, "size": 8 if k == "pointer" else 4,
                                       "align": 8 if k == "pointer" else 4,
                                       **({"pointee": pointee, "const": False, "restrict": False} if pointee else {})}
params = [param("n", "int", "scalar"), param("y", "float *", "pointer", "float")]
kernel = {"id": "k.cu:fill", "name": "fill", "qualified_name": "fill", "file": "k.cu", "line": 1, "column": 1,
          "range": {"begin": 0, "end": 10}, "body": {"begin": 5, "end": 10}, "template": False, "params": params,
          "instantiations": [{"mangled": "_Z4filliPf", "template_args": "", "params": params}], "options": {},
          "launches": []}
manifest = {"schema": "stark.manifest/1", "source_root": tmp, "build_dir": tmp, "files": {}, "kernels": [kernel],
            "diagnostics": []}
with open(os.path.join(tmp, "m.json"), "w") as f:
    json.dump(manifest, f)
with open(os.path.join(tmp, "v.json"), "w") as f:
    json.dump({"schema": "stark.variant/1", "kernel": "k.cu:fill", "source": "__global__ void fill(int n, float* y) {}"}, f)
m, v = os.path.join(tmp, "m.json"), os.path.join(tmp, "v.json")

commands = [[harness_tool, "eval", "--manifest", m, "--kernel", "k.cu:fill", "--variant", v],
            [harness_tool, "capture", "--manifest", m, "--", "true"]]
if stark:
    commands += [[stark, "eval", "--manifest", m, "--kernel", "k.cu:fill", "--variant", v],
                 [stark, "capture", "-p", tmp, "--manifest", m, "--", "true"]]
failed = False
for cmd in commands:
    r = subprocess.run(cmd, capture_output=True, text=True)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    ok = r.returncode == 1 and len(lines) == 1 and "no CUDA GPU" in lines[0] and not r.stdout.strip()
    print(("ok   " if ok else "FAIL ") + " ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(cmd[:2])),
          f"-> exit {r.returncode}: {r.stderr.strip()!r}")
    failed |= not ok
sys.exit(1 if failed else 0)
