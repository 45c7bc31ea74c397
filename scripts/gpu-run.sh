#!/usr/bin/env bash
# The harness's whole GPU-machine run, in one go.
#
# Here, on the development machine (has clang, the packages and a STARK build):
#   scripts/gpu-run.sh --prepare [STARK_EXE]
#     fills .device-harness/ (git-ignored): the header-only dependencies from
#     /usr/include (nlohmann, fmt, CLI11, xxhash, zstd, dtl), googletest sources,
#     and the manifest of examples/nnops scanned by STARK_EXE (default: the
#     stark of build-harness-cli; an unpacked bundle's bin/stark works) with the
#     same paths the GPU machine uses.
#   scripts/gpu-run.sh --prepare-tests
#     the same without the nnops manifest (no stark needed): enough for a
#     GPU_RUN_TESTS_ONLY=1 run.
#
# There, on the GPU machine (CUDA 13 + g++ + cmake + ninja only), from the
# repository root, with .device-harness carried:
#   scripts/gpu-run.sh [OUT_DIR]        (default: $OUT, else ./gpu-out)
#     1. configures the committed tree (carried by --prepare) with
#        -DSTARK_WITH_CLANG=OFF and the carried headers, builds
#     2. ctest -L gpu (attack suite, capture of a CUDA program)
#     3. builds examples/nnops, captures its test suite (stark-harness capture),
#        replays every captured kernel against itself (stark-harness eval),
#        measures the capture overhead
#     4. runs the benchmarks (evaluations per minute, timing spread)
#   and writes its logs to OUT_DIR (at most 8 files). GPU_RUN_CAPTURE_ONLY=1
#   skips the throughput and spread benchmarks. GPU_RUN_TESTS_ONLY=1 stops
#   after step 2. Each step has a time
#   limit so the whole run ends within 9 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
carry=$root/.device-harness

prepare() {
  local stark=${1:-$root/build-harness-cli/cli/stark}
  [[ -x $stark ]] || { echo "gpu-run: no stark at $stark (build it, or pass its path)" >&2; exit 1; }
  prepare_sources
  scan_nnops "$stark"
  du -sh "$carry"
}

# The carried headers, googletest and the committed tree.
prepare_sources() {
  rm -rf "$carry"
  # One folder per dependency (cmake/StarkDependencies.cmake): the machine may
  # have some of them itself, in other versions, and they must never mix.
  mkdir -p "$carry"/include/{json,fmt,cli11,xxhash,zstd,httplib,dtl}
  cp -r /usr/include/nlohmann "$carry/include/json/"
  cp -r /usr/include/fmt "$carry/include/fmt/"
  cp -r /usr/include/CLI "$carry/include/cli11/"
  cp -r /usr/include/dtl "$carry/include/dtl/"
  cp /usr/include/xxhash.h "$carry/include/xxhash/"
  cp /usr/include/zstd.h /usr/include/zstd_errors.h "$carry/include/zstd/"
  cp -r /usr/src/googletest "$carry/googletest"
  # The committed tree, built there: uncommitted work of others in this
  # checkout (it travels with the working tree) cannot break the GPU build.
  mkdir -p "$carry/src"
  git archive HEAD | tar -x -C "$carry/src"
  # Header-only test dependencies of other folders' tests, so configuring succeeds.
  cp /usr/include/httplib.h "$carry/include/httplib/"
  mkdir -p "$carry/pkgconfig"
  printf 'prefix=${pcfiledir}/..\nincludedir=${prefix}/include/httplib\nName: cpp-httplib\nDescription: carried header\nVersion: 0.11.4\nCflags: -I${includedir}\n' \
    >"$carry/pkgconfig/cpp-httplib.pc"
  grep -qx '/.device-harness/' .git/info/exclude 2>/dev/null || echo '/.device-harness/' >> .git/info/exclude
}

scan_nnops() {
  local stark=$1
  # examples/nnops scanned with the paths the GPU machine will use:
  # STARK's package in /tmp/stark-prefix, the build tree in /tmp/nnops-build.
  # STARK's package: the one installed beside STARK_EXE (an unpacked bundle),
  # else a build of the harness installed.
  local prefix
  prefix=$(dirname "$(dirname "$(realpath "$stark")")")
  rm -rf /tmp/stark-prefix
  if [[ -f $prefix/lib/cmake/STARK/STARKConfig.cmake ]]; then
    cp -r "$prefix" /tmp/stark-prefix
  else
    local build=$root/build-harness
    cmake -S . -B "$build" -G Ninja -DSTARK_WITH_CLANG=OFF -DSTARK_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" >/dev/null
    cmake --install "$build" --prefix /tmp/stark-prefix >/dev/null
  fi
  rm -rf /tmp/nnops-build
  cmake -S examples/nnops -B /tmp/nnops-build -G Ninja -DCMAKE_PREFIX_PATH=/tmp/stark-prefix >/dev/null
  "$stark" scan -p /tmp/nnops-build --target nnops -o "$carry/nnops-manifest.json"
}

if [[ ${1:-} == --prepare ]]; then
  shift
  prepare "$@"
  exit 0
fi
if [[ ${1:-} == --prepare-tests ]]; then
  prepare_sources
  du -sh "$carry"
  exit 0
fi

out=$(realpath -m "${1:-${OUT:-$root/gpu-out}}")
mkdir -p "$out"
[[ -d $carry/include && -d $carry/src ]] || { echo "gpu-run: $carry is missing: run scripts/gpu-run.sh --prepare here first" >&2; exit 1; }
# The nnops manifest names the development machine's checkout: make it resolve here.
if [[ ! -e /work/main ]]; then
  mkdir -p /work && ln -s "$root" /work/main
fi
build=/tmp/stark-gpu
src=$carry/src  # the committed tree (--prepare); examples/nnops is used from the working tree
export PATH=/usr/local/cuda/bin:$PATH
export PKG_CONFIG_PATH=$carry/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
jobs=$(nproc)
summary=$out/summary.txt
: >"$summary"
status=0
t0=$(date +%s)
say() { echo "$*" | tee -a "$summary"; }
# The whole run must end within GPU_RUN_BUDGET seconds (the device call's limit
# is 600 s): every step gets at most what is left, and is skipped under 15 s.
deadline=$((t0 + ${GPU_RUN_BUDGET:-500}))
# step NAME LIMIT_S LOG COMMAND...: runs with a time limit, logs, records the outcome.
step() {
  local name=$1 limit=$2 log=$3
  shift 3
  local left=$((deadline - $(date +%s)))
  if ((left < 15)); then say "SKIP  $name (out of time)"; status=1; return 1; fi
  ((limit > left)) && limit=$left
  local start=$(date +%s)
  echo "== $name ($(date -u +%H:%M:%S)): $*" >>"$log"
  timeout --kill-after=10 "$limit" "$@" >>"$log" 2>&1
  local rc=$?
  local took=$(($(date +%s) - start))
  if ((rc == 0)); then say "PASS  $name (${took}s)"; else say "FAIL  $name (exit $rc, ${took}s; see $(basename "$log"))"; status=1; fi
  return $rc
}

say "gpu-run on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), $(nproc) cores, $(nvcc --version | tail -1)"

# GoogleTest from the carried sources (the machine has headers at most), for STARK and for nnops.
step "googletest" 120 "$out/build.log" sh -c "cmake -S '$carry/googletest' -B /tmp/gtest-build -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/tmp/gtest && ninja -C /tmp/gtest-build -j$jobs install"
step configure 120 "$out/build.log" cmake -S "$src" -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTARK_WITH_CLANG=OFF \
  -DCMAKE_PREFIX_PATH=/tmp/gtest -DSTARK_CARRIED_INCLUDE_DIR="$carry/include" -DSTARK_GTEST_SOURCE_DIR="$carry/googletest"
step build 300 "$out/build.log" ninja -C $build -j"$jobs" stark-worker stark_capture stark-harness harness_gpu_test \
  bench_eval_throughput bench_timing_cv bench_capture_overhead bench_multi_gpu

step "ctest -L gpu" 240 "$out/tests.log" ctest --test-dir $build -L gpu -j2 --output-on-failure --no-tests=error
cp $build/tests/harness/work-attacks/attack-suite.txt "$out/attack-suite.txt" 2>/dev/null
if [[ -n ${GPU_RUN_TESTS_ONLY:-} ]]; then  # the GPU tests alone, for a call that runs more after them
  say "total $(($(date +%s) - t0)) s (tests only); result: $([ $status = 0 ] && echo PASS || echo FAIL)"
  exit $status
fi

# examples/nnops: its test suite under capture, every captured kernel replayed against itself.
nn=$out/nnops.log
step "install STARK package" 60 "$nn" cmake --install $build --prefix /tmp/stark-prefix
step "nnops configure" 60 "$nn" cmake -S examples/nnops -B /tmp/nnops-build -G Ninja -DCMAKE_PREFIX_PATH="/tmp/stark-prefix;/tmp/gtest"
step "nnops build" 180 "$nn" ninja -C /tmp/nnops-build -j"$jobs"
step "nnops capture" 120 "$nn" $build/harness/stark-harness capture --manifest "$carry/nnops-manifest.json" --fresh -- \
  ctest --test-dir /tmp/nnops-build -j8
python3 - "$carry/nnops-manifest.json" /tmp/nnops-variants >>"$nn" 2>&1 <<'PY'
import json, os, sys
m = json.load(open(sys.argv[1]))
os.makedirs(sys.argv[2], exist_ok=True)
for k in m["kernels"]:
    text = open(os.path.join(m["source_root"], k["file"]), "rb").read()
    source = text[k["range"]["begin"]:k["range"]["end"]].decode()
    name = k["id"].replace("/", "_").replace(":", "_")
    json.dump({"schema": "stark.variant/1", "kernel": k["id"], "source": source},
              open(os.path.join(sys.argv[2], name + ".json"), "w"))
    print("variant", name, "for", k["id"])
PY
# Every kernel against itself, eight at a time (verdicts; timings of parallel runs share the GPU).
replay_one() {
  local v=$1
  local kid
  kid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kernel"])' "$v")
  "$build/harness/stark-harness" eval --manifest "$carry/nnops-manifest.json" --kernel "$kid" --variant "$v" \
    --no-sanitize >"$v.out" 2>"$v.err"
}
export -f replay_one
export build carry
step "nnops replay every kernel against itself" 180 "$nn" bash -c \
  "ls /tmp/nnops-variants/*.json | xargs -P 8 -I{} bash -c 'replay_one {}'; cat /tmp/nnops-variants/*.err"
for v in /tmp/nnops-variants/*.json; do
  cat "$v.out" >>"$nn" 2>/dev/null
  python3 - "$v.out" "$v" >>"$summary" 2>&1 <<'PY'
import json, sys
try:
    e = json.load(open(sys.argv[1]))
except Exception as ex:
    print(f"    {sys.argv[2]}: no evaluation ({ex})"); sys.exit()
caps = ", ".join(f"{c['id']}: {c.get('baseline_us', {}).get('median', 0):.1f}/{c.get('variant_us', {}).get('median', 0):.1f} us"
                 for c in e.get("captures", []))
print(f"    {e['kernel']}: {e['verdict']}, speedup {e.get('speedup')}, {e['reason'][:200]} [{caps}]")
PY
done
# GPU_RUN_CAPTURE_ONLY=1: of the benchmarks, only the capture overhead (a short call after a capture change).
if [[ -z ${GPU_RUN_CAPTURE_ONLY:-} ]]; then
  step "bench_eval_throughput" 180 "$out/bench.log" $build/harness/bench_eval_throughput
  grep -E "evaluations/minute|GPU:" "$out/bench.log" >>"$summary"
  # Evaluations per minute with 1, 2, ... GPUs (the local executor, one worker per GPU).
  # With one GPU it only repeats what bench_eval_throughput measured: GPU_RUN_MULTI=1 runs it anyway.
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  if ((gpus > 1)) || [[ -n ${GPU_RUN_MULTI:-} ]]; then
    step "bench_multi_gpu" 120 "$out/bench.log" $build/harness/bench_multi_gpu --gpus "$(seq -s, 1 $((gpus < 1 ? 1 : gpus)))"
    grep -E "evaluations/minute, |^GPU:.*executor" "$out/bench.log" >>"$summary"
  else
    say "SKIP  bench_multi_gpu (one GPU; GPU_RUN_MULTI=1 runs it)"
  fi
  step "bench_timing_cv" 120 "$out/bench.log" $build/harness/bench_timing_cv --repeats 6
  grep -E "=>|on NVIDIA" "$out/bench.log" >>"$summary"
fi

step "capture overhead" 240 "$out/bench.log" $build/harness/bench_capture_overhead --manifest "$carry/nnops-manifest.json" \
  --runs 2 -- ctest --test-dir /tmp/nnops-build -j8
grep -E "capture overhead|where the time goes|timing:" "$out/bench.log" >>"$summary"


say "total $(($(date +%s) - t0)) s; result: $([ $status = 0 ] && echo PASS || echo FAIL)"
cat "$summary"
exit $status
