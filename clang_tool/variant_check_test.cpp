// The clang check of candidates against tests/projects/edge (configured by
// the ctest fixture "edge").
#include "clang_tool/variant_check.h"

#include <gtest/gtest.h>

#include <string>

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

TEST_F(VariantCheck, LeavesTheProcessWorkingDirectoryAlone) {
  // A parse that changed the process's directory moved every relative path
  // the command line gave (stark optimize -p build wrote to build/build/stark).
  const fs::path before = fs::current_path();
  ASSERT_NE(before, fs::path(manifest_->find_kernel(kClamp)->compile->directory));
  auto r = check(kClamp,
                 "[[stark::optimize]] __global__ void clamp(int n, float* x) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  if (i < n) x[i] = fminf(fmaxf(x[i], 0.0f), 1.0f);\n"
                 "}");
  EXPECT_TRUE(r) << r.error().message;
  EXPECT_EQ(fs::current_path(), before);
}

TEST_F(VariantCheck, AcceptsLoopPragmasTemplatesDeviceTypesAndConstants) {
  auto r = check(kClamp,
                 "namespace {\n"
                 "constexpr int kTile = 4;\n"
                 "enum class Mode { kFast, kSlow };\n"
                 "static __constant__ float kTable[kTile] = {0.0f, 0.25f, 0.5f, 0.75f};\n"
                 "template <int N> static __device__ __forceinline__ float sum_(const float (&v)[N]) {\n"
                 "  float s = 0.0f;\n"
                 "#pragma unroll\n"
                 "  for (int i = 0; i < N; ++i) s += v[i];\n"
                 "  return s;\n"
                 "}\n"
                 "struct Clamp {\n"
                 "  static constexpr float kLo = 0.0f;\n"
                 "  float hi = 1.0f;\n"
                 "  Clamp() = default;\n"
                 "  __device__ float operator()(float v) const { return fminf(fmaxf(v, kLo), hi); }\n"
                 "  __host__ __device__ constexpr float top() const { return hi; }\n"
                 "};\n"
                 "}  // namespace\n"
                 "[[stark::optimize]] __global__ void clamp(int n, float* __restrict__ x) {\n"
                 "  struct alignas(16) Group { float lane[4]; };\n"
                 "  float v[kTile];\n"
                 "  int base = (blockIdx.x * blockDim.x + threadIdx.x) * kTile;\n"
                 "#pragma unroll 4\n"
                 "  for (int j = 0; j < kTile; ++j) v[j] = base + j < n ? x[base + j] : 0.0f;\n"
                 "  _Pragma(\"unroll (kTile)\")\n"
                 "  for (int j = 0; j < kTile; ++j)\n"
                 "    if (base + j < n) x[base + j] = Clamp{}(v[j] + kTable[j] * 0.0f + 0.0f * sum_(v));\n"
                 "#pragma nounroll\n"
                 "  for (int j = 0; j < 1; ++j) (void)sizeof(Group);\n"
                 "}  // clamp\n");
  EXPECT_TRUE(r) << r.error().message;
}

// The findings this check closes: each variant below passed it once.
TEST_F(VariantCheck, RefusesADefineThatHijacksTheRuntime) {
  expect_error(check(kClamp,
                     "__global__ void clamp(int n, float* x) {}\n"
                     "#define cudaGetLastError() (system(\"id\"), cudaSuccess)"),
               "variant line 2: the preprocessor directive '#define cudaGetLastError() (system(\"id\"), "
               "cudaSuccess)' is not allowed");
}

TEST_F(VariantCheck, RefusesADeviceOnlyIncludeBeforeAnythingReadsIt) {
  // The kernel's unit as a compile would see it, plus a forced include
  // that is not there: any parse (or compile) of the variant would fail on
  // it. The refusal names the directives alone, so nothing parsed.
  Kernel k = *manifest_->find_kernel(kClamp);
  k.compile->arguments.push_back("-include");
  k.compile->arguments.push_back("/nonexistent/stark-parse-canary.h");
  auto setup = locate_clang_setup();
  ASSERT_TRUE(setup);
  ClangVariantValidator validator(*setup, manifest_->source_root);
  auto r = validator.validate(k, Variant{kClamp,
                                         "__global__ void clamp(int n, float* x) {}\n"
                                         "#ifdef __CUDA_ARCH__\n"
                                         "#include \"/any/file\"\n"
                                         "#endif\n",
                                         {}});
  expect_error(r, "variant line 2: the preprocessor directive '#ifdef __CUDA_ARCH__' is not allowed");
  expect_error(r, "variant line 3: the preprocessor directive '#include \"/any/file\"' is not allowed");
  EXPECT_EQ(r.error().message.find("canary"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().message.find("does not parse"), std::string::npos) << r.error().message;
  // The same variant without the directives parses and meets the canary.
  expect_error(validator.validate(k, Variant{kClamp, "__global__ void clamp(int n, float* x) {}", {}}),
               "stark-parse-canary.h");
}

TEST_F(VariantCheck, RefusesEveryIncludeAndArchConditional) {
  expect_error(check(kClamp, "#include <cuda_fp16.h>\n__global__ void clamp(int n, float* x) {}"),
               "'#include <cuda_fp16.h>' is not allowed");
  expect_error(check(kClamp, "__global__ void clamp(int n, float* x) {\n  if (__CUDA_ARCH__ >= 800) x[0] = 1;\n}"),
               "variant line 2: '__CUDA_ARCH__' is not allowed");
  expect_error(check(kClamp,
                     "__global__ void clamp(int n, float* x) {}\n"
                     "_Pragma(\"redefine_extname cudaGetLastError system\")"),
               "'_Pragma' is not allowed");
}

TEST_F(VariantCheck, RefusesStaticInitialisersAnywhere) {
  const std::string kernel = "\n__global__ void clamp(int n, float* x) {}";
  expect_error(check(kClamp, "struct S { inline static int x = system(\"id\"); };" + kernel),
               "variable 'x' is host data");
  expect_error(check(kClamp, "struct S { static const int x; };\nconst int S::x = system(\"id\");" + kernel),
               "variable 'x' must be constexpr");
  expect_error(check(kClamp,
                     "template <int N> struct T { static const int x; };\n"
                     "template <int N> const int T<N>::x = N;" +
                         kernel),
               "variable 'x' must be constexpr");
  expect_error(check(kClamp, "static const int boot = system(\"id\");" + kernel),
               "variable 'boot' has a dynamic initialiser");
  expect_error(check(kClamp, "static const auto hook = [] { return system(\"id\"); }();" + kernel),
               "variable 'hook' has a dynamic initialiser");
  expect_error(check(kClamp, "constexpr auto hook = [] { return 1; };" + kernel),
               "variable 'hook' holds a lambda at namespace scope");
  expect_error(check(kClamp, "struct D { constexpr D() {} ~D() { system(\"id\"); } };\nconst D d;" + kernel),
               "'edge::D::~D' is host code");
}

TEST_F(VariantCheck, RefusesHostMembersLoaderAttributesAndAsm) {
  const std::string kernel = "\n__global__ void clamp(int n, float* x) {}";
  expect_error(check(kClamp, "struct S { void run() { system(\"id\"); } };" + kernel), "'edge::S::run' is host code");
  expect_error(check(kClamp, "struct S { static int run() { return system(\"id\"); } };" + kernel),
               "'edge::S::run' is host code");
  expect_error(check(kClamp,
                     "__global__ void clamp(int n, float* x) {\n"
                     "  struct Local { void run() { system(\"id\"); } };\n}"),
               "is host code: a type the variant defines may have only __device__ member functions");
  expect_error(check(kClamp, "__attribute__((constructor)) static void boot() { system(\"id\"); }" + kernel),
               "'boot' carries the attribute 'constructor'");
  expect_error(check(kClamp, "__attribute__((constructor)) static __device__ void boot() {}" + kernel),
               "'boot' carries the attribute 'constructor'");
  expect_error(
      check(kClamp, "__attribute__((used, section(\".init_array\"))) static __device__ int hook = 0;" + kernel),
      "carries the attribute");
  expect_error(check(kClamp, "asm(\".globl stark_hook\");" + kernel), "file-scope asm");
  expect_error(check(kClamp, "using namespace ::edge;" + kernel), "using-directive");
}

TEST_F(VariantCheck, RefusesWhatTheRestOfTheFileWouldUse) {
  // means() after the kernel names cudaStream_t: it would now find the variant's.
  expect_error(check("src/stats.cu:edge::row_mean",
                     "using cudaStream_t = ::cudaStream_t;\n"
                     "__global__ void row_mean(Shape s, const float* in, float* out) {}"),
               "the code after the kernel would use the variant's 'cudaStream_t' (line ");
  // A specialisation of a toolkit template, for host code to pick up.
  expect_error(check("src/apis.cu:api::negate",
                     "struct Hook {};\n"
                     "template <> __host__ cudaChannelFormatDesc cudaCreateChannelDesc<Hook>() {\n"
                     "  system(\"id\");\n  return {};\n}\n"
                     "__global__ void api::negate(int n, float* x) {}"),
               "the variant defines 'cudaCreateChannelDesc', which is declared outside the kernel");
}
TEST_F(VariantCheck, RejectsHostCode) {
  expect_error(check(kClamp,
                     "static int counter_on_host() { return 1; }\n"
                     "__global__ void clamp(int n, float* x) {}"),
               "'counter_on_host' is host code");
}

TEST_F(VariantCheck, RejectsExternallyVisibleHelpers) {
  expect_error(check(kClamp,
                     "__device__ float sat(float v) { return v; }\n"
                     "__global__ void clamp(int n, float* x) {}"),
               "device helper 'sat' must be static");
}

TEST_F(VariantCheck, RejectsASignatureChange) {
  expect_error(check(kClamp, "__global__ void clamp(int n, const float* x) {}"), "changes the kernel's signature");
}

TEST_F(VariantCheck, RejectsExtraKernelsAndDeviceLaunches) {
  expect_error(check(kClamp, "static __global__ void helper_kernel() {}\n__global__ void clamp(int n, float* x) {}"),
               "adds the kernel 'helper_kernel'");
  expect_error(
      check("src/stats.cu:edge::row_mean",
            "__global__ void row_mean(Shape s, const float* in, float* out) { row_mean<<<1, 1>>>(s, in, out); }"),
      "launches a kernel from device code");
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
  EXPECT_TRUE(check(id,
                    "template <typename T, int kUnroll>\n"
                    "__global__ void scale(int n, T alpha, const T* __restrict__ x, T* __restrict__ y) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) y[i] = alpha * __ldg(x + i);\n"
                    "}"));
  expect_error(check(id,
                     "template <typename T, int kUnroll>\n"
                     "__global__ void scale(int n, T alpha, const T* x, const T* y) {}"),
               "changes the kernel's signature");
  expect_error(check(id,
                     "template <typename T, int kUnroll>\n"
                     "__global__ void scale(int n, T alpha, const T* x, T* y, int extra) {}"),
               "no matching function for call to 'scale'");
}

TEST_F(VariantCheck, SourcesMovedSinceTheScanAreSaidSo) {
  // The compile commands still name the scanned files: the patched copy is never read.
  fs::path copy = fs::path(STARK_BINARY_DIR) / "tests/variant-check-scratch/edge";
  fs::remove_all(copy);
  fs::create_directories(copy.parent_path());
  fs::copy(manifest_->source_root, copy, fs::copy_options::recursive);
  auto setup = locate_clang_setup();
  ASSERT_TRUE(setup);
  ClangVariantValidator validator(*setup, copy);
  expect_error(validator.validate(*manifest_->find_kernel(kClamp),
                                  Variant{kClamp, "__global__ void clamp(int n, float* x) {}", {}}),
               "the sources moved since the scan; scan again");
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
