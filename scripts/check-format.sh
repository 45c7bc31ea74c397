#!/usr/bin/env bash
# Checks that STARK's own C++ sources are formatted as .clang-format says,
# and names the files that are not. With --fix, formats them in place.
#
#   scripts/check-format.sh [--fix]
#
# Left alone: code that stands for users' code (bench/ kernels,
# examples/, tests/projects/), which must stay as its authors wrote it,
# and CUDA sources (.cu, .cuh).
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-$(command -v clang-format-19 || command -v clang-format || true)}
[[ -n $format ]] || { echo "check-format: no clang-format-19 (scripts/install-deps.sh installs it)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v -e '^bench/' -e '^examples/' -e '^tests/projects/')
if [[ ${1:-} == --fix ]]; then
  "$format" -i "${files[@]}"
  exit 0
fi
# One clang-format for all the files; its errors name them.
mapfile -t bad < <("$format" --dry-run -Werror "${files[@]}" 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) not formatted as .clang-format says (scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
