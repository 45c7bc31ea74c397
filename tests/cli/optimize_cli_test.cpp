// stark optimize end to end on the example project (fixture nnops), as a
// user runs it: the built-in expert, and an LLM team talking to a real HTTP
// server on 127.0.0.1 that plays the model and injects faults. Without a GPU
// every candidate is compiled and checked and every kernel ends untimed.
#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>

#include "core/file_io.h"
#include "core/process.h"
#include "core/result.h"
#include "tests/support/run_stark.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const fs::path kBuild = fs::path(STARK_BINARY_DIR) / "tests/projects/nnops-build";
const char* kSaxpy = "src/elementwise.cu:nnops::saxpy_kernel";

ProcessResult stark(std::vector<std::string> args) { return testing::run_stark(STARK_EXE, std::move(args)); }

void validate(const fs::path& schema, const fs::path& file) {
  auto check = run_process({STARK_PYTHON, std::string(STARK_SOURCE_DIR) + "/tests/tools/validate_json.py",
                            (fs::path(STARK_SOURCE_DIR) / "tests/schemas" / schema).string(), file.string()});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->status.code, 0) << check->output;
}

TEST(OptimizeCli, BuiltinExpertWithoutAGpu) {
  TempDir tmp;
  fs::path out = tmp / "builtin";
  auto r = stark({"optimize", "-p", kBuild.string(), "--target", "nnops", "--budget", "3", "--out", out.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("no GPU"), std::string::npos) << r.output;
  validate("result.schema.json", out / "result.json");
  validate("manifest.schema.json", out / "manifest.json");
  auto result = load_result(out.string());
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->kernels.size(), 8u);
  EXPECT_EQ(result->backend.name, "builtin");
  int compiled = 0;
  for (const auto& k : result->kernels) {
    EXPECT_EQ(k.status, KernelStatus::Untimed) << k.id;
    EXPECT_EQ(k.attempts, 3) << k.id;
    for (const auto& n : k.tree) compiled += n.status == NodeStatus::Untimed && n.id > 0;
  }
  EXPECT_GE(compiled, 16) << "most built-in candidates should compile";
}

// One rule for the exit status: a run in which no selected kernel could be
// searched at all did nothing, and says so with each kernel's reason.
TEST(OptimizeCli, ARunThatCouldSearchNoKernelExitsOneAndSaysWhy) {
  TempDir tmp;
  fs::path out = tmp / "nothing_searched";
  fs::create_directories(out);
  auto scan = stark({"scan", "-p", kBuild.string(), "--target", "nnops", "-o", (out / "m.json").string()});
  ASSERT_EQ(scan.status.code, 0) << scan.output;
  // As if the file changed after the scan.
  auto manifest = read_json_file(out / "m.json");
  ASSERT_TRUE(manifest) << manifest.error().message;
  (*manifest)["files"]["src/elementwise.cu"]["hash"] = "xxh64:0000000000000000";
  ASSERT_TRUE(write_json_file(out / "m.json", *manifest));
  auto r = stark({"optimize", "-p", kBuild.string(), "--manifest", (out / "m.json").string(), "--kernel", kSaxpy,
                  "--budget", "2", "--out", (out / "r").string()});
  EXPECT_EQ(r.status.code, 1) << r.output;
  EXPECT_NE(r.output.find("saxpy_kernel: failed after 0 attempts: source: src/elementwise.cu changed since it was "
                          "scanned; scan again"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("stark: error: no kernel could be searched (each one's reason is above)"), std::string::npos)
      << r.output;
}

/// A chat.completion body.
std::string completion(const std::string& text, const std::string& finish = "stop") {
  return nlohmann::json{
      {"id", "x"},
      {"object", "chat.completion"},
      {"model", "test-model"},
      {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", finish}}}},
      {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 50}, {"total_tokens", 150}}}}
      .dump();
}

/// An OpenAI-compatible endpoint on 127.0.0.1 whose handler plays the model.
class Endpoint {
 public:
  explicit Endpoint(std::function<void(const httplib::Request&, httplib::Response&)> answer) {
    server_.Post("/v1/chat/completions", std::move(answer));
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Endpoint() {
    server_.stop();
    thread_.join();
  }
  std::string base() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

/// An OpenAI-compatible server playing the three roles for saxpy, with faults.
class ModelServer {
 public:
  std::string base() const { return endpoint_.base(); }
  std::vector<std::string> debug_prompts() {
    std::lock_guard lock(mutex_);
    return debug_prompts_;
  }
  int requests() const { return requests_; }

 private:
  void answer(const httplib::Request& req, httplib::Response& res) {
    int n = ++requests_;
    EXPECT_EQ(req.get_header_value("Authorization"), "Bearer sk-test-SECRET-123");
    // Faults first: a rate limit, a server error, invalid JSON.
    if (n == 1) {
      res.status = 429;
      res.set_header("Retry-After", "1");
      res.set_content(R"({"error": {"message": "slow down", "type": "rate_limit_error"}})", "application/json");
      return;
    }
    if (n == 2) {
      res.status = 500;
      res.set_content(R"({"error": {"message": "boom", "type": "server_error"}})", "application/json");
      return;
    }
    if (n == 3) {  // not retried: the attempt fails, the search goes on
      res.set_content("{not json", "application/json");
      return;
    }
    auto body = nlohmann::json::parse(req.body);
    std::string prompt = body["messages"].back()["content"].get<std::string>();
    std::string text;
    if (prompt.find("You are the PLAN role") != std::string::npos) {
      plans_++;
      text = plans_ == 1   ? "STRATEGY: grid-stride loop\nI will loop over the array with the grid's stride."
             : plans_ == 2 ? "I think shared memory would help."  // prose: the plan falls back to the whole body
                           : "STRATEGY: use a broken intrinsic\n";
    } else if (prompt.find("You are the CODE role") != std::string::npos) {
      codes_++;
      if (codes_ == 1)
        text =
            "```cuda\n__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {\n"
            "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
            "    y[i] = a * x[i] + y[i];\n}\n```\nLAUNCH: {\"grid\": \"min(grid.x, 1056)\", \"block\": \"256\"}";
      else if (codes_ == 2)  // host-side clang accepts it; ptxas refuses the instruction
        text =
            "```cuda\n__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  asm volatile(\"stark.no.such.instruction;\");\n"
            "  if (i < n) y[i] = a * x[i] + y[i];\n}\n```";
      else if (codes_ == 3)  // caught by the clang check before anything compiles
        text =
            "```cuda\n__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = stark_no_such_function(a, x[i]) + "
            "y[i];\n}\n```";
      else {
        res.set_content(completion("```cuda\n__global__ void saxpy_kernel(int n, float a", "length"),
                        "application/json");
        return;  // cut off at the token limit
      }
    } else if (prompt.find("You are the DEBUG role") != std::string::npos) {
      std::lock_guard lock(mutex_);
      debug_prompts_.push_back(prompt);
      text =
          "```cuda\n__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i] + y[i];\n}\n```";
    }
    res.set_content(completion(text), "application/json");
  }

  std::atomic<int> requests_{0}, plans_{0}, codes_{0};
  std::mutex mutex_;
  std::vector<std::string> debug_prompts_;
  Endpoint endpoint_{
      [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); }};  // last: stops first
};

bool any_file_contains(const fs::path& dir, const std::string& needle) {
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    auto text = read_file(e.path());
    if (text && text->find(needle) != std::string::npos) return true;
  }
  return false;
}

TEST(OptimizeCli, LlmTeamAgainstALocalServer) {
  ModelServer model;
  TempDir tmp;
  fs::path out = tmp / "openai";
  setenv("OPENAI_API_KEY", "sk-test-SECRET-123", 1);
  auto r =
      stark({"optimize",   "-p",      kBuild.string(), "--kernel", kSaxpy,      "--backend",  "openai", "--base-url",
             model.base(), "--model", "test-model",    "--budget", "8",         "--parallel", "1",      "--seed",
             "4",          "--force", "--verbose",     "--out",    out.string()});
  unsetenv("OPENAI_API_KEY");
  ASSERT_EQ(r.status.code, 0) << r.output;
  validate("result.schema.json", out / "result.json");
  auto result = load_result(out.string());
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->kernels.size(), 1u);
  const KernelResult& k = result->kernels[0];
  EXPECT_EQ(k.status, KernelStatus::Untimed);
  EXPECT_EQ(k.attempts, 8);
  EXPECT_GT(k.tokens.prompt, 0);
  std::set<std::string> roles, statuses;
  for (const auto& n : k.tree) {
    roles.insert(to_string(n.role));
    statuses.insert(to_string(n.status));
  }
  EXPECT_TRUE(roles.count("plan+code")) << r.output;
  EXPECT_TRUE(statuses.count("compile_error")) << r.output;
  EXPECT_TRUE(statuses.count("invalid")) << r.output;
  EXPECT_TRUE(statuses.count("code_failed")) << r.output;  // the reply cut off at the token limit
  // The debug role got the compiler's (or the clang check's) message about a broken candidate.
  // Seed 4 makes the epsilon-greedy selection explore failed leaves here (the
  // selection rules themselves are tested in agents/selection_test.cpp).
  ASSERT_TRUE(roles.count("debug")) << r.output;
  auto prompts = model.debug_prompts();
  ASSERT_FALSE(prompts.empty());
  bool nvcc_message = false, clang_message = false;
  for (const auto& p : prompts) {
    nvcc_message |= p.find("stark.no.such.instruction") != std::string::npos;
    clang_message |= p.find("stark_no_such_function") != std::string::npos;
  }
  EXPECT_TRUE(nvcc_message || clang_message) << prompts[0].substr(0, 3000);
  EXPECT_TRUE(fs::exists(out / "audit"));
  EXPECT_FALSE(any_file_contains(out, "sk-test-SECRET-123")) << "the API key leaked into the result directory";
  EXPECT_FALSE(any_file_contains(fs::path(kBuild) / ".stark", "sk-test-SECRET-123")) << "the key leaked into the cache";
}

/// The first ```cuda block after `heading` in a prompt.
std::string code_block_after(const std::string& prompt, const std::string& heading) {
  size_t at = prompt.find(heading);
  if (at == std::string::npos) return "";
  size_t begin = prompt.find("```cuda\n", at);
  if (begin == std::string::npos) return "";
  begin += 8;
  return prompt.substr(begin, prompt.find("\n```", begin) - begin);
}

/// The line of `source` that holds `needle`, without its newline.
std::string line_with(const std::string& source, const std::string& needle) {
  size_t at = source.find(needle);
  if (at == std::string::npos) return "";
  size_t begin = source.rfind('\n', at) + 1;
  size_t end = source.find('\n', at);
  return source.substr(begin, end - begin);
}

/// A model whose plans and code break the grounding contract on purpose,
/// each built from the node the prompt shows: the first plan also rewrites
/// code outside its markers (its span is still found: re-anchored), the
/// second marks code that is not in the kernel (sent back with the reason,
/// then answered faithfully); the second code reply edits outside its span.
class GroundingModel {
 public:
  std::string base() const { return endpoint_.base(); }
  std::vector<std::string> refusals() {
    std::lock_guard lock(mutex_);
    return refusals_;
  }

 private:
  static std::string completion_of(const std::string& text) {
    return nlohmann::json{
        {"id", "c"},
        {"object", "chat.completion"},
        {"model", "grounding-model"},
        {"choices",
         {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", "stop"}}}},
        {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 10}, {"total_tokens", 20}}}}
        .dump();
  }
  static std::string faithful_plan(const std::string& node) {
    std::string line = line_with(node, "y[i] =");
    std::string marked = line;
    size_t code = line.find_first_not_of(' ');
    marked.insert(line.size(), "/*STARK_END 1*/");
    marked.insert(code, "/*STARK_SPAN 1: keep this store*/");
    std::string out = node;
    out.replace(out.find(line), line.size(), marked);
    return out;
  }
  void answer(const httplib::Request& req, httplib::Response& res) {
    std::string prompt = nlohmann::json::parse(req.body)["messages"].back()["content"].get<std::string>();
    std::string text;
    if (prompt.find("You are the PLAN role") != std::string::npos) {
      std::string node = code_block_after(prompt, "## The current kernel");
      std::string plan = faithful_plan(node);
      if (prompt.find("Your previous plan for this node was refused") != std::string::npos) {
        std::lock_guard lock(mutex_);
        refusals_.push_back(prompt);
      } else if (++plans_ == 1) {  // also renames outside the markers: re-anchored
        plan.replace(plan.find("int i ="), 7, "int j = 0; int i =");
      } else if (plans_ == 2) {  // marks a store the kernel does not have: refused
        std::string line = line_with(node, "y[i] =");
        plan = node;
        plan.replace(plan.find(line), line.size(), "/*STARK_SPAN 1: x*/ y[i] = 0.0f; /*STARK_END 1*/");
      }
      text = "STRATEGY: keep the store\n```cuda\n" + plan + "\n```";
    } else if (prompt.find("You are the CODE role") != std::string::npos) {
      std::string grounded = code_block_after(prompt, "## The plan");
      size_t open = grounded.find("/*STARK_SPAN 1: keep this store*/");
      std::string code = grounded;
      if (open != std::string::npos) code.erase(open, std::string("/*STARK_SPAN 1: keep this store*/").size());
      if (size_t close = code.find("/*STARK_END 1*/"); close != std::string::npos) code.erase(close, 15);
      int call = ++codes_;
      // A change inside the span, its own each time: the same candidate twice would be a duplicate, not an attempt.
      if (size_t at = code.find("a * x[i]"); at != std::string::npos)
        code.replace(at, 8, "a * x[i] + " + std::to_string(call) + ".0f * 0.0f");
      if (call == 2) code.replace(code.find("int i ="), 7, "const int i =");  // outside its span
      text = "```cuda\n" + code + "\n```";
    } else {
      text = "no fix";
    }
    res.set_content(completion_of(text), "application/json");
  }

  std::atomic<int> plans_{0}, codes_{0};
  std::mutex mutex_;
  std::vector<std::string> refusals_;
  Endpoint endpoint_{[this](const httplib::Request& req, httplib::Response& res) { answer(req, res); }};
};

// The grounding contract, checked by the machine on a real run over HTTP:
// the plan that rewrote code outside its markers is re-anchored, the one that
// marked code the kernel does not have is sent back with the reason, the
// code reply that edited outside its span is flagged; result.json and the
// HTML tree record each node's grounding.
TEST(OptimizeCli, GroundingIsCheckedOnEveryPlanAndEveryCodeReply) {
  GroundingModel model;
  TempDir tmp;
  fs::path out = tmp / "grounding";
  setenv("OPENAI_API_KEY", "sk-test", 1);
  auto r =
      stark({"optimize",   "-p",      kBuild.string(),   "--kernel", kSaxpy,      "--backend",  "openai", "--base-url",
             model.base(), "--model", "grounding-model", "--budget", "3",         "--parallel", "1",      "--epsilon",
             "0",          "--force", "--no-cache",      "--out",    out.string()});
  unsetenv("OPENAI_API_KEY");
  ASSERT_EQ(r.status.code, 0) << r.output;
  auto result = load_result(out.string());
  ASSERT_TRUE(result) << result.error().message;
  const KernelResult& k = result->kernels.at(0);
  std::vector<std::string> seen;
  for (const auto& n : k.tree) seen.push_back(to_string(n.grounding));
  ASSERT_EQ(k.tree.size(), 4u) << r.output;
  EXPECT_EQ(seen, (std::vector<std::string>{"none", "reanchored", "outside_spans", "spans"})) << r.output;
  ASSERT_EQ(model.refusals().size(), 1u);
  EXPECT_NE(model.refusals()[0].find("span 1's code `y [ i ] = 0.0f ...` is not in the kernel"), std::string::npos)
      << model.refusals()[0].substr(0, 4000);
  auto report = stark({"report", "--result", out.string(), "--format", "html", "-o", (out / "report.html").string()});
  ASSERT_EQ(report.status.code, 0) << report.output;
  auto html = read_file(out / "report.html");
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("plan re-anchored (it changed code outside its markers)"), std::string::npos);
  EXPECT_NE(html->find("not grounded: the code changed code outside the plan's spans"), std::string::npos);
}

/// A model that always answers the same (a plan in words, a kernel) and
/// counts the requests it gets.
class CountingModel {
 public:
  std::string base() const { return endpoint_.base(); }
  int requests() const { return requests_; }

 private:
  std::atomic<int> requests_{0};
  Endpoint endpoint_{[this](const httplib::Request& req, httplib::Response& res) {
    ++requests_;
    bool plan = req.body.find("You are the PLAN role") != std::string::npos;
    res.set_content(
        completion(plan ? "STRATEGY: grid-stride loop"
                        : "```cuda\n__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {\n"
                          "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
                          "    y[i] = a * x[i] + y[i];\n}\n```"),
        "application/json");
  }};
};

// The LLM response cache answers a re-run with the same prompts; --force and
// --no-cache must reach the model again (the requests are counted at the server).
TEST(OptimizeCli, ForceAndNoCacheSendTheRequestsAgain) {
  CountingModel model;
  auto run = [&](const std::string& flag) {
    TempDir tmp;  // a fresh --out each time: no saved search to resume
    auto r = stark({"optimize",
                    "-p",
                    kBuild.string(),
                    "--kernel",
                    kSaxpy,
                    "--backend",
                    "openai",
                    "--base-url",
                    model.base(),
                    "--model",
                    "counting-model",
                    "--budget",
                    "2",
                    "--parallel",
                    "1",
                    "--seed",
                    "9",
                    flag,
                    "--out",
                    (tmp / "force").string()});
    EXPECT_EQ(r.status.code, 0) << r.output;
    return model.requests();
  };
  int first = run("--force");
  ASSERT_GT(first, 0);
  int second = run("--force");
  EXPECT_GT(second, first) << "--force was answered from the response cache";
  int third = run("--no-cache");
  EXPECT_GT(third, second) << "--no-cache was answered from the response cache";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A dry run shows each role's prompt once per kernel, with placeholders where
// a search would have a plan or a failure, and fails nothing.
TEST(OptimizeCli, DryRunPrintsEveryRolesPromptOnceAndFailsNothing) {
  TempDir tmp;
  fs::path out = tmp / "dry";
  auto r = stark({"optimize", "-p", kBuild.string(), "--kernel", kSaxpy, "--backend", "anthropic", "--model",
                  "claude-sonnet-4-5", "--budget", "1", "--dry-run", "--out", out.string()});
  EXPECT_EQ(r.status.code, 0) << r.output;
  EXPECT_EQ(count(r.output, "You are the PLAN role"), 1u) << r.output.substr(0, 3000);
  EXPECT_EQ(count(r.output, "You are the CODE role"), 1u);
  EXPECT_EQ(count(r.output, "You are the DEBUG role"), 1u);
  EXPECT_NE(r.output.find("<the plan role's instruction for this span>"), std::string::npos);
  EXPECT_NE(r.output.find("<the compiler's or the checks' messages about the candidate>"), std::string::npos);
  EXPECT_NE(r.output.find("nothing was sent or evaluated"), std::string::npos);
  EXPECT_EQ(r.output.find("plan_failed"), std::string::npos);
  EXPECT_FALSE(fs::exists(out / "result.json"));  // nothing to report
  EXPECT_FALSE(fs::exists(out / "state"));        // nothing another run could resume
}

TEST(OptimizeCli, DryRunWithTheBuiltinBackendIsAUsageError) {
  TempDir tmp;
  auto r = stark({"optimize", "-p", kBuild.string(), "--dry-run", "--out", (tmp / "dry_builtin").string()});
  EXPECT_EQ(r.status.code, 2) << r.output;
  EXPECT_NE(r.output.find("the builtin backend sends none"), std::string::npos) << r.output;
}

// A command line that cannot work is refused before anything is scanned.
TEST(OptimizeCli, OptionErrorsComeBeforeTheScan) {
  TempDir tmp;
  fs::path missing = tmp / "no_build" / "build";
  auto r = stark({"optimize", "-p", missing.string(), "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1"});
  EXPECT_EQ(r.status.code, 2) << r.output;
  EXPECT_NE(r.output.find("needs a model"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(missing.string()), std::string::npos) << "the build was looked at first:\n" << r.output;
}

// --max-cost is a promise STARK can keep only when it knows what replies cost.
TEST(OptimizeCli, MaxCostNeedsAKnownPrice) {
  TempDir tmp;
  auto r = stark({"optimize", "-p", kBuild.string(), "--kernel", kSaxpy, "--backend", "openai", "--base-url",
                  "http://127.0.0.1:9/v1", "--model", "local-model", "--max-cost", "1", "--out",
                  (tmp / "max_cost").string()});
  EXPECT_EQ(r.status.code, 2) << r.output;
  EXPECT_NE(r.output.find("--max-cost needs the price of every reply"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("is not openai's own API"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--price IN OUT"), std::string::npos) << r.output;

  // With the rates given, replies cost what the tokens say, and the limit holds.
  CountingModel model;
  TempDir priced_tmp;
  fs::path out = priced_tmp / "priced";
  auto priced = stark({"optimize",   "-p",         kBuild.string(), "--kernel", kSaxpy,         "--backend",
                       "openai",     "--base-url", model.base(),    "--model",  "priced-model", "--price",
                       "2",          "10",         "--max-cost",    "5",        "--budget",     "2",
                       "--parallel", "1",          "--no-cache",    "--out",    out.string()});
  ASSERT_EQ(priced.status.code, 0) << priced.output;
  auto result = load_result(out.string());
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->kernels.size(), 1u);
  ASSERT_TRUE(result->kernels[0].cost_usd);
  // 100 prompt and 50 completion tokens a request, at $2 and $10 per million.
  double per_request = (100 * 2.0 + 50 * 10.0) / 1e6;
  EXPECT_NEAR(*result->kernels[0].cost_usd / per_request, model.requests(), 1e-6);
}

TEST(OptimizeCli, MissingKeyIsOneClearLine) {
  unsetenv("ANTHROPIC_API_KEY");
  TempDir tmp;
  auto r = stark({"optimize", "-p", kBuild.string(), "--kernel", kSaxpy, "--backend", "anthropic", "--model", "m",
                  "--budget", "1", "--out", (tmp / "nokey").string()});
  EXPECT_NE(r.status.code, 0);
  EXPECT_NE(r.output.find("ANTHROPIC_API_KEY"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace stark
