#!/usr/bin/env bash
# GPU-machine stage for the second example: examples/imgproc (separable
# compilation, kernel pointers, cooperative groups, __constant__ memory from
# another unit) built against the bundle, its self-checking programs run,
# then every marked kernel captured from them, searched and timed, and the
# winners applied in place with the checks run again.
#
# Here (development machine), once:
#   scripts/build-bundle.sh && scripts/gpu/prepare-carry.sh      -> .device/
# There (GPU machine), from the repository root, carrying .device:
#   scripts/gpu/imgproc-run.sh OUT_DIR [BUDGET] [SECONDS_PER_KERNEL]
set -uo pipefail
out=$(realpath -m "${1:?output folder}")
budget=${2:-12}
per_kernel=${3:-40}
bundle=$(realpath .device)
jobs=$(nproc)
mkdir -p "$out"
status=0
log="$out/imgproc-run.log"
step() { echo; echo "== $* ($(date +%T))"; }
run() { "$@" || { echo "FAILED ($?): $*"; status=1; }; }

{
  step "unpack the bundle"
  [ -x /tmp/stark/bin/stark ] || run sh "$bundle/bundle/unpack.sh" /tmp/stark
  run /tmp/stark/bin/stark doctor
  step "examples/imgproc against the bundle's CMake package, and its own checks"
  run sh -c "cmake -S examples/imgproc -B /tmp/imgproc-build -G Ninja -DCMAKE_PREFIX_PATH=/tmp/stark >/dev/null && \
    ninja -C /tmp/imgproc-build -j$jobs >/dev/null"
  run ctest --test-dir /tmp/imgproc-build --output-on-failure
  step "stark scan: kernels, instantiations, fixed launches, module variables"
  run /tmp/stark/bin/stark scan -p /tmp/imgproc-build --target imgproc -o "$out/manifest.json"
  run /tmp/stark/bin/stark scan -p /tmp/imgproc-build --target imgproc --list
  step "stark optimize (budget $budget, at most ${per_kernel}s per kernel), capturing the checks"
  run /usr/bin/time -v /tmp/stark/bin/stark optimize -v -p /tmp/imgproc-build --target imgproc \
    --budget "$budget" --time-limit "$per_kernel" --out /tmp/imgproc-result -- ctest --test-dir /tmp/imgproc-build
  cp /tmp/imgproc-result/result.json "$out/result.json"
  run /tmp/stark/bin/stark report --result /tmp/imgproc-result --format md -o "$out/report.md"
  run /tmp/stark/bin/stark report --result /tmp/imgproc-result --format html -o "$out/report.html"
  run /tmp/stark/bin/stark apply --result /tmp/imgproc-result --mode patch -o "$out/patch.diff"
  step "the winners applied in place; the checks on them"
  run /tmp/stark/bin/stark apply --result /tmp/imgproc-result --mode inplace
  run ninja -C /tmp/imgproc-build -j$jobs
  run ctest --test-dir /tmp/imgproc-build --output-on-failure
  git checkout -- examples/imgproc 2>/dev/null || true
  step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
  [ $status = 0 ]
} 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
exit $status
