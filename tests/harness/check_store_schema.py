#!/usr/bin/env python3
"""Validates a capture store index written by harness_store_schema_writer
against tests/schemas/capture-store.schema.json. Exit 77 (skipped) when the
jsonschema package is missing."""
import json
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print("python3 jsonschema is not installed: skipped")
    sys.exit(77)

schema_path, writer = sys.argv[1], sys.argv[2]
index_path = subprocess.run([writer], check=True, capture_output=True, text=True).stdout.strip()
with open(schema_path) as f:
    schema = json.load(f)
with open(index_path) as f:
    index = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.validate(index, schema, cls=jsonschema.Draft202012Validator)
assert len(index["captures"]) == 2 and index["captures"][1]["origin"] == "annotation"
# A broken index must fail.
broken = json.loads(json.dumps(index))
broken["captures"][0]["buffers"][0]["before"] = "md5:nope"
try:
    jsonschema.validate(broken, schema, cls=jsonschema.Draft202012Validator)
    print("a broken index passed the schema")
    sys.exit(1)
except jsonschema.ValidationError:
    pass
print(f"{index_path}: valid stark.captures/1")
