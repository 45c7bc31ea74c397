// The capture store: a folder with index.json (stark.captures/1) and
// zstd-compressed, content-addressed blobs. Several processes may record into
// one store at once (ctest -j): every change of the index happens under an
// exclusive flock of DIR/.lock and replaces the file atomically; blobs are
// written once under their content hash and renamed into place.
#ifndef STARK_HARNESS_STORE_CAPTURE_STORE_H
#define STARK_HARNESS_STORE_CAPTURE_STORE_H

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "harness/store/capture.h"

namespace stark::harness {

/// What the store keeps. The defaults suit a test suite on one GPU.
struct StoreLimits {
  int max_per_kernel = 8;                          // captures kept per kernel
  int max_per_shape = 1;                           // captures kept per distinct shape of a kernel
  uint64_t max_capture_bytes = uint64_t{4} << 30;  // snapshot bytes of one launch (before + after)
  uint64_t max_store_bytes = uint64_t{32} << 30;   // compressed bytes of the whole store
  bool operator==(const StoreLimits&) const = default;
};

/// Whether to record a launch, decided from the index and the limits.
struct Admission {
  enum class Decision { Record, Skip, Refuse };
  Decision decision = Decision::Record;
  std::string reason;  // Skip: why it is not needed; Refuse: the message for the user
};

/// Distinct shapes first: a launch is recorded while its kernel has fewer
/// than max_per_kernel captures and its shape fewer than max_per_shape.
Admission admit(const CaptureIndex& index, const StoreLimits& limits, const std::string& kernel,
                const std::string& shape, uint64_t bytes);

/// "1.5 GiB", "512 B".
std::string format_bytes(uint64_t bytes);

class CaptureStore {
 public:
  /// Opens DIR (creating it when `create`); errors say what is wrong with it.
  static Expected<CaptureStore> open(const std::filesystem::path& dir, bool create);

  const std::filesystem::path& dir() const { return dir_; }

  /// The index (empty when none was written yet).
  Expected<CaptureIndex> read_index() const;

  /// Read-modify-write of the index under the store's exclusive lock. If fn
  /// fails, nothing is written and its error is returned.
  Expected<void> update(const std::function<Expected<void>(CaptureIndex&)>& fn);

  /// Stores bytes under their content hash ("xxh64:..."); `stored` receives
  /// the compressed size when the blob was new, 0 when it existed.
  Expected<std::string> put_blob(std::string_view data, uint64_t* stored = nullptr);

  /// Reads a blob back and checks its hash.
  Expected<std::string> get_blob(const std::string& hash) const;

  bool has_blob(const std::string& hash) const;

  /// A blob as the store keeps it (its zstd frame), for shipping to a worker
  /// on another node without decompressing it.
  Expected<std::string> read_stored(const std::string& hash) const;

  /// Keeps a shipped zstd frame under `hash`, after checking that it
  /// decompresses to bytes of that hash (a damaged transfer is refused).
  Expected<void> put_stored(const std::string& hash, const std::string& frame);

  /// What prune removed.
  struct Pruned {
    int64_t captures = 0;  // index entries dropped
    int64_t files = 0;     // blobs and stale temporaries deleted
    uint64_t bytes = 0;    // their size on disk
    int64_t kept = 0;      // captures left
  };
  /// Drops the captures `drop` selects from the index, then deletes every
  /// blob no capture left refers to, under the store's lock. Blobs and
  /// temporaries younger than `grace` stay: a capturing process writes its
  /// blobs before it adds their capture to the index.
  Expected<Pruned> prune(const std::function<bool(const Capture&)>& drop,
                         std::chrono::seconds grace = std::chrono::minutes(10));

 private:
  explicit CaptureStore(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path blob_path(const std::string& hash) const;
  std::filesystem::path dir_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_STORE_CAPTURE_STORE_H
