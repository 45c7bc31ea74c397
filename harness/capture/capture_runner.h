// `stark capture` as a library: runs a command (typically the test suite)
// with the capture library injected into every CUDA process it starts, then
// reports per kernel what was recorded, what was refused and why, and which
// kernels got no inputs (with the annotation that would give them some).
#ifndef STARK_HARNESS_CAPTURE_CAPTURE_RUNNER_H
#define STARK_HARNESS_CAPTURE_CAPTURE_RUNNER_H

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

/// Where messages for people go (the CLI prefixes them "stark: ...").
struct Printer {
  std::function<void(const std::string&)> note;
  std::function<void(const std::string&)> warning;
  std::function<void(const std::string&)> error;
};

struct CaptureOptions {
  std::filesystem::path store;      // default: <build_dir>/.stark/captures
  std::filesystem::path cache_dir;  // default: <build_dir>/.stark/cache
  StoreLimits limits;
  bool fresh = false;  // empty the store first
  /// Device memory the library may hold for snapshots on their way to the
  /// host (0: copy straight to the host); default: DeviceStage's own budget.
  std::optional<uint64_t> device_stage;
  std::string nvcc = "nvcc";
  std::vector<std::string> command;
};

/// Runs the capture; returns the exit code of docs/CONTRACTS.md (0, or 1
/// when nothing usable was recorded, the command failed, or there is no GPU).
int run_capture(const Manifest& manifest, CaptureOptions options, const Printer& out);

/// "4G", "512MiB", "1.5GB", "65536" -> bytes (K/M/G/T are powers of 1024).
Expected<uint64_t> parse_size(std::string_view text);

/// The default folder of captures (and of the compile cache) for a build tree.
std::filesystem::path default_store(const std::string& build_dir);
std::filesystem::path default_cache(const std::string& build_dir);

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_CAPTURE_RUNNER_H
