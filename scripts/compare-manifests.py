#!/usr/bin/env python3
"""compare-manifests.py A B: compares two STARK manifests of the same project
scanned on different machines or paths. Absolute paths are rewritten
relative to each manifest's source_root and build_dir. Each kernel's compile
command line is the build's own (CMake adds machine-specific flags such as
-ccbin and toolkit include folders), so it is reported but not compared;
everything else must be equal. Exits 1 when anything else differs."""
import json
import sys


def normalise(m):
    root, build = m["source_root"], m.get("build_dir", "")

    def fix(value):
        if isinstance(value, str):
            if build:
                value = value.replace(build, "<build>")
            return value.replace(root, "<root>")
        if isinstance(value, list):
            return [fix(v) for v in value]
        if isinstance(value, dict):
            return {k: fix(v) for k, v in value.items()}
        return value

    out = fix(m)
    arguments = {}
    for k in out["kernels"]:
        c = k.get("compile")
        if c:
            arguments[k["id"]] = c.pop("arguments")
    return out, arguments


def diff(a, b, path=""):
    if type(a) != type(b):
        yield f"{path}: {a!r} != {b!r}"
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield f"{path}/{k}: only in {'B' if k not in a else 'A'}"
            else:
                yield from diff(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list):
        if len(a) != len(b):
            yield f"{path}: {len(a)} items != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            yield from diff(x, y, f"{path}/{i}")
    elif a != b:
        yield f"{path}: {a!r} != {b!r}"


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    (a, args_a), (b, args_b) = (normalise(json.load(open(p))) for p in argv[1:])
    for kid in sorted(set(args_a) & set(args_b)):
        extra_a = [x for x in args_a[kid] if x not in args_b[kid]]
        extra_b = [x for x in args_b[kid] if x not in args_a[kid]]
        if extra_a or extra_b:
            print(f"note: {kid}: compile command differs (only in A: {extra_a}; only in B: {extra_b})")
    problems = list(diff(a, b))
    for p in problems:
        print(p)
    n = len(a["kernels"])
    print(f"compare-manifests: {n} kernels, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
