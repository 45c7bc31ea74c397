// One capture loaded onto the GPU for replay: every buffer in a guarded
// allocation (canary bytes on both sides) or, for the sanitizer's run, in an
// allocation of exactly its size (so compute-sanitizer sees every access
// past its end, reads included), a pristine device copy of its contents
// before the launch, the captured contents after it, and the module-scope
// variables the capture recorded.
#ifndef STARK_HARNESS_WORKER_REPLAY_H
#define STARK_HARNESS_WORKER_REPLAY_H

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "harness/store/capture_store.h"
#include "harness/worker/gpu_context.h"
#include "harness/worker/memory.h"

namespace stark::harness {

/// What a buffer's bytes are filled with when the original does not read it.
inline constexpr uint8_t kPoison = 0xff;  // NaN in every float format, -1 in integers
/// Guard bytes around every buffer.
inline constexpr uint8_t kCanary = 0xc3;

/// How to set up memory before a launch.
struct ReplayInputs {
  std::set<int> poisoned;                    // filled with kPoison instead of their contents
  std::map<int, std::string_view> replaced;  // other contents (fuzzed data), held by the caller
  std::map<size_t, std::string> scalars;     // other bytes for scalar arguments, by index
  std::set<int> keep;                        // left as they are (inputs no launch can change)
};

class ReplayCapture {
 public:
  /// `guard_zones`: canary bytes around every buffer inside its allocation
  /// (writes past the ends are seen by comparing them); false: allocations
  /// of exactly the buffers' sizes, for compute-sanitizer.
  static Expected<std::unique_ptr<ReplayCapture>> load(GpuContext& gpu, const CaptureStore& store,
                                                       const Capture& capture, bool guard_zones = true);

  const Capture& capture() const { return capture_; }
  /// Unique among loaded captures: the store folder and the capture id.
  const std::string& key() const { return key_; }
  void set_key(std::string key) { key_ = std::move(key); }
  size_t buffer_count() const { return buffers_.size(); }
  const std::string& before(int b) const { return buffers_[b].before; }
  const std::optional<std::string>& after(int b) const { return buffers_[b].after; }
  DType dtype(int b) const { return buffers_[b].dtype; }
  const std::string& global_before(size_t g) const { return globals_[g].before; }
  const std::optional<std::string>& global_after(size_t g) const { return globals_[g].after; }
  size_t global_count() const { return globals_.size(); }
  size_t device_bytes() const;

  /// Queues the restore of memory (asynchronously on the worker's stream):
  /// the module's variables to their values at load time, then those the
  /// capture recorded to their captured values, then the buffers.
  Expected<void> prepare(const ReplayInputs& inputs, CUmodule module, bool canaries);
  /// Launches with the capture's arguments (scalars replaced as asked).
  CUresult launch(CUfunction f, const LaunchDims& dims, const ReplayInputs& inputs);
  /// Copies everything back (after the stream drained) into `out`, whose
  /// buffers are reused where they are already large enough.
  Expected<void> read(CUmodule module, Memory& out);

 private:
  struct Buffer {
    DType dtype;
    uint64_t size = 0;
    uint64_t guard = 0;
    DeviceMemory guarded;   // guard | data | guard
    DeviceMemory pristine;  // contents before the launch
    std::string before;
    std::optional<std::string> after;
    CUdeviceptr data() const { return guarded.ptr() + guard; }
  };
  struct Global {
    std::string name;
    std::string before;
    std::optional<std::string> after;
  };

  explicit ReplayCapture(GpuContext& gpu) : gpu_(gpu) {}
  GpuContext& gpu_;
  Capture capture_;
  std::string key_;
  std::vector<Buffer> buffers_;
  std::vector<Global> globals_;
  std::vector<uint64_t> addresses_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_REPLAY_H
