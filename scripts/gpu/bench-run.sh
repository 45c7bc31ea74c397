#!/usr/bin/env bash
# GPU-machine benchmark run: builds bench/, measures the roofline,
# the vendor libraries and torch eager on the benchmark shapes, captures the
# benchmark launches, runs `stark optimize` (built-in expert, fixed budget)
# kernel by kernel, and writes the table (bench/README.md explains it).
#
# Here (development machine), once, as for scripts/gpu/optimize-run.sh:
#   scripts/build-bundle.sh && scripts/gpu/prepare-carry.sh      -> .device/
# There, from the repository root, carrying .device:
#   scripts/gpu/bench-run.sh OUT_DIR
# Settings (environment):
#   BENCH_BUDGET=6         attempts per kernel
#   BENCH_TIME_LIMIT=20    seconds of search per kernel (stark optimize --time-limit)
#   BENCH_TIME_LIMITS="matmul=40 ..."   per-problem exceptions to BENCH_TIME_LIMIT (slow shapes)
#   BENCH_DEADLINE=540     no kernel's search starts later than this many seconds after the start
#   BENCH_KERNELS="..."    problem names to capture and optimize (bench_shapes' names; default: all)
#   BENCH_PHASES="setup build tests measure capture optimize table"
#   BENCH_WORK=/tmp/bench-work   kept between calls on a warm machine: a later call can run
#                          BENCH_PHASES="optimize table" BENCH_KERNELS="..." to go on
# OUT_DIR gets table.md, bench-run.log and bench-artifacts.tar.gz (phase logs, every
# result.json, the tools' JSON, runs.tsv). A failing phase or kernel is logged and
# the run goes on; the exit status is 1 if anything failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$(realpath -m "${1:?usage: scripts/gpu/bench-run.sh OUT_DIR}")
budget=${BENCH_BUDGET:-6}
time_limit=${BENCH_TIME_LIMIT:-20}
deadline=${BENCH_DEADLINE:-540}
phases=${BENCH_PHASES:-setup build tests measure capture optimize table}
work=${BENCH_WORK:-/tmp/bench-work}
bundle=$root/.device
build=$work/build
prefix=${BENCH_STARK_PREFIX:-/tmp/stark}  # where setup unpacks the bundle (STARK's CMake package)
stark=${BENCH_STARK:-$prefix/bin/stark}
jobs=$(nproc)
python=/opt/torch/.venv/bin/python
[[ -x $python ]] || python=python3
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out" "$work/logs" "$work/results"
start=$SECONDS
status=0

say() { echo "[$(date +%T) +$((SECONDS - start))s] $*"; }
wants() { [[ " $phases " == *" $1 "* ]]; }
# step NAME CMD...: runs CMD with its output in logs/NAME.log; a failure is
# reported and remembered, never fatal. CMD runs in a background subshell so
# that `set -e` holds inside it (bash ignores -e in an `if` or `||` context).
step() {
  local name=$1 t0=$SECONDS code=0
  shift
  say "$name: start"
  (set -e; "$@") >"$work/logs/$name.log" 2>&1 &
  wait $! || code=$?
  if ((code == 0)); then
    say "$name: ok ($((SECONDS - t0))s)"
  else
    say "$name: FAILED (exit $code, $((SECONDS - t0))s); last lines of logs/$name.log:"
    tail -n 15 "$work/logs/$name.log" | sed 's/^/    /'
    status=1
  fi
  return "$code"
}

setup() {
  sh "$bundle/bundle/unpack.sh" "$prefix"
  cmake -S "$bundle/googletest" -B /tmp/gtest-build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/tmp/gtest
  ninja -C /tmp/gtest-build-bench -j"$jobs" install
  # stark finds the bundle's own stark-worker and capture library (one source tree, one protocol).
  "$stark" doctor
}

build_bench() {
  cmake -S bench -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix;/tmp/gtest"
  ninja -C "$build" -j"$jobs" bench_kernels bench_tests bench_shapes bench_roofline
  "$build/tools/bench_shapes" >"$work/problems.json"
}

# Optional: a missing vendor program leaves the vendor column empty.
build_vendor() { ninja -C "$build" -j"$jobs" bench_vendor_times; }

# Every test, the edge shapes included, on the naive kernels.
run_tests() { "$build/tests/bench_tests" --gtest_output=json:"$work/gtest-naive.json"; }

roofline() { "$build/tools/bench_roofline" >"$work/roofline.json"; cat "$work/roofline.json"; }
vendor() { "$build/tools/bench_vendor_times" >"$work/vendor.json"; }
torch_eager() { PYTHONUNBUFFERED=1 "$python" bench/tools/torch_times.py "$work/problems.json" >"$work/torch.json"; }

# The benchmark shapes (tests named *BenchShape), plus the square matmul's odd
# shape: compute-sanitizer runs on a kernel's smallest capture, and with the
# 4096^3 launch alone no attempt finished in 195 s (most likely in the
# sanitizers; bench/results/h200-2026-12-02). The table
# takes each kernel's largest capture, so its times are the benchmark shape's.
capture() {
  "$stark" scan -p "$build" --target bench_kernels -o "$work/manifest.json"
  # With BENCH_KERNELS, only those kernels are captured (the store stays small
  # and the interposer copies no other kernel's buffers).
  if [[ -n ${BENCH_KERNELS:-} ]]; then
    python3 - "$work/manifest.json" "$work/problems.json" $BENCH_KERNELS <<'PY'
import json, sys
manifest, problems, names = sys.argv[1], sys.argv[2], set(sys.argv[3:])
ids = {p["kernel_id"] for p in json.load(open(problems))["problems"] if p["name"] in names}
doc = json.load(open(manifest))
doc["kernels"] = [k for k in doc["kernels"] if k["id"] in ids]
json.dump(doc, open(manifest, "w"), indent=1)
print(f"capture: {len(doc['kernels'])} of the manifest's kernels ({len(names)} problems asked)")
PY
  fi
  "$stark" capture -p "$build" --manifest "$work/manifest.json" --fresh --max-per-kernel 2 -- \
    "$build/tests/bench_tests" --gtest_filter='*BenchShape*:Matmul.SquareOddShape'
}

# One `stark optimize` per kernel: its own wall time, its own result, and a
# crash or hang costs that kernel only.
# -v: a line per attempt, so a slow or killed search shows where its time went.
optimize_one() {
  local name=$1 id=$2 limit=$3 search=$4
  rm -rf "$work/results/$name"
  timeout -k 10 "$limit" "$stark" optimize -v -p "$build" --manifest "$work/manifest.json" \
    --kernel "$id" --backend builtin --budget "$budget" --time-limit "$search" --out "$work/results/$name"
}

# The search time of one problem: its BENCH_TIME_LIMITS entry, else BENCH_TIME_LIMIT.
search_time() {
  local entry
  for entry in ${BENCH_TIME_LIMITS:-}; do
    [[ ${entry%%=*} == "$1" ]] && { echo "${entry#*=}"; return; }
  done
  echo "$time_limit"
}

optimize_all() {
  local names
  names=$(python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(open(sys.argv[1]))["problems"]))' \
    "$work/problems.json")
  for name in ${BENCH_KERNELS:-$names}; do
    local id
    id=$(python3 -c 'import json,sys; ids = [p["kernel_id"] for p in json.load(open(sys.argv[1]))["problems"] if p["name"] == sys.argv[2]]; print(*ids) if ids else sys.exit(1)' \
      "$work/problems.json" "$name") || { say "optimize: no problem named $name"; status=1; continue; }
    local search
    search=$(search_time "$name")
    if ((SECONDS - start + search > deadline)); then
      say "optimize $name: not started (BENCH_DEADLINE ${deadline}s reached)"
      continue
    fi
    # A hung search is killed by the deadline (plus 30 s), so the table phase still runs.
    local t0=$SECONDS code=0 limit=$((search * 3 + 120)) left=$((deadline + 30 - (SECONDS - start)))
    ((limit > left)) && limit=$left
    # stark optimize writes result.json as it goes: a killed search leaves one without the kernel.
    step "optimize-$name" optimize_one "$name" "$id" "$limit" "$search" || code=$?
    [[ -f $work/results/$name/result.json ]] || code=1
    printf '%s\t%s\t%s\t%s\n' "results/$name/result.json" $((SECONDS - t0)) "$code" "$budget" >>"$work/runs.tsv"
  done
}

table() {
  local extra=()
  [[ -s $work/roofline.json ]] && extra+=(--roofline "$work/roofline.json")
  [[ -s $work/torch.json ]] && extra+=(--torch "$work/torch.json")
  [[ -s $work/vendor.json ]] && extra+=(--vendor "$work/vendor.json")
  python3 bench/tools/make_table.py --problems "$work/problems.json" \
    --runs "$work/runs.tsv" "${extra[@]}" -o "$out/table.md"
  cat "$out/table.md"
}

set +e  # the block's exit status is read from PIPESTATUS below
{
  say "bench run: phases '$phases', budget $budget, ${time_limit}s per kernel, deadline ${deadline}s, work $work"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1 || true
  if wants setup; then step setup setup; fi
  if wants build; then
    step build build_bench
    step build-vendor build_vendor
  fi
  if wants tests; then step tests run_tests; fi
  if wants measure; then
    step roofline roofline
    step vendor vendor
    step torch torch_eager
  fi
  if wants capture; then step capture capture; fi
  if wants optimize; then optimize_all; fi
  if wants table; then step table table; fi
  say "bench run: $([[ $status == 0 ]] && echo PASS || echo 'FAIL (see the FAILED lines)')"
  exit "$status"
} 2>&1 | tee -a "$out/bench-run.log"
status=${PIPESTATUS[0]}
set -e
# At most 8 files come back from the GPU machine: everything small goes in one archive.
tar -czf "$out/bench-artifacts.tar.gz" -C "$work" --exclude=build logs results $(cd "$work" && ls *.json runs.tsv 2>/dev/null) || true
exit "$status"
