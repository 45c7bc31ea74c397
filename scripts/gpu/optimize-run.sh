#!/usr/bin/env bash
# GPU-machine stage: the main job for real. The bundle's stark optimizes
# examples/nnops with the built-in expert (capturing the project's own test
# suite), then the winners are applied in place and the project's tests run
# again on the optimized kernels.
#
# Here (development machine), once:
#   scripts/build-bundle.sh && scripts/gpu/prepare-carry.sh      -> .device/
# There (GPU machine), from the repository root, carrying .device:
#   scripts/gpu/optimize-run.sh OUT_DIR [BUDGET] [SECONDS_PER_KERNEL]
set -uo pipefail
out=$(realpath -m "${1:?output folder}")
budget=${2:-12}
per_kernel=${3:-40}
# OPT_KERNELS="ID ..." limits the runs to these kernels, OPT_ONLY=1 stops after
# the first optimize and its report (shorter device calls), OPT_VERBOSE=1
# prints each attempt with where its time went (stark optimize -v).
kflags=()
for k in ${OPT_KERNELS:-}; do kflags+=(--kernel "$k"); done
bundle=$(realpath .device)
jobs=$(nproc)
mkdir -p "$out"
status=0
log="$out/optimize-run.log"
step() { echo; echo "== $* ($(date +%T))"; }
run() { "$@" || { echo "FAILED ($?): $*"; status=1; }; }

{
  step "unpack the bundle"
  run sh "$bundle/bundle/unpack.sh" /tmp/stark
  step "googletest"
  run sh -c "cmake -S '$bundle/googletest' -B /tmp/gtest-build-bundle -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX=/tmp/gtest >/dev/null && ninja -C /tmp/gtest-build-bundle -j$jobs install >/dev/null"
  # The bundle's own stark-worker and capture library: built with its stark
  # from one source tree, so the worker protocol always matches.
  run /tmp/stark/bin/stark doctor
  step "examples/nnops against the bundle's CMake package"
  run sh -c "cmake -S examples/nnops -B /tmp/nnops-build -G Ninja -DCMAKE_PREFIX_PATH='/tmp/stark;/tmp/gtest' >/dev/null && \
    ninja -C /tmp/nnops-build -j$jobs >/dev/null"
  step "stark optimize (budget $budget, at most ${per_kernel}s per kernel), capturing the test suite"
  run /usr/bin/time -v /tmp/stark/bin/stark optimize ${OPT_VERBOSE:+-v} -p /tmp/nnops-build --target nnops \
    --budget "$budget" --time-limit "$per_kernel" "${kflags[@]}" --out /tmp/result -- /tmp/nnops-build/tests/nnops_tests
  cp /tmp/result/result.json "$out/result.json"  # now: the device call may be cut before the end
  if [[ -n ${OPT_ONLY:-} ]]; then  # the search and its report only (a shorter device call)
    run /tmp/stark/bin/stark report --result /tmp/result --format md -o "$out/report.md"
    echo "optimize-run: OPT_ONLY: stopped after the first optimize"
    exit $status
  fi
  step "incremental run: the same optimize again, nothing changed: no search, every kernel a cache hit"
  # Later runs reuse the captures of the first (no test command after --).
  again() {  # $1: result folder; prints the wall time and each kernel's cache state
    local t0=$(date +%s.%N)
    run /tmp/stark/bin/stark optimize -p /tmp/nnops-build --target nnops --budget "$budget" \
      --time-limit "$per_kernel" "${kflags[@]}" --out "$1"
    echo "wall time: $(python3 -c 'import sys,time; print(round(time.time() - float(sys.argv[1]), 1))' "$t0") s"
    python3 -c 'import json,sys; [print(" ", k["cache"], k["status"], k["attempts"], k["id"]) for k in json.load(open(sys.argv[1]))["kernels"]]' "$1/result.json"
  }
  again /tmp/result-again
  step "incremental run: one line of transpose_kernel edited: only that kernel searched again"
  cp examples/nnops/src/transpose.cu /tmp/transpose.cu.orig
  run sed -i 's|^  int c = blockIdx.x \* blockDim.x + threadIdx.x;  // column of `in`$|  const int c = blockIdx.x * blockDim.x + threadIdx.x;  // column of `in`|' \
    examples/nnops/src/transpose.cu
  again /tmp/result-edited
  cp /tmp/transpose.cu.orig examples/nnops/src/transpose.cu  # the result of the first run is for the original
  run /tmp/stark/bin/stark cache stats -p /tmp/nnops-build
  step "reports and the patch"
  run /tmp/stark/bin/stark report --result /tmp/result --format md -o "$out/report.md"
  run /tmp/stark/bin/stark report --result /tmp/result --format html -o "$out/report.html"
  run /tmp/stark/bin/stark apply --result /tmp/result --mode patch -o "$out/patch.diff"
  step "the LLM path with a scripted model (scripts/gpu/scripted-llm.py): hand-written faster kernels to find and rank"
  rm -rf /tmp/stark-scripted-llm "/tmp/nnops-build/.stark/llm-cache"
  run /tmp/stark/bin/stark optimize -p /tmp/nnops-build --target nnops --backend command \
    --command "python3 $PWD/scripts/gpu/scripted-llm.py" --budget 5 --time-limit 45 \
    --kernel src/reduce.cu:nnops::reduce_sum_kernel --kernel src/transpose.cu:nnops::transpose_kernel \
    --out /tmp/scripted-result
  run /tmp/stark/bin/stark report --result /tmp/scripted-result --format md -o /tmp/scripted-result/report.md
  tar -C /tmp -czf "$out/scripted-result.tar.gz" scripted-result/result.json scripted-result/report.md 2>/dev/null
  step "variants mode: the result where stark_optimize_target() looks for it; the next build compiles the variants"
  rm -rf /tmp/nnops-build/stark/nnops && mkdir -p /tmp/nnops-build/stark && cp -r /tmp/result /tmp/nnops-build/stark/nnops
  run cmake -S examples/nnops -B /tmp/nnops-build
  run cmake --build /tmp/nnops-build -j$jobs
  run sh -c "grep -c 'stark/nnops/variants/tree' /tmp/nnops-build/compile_commands.json | sed 's/^/units compiled from the variant tree: /'"
  run /tmp/nnops-build/tests/nnops_tests --gtest_brief=1
  step "the winners applied in place (originals built again: STARK_USE_VARIANTS=OFF); the project's own tests on them"
  run cmake -S examples/nnops -B /tmp/nnops-build -DSTARK_USE_VARIANTS=OFF
  run /tmp/stark/bin/stark apply --result /tmp/result --mode inplace
  run ninja -C /tmp/nnops-build -j$jobs
  run /tmp/nnops-build/tests/nnops_tests
  step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
  [ $status = 0 ]
} 2>&1 | tee "$log"
status=${PIPESTATUS[0]}  # the block ran in a subshell: its own status variable is gone
exit $status
