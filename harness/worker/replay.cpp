#include "harness/worker/replay.h"

#include <vector>
#include <string>
#include <memory>
#include <cstdint>
#include <fmt/format.h>

#include <algorithm>

namespace stark::harness {

namespace {

uint64_t guard_size(uint64_t size) {
  uint64_t g = (size / 64 + 4095) / 4096 * 4096;
  return std::clamp<uint64_t>(g, 4096, 1 << 20);
}

}  // namespace

Expected<std::unique_ptr<ReplayCapture>> ReplayCapture::load(GpuContext& gpu, const CaptureStore& store,
                                                             const Capture& capture, bool guard_zones) {
  std::unique_ptr<ReplayCapture> r(new ReplayCapture(gpu));
  r->capture_ = capture;
  const CudaDriver& cu = gpu.cu();
  for (size_t b = 0; b < capture.buffers.size(); ++b) {
    const CapturedBuffer& meta = capture.buffers[b];
    Buffer buf;
    buf.dtype = parse_dtype(meta.dtype);
    if (buf.dtype.kind == ScalarKind::Bytes) {  // "f32", "bytes" names as written by DType::name()
      for (auto k : {ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32, ScalarKind::F64, ScalarKind::I8,
                     ScalarKind::I16, ScalarKind::I32, ScalarKind::I64, ScalarKind::U8, ScalarKind::U16,
                     ScalarKind::U32, ScalarKind::U64, ScalarKind::Bool})
        for (int lanes : {1, 2, 3, 4})
          if (DType{k, lanes}.name() == meta.dtype) buf.dtype = DType{k, lanes};
    }
    buf.size = meta.size;
    buf.guard = guard_zones ? guard_size(meta.size) : 0;
    auto before = store.get_blob(meta.before);
    if (!before) return before.error();
    if (before->size() != meta.size)
      return Error{fmt::format("capture {}: buffer {} has {} bytes, the index says {}", capture.id, b, before->size(),
                               meta.size)};
    buf.before = std::move(*before);
    if (meta.after) {
      auto after = store.get_blob(*meta.after);
      if (!after) return after.error();
      buf.after = std::move(*after);
    }
    auto guarded = gpu.alloc(meta.size + 2 * buf.guard, "a captured buffer");
    if (!guarded) return guarded.error();
    buf.guarded = std::move(*guarded);
    auto pristine = gpu.alloc(meta.size, "a pristine copy of a captured buffer");
    if (!pristine) return pristine.error();
    buf.pristine = std::move(*pristine);
    if (CUresult e = cu.cuMemcpyHtoD(buf.pristine.ptr(), buf.before.data(), buf.size); e != CUDA_SUCCESS)
      return cuda_error(cu, e, "cannot copy a captured buffer to the GPU");
    r->buffers_.push_back(std::move(buf));
  }
  r->addresses_.resize(capture.buffers.size());
  for (size_t b = 0; b < r->buffers_.size(); ++b) r->addresses_[b] = r->buffers_[b].data();
  for (const auto& g : capture.globals) {
    Global global;
    global.name = g.name;
    auto before = store.get_blob(g.before);
    if (!before) return before.error();
    global.before = std::move(*before);
    if (g.after) {
      auto after = store.get_blob(*g.after);
      if (!after) return after.error();
      global.after = std::move(*after);
    }
    r->globals_.push_back(std::move(global));
  }
  return r;
}

size_t ReplayCapture::device_bytes() const {
  size_t n = 0;
  for (const auto& b : buffers_) n += b.guarded.size() + b.pristine.size();
  return n;
}

Expected<void> ReplayCapture::prepare(const ReplayInputs& inputs, CUmodule module, bool canaries) {
  const CudaDriver& cu = gpu_.cu();
  CUstream s = gpu_.stream();
  if (auto reset = gpu_.reset_globals(module); !reset) return reset;
  for (size_t i = 0; i < buffers_.size(); ++i) {
    Buffer& b = buffers_[i];
    int bi = static_cast<int>(i);
    CUresult e = CUDA_SUCCESS;
    if (inputs.keep.count(bi)) {
      // unchanged since the last launch
    } else if (inputs.poisoned.count(bi)) {
      e = cu.cuMemsetD8Async(b.data(), kPoison, b.size, s);
    } else if (auto it = inputs.replaced.find(bi); it != inputs.replaced.end()) {
      e = cu.cuMemcpyHtoDAsync(b.data(), it->second.data(), b.size, s);
    } else {
      e = cu.cuMemcpyDtoDAsync(b.data(), b.pristine.ptr(), b.size, s);
    }
    if (e == CUDA_SUCCESS && canaries && b.guard > 0) {
      e = cu.cuMemsetD8Async(b.guarded.ptr(), kCanary, b.guard, s);
      if (e == CUDA_SUCCESS) e = cu.cuMemsetD8Async(b.data() + b.size, kCanary, b.guard, s);
    }
    if (e != CUDA_SUCCESS) return cuda_error(cu, e, "cannot restore a captured buffer");
  }
  for (const auto& g : globals_) {
    CUdeviceptr p = 0;
    size_t size = 0;
    if (cu.cuModuleGetGlobal(&p, &size, module, g.name.c_str()) != CUDA_SUCCESS) continue;  // not in this module
    if (size != g.before.size())
      return Error{
          fmt::format("module variable {} has {} bytes, the capture {}: capture again", g.name, size, g.before.size())};
    if (CUresult e = cu.cuMemcpyHtoDAsync(p, g.before.data(), size, s); e != CUDA_SUCCESS)
      return cuda_error(cu, e, fmt::format("cannot restore module variable {}", g.name));
  }
  return {};
}

CUresult ReplayCapture::launch(CUfunction f, const LaunchDims& dims, const ReplayInputs& inputs) {
  KernelArgs args(capture_, addresses_, inputs.scalars);
  return gpu_.launch(f, dims, args.pointers());
}

Expected<void> ReplayCapture::read(CUmodule module, Memory& out) {
  const CudaDriver& cu = gpu_.cu();
  CUstream s = gpu_.stream();
  std::vector<std::string> front(buffers_.size()), back(buffers_.size());
  out.buffers.resize(buffers_.size());
  out.guard_damage.clear();
  out.globals.clear();
  for (size_t i = 0; i < buffers_.size(); ++i) {
    Buffer& b = buffers_[i];
    std::string& data = out.buffers[i];
    data.resize(b.size);  // no fill where the pages are already there: the copy overwrites them
    front[i].assign(b.guard, '\0');
    back[i].assign(b.guard, '\0');
    CUresult e = cu.cuMemcpyDtoHAsync(data.data(), b.data(), b.size, s);
    if (e == CUDA_SUCCESS && b.guard > 0) e = cu.cuMemcpyDtoHAsync(front[i].data(), b.guarded.ptr(), b.guard, s);
    if (e == CUDA_SUCCESS && b.guard > 0) e = cu.cuMemcpyDtoHAsync(back[i].data(), b.data() + b.size, b.guard, s);
    if (e != CUDA_SUCCESS) return cuda_error(cu, e, "cannot read a buffer back from the GPU");
  }
  for (const auto& g : globals_) {
    CUdeviceptr p = 0;
    size_t size = 0;
    if (cu.cuModuleGetGlobal(&p, &size, module, g.name.c_str()) != CUDA_SUCCESS) {
      out.globals.emplace_back(std::nullopt);
      continue;
    }
    std::string v(size, '\0');
    if (CUresult e = cu.cuMemcpyDtoHAsync(v.data(), p, size, s); e != CUDA_SUCCESS)
      return cuda_error(cu, e, "cannot read a module variable back");
    out.globals.emplace_back(std::move(v));
  }
  if (CUresult e = cu.cuStreamSynchronize(s); e != CUDA_SUCCESS) return cuda_error(cu, e, "reading results back");
  for (size_t i = 0; i < buffers_.size(); ++i) {
    auto damaged = [](const std::string& g) {
      return static_cast<uint64_t>(
          std::count_if(g.begin(), g.end(), [](char c) { return static_cast<uint8_t>(c) != kCanary; }));
    };
    uint64_t f = damaged(front[i]), k = damaged(back[i]);
    std::string d;
    if (f) d = fmt::format("{} bytes before the start", f);
    if (k) d += fmt::format("{}{} bytes after the end", d.empty() ? "" : " and ", k);
    out.guard_damage.push_back(d);
  }
  return {};
}

}  // namespace stark::harness
