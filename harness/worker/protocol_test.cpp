#include "harness/worker/protocol.h"

#include <gtest/gtest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace stark::harness {
namespace {

TEST(Protocol, RequestRoundTrip) {
  EvaluateRequest r;
  r.id = 7;
  r.kernel = "src/ops.cu:saxpy";
  r.store = "/s";
  r.captures = {"c1", "c2"};
  r.instantiations["_Z5saxpyifPKfPf"] = {{"n", ParamKind::Scalar, 4, "int", false, {}},
                                         {"x", ParamKind::Pointer, 8, "float", true, {}}};
  r.baseline_cubin = "/b.cubin";
  r.variant_cubin = "/v.cubin";
  r.launch.grid = {"ceil_div(n, 512)"};
  r.rtol = 1e-3;
  r.timing.max_runs = 50;
  nlohmann::json j = r;
  EXPECT_TRUE(j["atol"].is_null());
  EXPECT_EQ(j.get<EvaluateRequest>(), r);
}

// A request naming a parameter kind the worker does not know is refused:
// read as a scalar, a pointer's 8 bytes would be replayed as a value.
TEST(Protocol, AnUnknownParameterKindIsRefused) {
  EvaluateRequest r;
  r.instantiations["_Z1kPf"] = {{"x", ParamKind::Pointer, 8, "float", false, {}}};
  nlohmann::json j = r;
  j["instantiations"]["_Z1kPf"][0]["kind"] = "handle";
  try {
    (void)j.get<EvaluateRequest>();
    FAIL() << "an unknown kind was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown parameter kind 'handle'");
  }
}

TEST(Protocol, ReplyRoundTrip) {
  EvaluateReply r;
  r.id = 3;
  r.status = ReplyStatus::Hang;
  r.detail = "still running";
  r.checks = {{CheckName::Correctness, true, ""}, {CheckName::Fuzz, std::nullopt, "nothing to fuzz"}};
  CaptureEvaluation c;
  c.id = "c1";
  c.baseline_us = Timing{10, 9, 11, 20};
  c.max_rel_err = 1e-7;
  c.bytes = 8u << 20;
  r.captures = {c};
  r.seconds = {{"load", 0.25}, {"fuzz", 1.5}};
  nlohmann::json j = r;
  EXPECT_EQ(j["status"], "hang");
  EXPECT_EQ(j.get<EvaluateReply>(), r);
  EXPECT_THROW(nlohmann::json({{"status", "weird"}}).get<EvaluateReply>(), std::exception);
}

// A kernel shares the worker's process and could write a reply of its own
// (docs/threat-model.md): a check outside the closed set, however it is
// named, makes the reply malformed, never a check the verdict counts.
TEST(Protocol, AReplyWithACheckOfItsOwnIsMalformed) {
  EvaluateReply r;
  r.id = 5;
  r.checks = {{CheckName::Correctness, true, ""}};
  nlohmann::json j = r;
  j["checks"].push_back({{"name", "verified_by_kernel"}, {"ok", true}});
  try {
    (void)j.get<EvaluateReply>();
    ADD_FAILURE() << "a reply with an unknown check was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("unknown check 'verified_by_kernel'"), std::string::npos) << e.what();
  }
}

TEST(Protocol, ParamSpecsFromTheManifest) {
  Param p;
  p.name = "x";
  p.type = "const float *";
  p.kind = ParamKind::Pointer;
  p.pointee = "float";
  p.is_const = true;
  p.size = 8;
  auto specs = param_specs({p});
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].type, "float");
  EXPECT_TRUE(specs[0].is_const);
  EXPECT_EQ(specs[0].dtype(), (DType{ScalarKind::F32, 1}));
}

// A complete reply: every check a verdict rests on, passed, every capture timed.
EvaluateReply complete_reply(const EvaluateRequest& r) {
  EvaluateReply reply;
  reply.id = r.id;
  for (CheckName name : {CheckName::BaselineReplay, CheckName::Launch, CheckName::NoCrash, CheckName::Correctness,
                         CheckName::InputsUnchanged, CheckName::Guards, CheckName::Repeat, CheckName::Timing,
                         CheckName::TimedOutputs, CheckName::Recheck})
    reply.checks.push_back({name, true, ""});
  reply.checks.push_back({CheckName::OtherSizes, std::nullopt, "no integer argument matches a buffer's extent"});
  reply.checks.push_back({CheckName::Fuzz, true, "2 fuzzed launches matched"});
  for (const auto& id : r.captures) {
    CaptureEvaluation c;
    c.id = id;
    c.baseline_us = Timing{10, 9, 11, 20};
    c.variant_us = Timing{5, 4, 6, 20};
    reply.captures.push_back(c);
  }
  return reply;
}

// The forged reply of the attack: an "ok" that simply lacks the checks (or
// some of them), or answers another request, is never a verdict.
TEST(Protocol, AReplyIsAVerdictOnlyWithEveryCheckItRestsOn) {
  EvaluateRequest r;
  r.id = 41;
  r.captures = {"c1", "c2"};
  EXPECT_EQ(incomplete_reply(r, complete_reply(r)), "");

  EvaluateReply forged;
  forged.id = 41;
  forged.captures = complete_reply(r).captures;
  EXPECT_EQ(incomplete_reply(r, forged), "the reply lacks the check 'baseline_replay'");

  for (CheckName name : {CheckName::Correctness, CheckName::TimedOutputs, CheckName::OtherSizes, CheckName::Fuzz}) {
    SCOPED_TRACE(to_string(name));
    EvaluateReply lacking = complete_reply(r);
    std::erase_if(lacking.checks, [&](const Check& c) { return c.name == name; });
    EXPECT_EQ(incomplete_reply(r, lacking), fmt::format("the reply lacks the check '{}'", name));
  }
  EvaluateReply not_run = complete_reply(r);
  not_run.checks[3].ok = std::nullopt;  // correctness "not run" is not a pass
  EXPECT_EQ(incomplete_reply(r, not_run), "the check 'correctness' did not pass");
  EvaluateReply silent = complete_reply(r);
  silent.checks[10].detail.clear();  // other_sizes skipped without a reason
  EXPECT_EQ(incomplete_reply(r, silent), "the check 'other_sizes' did not run and says not why");

  EvaluateReply other = complete_reply(r);
  other.id = 40;
  EXPECT_EQ(incomplete_reply(r, other), "the reply answers request 40, not 41");
  EvaluateReply twice = complete_reply(r);
  twice.checks.push_back({CheckName::Correctness, true, ""});
  EXPECT_EQ(incomplete_reply(r, twice), "the reply lists check 'correctness' twice");
  EvaluateReply stranger = complete_reply(r);
  stranger.captures[1].id = "c9";
  EXPECT_EQ(incomplete_reply(r, stranger), "the reply judges capture 'c9', which was not asked for");
  EvaluateReply untimed = complete_reply(r);
  untimed.captures[0].variant_us.reset();
  EXPECT_EQ(incomplete_reply(r, untimed), "capture 'c1' was not timed");
  EvaluateReply empty = complete_reply(r);
  empty.captures.clear();
  EXPECT_EQ(incomplete_reply(r, empty), "the reply judges no capture");

  // Without timing, the timing checks must still be there, as not run.
  r.timing.enabled = false;
  EvaluateReply untimed_ok = complete_reply(r);
  for (auto& c : untimed_ok.checks)
    if (c.name == CheckName::Timing || c.name == CheckName::TimedOutputs || c.name == CheckName::Recheck) {
      c.ok = std::nullopt;
      c.detail = "not run: timing disabled";
    }
  for (auto& c : untimed_ok.captures) c.baseline_us = c.variant_us = std::nullopt;
  EXPECT_EQ(incomplete_reply(r, untimed_ok), "");
}

TEST(Protocol, OtherSizeFlagsTravel) {
  EvaluateRequest r;
  r.store = "/s";
  r.other_sizes = false;
  nlohmann::json j = r;
  EXPECT_FALSE(j.get<EvaluateRequest>().other_sizes);
  EvaluateReply reply;
  reply.status = ReplyStatus::Error;
  reply.other_sizes_faulted = true;
  EXPECT_TRUE(nlohmann::json(reply).get<EvaluateReply>().other_sizes_faulted);
}

}  // namespace
}  // namespace stark::harness
