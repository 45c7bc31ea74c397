// The clang check of candidates against tests/projects/edge (configured by
// the ctest fixture "edge").
#include "clang_tool/variant_check.h"

#include <gtest/gtest.h>

#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "core/file_io.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

class VariantCheck : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ScanOptions options;
    options.build_dir = fs::path(STARK_BINARY_DIR) / "tests/projects/edge-build";
    auto out = scan_build(options);
    ASSERT_TRUE(out) << out.error().message;
    manifest_ = new Manifest(out->manifest);
  }
  static void TearDownTestSuite() { delete manifest_; }

  Expected<void> check(const std::string& id, const std::string& source, LaunchOverride launch = {}) {
    auto setup = locate_clang_setup();
    EXPECT_TRUE(setup);
    ClangVariantValidator validator(*setup, manifest_->source_root);
    const Kernel* k = manifest_->find_kernel(id);
    EXPECT_TRUE(k) << id;
    return validator.validate(*k, Variant{id, source, launch});
  }
  static void expect_error(const Expected<void>& r, const std::string& part) {
    ASSERT_FALSE(r) << "expected an error containing: " << part;
    EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
  }
  static Manifest* manifest_;
};
Manifest* VariantCheck::manifest_ = nullptr;

const char* kClamp = "src/stats.cu:edge::clamp(int, float *)";

TEST_F(VariantCheck, AcceptsAFasterKernelWithAStaticHelper) {
  auto r = check(kClamp,
                 "static __device__ __forceinline__ float saturate_(float v) { return fminf(fmaxf(v, 0.0f), 1.0f); }\n"
                 "[[stark::optimize]] __global__ void clamp(int n, float* __restrict__ x) {\n"
                 "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
                 "    x[i] = saturate_(x[i]);\n"
                 "}",
                 LaunchOverride{{"min(ceil_div(n, 256), 1056)"}, {"256"}, std::nullopt});
  EXPECT_TRUE(r) << r.error().message;
}

TEST_F(VariantCheck, AcceptsAToolkitInclude) {
  auto r = check(kClamp,
                 "#include <cuda_fp16.h>\n"
                 "__global__ void clamp(int n, float* x) { int i = threadIdx.x; if (i < n) x[i] = __half2float(__float2half(x[i])); }");
  EXPECT_TRUE(r) << r.error().message;
}

TEST_F(VariantCheck, RejectsHostCode) {
  expect_error(check(kClamp, "static int counter_on_host() { return 1; }\n"
                             "__global__ void clamp(int n, float* x) {}"),
               "'counter_on_host' is host code");
}

TEST_F(VariantCheck, RejectsExternallyVisibleHelpers) {
  expect_error(check(kClamp, "__device__ float sat(float v) { return v; }\n"
                             "__global__ void clamp(int n, float* x) {}"),
               "device helper 'sat' must be static");
}

TEST_F(VariantCheck, RejectsASignatureChange) {
  expect_error(check(kClamp, "__global__ void clamp(int n, const float* x) {}"), "changes the kernel's signature");
}

TEST_F(VariantCheck, RejectsExtraKernelsAndDeviceLaunches) {
  expect_error(check(kClamp, "static __global__ void helper_kernel() {}\n__global__ void clamp(int n, float* x) {}"),
               "adds the kernel 'helper_kernel'");
  expect_error(check("src/stats.cu:edge::row_mean",
                     "__global__ void row_mean(Shape s, const float* in, float* out) { row_mean<<<1, 1>>>(s, in, out); }"),
               "launches a kernel from device code");
}

TEST_F(VariantCheck, RejectsForeignIncludes) {
  expect_error(check("src/apis.cu:api::negate", "#include <cstdio>\n__global__ void api::negate(int n, float* x) {}"),
               "includes <cstdio>");
}

TEST_F(VariantCheck, ParseErrorsPointIntoTheVariant) {
  expect_error(check(kClamp, "__global__ void clamp(int n, float* x) {\n  int i = threadIdx.x\n  x[i] = 0;\n}"),
               "variant line 2:");
}

TEST_F(VariantCheck, RejectsForeignNamesInTheLaunchOverride) {
  expect_error(check(kClamp, "__global__ void clamp(int n, float* x) {}", LaunchOverride{{"ceil_div(m, 256)"}, {}, {}}),
               "reads 'm'");
  EXPECT_TRUE(check("src/stats.cu:edge::row_mean", "__global__ void row_mean(Shape s, const float* in, float* out) {}",
                    LaunchOverride{{"ceil_div(s.rows, 32)"}, {"32"}, {}}));
}

TEST_F(VariantCheck, TemplateKernelInAHeader) {
  const char* id = "include/edge/scale.cuh:edge::detail::scale";
  EXPECT_TRUE(check(id, "template <typename T, int kUnroll>\n"
                        "__global__ void scale(int n, T alpha, const T* __restrict__ x, T* __restrict__ y) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (i < n) y[i] = alpha * __ldg(x + i);\n"
                        "}"));
  expect_error(check(id, "template <typename T, int kUnroll>\n"
                         "__global__ void scale(int n, T alpha, const T* x, const T* y) {}"),
               "changes the kernel's signature");
  expect_error(check(id, "template <typename T, int kUnroll>\n"
                         "__global__ void scale(int n, T alpha, const T* x, T* y, int extra) {}"),
               "no matching function for call to 'scale'");
}

TEST_F(VariantCheck, TheOriginalIsValid) {
  for (const auto& k : manifest_->kernels) {
    auto text = read_file(fs::path(manifest_->source_root) / k.file);
    ASSERT_TRUE(text);
    auto r = check(k.id, text->substr(k.range.begin, k.range.end - k.range.begin));
    EXPECT_TRUE(r) << k.id << ": " << r.error().message;
  }
}

}  // namespace
}  // namespace stark
