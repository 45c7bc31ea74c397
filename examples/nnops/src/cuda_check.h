// Error checking for the launchers (private to the library).
#ifndef NNOPS_CUDA_CHECK_H
#define NNOPS_CUDA_CHECK_H

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace nnops::detail {

inline void check_cuda(cudaError_t err, const char* what, const char* file, int line) {
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + what + ": " +
                             cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
  }
}

// Threads per block of the one-dimensional launches.
constexpr int kBlock = 256;

inline unsigned blocks_for(int n) { return static_cast<unsigned>((static_cast<long long>(n) + kBlock - 1) / kBlock); }

}  // namespace nnops::detail

// Throws std::runtime_error when a CUDA runtime call fails.
#define NNOPS_CUDA_CHECK(expr) ::nnops::detail::check_cuda((expr), #expr, __FILE__, __LINE__)

// Checks the launch just made with <<<...>>>.
#define NNOPS_CHECK_LAUNCH() NNOPS_CUDA_CHECK(cudaGetLastError())

#endif  // NNOPS_CUDA_CHECK_H
