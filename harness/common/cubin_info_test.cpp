#include "harness/common/cubin_info.h"

#include <string>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "harness/common/subprocess.h"

namespace stark::harness {
namespace {

namespace fs = std::filesystem;

// Compiles a small CUDA file with the real nvcc into a cubin.
std::string compile(const std::string& source, const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("stark_cubin_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".cu")) << source;
  auto r = run_command({STARK_NVCC, "-cubin", "-arch=sm_90", "-o", (dir / (name + ".cubin")).string(),
                        (dir / (name + ".cu")).string()});
  EXPECT_TRUE(r && r->status.success()) << (r ? r->output : r.error().message);
  std::ifstream in(dir / (name + ".cubin"), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(CubinInfo, KernelsParamsAndGlobals) {
  std::string bytes = compile(R"(
    __constant__ float coeffs[16];
    __device__ int counter;
    namespace ns { __device__ float table[4] = {1, 2, 3, 4}; }
    struct P { int n; float* p; double d; };
    __global__ void saxpy(int n, float a, const float* x, float* y) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = a * x[i] + coeffs[0] + ns::table[i & 3];
      if (i == 0) counter++;
    }
    extern "C" __global__ void cfun(P p, char c, short s, double* out) { out[0] = p.d + c + s; }
  )", "k");
  auto info = read_cubin(bytes);
  ASSERT_TRUE(info) << info.error().message;
  const CubinKernel* saxpy = info->find_kernel("_Z5saxpyifPKfPf");
  ASSERT_NE(saxpy, nullptr);
  ASSERT_EQ(saxpy->params.size(), 4u);
  EXPECT_EQ(saxpy->params[0], (CubinParam{0, 0, 4}));
  EXPECT_EQ(saxpy->params[1], (CubinParam{1, 4, 4}));
  EXPECT_EQ(saxpy->params[2], (CubinParam{2, 8, 8}));
  EXPECT_EQ(saxpy->params[3], (CubinParam{3, 16, 8}));
  EXPECT_EQ(saxpy->param_bytes, 24);
  const CubinKernel* cfun = info->find_kernel("cfun");
  ASSERT_NE(cfun, nullptr);
  EXPECT_EQ(cfun->params[0].size, 24);
  EXPECT_EQ(cfun->param_bytes, 40);
  EXPECT_EQ(info->find_kernel("_Z5saxpyifPfS_"), nullptr);

  std::map<std::string, CubinGlobal> globals;
  for (const auto& g : info->globals) globals[g.name] = g;
  ASSERT_TRUE(globals.count("coeffs"));
  EXPECT_TRUE(globals["coeffs"].constant);
  EXPECT_EQ(globals["coeffs"].size, 64u);
  ASSERT_TRUE(globals.count("counter"));
  EXPECT_FALSE(globals["counter"].constant);
  ASSERT_TRUE(globals.count("_ZN2ns5tableE"));
  EXPECT_EQ(globals["_ZN2ns5tableE"].size, 16u);
}

TEST(CubinInfo, ComparesParameterLayouts) {
  CubinKernel a{"k", {{0, 0, 4}, {1, 8, 8}}, 16};
  CubinKernel b = a;
  EXPECT_EQ(compare_params(a, b), "");
  b.params[1].size = 4;
  EXPECT_EQ(compare_params(a, b), "parameter 2 is 4 bytes instead of 8");
  b.params.pop_back();
  EXPECT_EQ(compare_params(a, b), "1 parameters instead of 2");
}

TEST(CubinInfo, RejectsNonCubins) {
  EXPECT_FALSE(read_cubin("not an elf"));
  std::ifstream self("/proc/self/exe", std::ios::binary);
  std::stringstream ss;
  ss << self.rdbuf();
  auto host = read_cubin(ss.str());
  ASSERT_FALSE(host);
  EXPECT_NE(host.error().message.find("not a CUDA ELF"), std::string::npos);
}

}  // namespace
}  // namespace stark::harness
