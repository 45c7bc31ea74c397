#!/usr/bin/env bash
# GPU-machine stage: the relocatable bundle (scripts/build-bundle.sh) scans
# examples/nnops there, and the example's own tests run on the GPU.
# Run from the repository root on the GPU machine, with the carried folder
# prepared by scripts/gpu/prepare-carry.sh:
#
#   scripts/gpu/scan-check.sh CARRIED_DIR OUT_DIR
set -uo pipefail
carried=$(realpath "${1:?carried folder}")
out=$(realpath -m "${2:?output folder}")
mkdir -p "$out"
status=0
step() { echo; echo "== $*"; }
run() { "$@" || { echo "FAILED ($?): $*"; status=1; }; }

{
  step "unpack the bundle"
  run sh "$carried/bundle/unpack.sh" /tmp/stark
  step "stark doctor"
  run /tmp/stark/bin/stark doctor
  step "googletest from carried sources"
  run cmake -S "$carried/googletest" -B /tmp/gtest-build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX=/tmp/gtest -DBUILD_GMOCK=ON >/dev/null
  run cmake --build /tmp/gtest-build >/dev/null
  run cmake --install /tmp/gtest-build >/dev/null
  step "configure and build examples/nnops against the bundle's CMake package"
  run cmake -S examples/nnops -B /tmp/nnops-build -G Ninja -DCMAKE_PREFIX_PATH="/tmp/stark;/tmp/gtest"
  run cmake --build /tmp/nnops-build
  step "the example's tests on the GPU"
  run /tmp/nnops-build/tests/nnops_tests
  step "stark scan, 5 runs with per-unit timings"
  for i in 1 2 3 4 5; do
    run /tmp/stark/bin/stark scan -p /tmp/nnops-build --target nnops --timings -o "$out/manifest-gpu.json"
  done
  step "the manifest equals the one made on the development machine"
  run python3 scripts/compare-manifests.py "$carried/manifest-here.json" "$out/manifest-gpu.json"
  step "result: $([ $status = 0 ] && echo PASS || echo FAIL)"
} 2>&1 | tee "$out/scan-check.log"
exit $status
