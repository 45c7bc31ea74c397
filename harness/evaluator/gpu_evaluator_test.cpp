#include "harness/evaluator/gpu_evaluator.h"

#include <vector>
#include <string>
#include <memory>
#include <chrono>
#include <gtest/gtest.h>

#include "harness/store/capture_store.h"
#include "harness/testing/scale_evaluator_test.h"

namespace stark::harness {
namespace {

using testing::pointer;
using testing::scalar;

const char* kGood = R"(__global__ void scale(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i];
})";

class GpuEvaluatorTest : public testing::ScaleEvaluatorTest {};

TEST_F(GpuEvaluatorTest, WithoutAGpuItCompilesAndSaysNothingRan) {
  options.worker = {STARK_WORKER_PATH, "--device", "{device}"};
  GpuEvaluator ev(p->manifest(), options);
  if (ev.gpu()) GTEST_SKIP() << "this machine has a GPU";
  EXPECT_FALSE(ev.no_gpu_reason().empty());
  Evaluation e = ev.evaluate(kernel(), variant(kGood));
  EXPECT_EQ(e.verdict, Verdict::Error);
  EXPECT_TRUE(e.compile_ok);
  EXPECT_NE(e.reason.find("nothing was run or timed"), std::string::npos) << e.reason;
  EXPECT_NE(e.reason.find("sm_90"), std::string::npos) << e.reason;
  ASSERT_NE(find(e, CheckName::Signature), nullptr);
  EXPECT_EQ(find(e, CheckName::Signature)->ok, true);
  ASSERT_NE(find(e, CheckName::Correctness), nullptr);
  EXPECT_EQ(find(e, CheckName::Correctness)->ok, std::nullopt);  // listed as not run, never as passed
}

TEST_F(GpuEvaluatorTest, RejectsBeforeTheGpu) {
  options.worker = {STARK_WORKER_PATH};
  GpuEvaluator ev(p->manifest(), options);
  Evaluation bad =
      ev.evaluate(kernel(), variant("__global__ void scale(int n, float a, const float* x, float* y) { nope; }"));
  EXPECT_EQ(bad.verdict, Verdict::Rejected);
  EXPECT_FALSE(bad.compile_ok);
  EXPECT_EQ(bad.reason.rfind("compile: ", 0), 0u) << bad.reason;
  EXPECT_NE(bad.compile_log.find("nope"), std::string::npos);

  // Dropping const renames the kernel (_Z5scaleifPfS_): rejected.
  Evaluation renamed = ev.evaluate(kernel(), variant("__global__ void scale(int n, float a, float* x, float* y) { }"));
  EXPECT_EQ(renamed.verdict, Verdict::Rejected);
  EXPECT_EQ(renamed.reason.rfind("signature: ", 0), 0u) << renamed.reason;
  EXPECT_NE(renamed.reason.find("scale(int, float, float const*, float*)"), std::string::npos) << renamed.reason;

  Variant v = variant(kGood);
  v.launch.grid = {"ceil_div(count, 256)"};
  Evaluation launch = ev.evaluate(kernel(), v);
  EXPECT_EQ(launch.verdict, Verdict::Rejected);
  EXPECT_NE(launch.reason.find("'count'"), std::string::npos) << launch.reason;

  // The attack: a grid sized by a pointer parameter's value (an address, as
  // large as the candidate likes). Only scalars may size a launch.
  v = variant(kGood);
  v.launch.grid = {"x"};
  Evaluation pointer = ev.evaluate(kernel(), v);
  EXPECT_EQ(pointer.verdict, Verdict::Rejected);
  EXPECT_EQ(pointer.reason.rfind("launch: ", 0), 0u) << pointer.reason;
  EXPECT_NE(pointer.reason.find("only the kernel's scalar parameters"), std::string::npos) << pointer.reason;

  v = variant(kGood);
  v.kernel = "other.cu:k";
  EXPECT_EQ(ev.evaluate(kernel(), v).verdict, Verdict::Error);
}

// A worker process that greets like one with a GPU, then crashes or hangs on
// every evaluation: the evaluator must reject the candidate, say why, and
// start a fresh worker for the next one.
std::vector<std::string> misbehaving(const std::string& action) {
  return {
      "sh", "-c",
      "while read line; do seq=$(printf '%s' \"$line\" | sed -n 's/.*\"seq\":\\([0-9]*\\).*/\\1/p'); "
      "case \"$line\" in "
      "*hello*) printf '{\"ok\":true,\"gpu\":{\"name\":\"Scripted\",\"sm\":\"90\",\"driver\":\"0\",\"cuda\":\"13.0\"},"
      "\"pid\":1,\"seq\":%s}\\n' \"$seq\";; "
      "*shutdown*) exit 0;; *) " +
          action + ";; esac; done"};
}

TEST_F(GpuEvaluatorTest, WorkerCrashRejectsAndRestarts) {
  options.worker = misbehaving("kill -SEGV $$");
  GpuEvaluator ev(p->manifest(), options);
  ASSERT_TRUE(ev.gpu());
  Evaluation e = ev.evaluate(kernel(), variant(kGood));
  EXPECT_EQ(e.verdict, Verdict::Rejected);
  EXPECT_EQ(e.reason.rfind("no_crash: ", 0), 0u) << e.reason;
  EXPECT_NE(e.reason.find("signal 11"), std::string::npos) << e.reason;
  // A lost worker is replaced and the candidate re-queued; one that loses
  // every worker it is given (1 + max_losses) is rejected with the losses.
  EXPECT_NE(e.reason.find("lost 3 workers"), std::string::npos) << e.reason;
  Evaluation again = ev.evaluate(kernel(), variant(kGood));
  EXPECT_EQ(again.verdict, Verdict::Rejected);
  EXPECT_EQ(ev.worker_starts(), 6);
  // Annotation inputs were turned into a capture in the store.
  auto store = CaptureStore::open(options.store, false);
  ASSERT_TRUE(store);
  auto index = store->read_index();
  ASSERT_TRUE(index);
  ASSERT_EQ(index->captures.size(), 1u);
  EXPECT_EQ(index->captures[0].origin, "annotation");
}

TEST_F(GpuEvaluatorTest, WorkerHangIsStopped) {
  options.worker = misbehaving("sleep 60");
  options.request_timeout = std::chrono::seconds(1);
  GpuEvaluator ev(p->manifest(), options);
  Evaluation e = ev.evaluate(kernel(), variant(kGood));
  EXPECT_EQ(e.verdict, Verdict::Rejected);
  EXPECT_NE(e.reason.find("hang"), std::string::npos) << e.reason;
}

TEST_F(GpuEvaluatorTest, NoInputsNamesTheKernelAndHowToAddThem) {
  options.worker = misbehaving("kill -SEGV $$");
  p->manifest().kernels[0].options = {};
  GpuEvaluator ev(p->manifest(), options);
  Evaluation e = ev.evaluate(kernel(), variant(kGood));
  EXPECT_EQ(e.verdict, Verdict::Error);
  EXPECT_NE(e.reason.find("no inputs for kernel src/scale.cu:scale"), std::string::npos) << e.reason;
  EXPECT_NE(e.reason.find("stark capture"), std::string::npos);
  EXPECT_NE(e.reason.find("STARK_OPTIMIZE(\"args=n=..., a=...\", \"buffers=x[count], y[count]\""), std::string::npos)
      << e.reason;
}

TEST_F(GpuEvaluatorTest, InstantiationsOfOtherUnitsAreLeftOutAndSaidSo) {
  // relu<float> is instantiated by relu_f32.cu (the kernel's compile command),
  // relu<double> by another unit: the first is judged, the second named.
  p->write("include/relu.cuh",
           "template <typename T>\n__global__ void relu(int n, const T* x, T* y) {\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = x[i] > T(0) ? x[i] : T(0);\n}\n");
  p->write("src/relu_f32.cu",
           "#include \"../include/relu.cuh\"\ntemplate __global__ void relu<float>(int, const float*, float*);\n");
  Kernel& k = p->add_kernel("relu", "include/relu.cuh", "template <typename T>", "_Z4reluIfEviPKT_PS0_",
                            {scalar("n", "int", 4), pointer("x", "float", true), pointer("y", "float", false)},
                            "src/relu_f32.cu");
  k.instantiations.push_back({"_Z4reluIdEviPKT_PS0_",
                              "double",
                              {scalar("n", "int", 4), pointer("x", "double", true), pointer("y", "double", false)}});
  options.worker = {STARK_WORKER_PATH};
  GpuEvaluator ev(p->manifest(), options);
  if (ev.gpu()) GTEST_SKIP() << "this machine has a GPU";
  const Kernel& relu = *p->manifest().find_kernel("include/relu.cuh:relu");
  Evaluation e = ev.evaluate(relu, testing::unchanged_variant(*p, relu));
  ASSERT_NE(find(e, CheckName::Signature), nullptr) << e.reason;
  EXPECT_EQ(find(e, CheckName::Signature)->ok, true);
  EXPECT_NE(find(e, CheckName::Signature)->detail.find("relu<double>"), std::string::npos)
      << find(e, CheckName::Signature)->detail;
  EXPECT_NE(e.reason.find("nothing was run"), std::string::npos) << e.reason;
}

Kernel restrict_kernel() {
  Kernel k;
  k.name = "k";
  k.params = {scalar("n", "int", 4), pointer("x", "float", true), pointer("y", "float", false)};
  k.params[2].is_restrict = true;  // the original: float* __restrict__ y
  return k;
}

TEST(RestrictAdded, FindsNewRestrictParameters) {
  std::string original = "__global__ void k(int n, const float* x, float* __restrict__ y) {}";
  std::string variant =
      "static __device__ int h(int v) { return v; }\n"
      "__global__ void k(int n, const float* __restrict__ x, float* __restrict__ y) {}";
  EXPECT_EQ(restrict_added(restrict_kernel(), variant), std::vector<std::string>{"x"});
  EXPECT_TRUE(restrict_added(restrict_kernel(), original).empty());
}

// The attack: a declaration in a comment (or a string) before the real one
// showed the text scanner a parameter list without __restrict__, and the
// assumption went unchecked.
TEST(RestrictAdded, ADeclarationInACommentOrStringDoesNotHideTheRealOne) {
  std::string variant =
      "// __global__ void k(int n, const float* x, float* y)\n"
      "static const char* s = \"__global__ void k(int n, const float* x, float* y)\";\n"
      "__global__ void k(int n, const float* __restrict__ x, float* __restrict__ y) {}";
  EXPECT_EQ(restrict_added(restrict_kernel(), variant), std::vector<std::string>{"x"});
}

// The attack: __restrict__ behind a macro the variant defines.
TEST(RestrictAdded, AParameterSpelledWithTheVariantsMacroCountsAsRestrict) {
  std::string variant =
      "#define NOALIAS __restrict__\n"
      "__global__ void k(int n, const float* NOALIAS x, float* __restrict__ y) {}";
  EXPECT_EQ(restrict_added(restrict_kernel(), variant), std::vector<std::string>{"x"});
}

TEST(RestrictAdded, TemplateArgumentsAndRenamedParametersKeepTheirPositions) {
  Kernel k = restrict_kernel();
  k.params.insert(k.params.begin() + 1, scalar("shape", "Shape<int, Dim<2>>", 8));
  std::string variant =
      "__global__ void k(int count, Shape<int, Dim<2>> s, const float* __restrict__ in, float* out) {}";
  EXPECT_EQ(restrict_added(k, variant), std::vector<std::string>{"x"});
}

}  // namespace
}  // namespace stark::harness
