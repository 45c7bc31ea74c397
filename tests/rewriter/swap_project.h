// tests/projects/swap as a user has it: a scratch copy configured against
// the installed STARK package (fixture stark_installed), plus the result
// directory a search would have left (hand-written, no GPU needed).
#ifndef STARK_TESTS_REWRITER_SWAP_PROJECT_H
#define STARK_TESTS_REWRITER_SWAP_PROJECT_H

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/process.h"

namespace stark::testing {

namespace fs = std::filesystem;

/// Runs a command; the test fails when it cannot start.
inline ProcessResult run(std::vector<std::string> argv, const fs::path& cwd = {}) {
  auto r = run_process(argv, ProcessOptions::in(cwd));
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : ProcessResult{};
}

inline std::string read_text(const fs::path& p) {
  auto t = read_file(p);
  EXPECT_TRUE(t) << p;
  return t ? *t : "";
}

/// The improved kernels of the swap project's result. Each variant leaves a
/// __device__ variable named stark_swap_marker_<kernel> in the object code,
/// so the built library tells which kernels it compiled.
inline nlohmann::json swap_kernels() {
  auto improved = [](const char* id, std::string source, nlohmann::json launch, double speedup) {
    nlohmann::json best = {{"source", std::move(source)}};
    if (!launch.is_null()) best["launch"] = launch;
    return nlohmann::json{{"id", id},
                          {"status", "improved"},
                          {"cache", "miss"},
                          {"baseline_us", 50.0 * speedup},
                          {"best_us", 50.0},
                          {"speedup", speedup},
                          {"attempts", 5},
                          {"best", best},
                          {"checks", nlohmann::json::array()},
                          {"strategies", {"grid-stride loop"}},
                          {"tree", {{{"id", 0}, {"parent", nullptr}, {"role", "root"}, {"status", "accepted"}}}}};
  };
  return nlohmann::json::array(
      {improved("include/swap/activation.cuh:swap::relu",
                "static __device__ int stark_swap_marker_relu;\n"
                "template <typename T>\n"
                "__global__ void relu(int n, const T* x, T* y) {\n"
                "  if (blockIdx.x == 0 && threadIdx.x == 0) stark_swap_marker_relu += n;\n"
                "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
                "    y[i] = x[i] > T(0) ? x[i] : T(0);\n"
                "}",
                {{"grid", "min(ceil_div(n, 256), 1024)"}, {"block", "256"}}, 2.0),
       improved("src/ops.cu:swap::scale",
                "static __device__ int stark_swap_marker_scale;\n"
                "[[stark::optimize(\"budget=4\")]] __global__ void scale(int n, float a, float* x) {\n"
                "  if (blockIdx.x == 0 && threadIdx.x == 0) stark_swap_marker_scale += n;\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  if (i < n) x[i] *= a;\n"
                "}",
                {{"grid", "ceil_div(n, 512)"}, {"block", "512"}}, 1.5),
       improved("src/norm.cu:swap::square",
                "static __device__ int stark_swap_marker_square;\n"
                "__global__ void square(int n, float* x) {\n"
                "  if (blockIdx.x == 0 && threadIdx.x == 0) stark_swap_marker_square += n;\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  if (i < n) x[i] = x[i] * x[i];\n"
                "}",
                nullptr, 1.3)});
}

/// Writes DIR/result.json over the manifest at DIR/manifest.json, with the
/// improved kernels whose ids ONLY lists (all of them when it is empty).
inline void write_swap_result(const fs::path& dir, const std::vector<std::string>& only = {}) {
  auto m = read_json_file(dir / "manifest.json");
  ASSERT_TRUE(m) << m.error().message;
  nlohmann::json r = {{"schema", "stark.result/1"},
                      {"source_root", (*m)["source_root"]},
                      {"build_dir", (*m)["build_dir"]},
                      {"manifest", "manifest.json"},
                      {"gpu", {{"name", "NVIDIA H200"}, {"sm", "90"}, {"driver", "580.65"}, {"cuda", "13.0"}}},
                      {"backend", {{"name", "builtin"}, {"model", ""}}},
                      {"seed", 1},
                      {"kernels", nlohmann::json::array()}};
  for (const auto& k : swap_kernels())
    if (only.empty() || std::find(only.begin(), only.end(), k["id"].get<std::string>()) != only.end())
      r["kernels"].push_back(k);
  ASSERT_TRUE(write_json_file(dir / "result.json", r));
}

/// Which markers the static library holds.
inline std::vector<std::string> markers_in(const fs::path& library) {
  auto r = run({"strings", "-a", library.string()});
  std::vector<std::string> out;
  for (const char* k : {"relu", "scale", "square"})
    if (r.output.find(std::string("stark_swap_marker_") + k) != std::string::npos) out.push_back(k);
  return out;
}

}  // namespace stark::testing

#endif  // STARK_TESTS_REWRITER_SWAP_PROJECT_H
