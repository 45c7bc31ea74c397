#!/usr/bin/env python3
"""A scripted model for `stark optimize --backend command`: the GPU-machine
proof that the LLM path finds, verifies and ranks genuinely faster kernels.

Each request arrives on stdin as the command backend's JSON ({"role",
"messages", ...}). For the two nnops kernels it knows (reduce_sum_kernel and
transpose_kernel) the plan role names the next of a fixed list of hand-written
variants, in turn, and the code role returns that variant; the variants differ
in speed, so the search has something to rank. Any other kernel gets prose
without code (which the search must survive). Turns are counted per kernel in
STARK_SCRIPTED_STATE (default /tmp/stark-scripted-llm), under a lock, because
the backend runs several requests at once.
"""
import fcntl
import json
import os
import re
import sys

REDUCE_HEAD = ('[[stark::optimize("rtol=1e-3", "atol=1e-2")]] __global__ void reduce_sum_kernel(int n, const float* x,\n'
               '                                                                                 float* out) {\n')
BLOCK_SUM = """  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  __shared__ float warp_sums[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int warps = (blockDim.x + 31) >> 5;
    v = lane < warps ? warp_sums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) atomicAdd(out, v);
  }
}"""

TRANSPOSE_HEAD = "[[stark::optimize]] __global__ void transpose_kernel(int rows, int cols, const float* in, float* out) {\n"
TRANSPOSE_BODY = """  __shared__ float tile[32][{width}];
  int c = blockIdx.x * 32 + threadIdx.x;  // column of `in`
  int r0 = blockIdx.y * 32;
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {{
    int r = r0 + j;
    if (r < rows && c < cols) tile[j][threadIdx.x] = in[static_cast<size_t>(r) * cols + c];
  }}
  __syncthreads();
  int oc = r0 + threadIdx.x;        // column of `out` = row of `in`
  int orow0 = blockIdx.x * 32;      // first row of `out` = first column of `in`
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {{
    int orow = orow0 + j;
    if (orow < cols && oc < rows) out[static_cast<size_t>(orow) * rows + oc] = tile[threadIdx.x][j];
  }}
}}"""
TRANSPOSE_LAUNCH = '{"grid": ["ceil_div(cols, 32)", "ceil_div(rows, 32)", "1"], "block": ["32", "8", "1"]}'

# kernel -> [(strategy, source, launch or None)], in the order the plan role proposes them.
VARIANTS = {
    "reduce_sum_kernel": [
        ("scripted-warp-atomics", REDUCE_HEAD + """  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}""", None),
        ("scripted-block-reduce", REDUCE_HEAD + """  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
""" + BLOCK_SUM, None),
        ("scripted-grid-stride-block-reduce", REDUCE_HEAD + """  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += x[i];
""" + BLOCK_SUM, '{"grid": "min(ceil_div(n, 256), 1056)", "block": "256"}'),
    ],
    "transpose_kernel": [
        ("scripted-shared-tile-unpadded", TRANSPOSE_HEAD + TRANSPOSE_BODY.format(width=32), TRANSPOSE_LAUNCH),
        ("scripted-shared-tile-padded", TRANSPOSE_HEAD + TRANSPOSE_BODY.format(width=33), TRANSPOSE_LAUNCH),
    ],
}


def next_turn(kernel):
    """How many plans this kernel has had so far (then counts this one)."""
    state = os.environ.get("STARK_SCRIPTED_STATE", "/tmp/stark-scripted-llm")
    os.makedirs(state, exist_ok=True)
    with open(os.path.join(state, kernel + ".count"), "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        turn = int(f.read() or 0)
        f.seek(0)
        f.truncate()
        f.write(str(turn + 1))
    return turn


def answer(request):
    text = "\n".join(m.get("content", "") for m in request.get("messages", []))
    kernel = next((k for k in VARIANTS if k in text), None)
    if kernel is None:
        return "I have no scripted idea for this kernel."
    variants = VARIANTS[kernel]
    role = request.get("role", "")
    if role == "plan":
        strategy, source, _ = variants[next_turn(kernel) % len(variants)]
        # No span markers: the search falls back to one span over the body.
        return f"STRATEGY: {strategy}\n```cuda\n{source}\n```\n"
    # code and debug: the variant the plan named (debug: the plan's variant again).
    named = re.search(r"The plan: (scripted-[a-z-]+)", text) or re.search(r"(scripted-[a-z-]+)", text)
    chosen = next((v for v in variants if named and v[0] == named.group(1)), variants[-1])
    _, source, launch = chosen
    return f"Here is the kernel.\n```cuda\n{source}\n```\n" + (f"LAUNCH: {launch}\n" if launch else "")


if __name__ == "__main__":
    sys.stdout.write(answer(json.load(sys.stdin)))
