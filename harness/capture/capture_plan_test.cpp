#include "harness/capture/capture_plan.h"

#include <vector>
#include <string>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace stark::harness {
namespace {

std::vector<ParamSpec> saxpy() {
  return {{"n", ParamKind::Scalar, 4, "int", false, {}},
          {"a", ParamKind::Scalar, 4, "float", false, {}},
          {"x", ParamKind::Pointer, 8, "float", true, {}},
          {"y", ParamKind::Pointer, 8, "float", false, {}}};
}

TEST(CapturePlan, JsonRoundTrip) {
  CapturePlan p;
  p.store = "/tmp/store";
  p.limits.max_per_kernel = 3;
  p.kernels.push_back({"src/ops.cu:saxpy", "_Z5saxpyifPKfPf", saxpy(), {"coeffs"}, ""});
  nlohmann::json j = p;
  EXPECT_EQ(j["schema"], kCapturePlanSchema);
  EXPECT_EQ(j.get<CapturePlan>(), p);
  EXPECT_FALSE(j.contains("device_stage_bytes"));  // the library's own budget
  p.device_stage_bytes = 0;                        // stark capture --device-stage 0
  EXPECT_EQ(nlohmann::json(p).get<CapturePlan>().device_stage_bytes, uint64_t{0});
  ASSERT_NE(p.find("_Z5saxpyifPKfPf"), nullptr);
  EXPECT_EQ(p.find("_Z5other"), nullptr);
  EXPECT_THROW(nlohmann::json({{"schema", "x"}}).get<CapturePlan>(), std::exception);
}

// A unit that includes cooperative groups holds the library's own variables,
// which the driver may not read: a kernel that never uses them must not lose
// its captures over them. A name the scan spells differently from the cubin
// must never drop a variable the kernel uses.
TEST(CapturePlan, OnlyTheModuleVariablesAKernelReachesAreRecorded) {
  const std::vector<std::string> module = {"_ZN4cuda3std3__46ignoreE", "_ZN7imgproc6detail6c_tapsE", "counter"};
  std::string why;
  EXPECT_EQ(recorded_globals(std::vector<std::string>{"_ZN7imgproc6detail6c_tapsE"}, module, &why),
            (std::vector<std::string>{"_ZN7imgproc6detail6c_tapsE"}));
  EXPECT_TRUE(why.empty());
  EXPECT_TRUE(recorded_globals(std::vector<std::string>{}, module, &why).empty());
  EXPECT_EQ(recorded_globals(std::nullopt, module, &why), module);
  EXPECT_NE(why.find("could not tell"), std::string::npos);
  why.clear();
  EXPECT_EQ(recorded_globals(std::vector<std::string>{"_ZL7counter"}, module, &why), module);
  EXPECT_NE(why.find("'_ZL7counter'"), std::string::npos) << why;
}

TEST(CapturePlan, StaticRefusals) {
  EXPECT_EQ(static_refusal(saxpy()), "");
  auto tex = saxpy();
  tex.push_back({"tex", ParamKind::Scalar, 8, "cudaTextureObject_t", false, {}});
  EXPECT_NE(static_refusal(tex).find("texture"), std::string::npos);
  auto ptrs = saxpy();
  ptrs.push_back({"rows", ParamKind::Pointer, 8, "float *", false, {}});
  EXPECT_NE(static_refusal(ptrs).find("points to pointers"), std::string::npos);
  auto dependent = saxpy();
  dependent[0].size = 0;
  EXPECT_NE(static_refusal(dependent).find("no known size"), std::string::npos);
}

TEST(CapturePlan, PackedOffsetsFollowNaturalAlignment) {
  std::vector<ParamSpec> p = {{"c", ParamKind::Scalar, 1, "char", false, {}},
                              {"d", ParamKind::Scalar, 8, "double", false, {}},
                              {"s", ParamKind::Scalar, 2, "short", false, {}},
                              {"x", ParamKind::Pointer, 8, "float", true, {}}};
  EXPECT_EQ(packed_offsets(p), (std::vector<size_t>{0, 8, 16, 24}));
  EXPECT_EQ(packed_offsets(saxpy()), (std::vector<size_t>{0, 4, 8, 16}));
}

TEST(CapturePlan, ShapeKeys) {
  LaunchShape l;
  l.grid = {4, 1, 1};
  l.block = {256, 1, 1};
  std::vector<CapturedArg> args = {{"n", ParamKind::Scalar, std::string("\x00\x04\x00\x00", 4), std::nullopt, 0},
                                   {"x", ParamKind::Pointer, "", 0, 0}};
  std::string k1 = shape_key("_Z1k", l, args, {4096});
  EXPECT_EQ(k1, shape_key("_Z1k", l, args, {4096}));
  EXPECT_NE(k1, shape_key("_Z1k", l, args, {8192}));  // another buffer size
  auto other = args;
  other[0].bytes[1] = 8;
  EXPECT_NE(k1, shape_key("_Z1k", l, other, {4096}));  // another scalar value
  LaunchShape l2 = l;
  l2.block = {128, 1, 1};
  EXPECT_NE(k1, shape_key("_Z1k", l2, args, {4096}));
  EXPECT_EQ(pointer_slots(20), (std::vector<size_t>{0, 8}));
}

}  // namespace
}  // namespace stark::harness
