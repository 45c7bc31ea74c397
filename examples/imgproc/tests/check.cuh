// What the self-checking programs share: device buffers, a seeded random
// image, and a comparison that names the first pixel that differs.
#pragma once

#include <cuda_runtime.h>
#include <imgproc/imgproc.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CHECK_CUDA(call)                                                                       \
  do {                                                                                         \
    cudaError_t status_ = (call);                                                              \
    if (status_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

/// A device copy of a host vector, freed at scope exit.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) { CHECK_CUDA(cudaMalloc(&data_, count * sizeof(T))); }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    CHECK_CUDA(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return data_; }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    CHECK_CUDA(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* data_ = nullptr;
  size_t count_;
};

template <typename T>
std::vector<T> random_values(size_t count, unsigned seed, double lo = 0.0, double hi = 1.0) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(count);
  for (auto& x : v) x = static_cast<T>(dist(gen));
  return v;
}

/// Compares `got` with `want` where `mask(i)` holds; prints the first
/// mismatch. True when all agree within rtol * |want| + atol.
template <typename T, typename Mask>
bool close(const char* what, const std::vector<T>& got, const std::vector<T>& want, double rtol, double atol,
           Mask mask) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (!mask(i)) continue;
    const double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
    if (!(std::fabs(g - w) <= rtol * std::fabs(w) + atol)) {
      std::printf("FAIL %s: element %zu is %.9g, expected %.9g\n", what, i, g, w);
      return false;
    }
  }
  std::printf("ok   %s\n", what);
  return true;
}
