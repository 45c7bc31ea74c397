#!/usr/bin/env python3
"""Validates the evaluations printed by harness_evaluation_writer against
tests/schemas/evaluation.schema.json (the contract of stark eval's output).
Exit 77 (skipped) when the jsonschema package is missing."""
import json
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("python3 jsonschema is not installed: skipped")
    sys.exit(77)

schema_path, writer, worker = sys.argv[1], sys.argv[2], sys.argv[3]
with open(schema_path) as f:
    schema = json.load(f)
out = subprocess.run([writer, worker], check=True, capture_output=True, text=True).stdout
evaluations = [json.loads(line) for line in out.splitlines() if line.strip()]
assert len(evaluations) == 4, out
for e in evaluations:
    jsonschema.validate(e, schema, cls=jsonschema.Draft202012Validator)
    # Every guard is listed; a guard that did not run is null, never true.
    names = [c["name"] for c in e["checks"]]
    assert "correctness" in names and "fuzzed_inputs" in names, names
compile_error, renamed, original, bad_launch = evaluations
assert compile_error["verdict"] == "rejected" and not compile_error["compile"]["ok"], compile_error
assert renamed["verdict"] == "rejected" and renamed["reason"].startswith("signature: "), renamed
assert bad_launch["verdict"] == "rejected" and "'count'" in bad_launch["reason"], bad_launch
if original["gpu"] is None:
    assert original["verdict"] == "error" and "nothing was run or timed" in original["reason"], original
    assert all(c["ok"] is None for c in original["checks"] if c["name"] == "correctness")
else:
    assert original["verdict"] == "accepted", original
print(f"{len(evaluations)} evaluations valid against {schema_path}")
