#include "harness/compile/compile_service.h"

#include <vector>
#include <string>
#include <optional>
#include <memory>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/file_io.h"
#include "core/process.h"
#include "harness/common/cubin_info.h"
#include "harness/compile/host_code_check.h"
#include "harness/testing/test_project.h"

namespace stark::harness {
namespace {

namespace fs = std::filesystem;
using testing::pointer;
using testing::scalar;
using testing::TestProject;

const char* kOps = R"(#include "ops.cuh"
#include "util/scale.h"

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] * kScale;
}
)";

const char* kHeader = R"(#pragma once
#include "detail/helpers.cuh"
template <typename T>
__global__ void relu(int n, const T* x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = relu_one(x[i]);
}
)";

class CompileServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    p = std::make_unique<TestProject>("compile_" +
                                      std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    p->write("src/ops.cu", kOps);
    p->write("src/util/scale.h", "#pragma once\nconstexpr float kScale = 1.0f;\n");
    p->write("include/ops.cuh", kHeader);
    p->write("include/detail/helpers.cuh",
             "#pragma once\ntemplate <typename T> __device__ T relu_one(T v) { return v > T(0) ? v : T(0); }\n");
    p->write("src/relu.cu", "#include <ops.cuh>\ntemplate __global__ void relu<float>(int, const float*, float*);\n");
    p->add_kernel(
        "saxpy", "src/ops.cu", "__global__ void saxpy", "_Z5saxpyifPKfPf",
        {scalar("n", "int", 4), scalar("a", "float", 4), pointer("x", "float", true), pointer("y", "float", false)}, "",
        {"-I../include"});
    p->add_kernel("relu", "include/ops.cuh", "template <typename T>", "_Z4reluIfEviPKT_PS0_",
                  {scalar("n", "int", 4), pointer("x", "float", true), pointer("y", "float", false)}, "src/relu.cu",
                  {"-I" + (p->root() / "include").string()});
    CompileServiceOptions o;
    o.cache_dir = p->root() / "cache";
    o.nvcc = p->nvcc();
    o.jobs = 2;
    service = std::make_unique<CompileService>(o);
  }

  CompileRequest request(const std::string& kernel, std::optional<std::string> source = std::nullopt) {
    CompileRequest r;
    r.kernel = p->manifest().find_kernel(kernel);
    r.source_root = p->root();
    r.source = std::move(source);
    r.sm = "90";
    r.expected_file_hash = p->manifest().files[r.kernel->file].hash;
    return r;
  }

  CubinInfo cubin(const CompileResult& r) {
    auto bytes = read_file(r.output);
    EXPECT_TRUE(bytes);
    auto info = read_cubin(*bytes);
    EXPECT_TRUE(info) << info.error().message;
    return *info;
  }

  std::unique_ptr<TestProject> p;
  std::unique_ptr<CompileService> service;
};

TEST_F(CompileServiceTest, OriginalCompilesAndIsCached) {
  auto first = service->compile(request("src/ops.cu:saxpy"));
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_TRUE(first->ok) << first->log;
  EXPECT_FALSE(first->cached);
  EXPECT_GT(first->seconds, 0);
  EXPECT_NE(cubin(*first).find_kernel("_Z5saxpyifPKfPf"), nullptr);
  auto second = service->compile(request("src/ops.cu:saxpy"));
  ASSERT_TRUE(second && second->ok);
  EXPECT_TRUE(second->cached);
  EXPECT_EQ(second->key, first->key);
  EXPECT_EQ(second->output, first->output);
  CompileStats stats = service->stats();
  EXPECT_EQ(stats.runs[static_cast<int>(CompileMode::Cubin)], 1);
  EXPECT_DOUBLE_EQ(stats.seconds[static_cast<int>(CompileMode::Cubin)], first->seconds);
  EXPECT_EQ(stats.runs[static_cast<int>(CompileMode::Object)], 0);
  EXPECT_EQ(stats.cached, 1);
}

TEST_F(CompileServiceTest, VariantReplacesExactlyTheRange) {
  std::string variant = R"(static __device__ float twice(float v) { return 2.0f * v; }
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float marker_shared[7];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  marker_shared[threadIdx.x % 7] = kScale;
  if (i < n) y[i] = a * x[i] + twice(y[i]) * marker_shared[0];
})";
  auto r = service->compile(request("src/ops.cu:saxpy", variant));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->ok) << r->log;
  auto base = service->compile(request("src/ops.cu:saxpy"));
  ASSERT_TRUE(base && base->ok);
  EXPECT_NE(r->key, base->key);
  EXPECT_NE(cubin(*r).find_kernel("_Z5saxpyifPKfPf"), nullptr);  // __restrict__ keeps the name
  // The original file is untouched; relative includes of the patched file resolved (kScale).
  EXPECT_EQ(p->read("src/ops.cu"), kOps);
}

TEST_F(CompileServiceTest, KernelInAHeaderReachedThroughIncludePath) {
  std::string variant = R"(static __device__ int relu_variant_marker;
template <typename T>
__global__ void relu(int n, const T* x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicAdd(&relu_variant_marker, 1);
  if (i < n) y[i] = relu_one(x[i]);
})";
  auto r = service->compile(request("include/ops.cuh:relu", variant));
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->ok) << r->log;
  auto info = cubin(*r);
  EXPECT_NE(info.find_kernel("_Z4reluIfEviPKT_PS0_"), nullptr);
  bool marker = false;
  for (const auto& g : info.globals) marker |= g.name.find("relu_variant_marker") != std::string::npos;
  EXPECT_TRUE(marker) << "the patched header was not the one compiled";
}

TEST_F(CompileServiceTest, CompileErrorsAreResultsWithRealPaths) {
  auto r = service->compile(request(
      "src/ops.cu:saxpy", "__global__ void saxpy(int n, float a, const float* x, float* y) { undefined_thing(); }"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->ok);
  EXPECT_NE(r->log.find("undefined_thing"), std::string::npos);
  EXPECT_NE(r->log.find((p->root() / "src/ops.cu").string()), std::string::npos) << r->log;
  EXPECT_EQ(r->log.find("shadow-"), std::string::npos) << r->log;
  auto again = service->compile(request(
      "src/ops.cu:saxpy", "__global__ void saxpy(int n, float a, const float* x, float* y) { undefined_thing(); }"));
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->cached);
  EXPECT_FALSE(again->ok);
}

TEST_F(CompileServiceTest, DeviceSideLaunchesDoNotCompile) {
  // A kernel launching another from device code needs -rdc, which candidates never get.
  auto r = service->compile(request("src/ops.cu:saxpy", R"(__global__ void child(float* y) { y[0] = 1; }
__global__ void saxpy(int n, float a, const float* x, float* y) { child<<<1, 1>>>(y); })"));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->ok);
}

TEST_F(CompileServiceTest, RelocatableCodeIsLinkedWithTheTargetsOtherObjects) {
  p->write("src/taps.cu",
           "__device__ float window(int i) { return 0.5f + 0.5f * (i & 1); }\n"
           "__constant__ float c_taps[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n");
  p->write("src/filters.cu",
           "extern __device__ float window(int i);\n"
           "extern __constant__ float c_taps[4];\n"
           "__global__ void filter(int n, const float* x, float* y) {\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i < n) y[i] = x[i] * c_taps[i & 3] * window(i);\n"
           "}\n");
  p->add_kernel("filter", "src/filters.cu", "__global__ void filter", "_Z6filteriPKfPf",
                {scalar("n", "int", 4), pointer("x", "float", true), pointer("y", "float", false)}, "", {"-rdc=true"});
  auto unlinked = service->compile(request("src/filters.cu:filter"));
  ASSERT_TRUE(unlinked) << unlinked.error().message;
  EXPECT_FALSE(unlinked->ok) << "the target's other object is not built yet";
  EXPECT_NE(unlinked->log.find("device link of this relocatable unit"), std::string::npos) << unlinked->log;
  EXPECT_NE(unlinked->log.find("window"), std::string::npos) << "nvlink names what is missing: " << unlinked->log;

  // The project's build makes the other object where CMake puts it.
  fs::path object = p->root() / "build/CMakeFiles/t.dir/src/taps.cu.o";
  fs::create_directories(object.parent_path());
  auto built = run_process(
      {p->nvcc(), "-rdc=true", "-arch=sm_90", "-c", (p->root() / "src/taps.cu").string(), "-o", object.string()});
  ASSERT_TRUE(built && built->status.code == 0) << (built ? built->output : built.error().message);

  auto linked = service->compile(request("src/filters.cu:filter"));
  ASSERT_TRUE(linked) << linked.error().message;
  ASSERT_TRUE(linked->ok) << linked->log;
  EXPECT_FALSE(linked->cached) << "a new object beside it makes a new key";
  CubinInfo info = cubin(*linked);
  EXPECT_TRUE(info.find_kernel("_Z6filteriPKfPf"));
  EXPECT_TRUE(std::any_of(info.globals.begin(), info.globals.end(),
                          [](const CubinGlobal& g) { return g.name == "c_taps" && g.constant; }));
  auto bytes = read_file(linked->output);
  ASSERT_TRUE(bytes && bytes->size() > 18);
  EXPECT_EQ(static_cast<unsigned char>((*bytes)[16]), 2u) << "ET_EXEC: a cubin the driver loads as it is";

  auto candidate = service->compile(request("src/filters.cu:filter",
                                            "__global__ void filter(int n, const float* __restrict__ x, float* y) {\n"
                                            "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                                            "       i += gridDim.x * blockDim.x)\n"
                                            "    y[i] = x[i] * c_taps[i & 3] * window(i);\n"
                                            "}"));
  ASSERT_TRUE(candidate) << candidate.error().message;
  EXPECT_TRUE(candidate->ok) << candidate->log;
}

TEST_F(CompileServiceTest, RefusesChangedFiles) {
  auto req = request("src/ops.cu:saxpy");
  p->write("src/ops.cu", std::string(kOps) + "// edited\n");
  auto changed = service->compile(req);
  ASSERT_FALSE(changed);
  EXPECT_NE(changed.error().message.find("changed since"), std::string::npos);
}

TEST_F(CompileServiceTest, ParallelCandidates) {
  std::vector<std::thread> threads;
  std::vector<Expected<CompileResult>> results(6, Error{"not run"});
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&, i] {
      results[i] = service->compile(request("src/ops.cu:saxpy",
                                            "__global__ void saxpy(int n, float a, const float* x, float* y) { int i = "
                                            "threadIdx.x; if (i < n) y[i] = a * x[i] + " +
                                                std::to_string(i % 3) + ".0f; }"));
    });
  for (auto& t : threads) t.join();
  for (auto& r : results) {
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->ok) << r->log;
  }
  EXPECT_EQ(results[0]->key, results[3]->key);  // same source, same key
  EXPECT_NE(results[0]->key, results[1]->key);
}

TEST_F(CompileServiceTest, HostCodeIsFound) {
  auto object = [&](std::optional<std::string> source) {
    auto req = request("src/ops.cu:saxpy", source);
    req.mode = CompileMode::Object;
    auto r = service->compile(req);
    EXPECT_TRUE(r && r->ok) << (r ? r->log : r.error().message);
    return *read_file(r->output);
  };
  auto cubin_of = [&](std::optional<std::string> source) {
    auto r = service->compile(request("src/ops.cu:saxpy", source));
    EXPECT_TRUE(r && r->ok);
    return cubin(*r);
  };
  std::string original = object(std::nullopt);

  std::string device_only = R"(static __device__ int calls;
static __device__ float helper(float v) { return v * 2.0f; }
__global__ void saxpy(int n, float a, const float* x, float* y) {
  if (threadIdx.x == 0) atomicAdd(&calls, 1);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * helper(x[i]);
})";
  auto clean = host_code_added(original, object(device_only), cubin_of(device_only));
  ASSERT_TRUE(clean) << clean.error().message;
  EXPECT_TRUE(clean->empty()) << (*clean)[0];

  std::string smuggled = R"(#include <cstdlib>
int stark_evil_host(int v) { return std::system("true") + v; }
static int stark_evil_init = stark_evil_host(1);
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
})";
  auto found = host_code_added(original, object(smuggled), cubin_of(smuggled));
  ASSERT_TRUE(found) << found.error().message;
  std::string all;
  for (const auto& f : *found) all += f + "\n";
  EXPECT_NE(all.find("host function stark_evil_host(int)"), std::string::npos) << all;
  EXPECT_NE(all.find("static initialiser"), std::string::npos) << all;
}

}  // namespace
}  // namespace stark::harness
