// A request made ready for a worker that cannot read the evaluator's files:
// the cubins and the capture records travel by content hash, and the blobs
// behind them are listed so the worker pool can send the ones a worker has
// not got yet (worker/protocol.h, docs/CONTRACTS.md "Worker protocol").
#ifndef STARK_HARNESS_EVALUATOR_SHIPMENT_H
#define STARK_HARNESS_EVALUATOR_SHIPMENT_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

/// One file a request needs, by content hash.
struct ShippedBlob {
  std::string hash;
  BlobKind kind = BlobKind::File;
  std::filesystem::path file;  // File: the file to send; Store: unused (the blob is in `store`)
  bool operator==(const ShippedBlob&) const = default;
};

struct Shipment {
  EvaluateRequest request;         // shipped: hashes and records instead of paths
  std::vector<ShippedBlob> blobs;  // cubins first, then snapshots, each once
  std::filesystem::path store;     // where the Store blobs are
};

/// `by_path` names a store folder and cubin paths readable here.
Expected<Shipment> make_shipment(const EvaluateRequest& by_path);

/// The bytes to send for a blob (Store: the zstd frame the store keeps).
Expected<std::string> blob_bytes(const Shipment& shipment, const ShippedBlob& blob);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_SHIPMENT_H
