// The project's own test program: what ctest runs and the capture records.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

namespace swap {
void square_all(int n, float* x);
}

int main() {
  const int n = 1 << 16;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 0.001f * static_cast<float>(i % 1000);
  float* x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "square_test: no GPU\n");
    return 1;
  }
  cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  swap::square_all(n, x);
  std::vector<float> out(n);
  cudaMemcpy(out.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(x);
  for (int i = 0; i < n; ++i)
    if (out[i] != host[i] * host[i]) {
      std::fprintf(stderr, "square_test: x[%d] = %g, expected %g\n", i, out[i], host[i] * host[i]);
      return 1;
    }
  std::printf("square_test: %d values squared\n", n);
  return 0;
}
