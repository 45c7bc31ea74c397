#include "harness/capture/device_stage.h"

#include <algorithm>

namespace stark::harness {

uint64_t DeviceStage::budget(uint64_t free_bytes, std::optional<uint64_t> limit) {
  if (limit) return std::min<uint64_t>(*limit, free_bytes / 2);
  return std::min<uint64_t>(free_bytes / 4, 8ull << 30);
}

std::optional<StagedCopy> DeviceStage::take(CUcontext context, size_t n) {
  if (n == 0 || limit_ == uint64_t{0}) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto [it, fresh] = contexts_.try_emplace(context);
  PerContext& pc = it->second;
  if (fresh) {
    size_t free_bytes = 0, total = 0;
    pc.budget = cu_.cuMemGetInfo(&free_bytes, &total) == CUDA_SUCCESS ? budget(free_bytes, limit_) : 0;
  }
  if (auto kept = pc.pooled.find(n); kept != pc.pooled.end()) {
    CUdeviceptr p = kept->second;
    pc.pooled.erase(kept);
    pc.lent.insert(p);
    return StagedCopy{context, p, n};
  }
  if (pc.held + n > pc.budget) return std::nullopt;
  CUdeviceptr p = 0;
  if (cu_.cuMemAlloc(&p, n) != CUDA_SUCCESS) return std::nullopt;
  pc.held += n;
  pc.lent.insert(p);
  return StagedCopy{context, p, n};
}

void DeviceStage::give(const StagedCopy& c) {
  std::lock_guard lock(mutex_);
  auto it = contexts_.find(c.context);
  if (it == contexts_.end() || it->second.lent.erase(c.data) == 0) return;
  // Kept, never freed here: cuMemFree may wait for the whole device.
  it->second.pooled.emplace(c.size, c.data);
}

Expected<void> DeviceStage::to_host(const StagedCopy& c, char* host) const {
  if (CUresult r = cu_.cuCtxSetCurrent(c.context); r != CUDA_SUCCESS)
    return cuda_error(cu_, r, "cannot use the program's CUDA context");
  // A stream of its own that never waits for the program's streams, nor they for it.
  CUstream stream = nullptr;
  if (CUresult r = cu_.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS)
    return cuda_error(cu_, r, "cannot create a stream to copy a snapshot");
  CUresult r = cu_.cuMemcpyDtoHAsync(host, c.data, c.size, stream);
  if (r == CUDA_SUCCESS) r = cu_.cuStreamSynchronize(stream);
  cu_.cuStreamDestroy(stream);
  if (r != CUDA_SUCCESS) return cuda_error(cu_, r, "cannot copy a snapshot to the host");
  return {};
}

void DeviceStage::release(CUcontext context) {
  std::lock_guard lock(mutex_);
  auto it = contexts_.find(context);
  if (it == contexts_.end()) return;
  for (const auto& [size, p] : it->second.pooled) cu_.cuMemFree(p);
  for (CUdeviceptr p : it->second.lent) cu_.cuMemFree(p);
  contexts_.erase(it);
}

}  // namespace stark::harness
