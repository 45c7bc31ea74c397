// Launch helpers private to the library: grid sizes and the launch check.
#ifndef BENCH_LAUNCH_H
#define BENCH_LAUNCH_H

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace bench::detail {

// Threads per block of the one-dimensional launches.
constexpr int kBlock = 256;

inline unsigned blocks_for(long long n) { return static_cast<unsigned>((n + kBlock - 1) / kBlock); }

// Throws when the launch (or an earlier asynchronous call) failed; `what`
// names the launcher so the message says which kernel it was.
inline void check_launch(const char* what, cudaError_t err = cudaGetLastError()) {
  if (err != cudaSuccess) throw std::runtime_error(std::string("bench::") + what + ": " + cudaGetErrorString(err));
}

}  // namespace bench::detail

#endif  // BENCH_LAUNCH_H
