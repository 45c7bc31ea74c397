#!/usr/bin/env bash
# Prepares .device/ (git-ignored), the folder carried to the GPU machine:
# the relocatable bundle, googletest sources, and the reference manifest of
# examples/nnops scanned here by the same bundle.
#
#   scripts/gpu/prepare-carry.sh        (after scripts/build-bundle.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
carry=.device
rm -rf "$carry"
mkdir -p "$carry"
[[ -f .bundle/unpack.sh ]] || { echo "prepare-carry: run scripts/build-bundle.sh first" >&2; exit 1; }
cp -r .bundle "$carry/bundle"
cp -r /usr/src/googletest "$carry/googletest"

here=$(mktemp -d)
trap 'rm -rf "$here"' EXIT
sh .bundle/unpack.sh "$here/stark" >/dev/null
cmake -S examples/nnops -B "$here/nnops-build" -G Ninja -DCMAKE_PREFIX_PATH="$here/stark" >/dev/null
"$here/stark/bin/stark" scan -p "$here/nnops-build" --target nnops -o "$carry/manifest-here.json"
du -sh "$carry"
