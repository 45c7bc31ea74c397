// The three roles of the STARK method (plan, code, debug) behind one
// interface, so the LLM team and the built-in expert run in the same search.
// Each role gets its own window of the tree (docs/design.md, "The method").
#ifndef STARK_AGENTS_TEAM_H
#define STARK_AGENTS_TEAM_H

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agents/search_tree.h"
#include "core/expected.h"
#include "core/gpu_info.h"
#include "core/manifest.h"
#include "core/result.h"
#include "core/variant.h"

namespace stark {

/// What the captures of a kernel say, for its brief: one line per capture
/// for the models, and each capture's integer scalar arguments by parameter
/// name (rows=8192, cols=4096) for the built-in expert, which sizes some
/// strategies (a row cache) to the rows the kernel really gets.
struct CapturedInputs {
  std::vector<std::string> lines;
  std::vector<std::map<std::string, int64_t>> scalars;
};

/// What every role knows about the kernel, whatever node it looks at.
struct KernelBrief {
  const Kernel* kernel = nullptr;
  std::string source;                                   // the original text of the kernel's range
  std::vector<std::string> launch_sites;                // one line each: "src/a.cu:40 in f(): k<<<...>>>(n, x)"
  std::vector<std::string> inputs;                      // captured shapes, one line per capture
  std::vector<std::map<std::string, int64_t>> scalars;  // integer scalar arguments of each capture
  std::optional<GpuInfo> gpu;
  std::optional<double> rtol, atol;  // the annotation's; nullopt: the harness's defaults per element type
};

/// When the search stops waiting for a role (the kernel's --time-limit): a
/// call still running then is cut short. nullopt: no limit.
using Deadline = std::optional<std::chrono::steady_clock::time_point>;

/// Temperatures a search asks of each role for its kernel (an annotation's);
/// nullopt: the team's own.
struct RoleTemperatures {
  std::optional<double> plan, code, debug;
  bool operator==(const RoleTemperatures&) const = default;
};

/// Plan role window: the node, the root, the node's children, the leaderboard.
struct PlanInput {
  const KernelBrief* brief = nullptr;
  const SearchNode* node = nullptr;
  const SearchNode* root = nullptr;
  std::vector<const SearchNode*> children;
  std::vector<const SearchNode*> leaderboard;
  /// The strategy of every node below the root, anywhere in the tree: what
  /// the search has already spent attempts on.
  std::vector<std::string> tried;
  int proposal = 0;     // how many other plans for this node are being made at the same time before this one
  std::string refused;  // why this node's previous plan was refused (its grounding); empty for a first plan
  Deadline deadline;
  std::optional<double> temperature;  // this search's for the role (RoleTemperatures); nullopt: the team's
};

/// A grounded instruction: the node's source with span markers around the
/// code to change, each with a short instruction (grounded.h).
struct Plan {
  std::string strategy;   // a few words, shown in reports
  std::string grounded;   // the kernel source with markers
  LaunchOverride launch;  // launch shape the plan asks for (may be empty)
};

/// Code role window: the node, the root, its children and its cousins.
struct CodeInput {
  const KernelBrief* brief = nullptr;
  const SearchNode* node = nullptr;
  const SearchNode* root = nullptr;
  std::vector<const SearchNode*> children;
  std::vector<const SearchNode*> cousins;
  Plan plan;
  Deadline deadline;
  std::optional<double> temperature;
};

/// Debug role window: the failed node, the node it came from, the root and
/// its siblings.
struct DebugInput {
  const KernelBrief* brief = nullptr;
  const SearchNode* node = nullptr;
  const SearchNode* parent = nullptr;
  const SearchNode* root = nullptr;
  std::vector<const SearchNode*> siblings;
  Deadline deadline;
  std::optional<double> temperature;
};

/// What a role call cost, and what it could not honour.
struct RoleUsage {
  TokenUsage tokens;
  double cost_usd = 0;
  /// Roles whose temperature the model did not take (it rejects the
  /// parameter): their replies came at the model's default.
  std::vector<std::string> temperature_dropped;
};

/// A role's answer: the value or a reason it could not give one (prose
/// without code, an API that failed...), always with what it cost.
template <typename T>
struct RoleReply {
  Expected<T> value;
  RoleUsage usage;
  /// With an Error: the role has no further answer for this input (the
  /// built-in team once it has proposed every transformation it knows for a
  /// node, or tried every repair it knows for a failed one), which is no
  /// failure and costs the search no attempt.
  bool nothing_left = false;
};

class Team {
 public:
  virtual ~Team() = default;
  /// Name and model for result.json's "backend".
  virtual BackendInfo info() const = 0;
  /// Everything about the team that makes its searches differ (backend,
  /// endpoint, models and temperatures per role, prompts' version), as
  /// canonical JSON: a saved search or a cached result of another identity
  /// is never taken for this team's. The default: info()'s name and model.
  virtual std::string identity() const;
  virtual RoleReply<Plan> plan(const PlanInput& in) = 0;
  virtual RoleReply<Variant> code(const CodeInput& in) = 0;
  virtual RoleReply<Variant> debug(const DebugInput& in) = 0;
};

}  // namespace stark

#endif  // STARK_AGENTS_TEAM_H
