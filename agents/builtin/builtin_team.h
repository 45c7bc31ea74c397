// The built-in expert: the plan, code and debug roles played without any
// model. Plan analyses the node's kernel with clang and picks the next
// untried strategy (with parameters) from the catalogue; code applies it as
// a source transformation; debug tries the failed strategy's next parameter
// set on the same parent. Deterministic: the same tree gives the same plans.
#ifndef STARK_AGENTS_BUILTIN_BUILTIN_TEAM_H
#define STARK_AGENTS_BUILTIN_BUILTIN_TEAM_H

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "agents/team.h"
#include "clang_tool/kernel_analysis.h"
#include "clang_tool/nvcc_args.h"
#include "core/manifest.h"

namespace stark {

class BuiltinTeam : public Team {
 public:
  using Scalars = std::vector<std::map<std::string, int64_t>>;

  BuiltinTeam(std::filesystem::path source_root, ClangSetup setup);

  BackendInfo info() const override { return {"builtin", "stark-expert-1"}; }
  RoleReply<Plan> plan(const PlanInput& in) override;
  RoleReply<Variant> code(const CodeInput& in) override;
  RoleReply<Variant> debug(const DebugInput& in) override;

  /// Labels of every (strategy, params) the expert would try on a kernel
  /// source, in its order (for tests and `--verbose`).
  /// scalars: each capture's integer arguments (KernelBrief::scalars);
  /// profile: the node's facts, which rank what eases its limiter first.
  Expected<std::vector<std::string>> options(const Kernel& kernel, const std::string& source,
                                             const LaunchOverride& launch, const std::optional<GpuInfo>& gpu,
                                             const Scalars& scalars = {}, const ProfileFacts& profile = {});

 private:
  /// Where a candidate came from, for debug.
  struct Origin {
    std::string parent_source;
    LaunchOverride parent_launch;
    std::string label;
    std::vector<std::string> applied;
  };

  Expected<std::shared_ptr<const KernelAnalysis>> analysis(const Kernel& kernel, const std::string& source);
  std::vector<std::string> applied_on(const std::string& source, const LaunchOverride& launch);
  Expected<Variant> build(const Kernel& kernel, const std::string& label, const std::string& source,
                          const LaunchOverride& launch, const std::optional<GpuInfo>& gpu,
                          const std::vector<std::string>& applied, const Scalars& scalars);

  std::filesystem::path root_;
  ClangSetup setup_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const KernelAnalysis>> analyses_;  // by kernel id + source hash
  std::map<std::string, Origin> origins_;                                  // by the candidate's source and launch
};

/// The team for `stark optimize --backend builtin`.
std::unique_ptr<Team> make_builtin_team(const Manifest& manifest, const ClangSetup& setup);

}  // namespace stark

#endif  // STARK_AGENTS_BUILTIN_BUILTIN_TEAM_H
