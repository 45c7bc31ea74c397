// The kernels of the harness's GPU test project (kernels.cu), as the test
// program and the capture test see them.
#pragma once
#include <cuda_runtime.h>

struct Span {  // a struct holding a device pointer: launches with it are refused
  float* data;
  int n;
};

__global__ void scale(int n, float a, const float* x, float* y);
__global__ void saxpy(int n, float a, const float* x, float* y);
__global__ void matmul(int n, const float* A, const float* B, float* C);
__global__ void block_sum(int n, const float* x, float* out);
__global__ void add_bias(int n, const float* x, float* y);
__global__ void fill_span(Span s, float v);
// negate<T> is a kernel template defined in kernels.cu; CUDA 13 launches a
// template instantiation only from its own translation unit, hence these.
void launch_negate(int n, const float* x, float* y, dim3 grid, dim3 block, cudaStream_t stream);
void launch_negate(int n, const double* x, double* y, dim3 grid, dim3 block, cudaStream_t stream);
__global__ void never_launched(int n, float* y);

void set_bias(const float* host4);
