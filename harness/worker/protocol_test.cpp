#include "harness/worker/protocol.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace stark::harness {
namespace {

TEST(Protocol, RequestRoundTrip) {
  EvaluateRequest r;
  r.id = 7;
  r.kernel = "src/ops.cu:saxpy";
  r.store = "/s";
  r.captures = {"c1", "c2"};
  r.instantiations["_Z5saxpyifPKfPf"] = {{"n", ParamKind::Scalar, 4, "int", false},
                                        {"x", ParamKind::Pointer, 8, "float", true}};
  r.baseline_cubin = "/b.cubin";
  r.variant_cubin = "/v.cubin";
  r.launch.grid = {"ceil_div(n, 512)"};
  r.rtol = 1e-3;
  r.timing.max_runs = 50;
  nlohmann::json j = r;
  EXPECT_TRUE(j["atol"].is_null());
  EXPECT_EQ(j.get<EvaluateRequest>(), r);
}

TEST(Protocol, ReplyRoundTrip) {
  EvaluateReply r;
  r.id = 3;
  r.status = ReplyStatus::Hang;
  r.detail = "still running";
  r.checks = {{check::kCorrectness, true, ""}, {check::kFuzz, std::nullopt, "nothing to fuzz"}};
  CaptureEvaluation c;
  c.id = "c1";
  c.baseline_us = Timing{10, 9, 11, 20};
  c.max_rel_err = 1e-7;
  r.captures = {c};
  nlohmann::json j = r;
  EXPECT_EQ(j["status"], "hang");
  EXPECT_EQ(j.get<EvaluateReply>(), r);
  EXPECT_THROW(nlohmann::json({{"status", "weird"}}).get<EvaluateReply>(), std::exception);
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

}  // namespace
}  // namespace stark::harness
