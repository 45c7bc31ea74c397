#!/usr/bin/env bash
# The main job: the example project (examples/nnops) through STARK's pipeline
# with the built-in backend. Builds and installs STARK into out/stark,
# configures the example against the installed package (find_package(STARK)),
# builds it, and runs its `stark_optimize` target.
#
#   scripts/run-example.sh            everything under out/
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/out

scripts/install-deps.sh
cmake -S . -B "$out/stark-build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTARK_BUILD_TESTS=OFF
cmake --build "$out/stark-build"
cmake --install "$out/stark-build" --prefix "$out/stark"

cmake -S examples/nnops -B "$out/nnops-build" -G Ninja -DCMAKE_PREFIX_PATH="$out/stark"
cmake --build "$out/nnops-build"
cmake --build "$out/nnops-build" --target stark_optimize

echo
echo "run-example: results under $out/nnops-build/stark/nnops/"
ls -l "$out/nnops-build/stark/nnops/"
