#include "harness/capture/pinned_memory.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>

#include "harness/common/cuda_driver.h"

namespace stark::harness {

namespace {

void release_registered(char* p) {
  if (auto cu = cuda_driver_no_init()) (*cu)->cuMemHostUnregister(p);  // fails harmlessly once its context is gone
  std::free(p);
}

}  // namespace

uint64_t pinned_budget(uint64_t machine_memory) { return std::min<uint64_t>(4ull << 30, machine_memory / 16); }

HostBufferPool::Allocator pinned_allocator(uint64_t max_bytes) {
  auto used = std::make_shared<std::atomic<uint64_t>>(0);
  return [max_bytes, used](size_t n) -> HostCopy {
    auto cu = cuda_driver_no_init();
    if (!cu || n == 0) return {};
    if (used->fetch_add(n) + n > max_bytes) {
      *used -= n;
      return {};
    }
    size_t page = static_cast<size_t>(sysconf(_SC_PAGE_SIZE));
    char* p = static_cast<char*>(std::aligned_alloc(page, (n + page - 1) / page * page));
    if (p && (*cu)->cuMemHostRegister(p, n, CU_MEMHOSTREGISTER_PORTABLE) == CUDA_SUCCESS)
      return HostCopy{std::unique_ptr<char, HostFree>(p, HostFree{release_registered, true}), n};
    std::free(p);
    *used -= n;
    return {};
  };
}

}  // namespace stark::harness
