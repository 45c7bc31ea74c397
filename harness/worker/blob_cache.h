// The worker's cache of shipped files. A worker that runs on another node
// than the evaluator (srun, ssh) cannot read the evaluator's capture store or
// compile cache: the evaluator sends what a request needs once, by content
// hash, and the worker keeps it here. The folder is shared by the workers of
// a node and outlives them, so a restarted worker has what its predecessor
// received. Every blob is checked against its hash before it is kept.
#ifndef STARK_HARNESS_WORKER_BLOB_CACHE_H
#define STARK_HARNESS_WORKER_BLOB_CACHE_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"
#include "harness/store/capture_store.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

/// A folder with files/<hash> (cubins) and store/ (a capture store holding
/// the shipped captures and their snapshots).
class BlobCache {
 public:
  /// Opens (creating) DIR.
  static Expected<BlobCache> open(const std::filesystem::path& dir);

  /// The default folder of this node: $TMPDIR (else /tmp)/stark-worker-cache-<uid>.
  static std::filesystem::path default_dir();

  /// Whether a blob of either kind is kept.
  bool has(const std::string& hash) const;

  /// Keeps `bytes` under `hash` after checking them (File: the hash of the
  /// bytes; Store: the hash of what the zstd frame decompresses to).
  Expected<void> put(const std::string& hash, BlobKind kind, const std::string& bytes);

  /// The request with local paths: cubins resolved to files here, the
  /// records added to the cache's store, `store` naming it. Errors name the
  /// first blob that was never shipped.
  Expected<EvaluateRequest> localize(const EvaluateRequest& shipped);

  const std::filesystem::path& dir() const { return dir_; }

 private:
  BlobCache(std::filesystem::path dir, CaptureStore store) : dir_(std::move(dir)), store_(std::move(store)) {}
  std::filesystem::path file(const std::string& hash) const;
  std::filesystem::path dir_;
  CaptureStore store_;
};

/// Whether `s` looks like a content hash ("xxh64:" and 16 hex digits): a
/// shipped name never becomes a path outside the cache.
bool is_blob_hash(const std::string& s);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_BLOB_CACHE_H
