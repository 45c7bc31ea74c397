// Row loops that look like reductions but are not: each step reads the
// running value (written out, or feeding another update), so threads that
// each see part of the row cannot compute them. The expert must not offer a
// block per row here; and a batch of rows spread over the grid's y keeps
// its y when rows become blocks.
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

// A running sum written at every step (an inclusive scan of each row).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void row_prefix_sum(int rows, int cols, const float* in, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float running = 0.0f;
  for (int c = 0; c < cols; ++c) {
    running += in[(size_t)r * cols + c];
    out[(size_t)r * cols + c] = running;
  }
}

// Welford's mean and variance: the mean's update feeds the second moment's.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void row_welford(int rows, int cols, const float* in, float* mean_out, float* var_out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float mean = 0.0f, m2 = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float v = in[(size_t)r * cols + c];
    float delta = v - mean;
    mean += delta / (c + 1);
    m2 += delta * (v - mean);
  }
  mean_out[r] = mean;
  var_out[r] = m2 / cols;
}

// A real row sum, one matrix of the batch per grid row (blockIdx.y).
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void row_sum_batched(int rows, int cols, const float* m, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* matrix = m + (size_t)blockIdx.y * rows * cols;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c) acc += matrix[(size_t)r * cols + c];
  out[(size_t)blockIdx.y * rows + r] = acc;
}

void row_recurrence(int batch, int rows, int cols, const float* in, float* out, float* aux, cudaStream_t s) {
  row_prefix_sum<<<(rows + 127) / 128, 128, 0, s>>>(rows, cols, in, out);
  row_welford<<<(rows + 127) / 128, 128, 0, s>>>(rows, cols, in, out, aux);
  row_sum_batched<<<dim3((rows + 127) / 128, batch), 128, 0, s>>>(rows, cols, in, out);
}

}  // namespace styles
