#include "pipeline/optimize.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "agents/testing/simulated.h"
#include "cache/result_cache.h"
#include "core/file_io.h"
#include "core/hash.h"
#include "pipeline/kernel_brief.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const char* kSource =
    "#include <cuda_runtime.h>\n"
    "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "__global__ void scale(int n, float* y) { y[0] = n; }\n"
    "void run(int n, float a, const float* x, float* y) { saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y); }\n";

/// One test's project, in a folder of its own: ctest runs the tests of this
/// file as concurrent processes, which must never share a result or a cache.
struct Project {
  TempDir tmp;
  fs::path root = tmp.path();
  Manifest manifest;
  Project(const Project&) = delete;
  Project() {
    EXPECT_TRUE(write_file_atomic(root / "src/ops.cu", kSource));
    manifest.source_root = root.string();
    manifest.files["src/ops.cu"] = {content_hash(kSource)};
    std::string text = kSource;
    for (const char* name : {"saxpy", "scale"}) {
      Kernel k;
      k.id = std::string("src/ops.cu:") + name;
      k.name = k.qualified_name = name;
      k.file = "src/ops.cu";
      size_t begin = text.find(std::string("__global__ void ") + name);
      size_t end = text.find("}\n", begin) + 1;
      k.range = {static_cast<int64_t>(begin), static_cast<int64_t>(end)};
      k.body = {static_cast<int64_t>(text.find('{', begin)), static_cast<int64_t>(end)};
      manifest.kernels.push_back(k);
    }
    for (auto& k : manifest.kernels) {  // what a scan records and the result cache keys on
      k.fingerprint = content_hash(k.name);
      k.compile =
          CompileCommand{root.string(), (root / "src/ops.cu").string(), {"nvcc", "-c", "src/ops.cu"}, "ops", {"90"}};
    }
    Launch l;
    l.file = "src/ops.cu";
    l.line = 7;
    l.grid = "(n + 255) / 256";
    l.block = "256";
    l.args = {"n", "a", "x", "y"};
    l.caller = "run";
    manifest.kernels[0].launches.push_back(l);
  }
};

struct Services {
  testing::SimulatedEvaluator evaluator;
  testing::SimulatedValidator validator;
  testing::ScriptedTeam team;
  explicit Services(bool gpu = true) : evaluator(gpu) {}
};

OptimizeOptions options(const Project& p, int budget = 8) {
  OptimizeOptions o;
  o.out_dir = p.root / "result";
  o.manifest_path = (p.root / "manifest.json").string();
  o.budget = budget;
  o.seed = 5;
  return o;
}

TEST(Optimize, WritesAResultForEveryKernel) {
  Project p;
  p.manifest.kernels[1].options.skip = true;
  Services s;
  std::vector<std::string> attempts;
  OptimizeHooks hooks;
  hooks.attempt = [&](const Kernel& k, const SearchNode& n) { attempts.push_back(k.id + "#" + std::to_string(n.id)); };
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, options(p), hooks);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->kernels.size(), 2u);
  const KernelResult& saxpy = r->kernels[0];
  EXPECT_EQ(saxpy.attempts, 8);
  // With expansions in flight together, two fixes of one node can be the
  // same candidate: the copy is a duplicate node that costs no attempt.
  size_t duplicates = 0;
  for (const auto& n : saxpy.tree) duplicates += n.status == NodeStatus::Duplicate;
  EXPECT_EQ(saxpy.tree.size(), 9u + duplicates);
  EXPECT_EQ(attempts.size(), 8u + duplicates);
  EXPECT_TRUE(saxpy.status == KernelStatus::Improved || saxpy.status == KernelStatus::NoGain);
  if (saxpy.status == KernelStatus::Improved) {
    ASSERT_TRUE(saxpy.best);
    EXPECT_GE(*saxpy.speedup, 1.02);
    EXPECT_FALSE(saxpy.strategies.empty());
  }
  EXPECT_EQ(r->kernels[1].status, KernelStatus::Skipped);
  EXPECT_EQ(r->backend.name, "scripted");
  auto loaded = load_result((p.root / "result").string());
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(*loaded, *r);
}

TEST(Optimize, KernelBudgetTakesTheOptionThenTheAnnotationAndNeverExceedsTheCap) {
  Kernel k;
  EXPECT_EQ(kernel_budget(k, std::nullopt, std::nullopt), kDefaultBudget);
  k.options.budget = 12;
  EXPECT_EQ(kernel_budget(k, std::nullopt, std::nullopt), 12);
  EXPECT_EQ(kernel_budget(k, 20, std::nullopt), 20);
  EXPECT_EQ(kernel_budget(k, std::nullopt, kUntimedBudget), kUntimedBudget);
  k.options.budget = 2;  // below the cap: the annotation stands
  EXPECT_EQ(kernel_budget(k, std::nullopt, kUntimedBudget), 2);
}

TEST(Optimize, BriefShowsLaunchSites) {
  Project p;
  auto b =
      make_brief(p.manifest, p.manifest.kernels[0], CapturedInputs{{"n=1048576"}, {{{"n", 1048576}}}}, std::nullopt);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->launch_sites.at(0), "src/ops.cu:7 in run(): saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y)");
  EXPECT_EQ(b->source.rfind("__global__ void saxpy", 0), 0u);
}

TEST(Optimize, WithoutAGpuKernelsAreUntimed) {
  Project p;
  Services s(/*gpu=*/false);
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, options(p, 3));
  ASSERT_TRUE(r);
  for (const auto& k : r->kernels) {
    EXPECT_EQ(k.status, KernelStatus::Untimed) << k.id;
    EXPECT_EQ(k.attempts, 3);
  }
  EXPECT_FALSE(r->gpu);
}

TEST(Optimize, AChangedSourceFailsThatKernelOnly) {
  Project p;
  p.manifest.files["src/ops.cu"].hash = "xxh64:0000000000000000";
  Services s;
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, options(p, 2));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kernels[0].status, KernelStatus::Failed);
  EXPECT_NE(r->kernels[0].checks.at(0).detail.find("changed since it was scanned"), std::string::npos);
}

TEST(Optimize, UnknownKernelIsAnError) {
  Project p;
  Services s;
  OptimizeOptions o = options(p);
  o.kernels = {"src/ops.cu:nope"};
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no kernel 'src/ops.cu:nope'"), std::string::npos);
}

TEST(Optimize, ASecondRunResumesTheSavedSearch) {
  Project p;
  Services first, second;
  auto a = run_optimize(p.manifest, first.evaluator, first.validator, first.team, nullptr, options(p, 6));
  ASSERT_TRUE(a);
  int calls = first.evaluator.calls();
  auto b = run_optimize(p.manifest, second.evaluator, second.validator, second.team, nullptr, options(p, 6));
  ASSERT_TRUE(b);
  EXPECT_EQ(second.evaluator.calls(), 0) << "a finished search is not redone (first run made " << calls << ")";
  EXPECT_EQ(a->kernels[0].tree, b->kernels[0].tree);
}

// --- the result cache ------------------------------------------------

/// A result cache in the project folder; each run writes its own result dir.
struct Cached {
  ResultCache cache;
  int runs = 0;
  explicit Cached(const Project& p) : cache(p.root / "cache") {}
  OptimizeOptions options(const Project& p, int budget = 6) {
    OptimizeOptions o = stark::options(p, budget);
    o.out_dir = p.root / fmt::format("result-{}", ++runs);  // no saved search state to resume
    o.cache.cache = &cache;
    o.cache.stark_version = "test";
    return o;
  }
};

std::vector<CacheState> states(const Result& r) {
  std::vector<CacheState> out;
  for (const auto& k : r.kernels) out.push_back(k.cache);
  return out;
}

using States = std::vector<CacheState>;
constexpr CacheState kHit = CacheState::Hit, kMiss = CacheState::Miss, kOff = CacheState::Off;

TEST(OptimizeCache, ASecondRunReusesEveryResultWithOneEvaluationEach) {
  Project p;
  Cached c(p);
  Services first, second;
  auto a = run_optimize(p.manifest, first.evaluator, first.validator, first.team, nullptr, c.options(p));
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(states(*a), (States{kMiss, kMiss}));
  EXPECT_EQ(c.cache.stats()->entries, 2);

  std::vector<std::string> said;
  OptimizeHooks hooks;
  hooks.attempt = [&](const Kernel&, const SearchNode&) { ADD_FAILURE() << "a hit must not search"; };
  hooks.message = [&](const std::string& m) { said.push_back(m); };
  auto b = run_optimize(p.manifest, second.evaluator, second.validator, second.team, nullptr, c.options(p), hooks);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(states(*b), (States{kHit, kHit}));
  EXPECT_EQ(second.evaluator.calls(), 2) << "one re-verification per kernel, no search";
  EXPECT_TRUE(said.empty()) << said.at(0);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(b->kernels[i].status, a->kernels[i].status);
    EXPECT_EQ(b->kernels[i].best, a->kernels[i].best);
    EXPECT_EQ(b->kernels[i].tree, a->kernels[i].tree);
    EXPECT_EQ(b->kernels[i].checks.back().name, CheckName::Cache);
  }
  auto loaded = load_result((p.root / "result-2").string());
  ASSERT_TRUE(loaded);
  EXPECT_EQ(states(*loaded), (States{kHit, kHit}));
  EXPECT_EQ(c.cache.stats()->hits, 2);
}

TEST(OptimizeCache, EachChangeInvalidatesExactlyTheKernelsItAffects) {
  Project p;
  Cached c(p);
  auto run = [&](OptimizeOptions o) {
    Services s;
    auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, o);
    EXPECT_TRUE(r);
    return r ? states(*r) : States{};
  };
  EXPECT_EQ(run(c.options(p)), (States{kMiss, kMiss}));
  EXPECT_EQ(run(c.options(p)), (States{kHit, kHit}));

  p.manifest.kernels[1].fingerprint = "xxh64:1111111111111111";  // scale's meaning (its text, a helper, a header)
  EXPECT_EQ(run(c.options(p)), (States{kHit, kMiss}));
  p.manifest.kernels[0].compile->arguments.insert(p.manifest.kernels[0].compile->arguments.begin() + 1, "-DFAST");
  EXPECT_EQ(run(c.options(p)), (States{kMiss, kHit}));
  p.manifest.kernels[0].options.rtol = 1e-3;  // a tolerance
  EXPECT_EQ(run(c.options(p)), (States{kMiss, kHit}));
  EXPECT_EQ(run(c.options(p, 7)), (States{kMiss, kMiss}));  // --budget applies to every kernel
  EXPECT_EQ(run(c.options(p, 7)), (States{kHit, kHit}));
  OptimizeOptions shapes = c.options(p, 7);
  shapes.cache.input_shapes = [](const Kernel& k) {
    return k.name == "scale" ? std::vector<std::string>{"_Z5scaleiPf xxh64:2"} : std::vector<std::string>{};
  };
  EXPECT_EQ(run(shapes), (States{kHit, kMiss}));  // new captured inputs
}

TEST(OptimizeCache, InputsTheEvaluatorAddsDuringTheSearchAreInTheStoredKey) {
  // The GPU evaluator makes a capture from args=/buffers= at the first
  // evaluation of a kernel that has none: the next run's key includes it.
  Project p;
  Cached c(p);
  std::atomic<bool> made{false};
  auto shapes = [&](const Kernel&) {
    return made ? std::vector<std::string>{"_Z5saxpy xxh64:annotation"} : std::vector<std::string>{};
  };
  OptimizeOptions first = c.options(p);
  first.cache.input_shapes = shapes;
  OptimizeHooks hooks;
  hooks.attempt = [&](const Kernel&, const SearchNode&) { made = true; };
  Services a, b;
  auto r = run_optimize(p.manifest, a.evaluator, a.validator, a.team, nullptr, first, hooks);
  ASSERT_TRUE(r);
  EXPECT_EQ(states(*r), (States{kMiss, kMiss}));
  OptimizeOptions second = c.options(p);
  second.cache.input_shapes = shapes;
  r = run_optimize(p.manifest, b.evaluator, b.validator, b.team, nullptr, second);
  ASSERT_TRUE(r);
  EXPECT_EQ(states(*r), (States{kHit, kHit}));
}

TEST(OptimizeCache, ForceSearchesAgainAndRefreshesTheEntries) {
  Project p;
  Cached c(p);
  Services first, forced;
  ASSERT_TRUE(run_optimize(p.manifest, first.evaluator, first.validator, first.team, nullptr, c.options(p)));
  OptimizeOptions o = c.options(p);
  o.cache.read = false;
  auto r = run_optimize(p.manifest, forced.evaluator, forced.validator, forced.team, nullptr, o);
  ASSERT_TRUE(r);
  EXPECT_EQ(states(*r), (States{kOff, kOff}));
  EXPECT_GE(forced.evaluator.calls(), 12);
  auto s = c.cache.stats();
  EXPECT_EQ(s->entries, 2);
  EXPECT_EQ(s->stores, 4);
}

TEST(OptimizeCache, ConcurrentRunsOnOneCacheLoseNothing) {
  Project p;
  Cached c(p);
  std::vector<Manifest> manifests(4, p.manifest);
  for (size_t i = 0; i < manifests.size(); ++i)  // four projects' kernels, two runs of each at once
    for (auto& k : manifests[i].kernels) *k.fingerprint += std::to_string(i);
  std::vector<OptimizeOptions> opts;
  for (size_t i = 0; i < manifests.size() * 2; ++i) opts.push_back(c.options(p, 3));
  std::vector<std::thread> runs;
  std::atomic<int> failed{0};
  for (size_t i = 0; i < opts.size(); ++i)
    runs.emplace_back([&, i] {
      Services s;
      if (!run_optimize(manifests[i / 2], s.evaluator, s.validator, s.team, nullptr, opts[i])) ++failed;
    });
  for (auto& t : runs) t.join();
  EXPECT_EQ(failed, 0);
  auto stats = c.cache.stats();
  EXPECT_EQ(stats->entries, 8);
  EXPECT_EQ(stats->unreadable, 0);
  for (const auto& m : manifests) {
    Services s;
    auto r = run_optimize(m, s.evaluator, s.validator, s.team, nullptr, c.options(p, 3));
    ASSERT_TRUE(r);
    EXPECT_EQ(states(*r), (States{kHit, kHit}));
  }
}

/// The entry file of a kernel, found by its recorded id.
std::filesystem::path entry_of(const ResultCache& cache, const std::string& kernel) {
  for (auto& f : std::filesystem::recursive_directory_iterator(cache.dir() / "entries"))
    if (auto j = read_json_file(f.path()); j && (*j)["kernel"] == kernel) return f.path();
  ADD_FAILURE() << "no entry for " << kernel;
  return {};
}

TEST(OptimizeCache, AnEntryThatFailsValidationOrReverificationIsSearchedAgain) {
  Project p;
  Cached c(p);
  // One expansion in flight: the same seed then grows the same tree whatever
  // the timing, so the search again finds the same best (with several in
  // flight the scripted plans depend on which sibling finished first).
  auto one_at_a_time = [&] {
    OptimizeOptions o = c.options(p, 10);
    o.parallel = 1;
    return o;
  };
  Services first;
  auto a = run_optimize(p.manifest, first.evaluator, first.validator, first.team, nullptr, one_at_a_time());
  ASSERT_TRUE(a);
  ASSERT_EQ(a->kernels[0].status, KernelStatus::Improved);
  for (const char* poison : {"INVALID", "WRONG"}) {  // rejected by the validator; by the evaluator
    auto path = entry_of(c.cache, "src/ops.cu:saxpy");
    auto j = read_json_file(path);
    ASSERT_TRUE(j);
    (*j)["result"]["best"]["source"] =
        std::string("/*") + poison + "*/ " + (*j)["result"]["best"]["source"].get<std::string>();
    ASSERT_TRUE(write_json_file(path, *j));
    Services s;
    std::vector<std::string> said;
    OptimizeHooks hooks;
    hooks.message = [&](const std::string& m) { said.push_back(m); };
    auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, one_at_a_time(), hooks);
    ASSERT_TRUE(r);
    EXPECT_EQ(states(*r), (States{kMiss, kHit})) << poison;
    EXPECT_EQ(r->kernels[0].best, a->kernels[0].best) << "searched again, found the same";
    ASSERT_FALSE(said.empty());
    EXPECT_NE(
        said[0].find(std::string(poison) == "INVALID" ? "not a valid variant" : "did not pass on today's captures"),
        std::string::npos)
        << said[0];
  }
  EXPECT_EQ(c.cache.stats()->rejected, 2);
}

TEST(OptimizeCache, OffWithoutAGpuOrAFingerprint) {
  Project p;
  Cached c(p);
  Services no_gpu(/*gpu=*/false);
  auto r = run_optimize(p.manifest, no_gpu.evaluator, no_gpu.validator, no_gpu.team, nullptr, c.options(p, 2));
  ASSERT_TRUE(r);
  EXPECT_EQ(states(*r), (States{kOff, kOff}));
  p.manifest.kernels[0].fingerprint.reset();  // a hand-written manifest: dependencies unknown
  Services s;
  r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, c.options(p, 2));
  ASSERT_TRUE(r);
  EXPECT_EQ(states(*r), (States{kOff, kMiss}));
  EXPECT_EQ(c.cache.stats()->entries, 1);
}

TEST(Optimize, SearchRulesTakeTheOptionThenTheAnnotationThenTheDefaults) {
  Kernel k;
  SelectionRules defaults;
  EXPECT_EQ(kernel_rules(k, defaults, {}).epsilon, defaults.epsilon);
  k.options.search.epsilon = 0.1;
  k.options.search.top_r = 7;
  SelectionRules r = kernel_rules(k, defaults, {});
  EXPECT_DOUBLE_EQ(r.epsilon, 0.1);
  EXPECT_EQ(r.top_r, 7);
  EXPECT_EQ(r.n_root, defaults.n_root);
  SearchSettings given;
  given.epsilon = 0.9;  // on the command line: it wins
  SelectionRules cli = defaults;
  cli.epsilon = 0.9;
  EXPECT_DOUBLE_EQ(kernel_rules(k, cli, given).epsilon, 0.9);
  EXPECT_EQ(kernel_rules(k, cli, given).top_r, 7);

  k.options.search.plan_temperature = 1.2;
  k.options.search.debug_temperature = 0.0;
  SearchSettings t_given;
  t_given.debug_temperature = 0.3;  // the team holds it
  RoleTemperatures t = kernel_temperatures(k, t_given);
  EXPECT_EQ(t.plan, 1.2);
  EXPECT_FALSE(t.code);
  EXPECT_FALSE(t.debug);
}

// A search the annotation tunes is another search: its saved state and
// cached result are not another's.
TEST(Optimize, AnAnnotationsSearchSettingsAreInTheSearchIdentity) {
  Kernel k;
  SearchOptions a, b;
  b.rules = kernel_rules(k, a.rules, {});
  testing::ScriptedTeam team;
  EXPECT_EQ(search_identity(team, a), search_identity(team, b));
  k.options.search.n_root = 2;
  b.rules = kernel_rules(k, a.rules, {});
  EXPECT_NE(search_identity(team, a), search_identity(team, b));
  SearchOptions c;
  c.temperatures.code = 0.5;
  EXPECT_NE(search_identity(team, a), search_identity(team, c));
}

}  // namespace
}  // namespace stark
