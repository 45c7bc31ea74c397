// One recorded kernel launch (a "capture") as the store's index describes it:
// the launch shape, each argument, and the memory behind pointer arguments
// before and after the launch (as content hashes of blobs in the store).
// docs/capture-store.md documents the format; tests/schemas/capture-store.schema.json checks it.
#ifndef STARK_HARNESS_STORE_CAPTURE_H
#define STARK_HARNESS_STORE_CAPTURE_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/manifest.h"

namespace stark::harness {

inline constexpr const char* kCaptureStoreSchema = "stark.captures/1";

using Dim3 = std::array<uint32_t, 3>;

/// Grid, block and dynamic shared memory of a launch, plus launch attributes.
struct LaunchShape {
  Dim3 grid{1, 1, 1};
  Dim3 block{1, 1, 1};
  uint32_t shmem = 0;
  bool cooperative = false;
  std::optional<Dim3> cluster;
  bool operator==(const LaunchShape&) const = default;
};

/// One kernel argument. Scalars and by-value structs keep their bytes; a
/// pointer names the buffer it points into and its offset there.
struct CapturedArg {
  std::string name;
  ParamKind kind = ParamKind::Scalar;  // as the manifest's parameter
  std::string bytes;                   // scalar / record: the raw parameter bytes
  std::optional<int> buffer;           // pointer: index into Capture::buffers; nullopt = null pointer
  uint64_t offset = 0;                 // pointer: bytes from the buffer's start
  bool operator==(const CapturedArg&) const = default;
};

/// The memory behind one or more pointer arguments (one allocation).
struct CapturedBuffer {
  uint64_t size = 0;
  std::string dtype;                 // element type of the first pointer into it ("f32", "bytes"...)
  std::string memory = "device";     // "device" or "managed"
  std::string before;                // blob hash of the contents before the launch
  std::optional<std::string> after;  // after it completed; nullopt: no reference (annotation inputs)
  bool operator==(const CapturedBuffer&) const = default;
};

/// A module-scope __device__ / __constant__ variable of the kernel's translation unit.
struct CapturedGlobal {
  std::string name;
  uint64_t size = 0;
  std::string before;
  std::optional<std::string> after;
  bool operator==(const CapturedGlobal&) const = default;
};

struct Capture {
  std::string id;
  std::string kernel;             // manifest kernel id
  std::string mangled;            // instantiation launched
  std::string origin = "launch";  // "launch" (recorded from a run) or "annotation" (inputs from args=/buffers=)
  std::string command;            // the process that launched it
  int64_t pid = 0;
  std::string created;  // UTC, ISO 8601
  LaunchShape launch;
  std::string shape;  // key of distinct shapes: launch + scalar values + buffer sizes
  std::vector<CapturedArg> args;
  std::vector<CapturedBuffer> buffers;
  std::vector<CapturedGlobal> globals;
  uint64_t bytes = 0;         // uncompressed bytes of all snapshots
  uint64_t stored_bytes = 0;  // compressed bytes this capture added to the store
  bool operator==(const Capture&) const = default;
};

/// A launch (or a kernel) the capture could not record, and why.
struct Refusal {
  std::string kernel;
  std::string mangled;
  std::string reason;
  int64_t count = 1;
  std::string command;  // first process that hit it
  bool operator==(const Refusal&) const = default;
};

/// A process that loaded the capture library.
struct CaptureProcess {
  int64_t pid = 0;
  std::string command;
  std::string started;
  std::string status = "ok";  // "ok", or why nothing could be recorded in it
  /// Seconds capturing held the process up (launch callbacks, waits for the
  /// background writers): what capturing cost it. Absent when it recorded nothing.
  std::optional<double> record_seconds;
  /// Of record_seconds, the wait for the writers when the process exited.
  std::optional<double> exit_wait_seconds;
  bool operator==(const CaptureProcess&) const = default;
};

/// index.json of a capture store.
struct CaptureIndex {
  std::vector<Capture> captures;
  std::vector<Refusal> refusals;
  std::vector<CaptureProcess> processes;

  std::vector<const Capture*> for_kernel(const std::string& kernel) const;
  const Capture* find(const std::string& id) const;
  uint64_t stored_bytes() const;
  /// Adds one to a matching refusal (same kernel and reason) or appends it.
  void add_refusal(const Refusal& r);
  bool operator==(const CaptureIndex&) const = default;
};

void to_json(nlohmann::json& j, const LaunchShape& s);
void from_json(const nlohmann::json& j, LaunchShape& s);
void to_json(nlohmann::json& j, const CapturedArg& a);
void from_json(const nlohmann::json& j, CapturedArg& a);
void to_json(nlohmann::json& j, const CapturedBuffer& b);
void from_json(const nlohmann::json& j, CapturedBuffer& b);
void to_json(nlohmann::json& j, const CapturedGlobal& g);
void from_json(const nlohmann::json& j, CapturedGlobal& g);
void to_json(nlohmann::json& j, const Capture& c);
void from_json(const nlohmann::json& j, Capture& c);
void to_json(nlohmann::json& j, const Refusal& r);
void from_json(const nlohmann::json& j, Refusal& r);
void to_json(nlohmann::json& j, const CaptureProcess& p);
void from_json(const nlohmann::json& j, CaptureProcess& p);
void to_json(nlohmann::json& j, const CaptureIndex& i);
void from_json(const nlohmann::json& j, CaptureIndex& i);

/// Lower-case hex of bytes, and back (nullopt on a malformed string).
std::string to_hex(std::string_view bytes);
std::optional<std::string> from_hex(std::string_view hex);

/// Now, as "2026-12-01T10:00:00Z".
std::string utc_now();

}  // namespace stark::harness

#endif  // STARK_HARNESS_STORE_CAPTURE_H
