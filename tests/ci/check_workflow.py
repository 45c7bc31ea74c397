#!/usr/bin/env python3
"""check_workflow.py WORKFLOW.yml: checks the STARK pull-request workflow
(examples/ci/stark.yml) has the structure its README documents. Prints one
line per problem and exits 1 when there is any (2 when the file is not YAML).

Checked: a pull_request trigger; permission to comment; one job on a
self-hosted GPU runner that skips forks; steps, in this order: checkout,
configure (cmake -S), the stark_optimize target, the patch (stark apply
--mode patch) and the four report formats, the artifact upload of the patch
and reports, the comment (github-script reading the Markdown, keyed by the
<!-- stark-report --> marker), the SARIF upload; and every `run:` script
parses with `bash -n`."""
import subprocess
import sys

import yaml


def find_step(steps, pred):
    for i, s in enumerate(steps):
        if pred(s):
            return i
    return None


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            wf = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        print(f"{argv[1]}: not valid YAML: {e}".replace("\n", " "))
        return 2
    problems = []

    def need(cond, message):
        if not cond:
            problems.append(message)

    if not isinstance(wf, dict):
        print(f"{argv[1]}: not a workflow (a YAML mapping)")
        return 1
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` key as true
    need(isinstance(on, dict) and "pull_request" in on, "no pull_request trigger")
    perms = wf.get("permissions") or {}
    need(perms.get("pull-requests") == "write", "permissions: pull-requests must be write (the comment)")
    need(perms.get("contents") == "read", "permissions: contents should be read")
    need(perms.get("security-events") == "write", "permissions: security-events must be write (SARIF upload)")

    jobs = wf.get("jobs") or {}
    need(list(jobs) == ["optimize"], f"expected one job 'optimize', found {list(jobs)}")
    job = jobs.get("optimize") or {}
    runs_on = job.get("runs-on")
    labels = runs_on if isinstance(runs_on, list) else [runs_on]
    need("self-hosted" in labels and "gpu" in labels, f"runs-on must name self-hosted and gpu, found {runs_on}")
    need("head.repo.full_name == github.repository" in str(job.get("if", "")), "the job must skip pull requests from forks")
    steps = job.get("steps") or []
    need(all(isinstance(s, dict) and "name" in s for s in steps), "every step needs a name")

    def runs(text):
        return lambda s: text in str(s.get("run", ""))

    def uses(action):
        return lambda s: str(s.get("uses", "")).startswith(action + "@")

    order = [
        ("checkout", find_step(steps, uses("actions/checkout"))),
        ("configure", find_step(steps, runs("cmake -S"))),
        ("optimize", find_step(steps, runs("--target stark_optimize"))),
        ("patch", find_step(steps, runs("stark apply --result"))),
        ("upload", find_step(steps, uses("actions/upload-artifact"))),
        ("comment", find_step(steps, uses("actions/github-script"))),
        ("sarif", find_step(steps, uses("github/codeql-action/upload-sarif"))),
    ]
    for name, at in order:
        need(at is not None, f"no {name} step")
    found = [(n, at) for n, at in order if at is not None]
    need([n for n, _ in sorted(found, key=lambda p: p[1])] == [n for n, _ in found],
         "steps out of order: expected " + ", ".join(n for n, _ in order))

    reports = steps[order[3][1]] if order[3][1] is not None else {}
    script = str(reports.get("run", ""))
    need("--mode patch" in script, "the patch step must use stark apply --mode patch")
    for fmt in ("md", "html", "sarif", "json"):
        need(f"stark report --result \"$dir\" --format {fmt}" in script, f"no stark report --format {fmt}")
    upload = steps[order[4][1]] if order[4][1] is not None else {}
    path = str((upload.get("with") or {}).get("path", ""))
    need("stark.patch" in path and "report." in path, "the artifact must hold the patch and the reports")
    comment = steps[order[5][1]] if order[5][1] is not None else {}
    js = str((comment.get("with") or {}).get("script", ""))
    need("comment.md" in js and "<!-- stark-report -->" in js, "the comment must post the Markdown, keyed by the marker")
    need("updateComment" in js and "createComment" in js, "the comment must update the previous one or create one")

    for s in steps:
        if "run" not in s:
            continue
        r = subprocess.run(["bash", "-n"], input=str(s["run"]), text=True, capture_output=True)
        need(r.returncode == 0, f"step '{s.get('name')}': shell script does not parse: {r.stderr.strip()}")

    for p in problems:
        print(f"{argv[1]}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
