#!/usr/bin/env python3
"""regenerate.py STARK_EXE: rewrites the report test data in tests/report/.

- result/manifest.json: `stark scan` of project/src/*.cu (a compile database
  written here), with machine-specific paths made relative to result/.
- result/result.json: the hand-designed result below (six kernels, one of
  them with a 30-node search tree), in the stark.result/1 contract.

The figures are invented but consistent (speedup = baseline / best, best =
the winner node's time, attempts = non-root nodes); run this again after
editing a source under project/ so the manifest's ranges and hashes match.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.join(HERE, "project")
RESULT = os.path.join(HERE, "result")
INCLUDE = os.path.normpath(os.path.join(HERE, "..", "..", "include"))
SOURCES = ["ops.cu", "softmax.cu", "transpose.cu", "histogram.cu"]


def scan(stark):
    with tempfile.TemporaryDirectory() as build:
        db = [{"directory": build, "file": os.path.join(PROJECT, "src", f),
               "arguments": ["nvcc", "-I" + INCLUDE, "-std=c++17", "-arch=sm_90", "-c",
                             os.path.join(PROJECT, "src", f), "-o", f + ".o"]} for f in SOURCES]
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump(db, f)
        out = os.path.join(build, "manifest.json")
        subprocess.run([stark, "scan", "-p", build, "--source-root", PROJECT, "-o", out], check=True)
        text = open(out).read()
        text = text.replace(build, "../build").replace(PROJECT, "../project").replace(INCLUDE, "../../../include")
    with open(os.path.join(RESULT, "manifest.json"), "w") as f:
        f.write(text)


# ---------------------------------------------------------------- variants
SAXPY_F4 = """__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 < n) {
    float4 xv = *reinterpret_cast<const float4*>(x + i);
    float4 yv = *reinterpret_cast<float4*>(y + i);
    yv.x = a * xv.x + yv.x;
    yv.y = a * xv.y + yv.y;
    yv.z = a * xv.z + yv.z;
    yv.w = a * xv.w + yv.w;
    *reinterpret_cast<float4*>(y + i) = yv;
  } else {
    for (; i < n; ++i) y[i] = a * x[i] + y[i];
  }
}"""

SAXPY_BEST = """__global__ void __launch_bounds__(256, 8)
saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  // Four float4 per thread: 16 elements, loads issued before the FMAs.
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  if (base + 15 < n) {
    float4 xv[4], yv[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      xv[k] = __ldg(reinterpret_cast<const float4*>(x + base) + k);
      yv[k] = reinterpret_cast<const float4*>(y + base)[k];
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      yv[k].x = fmaf(a, xv[k].x, yv[k].x);
      yv[k].y = fmaf(a, xv[k].y, yv[k].y);
      yv[k].z = fmaf(a, xv[k].z, yv[k].z);
      yv[k].w = fmaf(a, xv[k].w, yv[k].w);
      __stcs(reinterpret_cast<float4*>(y + base) + k, yv[k]);
    }
  } else {
    for (int i = base; i < n && i < base + 16; ++i) y[i] = fmaf(a, x[i], y[i]);
  }
}"""

SOFTMAX_BEST = """STARK_OPTIMIZE("budget=12", "rtol=1e-4")
__global__ void row_softmax(int rows, int cols, const float* __restrict__ in, float* __restrict__ out) {
  // One warp per row: strided passes and warp-shuffle reductions.
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float* x = in + (size_t)row * cols;
  float* y = out + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, x[c]);
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += __expf(x[c] - m);
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  float inv = 1.f / s;
  for (int c = lane; c < cols; c += 32) y[c] = __expf(x[c] - m) * inv;
}"""

TRANSPOSE_BEST = """template <typename T>
__global__ void transpose(int rows, int cols, const T* in, T* out) {
  // 32x32 tile in shared memory, padded against bank conflicts.
  __shared__ T tile[32][33];
  int c = blockIdx.x * 32 + threadIdx.x;
  int r = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (r + j < rows && c < cols) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
  __syncthreads();
  c = blockIdx.y * 32 + threadIdx.x;
  r = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (r + j < cols && c < rows) out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}"""


def variant(source, launch=None):
    v = {"schema": "stark.variant/1", "source": source}
    if launch:
        v["launch"] = launch
    return v


def annotated(source, strategy):
    """A node's source: its strategy as a comment over the skeleton it started from."""
    head, rest = source.split("{", 1)
    return head + "{\n  // " + strategy + rest


def tree(rows, sources, root_time, default):
    """rows: (id, parent, role, status, time_us, strategy, diagnostics)."""
    nodes = [{"id": 0, "parent": None, "role": "root", "status": "accepted", "time_us": root_time,
              "diagnostics": "", "variant": None}]
    for nid, parent, role, status, t, strategy, diag in rows:
        src = sources.get(nid) or annotated(default, strategy)
        nodes.append({"id": nid, "parent": parent, "role": role, "status": status, "time_us": t,
                      "diagnostics": diag, "variant": variant(src), "strategy": strategy})
    return nodes


SAXPY_ROWS = [
    (1, 0, "plan+code", "accepted", 318.0, "vectorize loads and stores with float4", ""),
    (2, 0, "plan+code", "accepted", 356.0, "grid-stride loop, 4 elements per thread", ""),
    (3, 0, "plan+code", "accepted", 401.0, "__restrict__ on x and y", ""),
    (4, 1, "plan+code", "accepted", 262.0, "float4 plus __restrict__ pointers", ""),
    (5, 0, "plan+code", "compile_error", None, "stage x through shared memory",
     "src/ops.cu(9): error: identifier \"tile\" is undefined"),
    (6, 5, "debug", "rejected", None, "declare the shared tile",
     "outputs differ: y[1048575] = 3.0, expected 2.5 (tail not handled)"),
    (7, 4, "plan+code", "accepted", 259.0, "512 threads per block", ""),
    (8, 4, "plan+code", "accepted", 247.0, "8 elements per thread (two float4)", ""),
    (9, 6, "debug", "accepted", 405.0, "handle the tail element-wise", ""),
    (10, 8, "plan+code", "accepted", 251.0, "__ldg read-only loads for x", ""),
    (11, 0, "plan+code", "accepted", 409.0, "1024 threads per block", ""),
    (12, 8, "plan+code", "accepted", 241.0, "#pragma unroll over the float4 pairs", ""),
    (13, 12, "plan+code", "accepted", 236.0, "cache-streaming stores (__stcs)", ""),
    (14, 13, "plan+code", "invalid", None, "grid = SMs x 8 with a grid-stride loop",
     "launch override: 'sm_count' is not an allowed name (parameters, grid.x..block.z, literals)"),
    (15, 14, "debug", "accepted", 239.0, "grid ceil_div(n, 2048) instead", ""),
    (16, 13, "plan+code", "compile_error", None, "float8 loads",
     "src/ops.cu(6): error: identifier \"float8\" is undefined"),
    (17, 16, "debug", "accepted", 233.0, "two float4 loads in flight", ""),
    (18, 2, "plan+code", "accepted", 329.0, "grid-stride plus __restrict__", ""),
    (19, 17, "plan+code", "rejected", None, "prefetch the next float4 before the FMAs",
     "repeat_stable: outputs differ on the second call (y was read from the previous run)"),
    (20, 17, "plan+code", "accepted", 228.0, "__launch_bounds__(256, 8)", ""),
    (21, 20, "plan+code", "rejected", None, "drop the bounds check for full blocks",
     "guard canary overwritten after y[1048576]: out-of-bounds write"),
    (22, 21, "debug", "accepted", 226.0, "bounds check on the last block only", ""),
    (23, 20, "plan+code", "accepted", 229.0, "early return for i >= n", ""),
    (24, 22, "plan+code", "accepted", 224.0, "four float4 per thread, loads before FMAs", ""),
    (25, 24, "plan+code", "compile_error", None, "cooperative_groups::memcpy_async staging",
     "src/ops.cu(12): error: namespace \"cooperative_groups\" has no member \"memcpy_async\""),
    (26, 25, "debug", "error", None, "include <cooperative_groups/memcpy_async.h>",
     "watchdog: kernel ran past 2.0 s; worker restarted"),
    (27, 24, "plan+code", "accepted", 231.0, "eight float4 per thread", ""),
    (28, 3, "plan+code", "accepted", 398.0, "__restrict__ with 512 threads", ""),
    (29, 24, "plan+code", "rejected", None, "half-precision FMA",
     "max relative error 3.1e-3 above rtol 1e-5"),
]

SOFTMAX_ROWS = [
    (1, 0, "plan+code", "accepted", 1240.0, "one block per row, shared-memory reductions", ""),
    (2, 0, "plan+code", "accepted", 712.0, "one warp per row, shuffle reductions", ""),
    (3, 0, "plan+code", "rejected", None, "online softmax in a single pass",
     "outputs differ: max relative error 2.4e-2 above rtol 1e-4"),
    (4, 2, "plan+code", "accepted", 685.0, "__restrict__ and one reciprocal per row", ""),
    (5, 2, "plan+code", "compile_error", None, "float4 loads of the row",
     "src/softmax.cu(12): error: no suitable conversion from \"float4\" to \"float\""),
    (6, 5, "debug", "rejected", None, "reinterpret the row as float4",
     "misaligned address: rows of 1000 floats are not 16-byte aligned"),
    (7, 4, "plan+code", "accepted", 702.0, "two rows per warp", ""),
    (8, 1, "plan+code", "accepted", 1105.0, "cub::BlockReduce for max and sum", ""),
    (9, 4, "plan+code", "accepted", 691.0, "cache the row in registers", ""),
    (10, 3, "debug", "accepted", 9020.0, "two-pass fallback", ""),
    (11, 9, "plan+code", "invalid", None, "launch from the device for long rows",
     "device-side launch: kernels may not launch kernels"),
]

TRANSPOSE_ROWS = [
    (1, 0, "plan+code", "accepted", 512.0, "32x32 shared-memory tile", ""),
    (2, 0, "plan+code", "accepted", 1390.0, "swap the thread mapping", ""),
    (3, 1, "plan+code", "accepted", 474.0, "pad the tile to 33 columns", ""),
    (4, 1, "plan+code", "compile_error", None, "tile of float4",
     "src/transpose.cu(8): error: no operator \"=\" matches these operands"),
    (5, 3, "plan+code", "accepted", 481.0, "64x64 tile, 4 rows per thread", ""),
    (6, 4, "debug", "rejected", None, "scalar fallback for the edges",
     "outputs differ: out[1023] = 0, expected 17.5 (edge tile skipped)"),
    (7, 3, "plan+code", "accepted", 479.0, "__restrict__ on in and out", ""),
    (8, 2, "plan+code", "accepted", 1402.0, "__ldg loads", ""),
]

SCALE_ROWS = [
    (1, 0, "plan+code", "accepted", 121.0, "float4 loads and stores", ""),
    (2, 0, "plan+code", "accepted", 123.0, "bias in shared memory", ""),
    (3, 0, "plan+code", "accepted", 125.0, "grid-stride loop", ""),
    (4, 1, "plan+code", "accepted", 122.0, "__restrict__ pointers", ""),
    (5, 2, "plan+code", "rejected", None, "bias in constant memory",
     "host code in variant: __constant__ initialisation needs cudaMemcpyToSymbol"),
]

HIST_ROWS = [
    (1, 0, "plan+code", "rejected", None, "per-block shared-memory histogram",
     "racecheck: 412 shared-memory hazards (write-write on bins_s)"),
    (2, 1, "debug", "rejected", None, "__syncthreads before the merge",
     "outputs differ: bins[17] = 1023, expected 1024"),
    (3, 0, "plan+code", "compile_error", None, "warp-aggregated atomics",
     "src/histogram.cu(7): error: identifier \"__match_any_sync_u8\" is undefined"),
    (4, 3, "debug", "rejected", None, "__match_any_sync on the byte value",
     "fuzzed inputs: outputs differ when every byte is equal"),
    (5, 0, "plan+code", "error", None, "privatised histograms per warp",
     "worker crashed (SIGSEGV) and was restarted"),
    (6, 2, "debug", "rejected", None, "atomicAdd_block on shared bins",
     "racecheck: 3 hazards on the global merge"),
]

SAXPY_ORIG = """__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}"""
SOFTMAX_ORIG = """__global__ void row_softmax(int rows, int cols, const float* in, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* x = in + (size_t)r * cols;
  float* y = out + (size_t)r * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, x[c]);
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += __expf(x[c] - m);
  for (int c = 0; c < cols; ++c) y[c] = __expf(x[c] - m) / s;
}"""
TRANSPOSE_ORIG = """template <typename T>
__global__ void transpose(int rows, int cols, const T* in, T* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}"""
SCALE_ORIG = """__global__ void scale_bias(int n, const float* x, const float* bias, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 0.5f + bias[i % 64];
}"""
HIST_ORIG = """__global__ void histogram(int n, const unsigned char* data, unsigned int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}"""

SANITIZER = [
    {"name": "memcheck", "ok": None,
     "detail": "compute-sanitizer is not installed on the GPU machine"},
    {"name": "racecheck", "ok": None,
     "detail": "compute-sanitizer is not installed on the GPU machine"},
]
PASSED = [{"name": n, "ok": True, "detail": d} for n, d in [
    ("correctness", "3 captures, max rel err 0"),
    ("fuzzed_inputs", "8 fuzzed inputs"),
    ("baseline_replay", "the original reproduces each capture"),
    ("inputs_unchanged", ""),
    ("repeat_stable", "second launch on the same buffers"),
    ("guard_canaries", "no write outside any buffer"),
    ("recheck_after_timing", ""),
    ("signature", "_Z5saxpyifPKfPf"),
]]


def kernel(kid, status, base, best, speedup, rows, best_variant, tokens, cost, checks, strategies,
           assumptions=(), cache="miss", tree_nodes=None):
    return {"id": kid, "status": status, "cache": cache, "baseline_us": base, "best_us": best,
            "speedup": speedup, "attempts": len(rows), "tokens": tokens, "cost_usd": cost,
            "best": best_variant, "checks": checks, "strategies": strategies,
            "assumptions": list(assumptions), "tree": tree_nodes}


def result():
    saxpy_tree = tree(SAXPY_ROWS, {1: SAXPY_F4, 24: SAXPY_BEST}, 412.0, SAXPY_F4)
    soft_tree = tree(SOFTMAX_ROWS, {4: SOFTMAX_BEST}, 8630.0, SOFTMAX_ORIG)
    trans_tree = tree(TRANSPOSE_ROWS, {3: TRANSPOSE_BEST}, 1480.0, TRANSPOSE_ORIG)
    scale_tree = tree(SCALE_ROWS, {}, 118.0, SCALE_ORIG)
    hist_tree = tree(HIST_ROWS, {}, 95.1, HIST_ORIG)
    for t, orig in [(saxpy_tree, SAXPY_ORIG), (soft_tree, SOFTMAX_ORIG), (trans_tree, TRANSPOSE_ORIG),
                    (scale_tree, SCALE_ORIG), (hist_tree, HIST_ORIG)]:
        t[0]["variant"] = variant(orig)
    saxpy_launch = {"grid": "ceil_div(n, 4096)", "block": "256"}
    saxpy_tree[24]["variant"]["launch"] = saxpy_launch
    soft_launch = {"grid": "ceil_div(rows * 32, 128)", "block": "128"}
    soft_tree[4]["variant"]["launch"] = soft_launch
    trans_launch = {"grid": ["ceil_div(cols, 32)", "ceil_div(rows, 32)", "1"], "block": ["32", "8", "1"]}
    trans_tree[3]["variant"]["launch"] = trans_launch

    def strategies(rows):
        return sorted({r[5] for r in rows if r[2] == "plan+code"})

    restrict = "__restrict__ added to {}: no captured launch passed aliasing pointers"
    kernels = [
        kernel("src/ops.cu:saxpy", "improved", 412.0, 224.0, round(412.0 / 224.0, 4), SAXPY_ROWS,
               {"source": SAXPY_BEST, "launch": saxpy_launch}, {"prompt": 412318, "completion": 61240}, 1.84,
               PASSED + SANITIZER, strategies(SAXPY_ROWS), [restrict.format("x and y")], tree_nodes=saxpy_tree),
        kernel("src/softmax.cu:row_softmax", "improved", 8630.0, 685.0, round(8630.0 / 685.0, 4), SOFTMAX_ROWS,
               {"source": SOFTMAX_BEST, "launch": soft_launch}, {"prompt": 180442, "completion": 30911}, 0.79,
               [dict(c, detail=c["detail"].replace("_Z5saxpyifPKfPf", "_Z11row_softmaxiiPKfPf")) for c in PASSED]
               + SANITIZER, strategies(SOFTMAX_ROWS), [restrict.format("in and out")], tree_nodes=soft_tree),
        kernel("src/transpose.cu:transpose", "improved", 1480.0, 474.0, round(1480.0 / 474.0, 4),
               TRANSPOSE_ROWS, {"source": TRANSPOSE_BEST, "launch": trans_launch},
               {"prompt": 0, "completion": 0}, 0.0,
               [dict(c, detail=c["detail"].replace("_Z5saxpyifPKfPf", "_Z9transposeIfEviiPKT_PS0_"))
                for c in PASSED] + SANITIZER,
               strategies(TRANSPOSE_ROWS), cache="hit", tree_nodes=trans_tree),
        kernel("src/ops.cu:scale_bias", "no_gain", 118.0, 121.0, round(118.0 / 121.0, 4), SCALE_ROWS, None,
               {"prompt": 52010, "completion": 8120}, 0.21, [], strategies(SCALE_ROWS), tree_nodes=scale_tree),
        kernel("src/histogram.cu:histogram", "failed", 95.1, None, None, HIST_ROWS, None,
               {"prompt": 61877, "completion": 11054}, 0.26,
               [{"name": "correctness", "ok": False, "detail": "no attempt produced bins equal "
                 "to the original's"}], strategies(HIST_ROWS), tree_nodes=hist_tree),
        kernel("src/ops.cu:clamp", "skipped", None, None, None, [], None, {"prompt": 0, "completion": 0}, None,
               [], [], cache="off", tree_nodes=[]),
    ]
    return {"schema": "stark.result/1", "source_root": "../project", "build_dir": "../build",
            "manifest": "manifest.json",
            "gpu": {"name": "NVIDIA H200", "sm": "90", "driver": "580.95.05", "cuda": "13.0",
                    "sm_count": 132, "mem_bandwidth_gbs": 4800},
            "backend": {"name": "anthropic", "model": "claude-sonnet-4"}, "seed": 7, "kernels": kernels}


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    os.makedirs(RESULT, exist_ok=True)
    scan(argv[1])
    with open(os.path.join(RESULT, "result.json"), "w") as f:
        json.dump(result(), f, indent=1, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
