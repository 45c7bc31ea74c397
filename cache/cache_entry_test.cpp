#include "cache/cache_entry.h"

#include <gtest/gtest.h>

#include "core/fuzz_input.h"

namespace stark {
namespace {

CacheEntry improved_entry() {
  CacheEntry e;
  e.key = "xxh64:0123456789abcdef";
  e.kernel = "src/ops.cu:saxpy";
  e.created = "2026-12-02T10:00:00Z";
  e.inputs = {{"budget", 30}};
  e.result.id = e.kernel;
  e.result.status = KernelStatus::Improved;
  e.result.best = Variant{e.kernel, "__global__ void saxpy(int n, float* y) { }", {}};  // as the search writes it
  e.result.speedup = 1.8;
  e.result.attempts = 30;
  return e;
}

/// Accepts a variant only when its source keeps the kernel's name, the way
/// the clang check keeps device symbols (tests of the real one are in
/// pipeline/cache_invalidation_test.cpp).
class NameValidator : public VariantValidator {
 public:
  Expected<void> validate(const Kernel& kernel, const Variant& v) override {
    seen.push_back(v.kernel);
    if (v.source.find("void " + kernel.name + "(") == std::string::npos) return Error{"renames the kernel"};
    return {};
  }
  std::vector<std::string> seen;
};

TEST(CacheEntry, RoundTripsThroughItsFile) {
  CacheEntry e = improved_entry();
  auto back = parse_entry(nlohmann::json(e).dump(), e.key);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->result, e.result);
  EXPECT_EQ(back->inputs, e.inputs);
  EXPECT_EQ(back->created, e.created);
}

TEST(CacheEntry, RejectsEntriesThatAreNotWhatTheyClaim) {
  CacheEntry e = improved_entry();
  auto error_of = [&](const std::string& text) {
    auto r = parse_entry(text, e.key);
    return r ? std::string("accepted") : r.error().message;
  };
  EXPECT_NE(error_of("{not json").find("not a valid entry"), std::string::npos);
  EXPECT_NE(error_of(R"({"schema": "stark.result/1"})").find("not a stark.cache-entry/1"), std::string::npos);

  CacheEntry moved = e;
  moved.key = "xxh64:ffffffffffffffff";  // copied under another key's name
  EXPECT_NE(error_of(nlohmann::json(moved).dump()).find("filed under"), std::string::npos);

  for (auto status : {KernelStatus::Failed, KernelStatus::Untimed, KernelStatus::Skipped}) {
    CacheEntry bad = e;
    bad.result.status = status;
    EXPECT_NE(error_of(nlohmann::json(bad).dump()).find("not reusable"), std::string::npos) << to_string(status);
  }
  CacheEntry no_winner = e;
  no_winner.result.best.reset();
  EXPECT_NE(error_of(nlohmann::json(no_winner).dump()).find("not reusable"), std::string::npos);

  CacheEntry huge = e;
  huge.result.best->source.assign(kMaxVariantBytes + 1, ' ');
  EXPECT_NE(error_of(nlohmann::json(huge).dump()).find("over the limit"), std::string::npos);

  CacheEntry absurd = e;
  absurd.result.speedup = -3;
  EXPECT_NE(error_of(nlohmann::json(absurd).dump()).find("implausible"), std::string::npos);

  CacheEntry none = e;
  none.result.status = KernelStatus::NoGain;
  none.result.best.reset();
  none.result.speedup.reset();
  EXPECT_EQ(error_of(nlohmann::json(none).dump()), "accepted");
}

TEST(CacheEntry, TheWinnerIsValidatedLikeAModelReply) {
  Kernel k;
  k.id = "src/ops.cu:saxpy";
  k.name = "saxpy";
  NameValidator validator;
  CacheEntry e = improved_entry();
  ASSERT_TRUE(validate_entry(e, k, validator));
  EXPECT_EQ(validator.seen.back(), k.id);  // checked as this kernel's variant
  e.result.best->source = "__global__ void saxpy_fast(int n, float* y) { }";
  auto r = validate_entry(e, k, validator);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not a valid variant: renames the kernel"), std::string::npos);
}

TEST(CacheEntry, OnlyFinishedSearchesAreReusable) {
  KernelResult r;
  r.status = KernelStatus::NoGain;
  EXPECT_TRUE(reusable(r));
  r.status = KernelStatus::Improved;
  EXPECT_FALSE(reusable(r));  // no winner
  r.best = Variant{"", "x", {}};
  r.speedup = 1.5;
  EXPECT_TRUE(reusable(r));
  r.status = KernelStatus::Untimed;
  EXPECT_FALSE(reusable(r));
}

// A shared cache is writable by others: an entry whose "status" was not a
// known word, or whose variant had an empty source, threw past the parser
// (std::invalid_argument) and ended `stark optimize`.
TEST(CacheEntry, AnyEntryFileIsAnEntryOrAnErrorNeverACrash) {
  const nlohmann::json clean = improved_entry();
  const std::string key = improved_entry().key;
  ASSERT_TRUE(parse_entry(clean.dump(), key));
  auto bad_status = clean;
  bad_status["result"]["status"] = "pwned";
  EXPECT_FALSE(parse_entry(bad_status.dump(), key));
  auto empty_source = clean;
  empty_source["result"]["best"]["source"] = "";
  EXPECT_FALSE(parse_entry(empty_source.dump(), key));
  int parsed = 0;
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    testing::FuzzInput in(seed);
    std::string text = in.percent(75) ? in.mutate_json(clean).dump() : in.mutate_text(clean.dump());
    parsed += parse_entry(text, key).ok();
  }
  EXPECT_GT(parsed, 0);
}

}  // namespace
}  // namespace stark
