#!/usr/bin/env bash
# Runs clang-tidy-19 (.clang-tidy's checks) on STARK's own sources: every
# .cpp outside tests, benchmarks, examples and test projects, with the
# compile commands of a configured build (default: build/).
#
#   scripts/check-tidy.sh [BUILD_DIR] [FILE...]
#
# Prints each finding as file:line:col and exits 1 if there is any (2 when
# it cannot run: no build, no clang-tidy-19).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
[[ -f $build/compile_commands.json ]] || { echo "check-tidy: no $build/compile_commands.json (configure first)" >&2; exit 2; }
tidy=$(command -v clang-tidy-19 || command -v clang-tidy) || { echo "check-tidy: clang-tidy-19 is not installed" >&2; exit 2; }
if (($# == 0)); then
  mapfile -t files < <(git ls-files '*.cpp' | grep -vE '(^|/)(tests|bench|examples|build-bundle)/|_test\.cpp$|^tests/')
else
  files=("$@")
fi
# Findings in STARK's files only: clang 19 rejects a template of dtl 1.20's
# Diff.hpp that gcc never instantiates (core/unified_diff.cpp), an error in
# a system header this check has no say over.
root=$PWD
out=$(printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 "$tidy" -p "$build" --quiet 2>/dev/null |
  grep -E "^$root/.*:[0-9]+:[0-9]+: (warning|error):" | sed "s|^$root/||" | sort -u)
if [[ -n $out ]]; then
  echo "$out"
  echo "check-tidy: $(wc -l <<<"$out") finding(s) in ${#files[@]} files" >&2
  exit 1
fi
echo "check-tidy: ${#files[@]} files clean"
