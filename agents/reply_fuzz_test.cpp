// Thousands of replies built from the fragments real replies are made of,
// then mutated: the reply parser and the grounded-instruction checks must
// come back from every one (a result or a reason, never a crash), and what
// they return must point into the reply. Seeded: every run sees the same
// replies, so a failure reproduces.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "agents/grounded.h"
#include "agents/reply_parser.h"

namespace stark {
namespace {

const std::vector<std::string> kFragments = {
    "Sure! Here is the optimized kernel:\n",
    "```cuda\n",
    "```c++\n",
    "```\n",
    "```",
    "STRATEGY: vectorize the loads with float4\n",
    "**STRATEGY:** tile in shared memory\n",
    "STRATEGY:",
    "LAUNCH: {\"grid\": \"ceil_div(n, 256)\", \"block\": \"256\"}\n",
    "LAUNCH: {\"grid\": [\"1\", \"2\", \"3\"], \"shmem\": \"0\"}\n",
    "LAUNCH: {not json}\n",
    "LAUNCH: {\"grid\": [[[[[[[[",
    "__global__ void saxpy(int n, float a, const float* x, float* y) {\n",
    "__global__ void saxpy(int n, float a, const float* x, float* y);\n",
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n",
    "  if (i < n) y[i] = a * x[i] + y[i];\n",
    "}\n",
    "static __device__ float twice(float v) { return 2 * v; }\n",
    "template <int N>\n",
    "namespace {\n",
    "#include <cuda_fp16.h>\n",
    "/*STARK_SPAN 1: unroll by four*/",
    "/*STARK_END 1*/",
    "/* STARK_SPAN 2 :\n use __ldg */",
    "/*STARK_END 2*/",
    "/*STARK_SPAN 99999999999999999999: too big*/",
    "/*STARK_END 12345678901234567890*/",
    "/*STARK_SPAN 3:",
    "// a comment with } and )\n",
    "\"a string with } and ) and \\\" inside\"",
    "'\\''",
    "saxpy",
    "saxpy(",
    "(",
    ")",
    "{",
    "}",
    ";",
    "/*",
    "*/",
    "`",
    "*",
    "\n",
    "   ",
    "\r\n",
    "I would use shared memory here because the kernel is memory bound.",
};

class ReplyGenerator {
 public:
  explicit ReplyGenerator(uint64_t seed) : rng_(seed) {}

  std::string next() {
    std::string reply;
    for (uint64_t parts = 1 + pick(40); parts > 0; --parts) reply += kFragments[pick(kFragments.size())];
    for (uint64_t m = pick(6); m > 0; --m) mutate(reply);
    if (pick(40) == 0) grow(reply);
    return reply;
  }

  uint64_t pick(uint64_t n) { return rng_() % n; }

 private:
  void mutate(std::string& s) {
    if (s.empty()) return;
    size_t at = pick(s.size());
    switch (pick(5)) {
      case 0: s.insert(at, 1, static_cast<char>(pick(256))); break;
      case 1: s.erase(at, pick(16)); break;
      case 2: s.insert(at, s.substr(at, pick(64))); break;
      case 3: s.resize(at); break;  // cut off, as at the token limit
      default: s[at] = "{}()`*/\n\"';"[pick(11)]; break;
    }
  }

  /// A long reply: one piece of it repeated past the size limit, or a long line.
  void grow(std::string& s) {
    if (s.empty()) s = "x";
    std::string unit = s.substr(0, 1 + pick(std::min<size_t>(s.size(), 64)));
    size_t target = pick(2) ? kMaxReplyBytes - pick(1024) : kMaxReplyBytes + 1 + pick(100'000);
    if (pick(2)) unit = std::string(1, unit[0] == '\n' ? 'x' : unit[0]);
    while (s.size() + unit.size() <= target) s += unit;
  }

  std::mt19937_64 rng_;
};

bool inside(std::string_view part, std::string_view whole) { return whole.find(part) != std::string_view::npos; }

void check_one(const std::string& reply, bool truncated) {
  auto parsed = parse_reply(reply, "saxpy", truncated);
  if (parsed) {
    EXPECT_LE(parsed->code.size(), kMaxCodeBytes);
    EXPECT_TRUE(inside(parsed->code, reply));
    EXPECT_EQ(parsed->strategy.find('\n'), std::string::npos);
  } else {
    EXPECT_FALSE(parsed.error().message.empty());
  }
  auto spans = parse_spans(reply);  // the plan role's grounded code, as the search reads it
  if (spans) {
    for (const auto& s : *spans) EXPECT_TRUE(inside(s.code, reply) && !s.instruction.empty());
    if (!spans->empty()) {
      EXPECT_FALSE(check_spans_filled(reply));
    }
  }
  if (auto body = find_body(reply, "saxpy")) {
    ASSERT_LT(body->begin, body->end);
    ASSERT_LE(static_cast<size_t>(body->end), reply.size());
    EXPECT_EQ(reply[static_cast<size_t>(body->begin)], '{');
    EXPECT_EQ(reply[static_cast<size_t>(body->end) - 1], '}');
  }
}

TEST(ReplyFuzz, GeneratedRepliesNeverCrashTheParsers) {
  ReplyGenerator gen(20261203);
  int parsed = 0, with_spans = 0, over_limit = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string reply = gen.next();
    bool truncated = gen.pick(4) == 0;
    check_one(reply, truncated);
    if (HasFatalFailure()) FAIL() << "reply " << i << ": " << reply.substr(0, 400);
    parsed += parse_reply(reply, "saxpy", truncated).ok();
    auto spans = parse_spans(reply);
    with_spans += spans && !spans->empty();
    over_limit += reply.size() > kMaxReplyBytes;
  }
  // The generator reaches every outcome, so the loop tests what it claims to.
  EXPECT_GT(parsed, 100);
  EXPECT_GT(with_spans, 20);
  EXPECT_GT(over_limit, 10);
}

}  // namespace
}  // namespace stark
