#include "agents/candidate_key.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace stark {
namespace {

Variant v(std::string source, std::vector<std::string> grid = {}) {
  Variant out;
  out.kernel = "a.cu:k";
  out.source = std::move(source);
  out.launch.grid = std::move(grid);
  return out;
}

const char* kKernel =
    "__global__ void k(int n, float* y) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2.0f * y[i];\n}";

TEST(CandidateKey, SpacingAndCommentsAreNotADifferentCandidate) {
  const char* respelled =
      "__global__ void k(int n, float* y)\n{\n  // one thread per element\n"
      "  int i = blockIdx.x*blockDim.x + threadIdx.x;   /* global index */\n"
      "  if (i < n)\n    y[i] = 2.0f * y[i];\n}\n";
  EXPECT_EQ(candidate_key(v(kKernel)), candidate_key(v(respelled)));
}

TEST(CandidateKey, ADifferentTokenOrLaunchIs) {
  std::string changed = kKernel;
  changed.replace(changed.find("2.0f"), 4, "3.0f");
  EXPECT_NE(candidate_key(v(kKernel)), candidate_key(v(changed)));
  EXPECT_NE(candidate_key(v(kKernel)), candidate_key(v(kKernel, {"ceil_div(n, 512)"})));
  EXPECT_NE(candidate_key(v(kKernel, {"ceil_div(n, 256)"})), candidate_key(v(kKernel, {"ceil_div(n, 512)"})));
  Variant shmem = v(kKernel);
  shmem.launch.shmem = "1024";
  EXPECT_NE(candidate_key(v(kKernel)), candidate_key(shmem));
  // A string literal's contents are part of its token: "a b" is not "a  b".
  EXPECT_NE(candidate_key(v("const char* s = \"a b\";")), candidate_key(v("const char* s = \"a  b\";")));
}

TEST(CandidateLedger, TheFirstClaimWinsAndLaterOnesLearnWhoHasIt) {
  CandidateLedger ledger;
  ledger.add_node("root", 0);
  EXPECT_EQ(ledger.claim("root", 1), "the original kernel (node 0)");
  EXPECT_EQ(ledger.claim("new", 1), std::nullopt);
  EXPECT_EQ(ledger.claim("new", 1), std::nullopt);  // the same expansion asking again
  EXPECT_EQ(ledger.claim("new", 2), "a candidate still being evaluated");
  ledger.settle(1, 7);
  EXPECT_EQ(ledger.claim("new", 3), "node 7");
}

// Expansions run on their own threads: of many claiming one key at once,
// exactly one reaches the GPU.
TEST(CandidateLedger, OneOfManyConcurrentClaimsWins) {
  CandidateLedger ledger;
  std::atomic<int> first{0};
  std::vector<std::thread> threads;
  for (int seq = 0; seq < 16; ++seq) threads.emplace_back([&, seq] { first += !ledger.claim("same", seq); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(first.load(), 1);
}

}  // namespace
}  // namespace stark
