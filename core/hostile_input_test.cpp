// Random and mutated input for every parser and loader of core that reads
// text STARK did not write: the annotation options, launch expressions, and
// the result.json and manifest loaders. Nothing may crash, hang or throw:
// bad input is an Error. Seeded, so every run sees the same inputs.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/fuzz_input.h"
#include "core/kernel_options.h"
#include "core/launch_expr.h"
#include "core/manifest.h"
#include "core/result.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using testing::FuzzInput;

const std::vector<std::string> kExprTokens = {"n",
                                              "p.rows",
                                              "grid.x",
                                              "shmem",
                                              "0",
                                              "1",
                                              "-1",
                                              "0x7fffffffffffffff",
                                              "9223372036854775807",
                                              "18446744073709551616",
                                              "+",
                                              "-",
                                              "*",
                                              "/",
                                              "%",
                                              "(",
                                              ")",
                                              "min(",
                                              "max(",
                                              "ceil_div(",
                                              ",",
                                              " ",
                                              ".",
                                              "1u",
                                              "2.5",
                                              "?",
                                              "sqrt(",
                                              "_"};

const std::vector<std::string> kOptionTokens = {
    "budget=", "rtol=",  "atol=", "skip=", "seed=", "args=", "buffers=",  "grid=",
    "block=",  "shmem=", "x[",    "]",     "n",     "=",     ",",         "1",
    "-1",      "1e309",  "nan",   "true",  "(",     ")",     "min(n, 4)", "9223372036854775808",
    "\"",      " ",      "[n]"};

TEST(HostileInput, LaunchExpressionsNeverCrash) {
  for (uint64_t seed = 0; seed < 20000; ++seed) {
    FuzzInput in(seed);
    std::string text = in.percent(20) ? in.mutate_text("min(ceil_div(n * 4, block.x), 65535) % (grid.x - 1)")
                                      : in.tokens(kExprTokens, 24);
    auto e = LaunchExpr::parse(text);
    if (!e) continue;
    (void)e->names();
    auto v = e->evaluate([&](std::string_view) -> std::optional<int64_t> {
      if (in.percent(5)) return std::nullopt;
      return in.extreme();
    });
    (void)v;
  }
}

TEST(HostileInput, DeepAndLongExpressionsAreErrors) {
  FuzzInput in(7);
  for (int i = 0; i < 50; ++i) {
    size_t depth = 1000 + in.below(30000);
    std::string open = in.percent(50) ? "(" : (in.percent(50) ? "-" : "min(");
    std::string text;
    for (size_t d = 0; d < depth; ++d) text += open;
    text += "1";
    EXPECT_FALSE(LaunchExpr::parse(text)) << depth;
    KernelOptions o;
    EXPECT_FALSE(apply_option(o, "grid=" + text));
    EXPECT_FALSE(parse_buffer_specs("x[" + text + "]"));
  }
}

TEST(HostileInput, AnnotationOptionsNeverCrash) {
  for (uint64_t seed = 0; seed < 20000; ++seed) {
    FuzzInput in(seed);
    std::string item =
        in.percent(30) ? in.mutate_text("buffers=x[n * 2], y[ceil_div(n, 4)]") : in.tokens(kOptionTokens, 12);
    KernelOptions o;
    (void)apply_option(o, item);
    (void)apply_option(o, in.mutate_text(item));
    (void)parse_scalar_args(in.mutate_text("n=1048576, a=2.5"));
    (void)parse_buffer_specs(item);
  }
}

/// Every file a loader reads is written here first.
fs::path scratch() {
  fs::path d = fs::path(STARK_BINARY_DIR) / "tests/core-scratch/hostile_input";
  fs::create_directories(d);
  return d;
}

TEST(HostileInput, ResultAndManifestLoadersNeverCrash) {
  const fs::path data = fs::path(STARK_SOURCE_DIR) / "tests/report/result";
  auto result = read_json_file(data / "result.json"), manifest = read_json_file(data / "manifest.json");
  ASSERT_TRUE(result && manifest);
  ASSERT_TRUE(load_result(data.string())) << "the seed input must load";
  const fs::path dir = scratch();
  int loaded = 0;
  for (uint64_t seed = 0; seed < 600; ++seed) {
    FuzzInput in(seed);
    // Mutated as JSON (wrong types, extreme numbers, deep nesting) or as bytes.
    std::string r = in.percent(75) ? in.mutate_json(*result).dump() : in.mutate_text(result->dump());
    std::string m = in.percent(75) ? in.mutate_json(*manifest).dump() : in.mutate_text(manifest->dump());
    ASSERT_TRUE(write_file_atomic(dir / "result.json", r));
    ASSERT_TRUE(write_file_atomic(dir / "manifest.json", m));
    auto lr = load_result(dir.string());
    auto lm = load_manifest((dir / "manifest.json").string());
    loaded += lr.ok() + lm.ok();
  }
  EXPECT_GT(loaded, 0);  // some mutations keep the files valid: the loaders ran to the end
}

}  // namespace
}  // namespace stark
