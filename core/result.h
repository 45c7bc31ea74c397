// The result of `stark optimize` (stark.result/1, DIR/result.json): per kernel
// what was found, the search tree that found it, and the checks it passed.
// `stark apply` and `stark report` read only this (plus the files it names).
#ifndef STARK_CORE_RESULT_H
#define STARK_CORE_RESULT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/evaluation.h"
#include "core/expected.h"
#include "core/gpu_info.h"
#include "core/node_status.h"
#include "core/variant.h"

namespace stark {

inline constexpr const char* kResultSchema = "stark.result/1";

enum class KernelStatus { Improved, NoGain, Failed, Skipped, Untimed };
enum class CacheState { Hit, Miss, Off };

/// How a candidate is tied to the plan that asked for it (docs/design.md,
/// "Grounding"): whether its change stayed where the plan's markers said.
enum class Grounding {
  None,          // no plan: the root, a debug fix
  Spans,         // the plan kept the node's code outside its markers, and so did the code role
  Reanchored,    // the plan changed code outside its markers; its spans were found in the node's code and put there
  WholeBody,     // the plan came without markers (or in words only): one span over the kernel's body
  OutsideSpans,  // the code role changed code outside the plan's spans (the candidate is still evaluated)
};

/// What made a node of a search tree: the original kernel, a plan and the
/// code written for it, or a repair of a failed candidate.
enum class NodeRole { Root, PlanCode, Debug };

/// One evaluated (or failed) candidate in a kernel's search tree, as
/// result.json keeps it. The search's own node (agents/search_tree.h)
/// is this plus what only the search needs.
struct TreeNode {
  int id = 0;
  std::optional<int> parent;       // nullopt: the root (the original kernel)
  NodeRole role = NodeRole::Root;  // "root", "plan+code", "debug" in JSON
  NodeStatus status = NodeStatus::NotEvaluated;
  std::optional<double> time_us;                 // the candidate's time (sum of per-capture medians)
  std::string diagnostics;                       // compiler or checker messages
  std::optional<Variant> variant;                // nullopt: it failed before any code was written
  std::string strategy;                          // extension: what the plan role chose, in a few words
  Grounding grounding = Grounding::None;         // extension: "grounding", absent for None
  std::vector<std::string> temperature_dropped;  // extension: roles whose temperature the model did not take
  ProfileFacts profile;                          // extension: "profile", absent when empty
  bool operator==(const TreeNode&) const = default;
};

struct TokenUsage {
  int64_t prompt = 0;
  int64_t completion = 0;
  bool operator==(const TokenUsage&) const = default;
};

/// One captured launch's medians for the original and the kept variant, from
/// the same evaluation: where a kernel has launches of several sizes, which
/// one the time comes from.
struct CaptureTime {
  std::string id;  // the capture's id in the store
  double baseline_us = 0;
  double best_us = 0;
  std::optional<uint64_t> bytes;  // the launch's compulsory DRAM traffic, where measured
  bool operator==(const CaptureTime&) const = default;
};

struct KernelResult {
  std::string id;
  KernelStatus status = KernelStatus::Failed;
  CacheState cache = CacheState::Off;
  std::optional<double> baseline_us;
  std::optional<double> best_us;
  std::optional<double> speedup;
  int attempts = 0;
  TokenUsage tokens;
  std::optional<double> cost_usd;
  std::optional<Variant> best;  // without "kernel"
  std::vector<Check> checks;
  std::vector<std::string> strategies;
  std::vector<std::string> assumptions;  // extension: e.g. "__restrict__ added: no captured launch aliased x, y"
  std::vector<CaptureTime> captures;     // extension: per capture, for improved and no_gain kernels
  std::vector<TreeNode> tree;
  bool operator==(const KernelResult&) const = default;
};

struct BackendInfo {
  std::string name;  // builtin, openai, anthropic, command
  std::string model;
  bool operator==(const BackendInfo&) const = default;
};

struct Result {
  std::string source_root;
  std::string build_dir;
  std::string manifest;  // path of the manifest this run used
  std::optional<GpuInfo> gpu;
  BackendInfo backend;
  int64_t seed = 0;
  std::vector<KernelResult> kernels;
  bool operator==(const Result&) const = default;
};

const char* to_string(KernelStatus s);
const char* to_string(NodeRole r);
/// The role a name gives ("plan+code"...); nullopt for any other name.
std::optional<NodeRole> node_role_from_string(std::string_view name);
const char* to_string(Grounding g);
std::optional<Grounding> grounding_from_string(std::string_view name);
const char* to_string(CacheState s);

void to_json(nlohmann::json& j, const TreeNode& n);
void from_json(const nlohmann::json& j, TreeNode& n);
/// The per-capture medians of an evaluation, for captures timed on both sides.
std::vector<CaptureTime> capture_times(const Evaluation& e);

void to_json(nlohmann::json& j, const CaptureTime& c);
void from_json(const nlohmann::json& j, CaptureTime& c);
void to_json(nlohmann::json& j, const KernelResult& k);
void from_json(const nlohmann::json& j, KernelResult& k);
void to_json(nlohmann::json& j, const Result& r);
void from_json(const nlohmann::json& j, Result& r);

/// Reads DIR/result.json and checks it.
Expected<Result> load_result(const std::string& dir);

}  // namespace stark

#endif  // STARK_CORE_RESULT_H
