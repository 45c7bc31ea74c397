#include "agents/candidate_key.h"

#include <fmt/format.h>

#include "core/cpp_tokens.h"
#include "core/hash.h"

namespace stark {

std::string candidate_key(const Variant& v) {
  std::string text;
  for (const CppToken& t : cpp_tokens(v.source)) {
    text += token_text(v.source, t);
    text += '\n';  // no token holds a line break outside a literal, and literals are whole tokens
  }
  text += fmt::format(
      "\x1fgrid={}\x1f"
      "block={}\x1f"
      "shmem={}",
      fmt::join(v.launch.grid, ","), fmt::join(v.launch.block, ","), v.launch.shmem.value_or(""));
  return content_hash(text);
}

void CandidateLedger::add_node(const std::string& key, int node) {
  std::lock_guard lock(mutex_);
  holders_.try_emplace(key, Holder{node, -1});
}

std::optional<std::string> CandidateLedger::claim(const std::string& key, int seq) {
  std::lock_guard lock(mutex_);
  auto [it, first] = holders_.try_emplace(key, Holder{-1, seq});
  if (first || (it->second.node < 0 && it->second.seq == seq)) return std::nullopt;
  if (it->second.node == 0) return "the original kernel (node 0)";
  if (it->second.node > 0) return fmt::format("node {}", it->second.node);
  return "a candidate still being evaluated";
}

void CandidateLedger::settle(int seq, int node) {
  std::lock_guard lock(mutex_);
  for (auto& [key, holder] : holders_)
    if (holder.node < 0 && holder.seq == seq) holder.node = node;
}

}  // namespace stark
