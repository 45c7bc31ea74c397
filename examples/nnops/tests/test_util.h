// Shared helpers of the nnops tests: a fixture that skips without a GPU,
// device buffers, deterministic pseudo-random data and parallel CPU loops.
#ifndef NNOPS_TESTS_TEST_UTIL_H
#define NNOPS_TESTS_TEST_UTIL_H

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace nnops_test {

// Every test uses this fixture: without a usable CUDA device it is skipped.
class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount failed: " << cudaGetErrorString(err);
    }
    if (count == 0) GTEST_SKIP() << "no CUDA device: cudaGetDeviceCount returned 0";
  }
};

inline void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

// Waits for the launched work and reports any error it raised.
inline void sync() {
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

// An owning device allocation of n elements of T.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t n) : n_(n) { check(cudaMalloc(reinterpret_cast<void**>(&p_), bytes()), "cudaMalloc"); }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    if (host.size() != n_) throw std::invalid_argument("DeviceBuffer::upload: size mismatch");
    check(cudaMemcpy(p_, host.data(), bytes(), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  std::vector<T> download() const {
    sync();
    std::vector<T> host(n_);
    check(cudaMemcpy(host.data(), p_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
    return host;
  }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

// Runs f(begin, end) over [0, n) split across the machine's cores (for
// n >= 256; callers pass heavy items when n is small, e.g. whole rows).
template <typename F>
void parallel_for(size_t n, F f) {
  size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 32);
  if (n < 256 || threads == 1) {
    f(size_t{0}, n);
    return;
  }
  size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (size_t begin = 0; begin < n; begin += chunk) pool.emplace_back(f, begin, std::min(n, begin + chunk));
  for (auto& t : pool) t.join();
}

// Counter-based pseudo-random numbers (splitmix64): element i of stream
// `seed` does not depend on how the work is split, so data is reproducible.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
inline double unit(uint64_t seed, uint64_t i) {  // in [0, 1)
  return static_cast<double>(mix64(mix64(seed) + (i + 1) * 0x9e3779b97f4a7c15ULL) >> 11) * 0x1.0p-53;
}

// n values uniform in [lo, hi).
template <typename T>
std::vector<T> uniform(size_t n, double lo, double hi, uint64_t seed) {
  std::vector<T> v(n);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) v[i] = static_cast<T>(lo + (hi - lo) * unit(seed, i));
  });
  return v;
}

// Counts the i in [0, n) for which ok(i) is false; `first_bad` gets the
// smallest such i (or n).
template <typename F>
size_t count_failures(size_t n, F ok, size_t* first_bad) {
  std::mutex mu;
  size_t total = 0;
  *first_bad = n;
  parallel_for(n, [&](size_t begin, size_t end) {
    size_t bad = 0, first = n;
    for (size_t i = begin; i < end; ++i) {
      if (!ok(i) && bad++ == 0) first = i;
    }
    std::lock_guard<std::mutex> lock(mu);
    total += bad;
    *first_bad = std::min(*first_bad, first);
  });
  return total;
}

}  // namespace nnops_test

#endif  // NNOPS_TESTS_TEST_UTIL_H
