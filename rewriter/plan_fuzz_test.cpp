// The rewriter's plan on the real manifest and sources of tests/projects/edge,
// with the manifest's ranges, paths and launch sites and the result's
// variants and launch overrides mutated at random: every input gives a plan
// or refusals, never a crash. Seeded, so every run sees the same inputs.
#include <gtest/gtest.h>

#include <map>

#include "core/fuzz_input.h"
#include "rewriter/apply_plan.h"
#include "rewriter/test_fixture.h"
#include "core/unified_diff.h"

namespace stark::rewriter {
namespace {

using stark::testing::FuzzInput;

const std::vector<std::string> kExprTokens = {
    "n", "s.rows", "grid.x", "block.y", "shmem", "x", "0", "1",    "-1",        "9223372036854775807",
    "+", "-",      "*",      "/",       "%",     "(", ")", "min(", "ceil_div(", ",",
    " ", "a",      "s.eps",  "y"};

/// An offset near a file's edges or anywhere at all.
int64_t offset(FuzzInput& in, int64_t size) {
  switch (in.below(4)) {
    case 0: return in.extreme();
    case 1: return static_cast<int64_t>(in.below(static_cast<size_t>(size) + 2)) - 1;
    case 2: return size + static_cast<int64_t>(in.below(3)) - 1;
    default: return static_cast<int64_t>(in.below(3)) - 1;
  }
}

void mutate_range(FuzzInput& in, ByteRange& r, int64_t size) {
  if (in.percent(50)) r.begin = offset(in, size);
  if (in.percent(50)) r.end = offset(in, size);
}

std::string path(FuzzInput& in, const std::string& now) {
  static const std::vector<std::string> kPaths = {"",
                                                  ".",
                                                  "..",
                                                  "/etc/passwd",
                                                  "../edge/src/stats.cu",
                                                  "src/../../x.cu",
                                                  "src/stats.cu",
                                                  "include/edge/scale.cuh",
                                                  "src/apis.cu/",
                                                  std::string("src/a\0b", 7)};
  return in.percent(70) ? kPaths[in.below(kPaths.size())] : in.mutate_text(now);
}

void mutate_launch(FuzzInput& in, Launch& l, int64_t size) {
  switch (in.below(6)) {
    case 0: mutate_range(in, l.config_range, size); break;
    case 1:
      for (auto* r : {&l.grid_range, &l.block_range, &l.shmem_range, &l.stream_range})
        if (in.percent(40))
          *r = in.percent(20) ? std::nullopt : std::optional<ByteRange>(ByteRange{offset(in, size), offset(in, size)});
      break;
    case 2: l.file = path(in, l.file); break;
    case 3: l.args.resize(in.below(6), in.tokens({"n", "i++", "x = 2", "s", "(", ")"}, 3)); break;
    case 4: l.grid = in.percent(30) ? std::nullopt : std::optional<std::string>(in.tokens(kExprTokens, 6)); break;
    default: l.kind = in.percent(50) ? LaunchKind::Api : LaunchKind::Chevron; break;
  }
}

void mutate_kernel(FuzzInput& in, Kernel& k, int64_t size) {
  switch (in.below(5)) {
    case 0: mutate_range(in, k.range, size); break;
    case 1: mutate_range(in, k.body, size); break;
    case 2: k.file = path(in, k.file); break;
    case 3:
      if (!k.params.empty()) k.params[in.below(k.params.size())].kind = static_cast<ParamKind>(in.below(3));
      break;
    default:
      if (!k.launches.empty()) mutate_launch(in, k.launches[in.below(k.launches.size())], size);
      break;
  }
}

nlohmann::json variant(FuzzInput& in, const Kernel& k) {
  nlohmann::json launch = nlohmann::json::object();
  auto expr = [&] { return in.tokens(kExprTokens, 8); };
  if (in.percent(60))
    launch["grid"] = in.percent(70) ? nlohmann::json(expr()) : nlohmann::json({expr(), expr(), expr()});
  if (in.percent(50)) launch["block"] = expr();
  if (in.percent(40)) launch["shmem"] = expr();
  std::string source = "__global__ void " + k.name + "(int n) {}";
  return testing::improved(k.id, in.percent(30) ? in.mutate_text(source) + " " : source, launch);
}

TEST(PlanFuzz, AnyManifestAndResultGiveAPlanOrRefusalsNeverACrash) {
  const Manifest clean = testing::edge_manifest();
  ASSERT_FALSE(clean.kernels.empty());
  std::map<std::string, int64_t> sizes;
  for (const auto& [file, entry] : clean.files)
    sizes[file] = static_cast<int64_t>(testing::read(std::filesystem::path(clean.source_root) / file).size());
  size_t planned = 0, refused = 0;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    FuzzInput in(seed);
    Manifest m = clean;
    for (size_t n = 1 + in.below(3); n > 0; --n) {
      Kernel& k = m.kernels[in.below(m.kernels.size())];
      mutate_kernel(in, k, sizes.count(k.file) ? sizes[k.file] : 1000);
      if (in.percent(10)) m.files[k.file] = clean.files.count(k.file) ? clean.files.at(k.file) : FileEntry{"xxh64:0"};
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : clean.kernels)
      if (in.percent(60)) kernels.push_back(variant(in, k));
    Result result = nlohmann::json({{"schema", "stark.result/1"},
                                    {"source_root", m.source_root},
                                    {"manifest", "m.json"},
                                    {"kernels", kernels}})
                        .get<Result>();
    auto plan = plan_apply(result, m);
    ASSERT_TRUE(plan) << "seed " << seed << ": " << plan.error().message;
    planned += plan->kernels.size();
    refused += plan->refused.size();
    for (const auto& f : plan->files) (void)unified_diff(f.path, f.original, f.updated);
  }
  EXPECT_GT(planned, 0u);  // the mutations leave some kernels applicable...
  EXPECT_GT(refused, 0u);  // ...and refuse others
}

}  // namespace
}  // namespace stark::rewriter
