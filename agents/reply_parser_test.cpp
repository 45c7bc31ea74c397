#include "agents/reply_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace stark {
namespace {

const char* kKernel = "__global__ void saxpy(int n, float a, const float* x, float* y) {\n  y[0] = a;\n}";

TEST(ReplyParser, FencedBlockWithProseAroundIt) {
  std::string reply = std::string("Sure! Here is the kernel:\n\n```cuda\n") + kKernel +
                      "\n```\n\nLAUNCH: {\"grid\": \"ceil_div(n, 512)\", \"block\": \"512\"}\nHope it helps.";
  auto r = parse_reply(reply, "saxpy");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->code, kKernel);
  ASSERT_EQ(r->launch.grid.size(), 1u);
  EXPECT_EQ(r->launch.grid[0], "ceil_div(n, 512)");
  EXPECT_EQ(r->launch.block[0], "512");
}

TEST(ReplyParser, PicksTheBlockWithTheKernel) {
  std::string reply =
      std::string("```bash\nnvcc -O3 x.cu\n```\n```c++\nstatic __device__ float f(float v) { return v; }\n") + kKernel +
      "\n```";
  auto r = parse_reply(reply, "saxpy");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->code.rfind("static __device__ float f", 0), 0u);
}

TEST(ReplyParser, BareCodeWithoutFences) {
  std::string reply = std::string("The kernel is below.\n") + kKernel + "\nThat is all.";
  auto r = parse_reply(reply, "saxpy");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->code, kKernel);
}

TEST(ReplyParser, PlanStrategyLine) {
  auto r = parse_reply(std::string("STRATEGY: vectorize with float4\n```cuda\n") + kKernel + "\n```", "saxpy");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->strategy, "vectorize with float4");
  auto bold = parse_reply(std::string("**STRATEGY:** tile in shared memory\n```\n") + kKernel + "\n```", "saxpy");
  ASSERT_TRUE(bold);
  EXPECT_EQ(bold->strategy, "tile in shared memory");
}

TEST(ReplyParser, ProseWithoutCodeIsAnError) {
  auto r = parse_reply("I would use shared memory tiling here because the kernel is memory bound.", "saxpy");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no complete definition of the kernel 'saxpy'"), std::string::npos);
}

TEST(ReplyParser, TruncatedReplySaysSo) {
  auto r =
      parse_reply("```cuda\n__global__ void saxpy(int n, float a, const float* x, float* y) {\n  for (int i", "saxpy",
                  /*truncated=*/true);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("cut off"), std::string::npos) << r.error().message;
}

TEST(ReplyParser, BadLaunchLineIsAnError) {
  auto r = parse_reply(std::string("```cuda\n") + kKernel + "\n```\nLAUNCH: {\"grid\": 5}", "saxpy");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("LAUNCH"), std::string::npos);
}

TEST(ReplyParser, StrategyAndLaunchMayStartOnTheNextLine) {
  auto r = parse_reply(std::string("  **STRATEGY**:\n\n  tile it\n```cuda\n") + kKernel +
                           "\n```\nLAUNCH:\n  {\"block\": \"128\"} (a wider block)\n",
                       "saxpy");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->strategy, "tile it");
  ASSERT_EQ(r->launch.block.size(), 1u);
  EXPECT_EQ(r->launch.block[0], "128");
  EXPECT_EQ(find_strategy("no strategy here\nSTRATEGY:   \n"), "");
}

// A reply is text a server chose: a 300 KB line once overflowed the stack of
// a recursive regular expression, and the reply, cached, crashed every rerun.
TEST(ReplyParser, RepliesOverTheLimitAreRefusedUnread) {
  for (size_t size : {size_t{300'000}, size_t{10'000'000}}) {
    std::string reply = "STRATEGY: " + std::string(size, 'x') + "\n```cuda\n" + kKernel + "\n```";
    auto r = parse_reply(reply, "saxpy");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("over the 256 KiB a reply may have"), std::string::npos) << r.error().message;
    EXPECT_EQ(find_strategy(reply).size(), size);  // the scan itself is safe on any length
  }
  std::string just_fits = std::string("```cuda\n") + kKernel + "\n```\n";
  just_fits += std::string(kMaxReplyBytes - just_fits.size(), ' ');
  EXPECT_TRUE(parse_reply(just_fits, "saxpy"));
}

TEST(ReplyParser, CodeOverTheLimitIsRefused) {
  std::string body(150'000, ' ');
  auto r = parse_reply("```cuda\n__global__ void saxpy(int n) {" + body + "}\n```", "saxpy");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("over the 128 KiB a kernel may have"), std::string::npos) << r.error().message;
}

/// Replies just under the limit built to make a backtracking or quadratic
/// scan blow up: each must come back, with a result or a reason.
TEST(ReplyParser, AdversarialRepliesUnderTheLimit) {
  const size_t n = kMaxReplyBytes - 64;
  auto repeat = [&](const std::string& unit, const std::string& tail = "") {
    std::string s;
    while (s.size() + unit.size() + tail.size() < n) s += unit;
    return s + tail;
  };
  std::vector<std::string> replies = {
      "STRATEGY: " + std::string(n - 10, 'a'),                       // one long line
      std::string(n, ' '),                                           // only whitespace
      std::string(n, '\n'),                                          //
      "```cuda\n__global__ void saxpy(" + std::string(n - 40, '('),  // unterminated fence, unbalanced
      repeat("saxpy("),                                              // the name, nested, never closed
      repeat("saxpy(", std::string(n / 7, ')')),                     // nested and closed
      repeat("__global__ void saxpy();\n", "{"),                     // declarations, one brace at the end
      repeat("```"),                                                 // fences only
      repeat("```\n"),                                               //
      repeat("`"),                                                   //
      repeat("**STRATEGY"),                                          //
      repeat("\nLAUNCH: {"),                                         //
      "LAUNCH: {\"grid\": " + std::string(n / 2 - 16, '[') + std::string(n / 2 - 16, ']') + "}",  // deep JSON
      "LAUNCH: {" + std::string(n / 2, '{') + "}",                                                //
      repeat("__global__ void saxpy(int n) { \"", "}"),  // strings that never close
      repeat("__global__ void saxpy(int n) { /*"),       // comments that never close
      repeat("/*STARK_SPAN 1: "),                        //
  };
  for (const auto& reply : replies) {
    ASSERT_LE(reply.size(), kMaxReplyBytes);
    auto r = parse_reply(reply, "saxpy", /*truncated=*/reply.size() % 2 == 0);
    if (r) EXPECT_LE(r->code.size(), kMaxCodeBytes);
    else EXPECT_FALSE(r.error().message.empty());
  }
}

}  // namespace
}  // namespace stark
