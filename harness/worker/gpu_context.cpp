#include "harness/worker/gpu_context.h"

#include <string>
#include <memory>
#include <cstdint>
#include <algorithm>
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "core/file_io.h"
#include "harness/common/cubin_info.h"
#include "harness/worker/roofline.h"

namespace stark::harness {

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& o) noexcept {
  if (this != &o) {
    if (cu_ && ptr_) cu_->cuMemFree(ptr_);
    cu_ = o.cu_;
    ptr_ = o.ptr_;
    size_ = o.size_;
    o.ptr_ = 0;
    o.size_ = 0;
  }
  return *this;
}

DeviceMemory::~DeviceMemory() {
  if (cu_ && ptr_) cu_->cuMemFree(ptr_);
}

std::string nvidia_driver_version() {
  auto text = read_file("/proc/driver/nvidia/version");
  if (!text) return "";
  std::smatch m;
  static const std::regex re(R"((\d+\.\d+(\.\d+)?))");
  auto line_end = text->find('\n');
  std::string first = text->substr(0, line_end);
  if (std::regex_search(first, m, re)) return m[1];
  return "";
}

Expected<std::unique_ptr<GpuContext>> GpuContext::open(int ordinal) {
  auto driver = cuda_driver();
  if (!driver) return driver.error();
  const CudaDriver& cu = **driver;
  std::unique_ptr<GpuContext> g(new GpuContext);
  g->cu_ = &cu;
  int count = 0;
  cu.cuDeviceGetCount(&count);
  if (ordinal < 0 || ordinal >= count)
    return Error{fmt::format("no CUDA device {} (this machine has {})", ordinal, count)};
  if (CUresult r = cu.cuDeviceGet(&g->device_, ordinal); r != CUDA_SUCCESS) return cuda_error(cu, r, "cuDeviceGet");
  if (CUresult r = cu.cuDevicePrimaryCtxRetain(&g->context_, g->device_); r != CUDA_SUCCESS)
    return cuda_error(cu, r, fmt::format("cannot open CUDA device {}", ordinal));
  cu.cuCtxSetCurrent(g->context_);
  if (CUresult r = cu.cuStreamCreate(&g->stream_, CU_STREAM_NON_BLOCKING); r != CUDA_SUCCESS)
    return cuda_error(cu, r, "cuStreamCreate");

  char name[256] = {};
  cu.cuDeviceGetName(name, sizeof name, g->device_);
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    cu.cuDeviceGetAttribute(&v, a, g->device_);
    return v;
  };
  int major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  int minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  g->info_.name = name;
  g->info_.sm = fmt::format("{}{}", major, minor);
  g->info_.cuda = fmt::format("{}.{}", cu.driver_version / 1000, cu.driver_version % 1000 / 10);
  g->info_.driver = nvidia_driver_version();
  if (g->info_.driver.empty()) g->info_.driver = "CUDA " + g->info_.cuda;
  g->info_.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  double clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  double bus_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  g->info_.mem_bandwidth_gbs = 2.0 * clock_khz * 1e3 * bus_bits / 8 / 1e9;

  g->limits_.max_threads_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  g->limits_.max_block = {static_cast<uint32_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
                          static_cast<uint32_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
                          static_cast<uint32_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
  g->limits_.max_grid = {static_cast<uint32_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)),
                         static_cast<uint32_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)),
                         static_cast<uint32_t>(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z))};
  g->limits_.max_shmem_optin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  g->limits_.max_threads_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);

  size_t l2 = static_cast<size_t>(attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  auto flush = g->alloc(std::max<size_t>(2 * l2, 8 << 20), "the L2 flush buffer");
  if (!flush) return flush.error();
  g->flush_ = std::move(*flush);
  // 16x the flush buffer (2x L2) makes the cache's share of the copy negligible.
  g->info_.copy_bandwidth_gbs = measure_copy_bandwidth(*g, 16 * g->flush_.size());
  g->info_.fma_peak_gflops = measure_fma_peak(*g);
  return g;
}

GpuContext::~GpuContext() {
  if (!cu_) return;
  flush_ = DeviceMemory();
  for (auto& m : modules_) cu_->cuModuleUnload(m.module);
  if (stream_) cu_->cuStreamDestroy(stream_);
  if (context_) cu_->cuDevicePrimaryCtxRelease(device_);
}

Expected<DeviceMemory> GpuContext::alloc(size_t bytes, const char* what) {
  CUdeviceptr p = 0;
  if (CUresult r = cu_->cuMemAlloc(&p, std::max<size_t>(bytes, 1)); r != CUDA_SUCCESS)
    return cuda_error(*cu_, r, fmt::format("cannot allocate {} bytes on the GPU for {}", bytes, what));
  return DeviceMemory(cu_, p, bytes);
}

Expected<CUmodule> GpuContext::module(const std::string& path) {
  for (auto it = modules_.begin(); it != modules_.end(); ++it)
    if (it->path == path) {
      modules_.splice(modules_.begin(), modules_, it);
      return modules_.front().module;
    }
  auto image = read_file(path);
  if (!image) return Error{fmt::format("cannot read the cubin {}", path)};
  CUmodule m = nullptr;
  if (CUresult r = cu_->cuModuleLoadData(&m, image->data()); r != CUDA_SUCCESS)
    return cuda_error(*cu_, r, fmt::format("the GPU cannot load {} (built for another GPU?)", path));
  auto globals = keep_initial_globals(m, *image);
  if (!globals) {
    cu_->cuModuleUnload(m);
    return Error{fmt::format("{}: {}", path, globals.error().message)};
  }
  modules_.push_front(LoadedModule{path, m, std::move(*globals)});
  while (modules_.size() > 64) {
    cu_->cuModuleUnload(modules_.back().module);
    modules_.pop_back();
  }
  return m;
}

Expected<std::vector<GpuContext::InitialGlobal>> GpuContext::keep_initial_globals(CUmodule m,
                                                                                  const std::string& image) {
  auto info = read_cubin(image);
  if (!info) return info.error();
  std::vector<InitialGlobal> out;
  for (const CubinGlobal& g : info->globals) {
    InitialGlobal kept;
    kept.name = g.name;
    if (cu_->cuModuleGetGlobal(&kept.ptr, &kept.size, m, g.name.c_str()) != CUDA_SUCCESS || kept.size == 0) continue;
    kept.initial.assign(kept.size, '\0');
    if (CUresult r = cu_->cuMemcpyDtoH(kept.initial.data(), kept.ptr, kept.size); r != CUDA_SUCCESS)
      return cuda_error(*cu_, r, fmt::format("cannot keep the initial value of module variable {}", g.name));
    out.push_back(std::move(kept));
  }
  return out;
}

Expected<void> GpuContext::reset_globals(CUmodule module) {
  for (const auto& m : modules_) {
    if (m.module != module) continue;
    for (const auto& g : m.globals)
      if (CUresult r = cu_->cuMemcpyHtoDAsync(g.ptr, g.initial.data(), g.size, stream_); r != CUDA_SUCCESS)
        return cuda_error(*cu_, r, fmt::format("cannot reset module variable {}", g.name));
    return {};
  }
  return Error{"reset_globals: the module is not loaded"};
}

Expected<CUfunction> GpuContext::function(CUmodule module, const std::string& mangled, const std::string& path) {
  CUfunction f = nullptr;
  if (CUresult r = cu_->cuModuleGetFunction(&f, module, mangled.c_str()); r != CUDA_SUCCESS)
    return cuda_error(*cu_, r, fmt::format("kernel {} is not in {}", mangled, path));
  return f;
}

std::optional<double> GpuContext::occupancy(CUfunction f, const LaunchDims& d) {
  if (d.shmem > 48 * 1024 && cu_->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                     static_cast<int>(d.shmem)) != CUDA_SUCCESS)
    return std::nullopt;
  int64_t threads = int64_t{d.block[0]} * d.block[1] * d.block[2];
  int blocks = 0;
  if (threads <= 0 || limits_.max_threads_per_sm <= 0 ||
      cu_->cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, static_cast<int>(threads), d.shmem) != CUDA_SUCCESS)
    return std::nullopt;
  double warps = static_cast<double>(blocks) * static_cast<double>((threads + 31) / 32);
  return std::min(1.0, warps / static_cast<double>(limits_.max_threads_per_sm / 32));
}

CUresult GpuContext::launch(CUfunction f, const LaunchDims& d, void** args) {
  if (d.shmem > 48 * 1024) {
    CUresult r = cu_->cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(d.shmem));
    if (r != CUDA_SUCCESS) return r;
  }
  if (d.cooperative) {
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    attr.value.cooperative = 1;
    CUlaunchConfig config{};
    config.gridDimX = d.grid[0];
    config.gridDimY = d.grid[1];
    config.gridDimZ = d.grid[2];
    config.blockDimX = d.block[0];
    config.blockDimY = d.block[1];
    config.blockDimZ = d.block[2];
    config.sharedMemBytes = d.shmem;
    config.hStream = stream_;
    config.attrs = &attr;
    config.numAttrs = 1;
    return cu_->cuLaunchKernelEx(&config, f, args, nullptr);
  }
  return cu_->cuLaunchKernel(f, d.grid[0], d.grid[1], d.grid[2], d.block[0], d.block[1], d.block[2], d.shmem, stream_,
                             args, nullptr);
}

GpuContext::Waited GpuContext::wait(double seconds) {
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (;;) {
    CUresult r = cu_->cuStreamQuery(stream_);
    if (r == CUDA_SUCCESS) return {WaitResult::Done, r};
    if (r != CUDA_ERROR_NOT_READY) return {WaitResult::Fault, r};
    auto now = Clock::now();
    if (now >= deadline) return {WaitResult::Hang, r};
    if (now - start < std::chrono::microseconds(200)) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

void GpuContext::flush_l2() { cu_->cuMemsetD8Async(flush_.ptr(), 0x5a, flush_.size(), stream_); }

bool GpuContext::is_sticky(CUresult r) {
  switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_NOT_PERMITTED:
    case CUDA_ERROR_TENSOR_MEMORY_LEAK: return true;
    default: return false;
  }
}

}  // namespace stark::harness
