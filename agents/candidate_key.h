// Which candidates are the same kernel to the GPU (docs/design.md, "The
// search"): the source as C++ tokens, so spacing, line breaks and comments
// do not count, and the launch it asks for. The search evaluates one
// candidate per key; a later one with the same key is a duplicate and costs
// no attempt.
#ifndef STARK_AGENTS_CANDIDATE_KEY_H
#define STARK_AGENTS_CANDIDATE_KEY_H

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/variant.h"

namespace stark {

/// A hash of the candidate's tokens and launch override.
std::string candidate_key(const Variant& v);

/// The candidates one search has evaluated or is evaluating, by key.
/// Thread-safe: expansions running at the same time claim through it, so two
/// of them that write the same candidate do not both reach the GPU.
class CandidateLedger {
 public:
  /// A node of the tree holds this candidate (the root, every evaluated node).
  void add_node(const std::string& key, int node);
  /// Claims `key` for the expansion numbered `seq`. Empty when the claim is
  /// the first; otherwise who has it, for the duplicate's diagnostics.
  std::optional<std::string> claim(const std::string& key, int seq);
  /// Expansion `seq` became node `node`: its claims now name the node.
  void settle(int seq, int node);

 private:
  struct Holder {
    int node = -1;  // -1 while still in flight
    int seq = -1;
  };
  std::mutex mutex_;
  std::map<std::string, Holder> holders_;
};

}  // namespace stark

#endif  // STARK_AGENTS_CANDIDATE_KEY_H
