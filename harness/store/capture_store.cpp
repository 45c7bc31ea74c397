#include "harness/store/capture_store.h"

#include <string>
#include <functional>
#include <cstdint>
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sys/file.h>
#include <unistd.h>
#include <zstd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <regex>

#include "core/file_io.h"
#include "core/hash.h"

namespace stark::harness {

namespace fs = std::filesystem;

namespace {

/// flock(2) on DIR/.lock for the lifetime of the object.
class FileLock {
 public:
  static Expected<FileLock> acquire(const fs::path& path, bool exclusive) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Error{fmt::format("cannot open the store lock {}: {}", path.string(), std::strerror(errno))};
    while (flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      return Error{fmt::format("cannot lock {}: {}", path.string(), std::strerror(e))};
    }
    return FileLock(fd);
  }
  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
  }

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

Expected<CaptureIndex> parse_index(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return CaptureIndex{};
  auto j = read_json_file(path);
  if (!j) return j.error();
  try {
    return j->get<CaptureIndex>();
  } catch (const std::exception& e) {
    return Error{fmt::format("{}: {}", path.string(), e.what())};
  }
}

std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{}.{}", getpid(), counter++);
}

}  // namespace

Admission admit(const CaptureIndex& index, const StoreLimits& limits, const std::string& kernel,
                const std::string& shape, uint64_t bytes) {
  if (bytes > limits.max_capture_bytes)
    return {Admission::Decision::Refuse,
            fmt::format("the launch needs {} of snapshots, above the per-launch cap of {} (--max-capture-bytes)",
                        format_bytes(bytes), format_bytes(limits.max_capture_bytes))};
  int for_kernel = 0, for_shape = 0;
  for (const auto& c : index.captures) {
    if (c.kernel != kernel) continue;
    ++for_kernel;
    if (c.shape == shape) ++for_shape;
  }
  if (for_shape >= limits.max_per_shape) return {Admission::Decision::Skip, "this shape is already captured"};
  if (for_kernel >= limits.max_per_kernel)
    return {Admission::Decision::Skip, fmt::format("the kernel has {} captures already", for_kernel)};
  if (index.stored_bytes() + bytes / 2 > limits.max_store_bytes)
    return {Admission::Decision::Refuse,
            fmt::format("the capture store is full ({} stored, cap {}; --max-store-bytes)",
                        format_bytes(index.stored_bytes()), format_bytes(limits.max_store_bytes))};
  return {Admission::Decision::Record, ""};
}

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", v, units[u]);
}

Expected<CaptureStore> CaptureStore::open(const fs::path& dir, bool create) {
  std::error_code ec;
  if (create) {
    fs::create_directories(dir / "blobs", ec);
    if (ec) return Error{fmt::format("cannot create the capture store {}: {}", dir.string(), ec.message())};
  } else if (!fs::is_directory(dir, ec)) {
    return Error{fmt::format("no capture store at {} (run stark capture first)", dir.string())};
  }
  return CaptureStore(fs::absolute(dir));
}

Expected<CaptureIndex> CaptureStore::read_index() const {
  auto lock = FileLock::acquire(dir_ / ".lock", false);
  if (!lock) return lock.error();
  return parse_index(dir_ / "index.json");
}

Expected<void> CaptureStore::update(const std::function<Expected<void>(CaptureIndex&)>& fn) {
  auto lock = FileLock::acquire(dir_ / ".lock", true);
  if (!lock) return lock.error();
  auto index = parse_index(dir_ / "index.json");
  if (!index) return index.error();
  if (auto ok = fn(*index); !ok) return ok;
  return write_json_file(dir_ / "index.json", nlohmann::json(*index));
}

fs::path CaptureStore::blob_path(const std::string& hash) const {
  std::string hex = hash.substr(hash.find(':') + 1);
  return dir_ / "blobs" / hex.substr(0, 2) / (hex + ".zst");
}

bool CaptureStore::has_blob(const std::string& hash) const {
  std::error_code ec;
  return fs::exists(blob_path(hash), ec);
}

namespace {

/// Writes a blob's file through a temp file and a rename: another writer
/// (ctest -j, the workers of one node) may win the race with the same
/// content under the same name, which is no error.
Expected<void> write_blob_file(const fs::path& path, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  fs::path tmp = path.string() + ".tmp." + unique_suffix();
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      fs::remove(tmp, ec);
      return Error{fmt::format("cannot write {}: disk full?", tmp.string())};
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    if (!fs::exists(path, ec)) return Error{fmt::format("cannot store a blob in {}", path.parent_path().string())};
  }
  return {};
}

}  // namespace

Expected<std::string> CaptureStore::put_blob(std::string_view data, uint64_t* stored) {
  std::string hash = content_hash(data);
  if (stored) *stored = 0;
  fs::path path = blob_path(hash);
  if (has_blob(hash)) return hash;

  std::string compressed(ZSTD_compressBound(data.size()), '\0');
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
  if (data.size() > (8u << 20)) ZSTD_CCtx_setParameter(cctx, ZSTD_c_nbWorkers, 4);  // ignored without MT support
  size_t n = ZSTD_compress2(cctx, compressed.data(), compressed.size(), data.data(), data.size());
  ZSTD_freeCCtx(cctx);
  if (ZSTD_isError(n)) return Error{fmt::format("cannot compress a snapshot: {}", ZSTD_getErrorName(n))};
  compressed.resize(n);
  if (auto ok = write_blob_file(path, compressed); !ok) return ok.error();
  if (stored) *stored = n;
  return hash;
}

namespace {

Expected<std::string> decompress(const std::string& compressed, const std::string& hash, const std::string& where) {
  unsigned long long size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
    return Error{fmt::format("capture store: blob {} is damaged", where)};
  std::string data(size, '\0');
  size_t n = ZSTD_decompress(data.data(), data.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(n) || n != size || content_hash(data) != hash)
    return Error{fmt::format("capture store: blob {} is damaged (content does not match its hash)", where)};
  return data;
}

}  // namespace

Expected<std::string> CaptureStore::read_stored(const std::string& hash) const {
  auto bytes = read_file(blob_path(hash));
  if (!bytes) return Error{fmt::format("capture store {}: blob {} is missing", dir_.string(), hash)};
  return std::move(*bytes);
}

Expected<void> CaptureStore::put_stored(const std::string& hash, const std::string& frame) {
  if (hash.rfind("xxh64:", 0) != 0 || hash.size() != 22) return Error{fmt::format("not a blob hash: '{}'", hash)};
  if (auto ok = decompress(frame, hash, hash); !ok) return ok.error();
  fs::path path = blob_path(hash);
  if (has_blob(hash)) return {};
  return write_blob_file(path, frame);
}

Expected<std::string> CaptureStore::get_blob(const std::string& hash) const {
  fs::path path = blob_path(hash);
  auto compressed = read_file(path);
  if (!compressed) return Error{fmt::format("capture store {}: blob {} is missing", dir_.string(), hash)};
  return decompress(*compressed, hash, path.string());
}

Expected<CaptureStore::Pruned> CaptureStore::prune(const std::function<bool(const Capture&)>& drop,
                                                   std::chrono::seconds grace) {
  Pruned out;
  auto lock = FileLock::acquire(dir_ / ".lock", true);
  if (!lock) return lock.error();
  auto index = parse_index(dir_ / "index.json");
  if (!index) return index.error();
  auto before = index->captures.size();
  std::erase_if(index->captures, drop);
  out.captures = static_cast<int64_t>(before - index->captures.size());
  out.kept = static_cast<int64_t>(index->captures.size());
  if (out.captures > 0)
    if (auto ok = write_json_file(dir_ / "index.json", nlohmann::json(*index)); !ok) return ok.error();

  std::set<fs::path> referenced;
  for (const auto& c : index->captures) {
    for (const auto& b : c.buffers) {
      referenced.insert(blob_path(b.before));
      if (b.after) referenced.insert(blob_path(*b.after));
    }
    for (const auto& g : c.globals) {
      referenced.insert(blob_path(g.before));
      if (g.after) referenced.insert(blob_path(*g.after));
    }
  }
  // Only files named as blobs or their temporaries, never through a link.
  static const std::regex kOwn(R"([0-9a-f]{16}\.zst(\.tmp\..*)?)");
  auto cutoff = fs::file_time_type::clock::now() - grace;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir_ / "blobs", ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
    const fs::path& path = it->path();
    if (!std::regex_match(path.filename().string(), kOwn) || referenced.count(path)) continue;
    if (it->last_write_time(ec) > cutoff || ec) continue;
    uint64_t size = it->file_size(ec);
    if (fs::remove(path, ec)) {
      ++out.files;
      out.bytes += size;
    }
  }
  return out;
}

}  // namespace stark::harness
