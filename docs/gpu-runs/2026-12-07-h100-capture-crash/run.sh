#!/usr/bin/env bash
# The capture-without-a-device-stage crash, traced: runs after gpu-run.sh (tests only) built /tmp/stark-gpu.
out=$1; carry=$(dirname "$0")/..
gcc -shared -fPIC -o /tmp/segv_trace.so "$carry/diag/segv_trace.c"
t=$(find /tmp/stark-gpu -name harness_gpu_test -type f | head -1)
for i in 1 2 3 4; do
  SEGV_LOG=$out/segv-$i.txt LD_PRELOAD=/tmp/segv_trace.so timeout 120 "$t" --gtest_filter='Capture.WithoutADeviceStage*' >"$out/no-stage-$i.log" 2>&1
  echo "run $i: exit $?"; grep -E "captures? \(|signal|PASSED|FAILED" "$out/no-stage-$i.log" | head -12
  [[ -f $out/segv-$i.txt ]] && python3 "$carry/diag/symbolize.py" "$out/segv-$i.txt" | head -40
done
