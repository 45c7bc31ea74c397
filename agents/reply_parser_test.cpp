#include "agents/reply_parser.h"

#include <gtest/gtest.h>

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
  std::string reply = std::string("```bash\nnvcc -O3 x.cu\n```\n```c++\nstatic __device__ float f(float v) { return v; }\n") +
                      kKernel + "\n```";
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
  auto r = parse_reply("```cuda\n__global__ void saxpy(int n, float a, const float* x, float* y) {\n  for (int i", "saxpy",
                       /*truncated=*/true);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("cut off"), std::string::npos) << r.error().message;
}

TEST(ReplyParser, BadLaunchLineIsAnError) {
  auto r = parse_reply(std::string("```cuda\n") + kKernel + "\n```\nLAUNCH: {\"grid\": 5}", "saxpy");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("LAUNCH"), std::string::npos);
}

}  // namespace
}  // namespace stark
