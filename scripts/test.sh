#!/usr/bin/env bash
# Builds STARK and runs its whole test suite: what CI runs (.ci/run).
# Tests that need a GPU carry the ctest label `gpu` and skip without one.
#
#   scripts/test.sh [BUILD_DIR]      (default: build)
#   STARK_WERROR=ON scripts/test.sh  (what CI runs: warnings fail the build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

scripts/install-deps.sh
# STARK_WERROR=ON in the environment (CI sets it) makes warnings errors.
cmake -S . -B "$build" -G Ninja ${STARK_WERROR:+-DSTARK_WERROR=$STARK_WERROR}
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
