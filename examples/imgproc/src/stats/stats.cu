// Mean and variance of an image: per-block partial sums in double, reduced
// in shared memory with cooperative-groups synchronisation, finished on the
// host by a routine older than C++17.
#include <cooperative_groups.h>
#include <stark/stark.h>

#include <vector>

#include "common/cuda_util.cuh"

namespace cg = cooperative_groups;

namespace imgproc {
namespace detail {

/// A typed view of the block's dynamic shared memory: templates cannot
/// declare `extern __shared__ T smem[]` for each T.
template <typename T>
struct SharedArray {
  __device__ T* get() {
    extern __shared__ unsigned char shared_bytes[];
    return reinterpret_cast<T*>(shared_bytes);
  }
};

template <int kBlock>
STARK_OPTIMIZE()
__global__ void block_moments(const float* in, Shape shape, double* partial_sum, double* partial_squares) {
  cg::thread_block block = cg::this_thread_block();
  double* sums = SharedArray<double>().get();
  double* squares = sums + kBlock;
  const long long count = static_cast<long long>(shape.width) * shape.height;
  double s = 0.0, q = 0.0;
  for (long long i = static_cast<long long>(blockIdx.x) * kBlock + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * kBlock) {
    const int y = static_cast<int>(i / shape.width), x = static_cast<int>(i % shape.width);
    const double v = in[static_cast<size_t>(y) * shape.pitch + x];
    s += v;
    q += v * v;
  }
  sums[threadIdx.x] = s;
  squares[threadIdx.x] = q;
  block.sync();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      sums[threadIdx.x] += sums[threadIdx.x + stride];
      squares[threadIdx.x] += squares[threadIdx.x + stride];
    }
    block.sync();
  }
  if (threadIdx.x == 0) {
    partial_sum[blockIdx.x] = sums[0];
    partial_squares[blockIdx.x] = squares[0];
  }
}

constexpr int kMomentsBlock = 256;
constexpr int kMaxMomentsBlocks = 1024;

// The host half, as the library first wrote it.
static void finish_moments(const double* sums, const double* squares, int blocks, long long count, Moments* out) {
  register double s = 0.0, q = 0.0;
  for (register int b = 0; b < blocks; ++b) {
    s += sums[b];
    q += squares[b];
  }
  out->mean = s / static_cast<double>(count);
  out->variance = q / static_cast<double>(count) - out->mean * out->mean;
}

}  // namespace detail

cudaError_t image_moments(const float* in, Shape shape, Moments* moments, cudaStream_t stream) {
  using namespace detail;
  const long long count = static_cast<long long>(shape.width) * shape.height;
  if (count <= 0 || moments == nullptr) return cudaErrorInvalidValue;
  const int blocks = ceil_div(count, kMomentsBlock) < kMaxMomentsBlocks ? ceil_div(count, kMomentsBlock)
                                                                          : kMaxMomentsBlocks;
  double* partial = nullptr;
  IMGPROC_TRY(cudaMalloc(&partial, sizeof(double) * 2 * blocks));
  block_moments<kMomentsBlock><<<blocks, kMomentsBlock, 2 * kMomentsBlock * sizeof(double), stream>>>(
      in, shape, partial, partial + blocks);
  std::vector<double> host(2 * static_cast<size_t>(blocks));
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(host.data(), partial, sizeof(double) * host.size(), cudaMemcpyDeviceToHost, stream);
  if (status == cudaSuccess) status = cudaStreamSynchronize(stream);
  cudaFree(partial);
  if (status == cudaSuccess) finish_moments(host.data(), host.data() + blocks, blocks, count, moments);
  return status;
}

}  // namespace imgproc
