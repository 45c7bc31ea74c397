// docs/design.md ("What a speedup must survive") on a real GPU: every attack variant under
// tests/harness/variants/ must be rejected with the reason its header names,
// and every legitimate variant accepted. A variant file starts with comments:
//   // expect: accepted [faster]   or   // expect: rejected <check>[|<check>...]
//   // launch: grid=...; block=...; shmem=...     (optional launch override)
//   // store: second_call                          (optional: another set of captures)
//   // sanitize: always                            (optional: run compute-sanitizer; off otherwise)
#include <cstdio>
#include <vector>
#include <string>
#include <optional>
#include <memory>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>

#include "core/text.h"
#include "gpu_project.h"

namespace stark::harness::testing {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;  // "scale/noop"
  std::string kernel;
  Variant variant;
  bool accept = false;
  bool faster = false;               // "expect: accepted faster": clearly faster than the naive original
  std::vector<std::string> reasons;  // acceptable first failing checks
  std::string store = "default";
  bool sanitize_always = false;
};

std::map<std::string, std::string> kernel_of_folder = {{"scale", "kernels.cu:scale"},
                                                       {"matmul", "kernels.cu:matmul"},
                                                       {"block_sum", "kernels.cu:block_sum"},
                                                       {"bias", "kernels.cu:add_bias"}};

std::vector<Case> load_cases() {
  std::vector<Case> out;
  fs::path root = fs::path(STARK_SOURCE_DIR) / "tests/harness/variants";
  for (const auto& dir : fs::directory_iterator(root)) {
    for (const auto& f : fs::directory_iterator(dir.path())) {
      if (f.path().extension() != ".cu") continue;
      Case c;
      c.name = dir.path().filename().string() + "/" + f.path().stem().string();
      c.kernel = kernel_of_folder.at(dir.path().filename().string());
      std::ifstream in(f.path());
      std::stringstream ss;
      ss << in.rdbuf();
      c.variant.kernel = c.kernel;
      c.variant.source = ss.str();
      std::istringstream lines(c.variant.source);
      std::string line;
      while (std::getline(lines, line)) {
        std::string_view l = trim(line);
        if (!starts_with(l, "//")) continue;
        l = trim(l.substr(2));
        if (starts_with(l, "expect: accepted")) {
          c.accept = true;
          c.faster = l.find("faster") != std::string_view::npos;
        }
        if (starts_with(l, "expect: rejected ")) {
          for (auto r : split(trim(l.substr(17)), '|')) c.reasons.emplace_back(trim(r));
        }
        if (starts_with(l, "store: ")) c.store = std::string(trim(l.substr(7)));
        if (starts_with(l, "sanitize: always")) c.sanitize_always = true;
        if (starts_with(l, "launch: ")) {
          for (auto part : split(l.substr(8), ';')) {
            auto eq = part.find('=');
            std::string key(trim(part.substr(0, eq)));
            std::string value(trim(part.substr(eq + 1)));
            if (key == "grid") c.variant.launch.grid = {value};
            if (key == "block") c.variant.launch.block = {value};
            if (key == "shmem") c.variant.launch.shmem = value;
          }
        }
      }
      out.push_back(std::move(c));
    }
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  return out;
}

std::string first_failure(const Evaluation& e) {
  for (const auto& c : e.checks)
    if (c.ok && !*c.ok) return to_string(c.name);
  return "";
}

TEST(AttackSuite, EveryVariantGetsItsVerdict) {
  if (auto why = no_gpu_reason(); !why.empty()) GTEST_SKIP() << "no GPU here: " << why;
  fs::path work = fs::path(STARK_BINARY_DIR) / "tests/harness/work-attacks";
  GpuProject project = GpuProject::create(work);
  auto cases = load_cases();
  ASSERT_GE(cases.size(), 20u);

  // One evaluator per (store, sanitizer policy); evaluations run concurrently
  // (compiles in parallel, the GPU one at a time).
  std::map<std::string, std::unique_ptr<GpuEvaluator>> evaluators;
  for (const auto& c : cases) {
    std::string key = c.store + (c.sanitize_always ? "+sanitize" : "");
    if (evaluators.count(key)) continue;
    auto o = project.options(c.store);
    // compute-sanitizer is slow: it runs for the variants that ask for it
    // (a race, and a legitimate shared-memory kernel that must pass it).
    o.sanitize = c.sanitize_always ? GpuEvaluatorOptions::Sanitize::Always : GpuEvaluatorOptions::Sanitize::Never;
    evaluators[key] = std::make_unique<GpuEvaluator>(project.manifest, o);
  }
  std::vector<std::future<Evaluation>> futures;
  for (const auto& c : cases) {
    GpuEvaluator* ev = evaluators.at(c.store + (c.sanitize_always ? "+sanitize" : "")).get();
    const Kernel* k = project.manifest.find_kernel(c.kernel);
    futures.push_back(std::async(std::launch::async, [ev, k, &c] { return ev->evaluate(*k, c.variant); }));
  }
  std::string table = "\nvariant                        verdict   speedup  roof  reason\n";
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Evaluation e = futures[i].get();
    if (e.gpu && e.gpu->copy_bandwidth_gbs > 0 && table.find("copy bandwidth") == std::string::npos)
      table.insert(0,
                   fmt::format("\nmeasured copy bandwidth: {:.0f} GB/s (the memory roof)", e.gpu->copy_bandwidth_gbs));
    std::string roof = "-";
    if (e.gpu && e.gpu->copy_bandwidth_gbs > 0 && e.variant_us && !e.captures.empty() && e.captures[0].bytes) {
      uint64_t bytes = 0;
      for (const auto& capture : e.captures) bytes += capture.bytes.value_or(0);
      roof = fmt::format("{:.0f}%",
                         100.0 * static_cast<double>(bytes) / (*e.variant_us * 1e3) / e.gpu->copy_bandwidth_gbs);
    }
    table += fmt::format("{:<30} {:<9} {:>7} {:>5}  {}\n", c.name, to_string(e.verdict),
                         e.speedup ? fmt::format("{:.2f}x", *e.speedup) : "-", roof, e.reason.substr(0, 160));
    SCOPED_TRACE(c.name + ": " + e.reason);
    if (c.accept) {
      EXPECT_EQ(e.verdict, Verdict::Accepted);
      ASSERT_TRUE(e.speedup.has_value());
      // The memory roof: the copy bandwidth the worker measured, and each
      // timed capture's compulsory bytes.
      ASSERT_TRUE(e.gpu.has_value());
      EXPECT_GT(e.gpu->copy_bandwidth_gbs, 100.0);
      for (const auto& capture : e.captures) EXPECT_GT(capture.bytes.value_or(0), 0u) << capture.id;
      // The legitimate rewrites of the naive originals are really faster.
      if (c.faster) {
        EXPECT_GT(*e.speedup, 1.0);
      }
    } else {
      EXPECT_EQ(e.verdict, Verdict::Rejected);
      std::string failed = first_failure(e);
      EXPECT_TRUE(std::find(c.reasons.begin(), c.reasons.end(), failed) != c.reasons.end())
          << "rejected by '" << failed << "', expected one of " << join(c.reasons, ", ");
    }
    // Every evaluation lists the guards, passed, failed or not run.
    EXPECT_GE(e.checks.size(), 12u);
    if (c.sanitize_always && c.accept) {
      for (CheckName tool : {CheckName::Memcheck, CheckName::Racecheck}) {
        auto it = std::find_if(e.checks.begin(), e.checks.end(), [&](const Check& k) { return k.name == tool; });
        ASSERT_NE(it, e.checks.end());
        EXPECT_NE(it->ok, std::optional<bool>(false)) << tool << ": " << it->detail;
        if (!it->ok) std::printf("%s: %s did not run: %s\n", c.name.c_str(), to_string(tool), it->detail.c_str());
      }
    }
  }
  std::printf("%s", table.c_str());
  std::ofstream(work / "attack-suite.txt") << table;
}

}  // namespace
}  // namespace stark::harness::testing
