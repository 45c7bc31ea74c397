#include "harness/common/cubin_info.h"

#include <string>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/process.h"
#include "tests/support/temp_dir.h"

namespace stark::harness {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

// Compiles a small CUDA file with the real nvcc into a cubin; `log`, when
// given, gets nvcc's output (ptxas -v's report is in it).
std::string compile(const std::string& source, const std::string& name, const std::string& arch = "sm_90",
                    std::vector<std::string> extra = {}, std::string* log = nullptr) {
  TempDir tmp;
  const fs::path& dir = tmp.path();
  std::ofstream(dir / (name + ".cu")) << source;
  std::vector<std::string> cmd = {
      STARK_NVCC, "-cubin", "-arch=" + arch, "-o", (dir / (name + ".cubin")).string(), (dir / (name + ".cu")).string()};
  cmd.insert(cmd.end(), extra.begin(), extra.end());
  auto r = run_process(cmd);
  EXPECT_TRUE(r && r->status.success()) << (r ? r->output : r.error().message);
  if (log && r) *log = r->output;
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
  )",
                              "k");
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

// What ptxas -v printed for one function: registers, stack frame, smem.
struct PtxasReport {
  int registers = -1, stack = -1, shared = 0;
};
std::map<std::string, PtxasReport> ptxas_reports(const std::string& log) {
  std::map<std::string, PtxasReport> out;
  std::string current;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (auto at = line.find("Function properties for "); at != std::string::npos) {
      current = line.substr(at + 24);
      continue;
    }
    if (current.empty()) continue;
    if (auto at = line.find(" bytes stack frame"); at != std::string::npos)
      out[current].stack = std::stoi(line.substr(line.find_first_not_of(' '), at));
    if (auto at = line.find("Used "); at != std::string::npos) {
      out[current].registers = std::stoi(line.substr(at + 5));
      if (auto smem = line.find(" bytes smem"); smem != std::string::npos) {
        size_t begin = line.rfind(", ", smem) + 2;
        out[current].shared = std::stoi(line.substr(begin, smem - begin));
      }
    }
  }
  return out;
}

// Registers, the stack frame (spills here: -maxrregcount squeezes a local
// array) and static shared memory, as ptxas itself reports them, on an
// architecture that reserves shared memory in the section and one that does not.
TEST(CubinInfo, ResourceUseIsWhatPtxasReports) {
  const char* source = R"(
    __global__ void staged(float* x, int n) {
      __shared__ float tile[1024];
      __shared__ double sums[8];
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      tile[threadIdx.x] = i < n ? x[i] : 0.f;
      sums[threadIdx.x & 7] = 1;
      __syncthreads();
      if (i < n) x[i] = tile[1023 - threadIdx.x] + sums[3];
    }
    __global__ void __launch_bounds__(1024, 2) squeezed(float* x, int n, int rounds) {
      float a[64];
      for (int j = 0; j < 64; ++j) a[j] = x[j * n + threadIdx.x];
      float s = 0;
      for (int r = 0; r < rounds; ++r)
        for (int j = 0; j < 64; ++j) s += a[(j * r) & 63] * a[j];
      x[threadIdx.x] = s;
    }
    template <typename T> __global__ void bump(T* x) { x[threadIdx.x] += 1; }
    template __global__ void bump<double>(double*);
  )";
  for (const std::string arch : {"sm_90", "sm_80"}) {
    std::string log;
    auto info = read_cubin(compile(source, "res_" + arch, arch, {"-maxrregcount=32", "-Xptxas", "-v"}, &log));
    ASSERT_TRUE(info) << info.error().message;
    auto reports = ptxas_reports(log);
    ASSERT_EQ(reports.size(), 3u) << log;
    for (const auto& [name, want] : reports) {
      SCOPED_TRACE(arch + " " + name);
      const CubinKernel* k = info->find_kernel(name);
      ASSERT_NE(k, nullptr);
      EXPECT_EQ(k->registers, want.registers);
      EXPECT_EQ(k->stack_bytes, want.stack);
      EXPECT_EQ(k->shared_bytes, want.shared);
    }
    EXPECT_GT(reports["_Z8squeezedPfii"].stack, 0) << "the test kernel no longer spills: " << log;
    EXPECT_EQ(reports["_Z6stagedPfi"].shared, 1024 * 4 + 8 * 8);
  }
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
