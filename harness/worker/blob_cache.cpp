#include "harness/worker/blob_cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>

#include "core/file_io.h"
#include "core/hash.h"

namespace stark::harness {

namespace fs = std::filesystem;

bool is_blob_hash(const std::string& s) {
  if (s.size() != 22 || s.rfind("xxh64:", 0) != 0) return false;
  for (size_t i = 6; i < s.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

Expected<BlobCache> BlobCache::open(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir / "files", ec);
  if (ec) return Error{fmt::format("cannot create the worker cache {}: {}", dir.string(), ec.message())};
  auto store = CaptureStore::open(dir / "store", true);
  if (!store) return store.error();
  return BlobCache(dir, std::move(*store));
}

fs::path BlobCache::default_dir() {
  const char* tmp = std::getenv("TMPDIR");
  fs::path base = tmp && *tmp ? fs::path(tmp) : fs::path("/tmp");
  return base / fmt::format("stark-worker-cache-{}", getuid());
}

fs::path BlobCache::file(const std::string& hash) const { return dir_ / "files" / hash.substr(6); }

bool BlobCache::has(const std::string& hash) const {
  if (!is_blob_hash(hash)) return false;
  std::error_code ec;
  return fs::exists(file(hash), ec) || store_.has_blob(hash);
}

Expected<void> BlobCache::put(const std::string& hash, BlobKind kind, const std::string& bytes) {
  if (!is_blob_hash(hash)) return Error{fmt::format("not a blob hash: '{}'", hash)};
  if (kind == BlobKind::Store) return store_.put_stored(hash, bytes);
  if (content_hash(bytes) != hash)
    return Error{
        fmt::format("blob {} arrived damaged: its {} bytes hash to {}", hash, bytes.size(), content_hash(bytes))};
  return write_file_atomic(file(hash), bytes);
}

Expected<EvaluateRequest> BlobCache::localize(const EvaluateRequest& shipped) {
  EvaluateRequest r = shipped;
  r.shipped = false;
  r.records.clear();
  for (std::string* cubin : {&r.baseline_cubin, &r.variant_cubin}) {
    if (!is_blob_hash(*cubin)) return Error{fmt::format("shipped request names the cubin '{}', not a hash", *cubin)};
    std::error_code ec;
    if (!fs::exists(file(*cubin), ec)) return Error{fmt::format("cubin {} was never shipped to this worker", *cubin)};
    *cubin = file(*cubin).string();
  }
  std::set<std::string> wanted(shipped.captures.begin(), shipped.captures.end());
  for (const auto& c : shipped.records) {
    std::vector<std::string> blobs;
    for (const auto& b : c.buffers) {
      blobs.push_back(b.before);
      if (b.after) blobs.push_back(*b.after);
    }
    for (const auto& g : c.globals) {
      blobs.push_back(g.before);
      if (g.after) blobs.push_back(*g.after);
    }
    for (const auto& h : blobs)
      if (!store_.has_blob(h))
        return Error{fmt::format("capture {}: snapshot {} was never shipped to this worker", c.id, h)};
    wanted.erase(c.id);
  }
  if (!wanted.empty()) return Error{fmt::format("capture {} was named but not shipped", *wanted.begin())};
  auto ok = store_.update([&](CaptureIndex& index) -> Expected<void> {
    for (const auto& c : shipped.records) {
      if (const Capture* known = index.find(c.id); known && *known == c) continue;
      std::erase_if(index.captures, [&](const Capture& k) { return k.id == c.id; });
      index.captures.push_back(c);
    }
    return {};
  });
  if (!ok) return ok.error();
  r.store = store_.dir().string();
  return r;
}

}  // namespace stark::harness
