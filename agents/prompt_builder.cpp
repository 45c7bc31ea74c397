#include "agents/prompt_builder.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "agents/prompts.h"
#include "core/unified_diff.h"

namespace stark {

namespace {

constexpr size_t kDiagnosticsInContext = 1500;  // failed siblings/children: the gist only

std::string clip(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n) + "\n[...]";
}

std::string brief_text(const KernelBrief& b) {
  std::string out = fmt::format("## The kernel\n`{}` in `{}`", b.kernel->qualified_name, b.kernel->file);
  if (b.gpu) {
    out += fmt::format("\n\n## The GPU\n{} (sm_{}", b.gpu->name, b.gpu->sm);
    if (b.gpu->sm_count > 0) out += fmt::format(", {} SMs", b.gpu->sm_count);
    if (b.gpu->mem_bandwidth_gbs > 0)
      out += fmt::format(", {} GB/s DRAM bandwidth", three_digits(b.gpu->mem_bandwidth_gbs));
    out += ")";
  }
  if (b.rtol || b.atol)
    out += fmt::format("\n\n## Correctness\nOutputs must match the original within rtol={} and atol={}.",
                       b.rtol.value_or(0), b.atol.value_or(0));
  else
    out +=
        "\n\n## Correctness\nOutputs must match the original within the default tolerance of their element type "
        "(float: rtol 1e-4, atol 1e-6, relative to the larger of |expected| and the buffer's RMS; integers exactly).";
  if (!b.launch_sites.empty()) {
    out += "\n\n## How the project launches it";
    for (const auto& l : b.launch_sites) out += "\n- " + l;
  }
  if (b.kernel && !b.kernel->fixed_launch.empty())
    out += fmt::format("\n\nThe launch shape cannot change: {}. Change only the kernel's body and give no LAUNCH line.",
                       b.kernel->fixed_launch);
  if (!b.inputs.empty()) {
    out += "\n\n## Inputs recorded from the project's tests";
    for (const auto& i : b.inputs) out += "\n- " + i;
  }
  return out;
}

std::string launch_line(const LaunchOverride& l) {
  if (l.empty()) return "";
  return "\nLAUNCH: " + nlohmann::json(l).dump();
}

/// One node as the prompts show it: what it is, how it did, its code.
std::string node_text(const SearchNode& n, const SearchNode& root, bool with_diagnostics) {
  std::string head =
      fmt::format("node {} ({}{}{})", n.id, to_string(n.role), n.strategy.empty() ? "" : ": ", n.strategy);
  std::string how;
  if (n.state == NodeState::Correct && n.time_us) {
    how = fmt::format("correct, {} us", three_digits(*n.time_us));
    if (root.time_us && n.id != root.id)
      how += fmt::format(", {}x the original's speed", three_digits(*root.time_us / *n.time_us));
  } else if (n.state == NodeState::Untimed) {
    how = "compiled; not timed (no GPU)";
  } else {
    how = fmt::format("FAILED: {}", n.status);
  }
  std::string profile = describe(n.profile);
  if (!profile.empty()) how += "\nprofile: " + profile;
  std::string out =
      fmt::format("{} - {}\n```cuda\n{}\n```{}", head, how, n.candidate().source, launch_line(n.candidate().launch));
  if (with_diagnostics && n.state == NodeState::Failed && !n.diagnostics.empty())
    out += fmt::format("\nwhy it failed:\n```\n{}\n```", clip(n.diagnostics, kDiagnosticsInContext));
  return out;
}

std::string node_list(const std::vector<const SearchNode*>& nodes, const SearchNode& root) {
  if (nodes.empty()) return "(none yet)";
  std::string out;
  for (const SearchNode* n : nodes) out += (out.empty() ? "" : "\n\n") + node_text(*n, root, true);
  return out;
}

/// Plans made for the same node at the same time must differ (and must not
/// share a cached reply): each one is told its rank.
std::string proposal_text(int proposal) {
  if (proposal == 0) return "Choose the transformation you expect to gain the most.";
  return fmt::format(
      "{} other plan{} for this kernel {} being made at the same time; they take the most promising "
      "idea{}. Choose the idea you rank number {} instead.",
      proposal, proposal == 1 ? "" : "s", proposal == 1 ? "is" : "are", proposal == 1 ? "" : "s", proposal + 1);
}

/// Why the node's previous plan was sent back, for the plan role's second try.
std::string refused_text(const std::string& refused) {
  if (refused.empty()) return "";
  return fmt::format(
      "\n## Your previous plan for this node was refused\n{}.\nMark code of the current kernel as it is: outside the "
      "markers, change nothing.\n",
      refused);
}

/// What the failed candidate was asked to do: its grounded plan, or the
/// failure a debug node was fixing.
std::string asked_text(const SearchNode& n, const SearchNode* parent) {
  if (!n.plan.empty()) return fmt::format("Its plan ({}):\n```cuda\n{}\n```", n.strategy, n.plan);
  if (n.role == NodeRole::Debug && parent)
    return fmt::format("It was a fix of node {}, which failed with: {}", parent->id, parent->status);
  return "(no plan recorded)";
}

/// The failed candidate's change, as a unified diff against the node it came from.
std::string change_text(const SearchNode& n, const SearchNode* parent) {
  if (!parent) return "(no parent)";
  auto d = unified_diff("kernel.cu", parent->candidate().source, n.candidate().source, 3);
  return d.text.empty() ? "(no change)" : clip(d.text, kDiagnosticsInContext * 4);
}

std::string errors_text(const std::vector<CaptureError>& errors) {
  if (errors.empty()) return "";
  std::string out = "\n## How far its outputs were from the original's\n";
  for (const auto& e : errors)
    out += fmt::format("- capture {}: max abs error {:.3g}, max rel error {:.3g}\n", e.id, e.max_abs, e.max_rel);
  return out;
}

}  // namespace

std::string three_digits(double v) {
  if (v == 0 || !std::isfinite(v)) return fmt::format("{}", v);
  int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  double scale = std::pow(10.0, 2 - magnitude);
  double rounded = std::round(v * scale) / scale;
  return fmt::format("{:.{}f}", rounded, std::max(0, 2 - magnitude));
}

Prompt plan_prompt(const PlanInput& in) {
  std::string user = render_template(prompt_template("plan"), {{"brief", brief_text(*in.brief)},
                                                               {"node_id", std::to_string(in.node->id)},
                                                               {"node", node_text(*in.node, *in.root, false)},
                                                               {"root", node_text(*in.root, *in.root, false)},
                                                               {"children", node_list(in.children, *in.root)},
                                                               {"leaderboard", node_list(in.leaderboard, *in.root)},
                                                               {"proposal", proposal_text(in.proposal)},
                                                               {"refused", refused_text(in.refused)}});
  return {std::string(prompt_template("system")), user};
}

Prompt code_prompt(const CodeInput& in) {
  std::string plan_launch = in.plan.launch.empty() ? "" : "The plan's launch shape:" + launch_line(in.plan.launch);
  std::string user = render_template(prompt_template("code"), {{"brief", brief_text(*in.brief)},
                                                               {"strategy", in.plan.strategy},
                                                               {"grounded", in.plan.grounded},
                                                               {"plan_launch", plan_launch},
                                                               {"node_id", std::to_string(in.node->id)},
                                                               {"node", node_text(*in.node, *in.root, false)},
                                                               {"root", node_text(*in.root, *in.root, false)},
                                                               {"children", node_list(in.children, *in.root)},
                                                               {"cousins", node_list(in.cousins, *in.root)}});
  return {std::string(prompt_template("system")), user};
}

Prompt debug_prompt(const DebugInput& in) {
  std::string user =
      render_template(prompt_template("debug"), {{"brief", brief_text(*in.brief)},
                                                 {"node_id", std::to_string(in.node->id)},
                                                 {"strategy", in.node->strategy},
                                                 {"node", node_text(*in.node, *in.root, false)},
                                                 {"plan", asked_text(*in.node, in.parent)},
                                                 {"parent_id", in.parent ? std::to_string(in.parent->id) : "-"},
                                                 {"diff", change_text(*in.node, in.parent)},
                                                 {"diagnostics", in.node->diagnostics},
                                                 {"errors", errors_text(in.node->errors)},
                                                 {"root", node_text(*in.root, *in.root, false)},
                                                 {"siblings", node_list(in.siblings, *in.root)}});
  return {std::string(prompt_template("system")), user};
}

}  // namespace stark
