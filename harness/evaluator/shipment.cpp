#include "harness/evaluator/shipment.h"

#include <fmt/format.h>

#include <set>

#include "core/file_io.h"
#include "core/hash.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

Expected<Shipment> make_shipment(const EvaluateRequest& by_path) {
  Shipment s;
  s.request = by_path;
  s.request.shipped = true;
  s.request.store.clear();
  s.store = by_path.store;
  std::set<std::string> seen;
  for (std::string* cubin : {&s.request.baseline_cubin, &s.request.variant_cubin}) {
    auto hash = file_hash(*cubin);
    if (!hash) return Error{fmt::format("cannot read the cubin {}: {}", *cubin, hash.error().message)};
    if (seen.insert(*hash).second) s.blobs.push_back({*hash, BlobKind::File, *cubin});
    *cubin = *hash;
  }
  auto store = CaptureStore::open(by_path.store, false);
  if (!store) return store.error();
  auto index = store->read_index();
  if (!index) return index.error();
  for (const auto& id : by_path.captures) {
    const Capture* c = index->find(id);
    if (!c) return Error{fmt::format("capture {} is not in the store {}", id, by_path.store)};
    s.request.records.push_back(*c);
    auto add = [&](const std::string& h) {
      if (seen.insert(h).second) s.blobs.push_back({h, BlobKind::Store, {}});
    };
    for (const auto& b : c->buffers) {
      add(b.before);
      if (b.after) add(*b.after);
    }
    for (const auto& g : c->globals) {
      add(g.before);
      if (g.after) add(*g.after);
    }
  }
  return s;
}

Expected<std::string> blob_bytes(const Shipment& shipment, const ShippedBlob& blob) {
  if (blob.kind == BlobKind::File) {
    auto bytes = read_file(blob.file);
    if (!bytes) return Error{fmt::format("cannot read {}", blob.file.string())};
    return std::move(*bytes);
  }
  auto store = CaptureStore::open(shipment.store, false);
  if (!store) return store.error();
  return store->read_stored(blob.hash);
}

}  // namespace stark::harness
