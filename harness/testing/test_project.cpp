#include "harness/testing/test_project.h"

#include <vector>
#include <string>
#include <cstdint>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/hash.h"

namespace stark::harness::testing {

namespace fs = std::filesystem;

ByteRange kernel_range(const std::string& text, const std::string& start) {
  size_t begin = text.find(start);
  if (begin == std::string::npos) throw std::runtime_error("kernel start not found: " + start);
  size_t brace = text.find('{', begin);
  int depth = 0;
  for (size_t i = brace; i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) return {static_cast<int64_t>(begin), static_cast<int64_t>(i + 1)};
  }
  throw std::runtime_error("unbalanced braces after " + start);
}

TestProject::TestProject(const std::string& name) {
  root_ = fs::temp_directory_path() / ("stark_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(root_);
  fs::create_directories(root_ / "build");
  manifest_.source_root = root_.string();
  manifest_.build_dir = (root_ / "build").string();
}

void TestProject::write(const std::string& relative, const std::string& text) {
  fs::create_directories((root_ / relative).parent_path());
  std::ofstream(root_ / relative, std::ios::binary) << text;
  manifest_.files[relative] = {content_hash(text)};
}

std::string TestProject::read(const std::string& relative) const {
  std::ifstream in(root_ / relative, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string TestProject::nvcc() const {
#ifdef STARK_NVCC
  return STARK_NVCC;
#else
  return "/usr/local/cuda/bin/nvcc";
#endif
}

Kernel& TestProject::add_kernel(const std::string& id_name, const std::string& file, const std::string& start,
                                const std::string& mangled, std::vector<Param> params, const std::string& tu,
                                std::vector<std::string> extra_flags) {
  std::string text = read(file);
  Kernel k;
  k.name = id_name;
  k.qualified_name = id_name;
  k.id = file + ":" + id_name;
  k.file = file;
  k.range = kernel_range(text, start);
  k.body = {static_cast<int64_t>(text.find('{', static_cast<size_t>(k.range.begin))), k.range.end};
  k.line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + k.range.begin, '\n'));
  k.column = 1;
  k.params = params;
  k.instantiations = {{mangled, "", params}};
  std::string unit = tu.empty() ? file : tu;
  CompileCommand cc;
  cc.directory = (root_ / "build").string();
  cc.file = (root_ / unit).string();
  cc.arguments = {nvcc(), "-O3", "-std=c++17", "--generate-code=arch=compute_90,code=[compute_90,sm_90]"};
  for (auto& f : extra_flags) cc.arguments.push_back(f);
  for (std::string a : {"-x", "cu", "-c"}) cc.arguments.push_back(a);
  cc.arguments.push_back(cc.file);
  cc.arguments.push_back("-o");
  cc.arguments.push_back("CMakeFiles/t.dir/" + unit + ".o");
  cc.archs = {"90"};
  k.compile = cc;
  manifest_.kernels.push_back(k);
  return manifest_.kernels.back();
}

Param scalar(const std::string& name, const std::string& type, int size) {
  Param p;
  p.name = name;
  p.type = type;
  p.kind = ParamKind::Scalar;
  p.size = size;
  p.align = size;
  return p;
}

Param pointer(const std::string& name, const std::string& pointee, bool is_const) {
  Param p;
  p.name = name;
  p.type = (is_const ? "const " : "") + pointee + " *";
  p.kind = ParamKind::Pointer;
  p.pointee = pointee;
  p.is_const = is_const;
  p.size = 8;
  p.align = 8;
  return p;
}

Kernel& add_annotated_scale(TestProject& p, const std::string& args) {
  p.write("src/scale.cu", R"(#include <cuda_runtime.h>
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
)");
  Kernel& k = p.add_kernel(
      "scale", "src/scale.cu", "__global__ void scale", "_Z5scaleifPKfPf",
      {scalar("n", "int", 4), scalar("a", "float", 4), pointer("x", "float", true), pointer("y", "float", false)});
  k.options.args = args;
  k.options.buffers = "x[n], y[n]";
  k.options.grid = "ceil_div(n, 256)";
  k.options.block = "256";
  return k;
}

Variant unchanged_variant(const TestProject& p, const Kernel& k) {
  Variant v;
  v.kernel = k.id;
  v.source =
      p.read(k.file).substr(static_cast<size_t>(k.range.begin), static_cast<size_t>(k.range.end - k.range.begin));
  return v;
}

Kernel& add_annotated_axpb(TestProject& p, const std::string& args) {
  p.write("src/axpb.cu", R"(__global__ void axpb(int n, float a, float b, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}
)");
  Kernel& k = p.add_kernel("axpb", "src/axpb.cu", "__global__ void axpb", "_Z4axpbiffPKfPf",
                           {scalar("n", "int", 4), scalar("a", "float", 4), scalar("b", "float", 4),
                            pointer("x", "float", true), pointer("y", "float", false)});
  k.options.args = args;
  k.options.buffers = "x[n], y[n]";
  k.options.grid = "ceil_div(n, 256)";
  k.options.block = "256";
  return k;
}

std::vector<Variant> axpb_candidates(const Kernel& axpb, int count) {
  std::vector<Variant> variants;
  for (int j = 0; j < count; ++j) {
    int per_thread = 1 + j % 4;
    int block = 64 << (j / 4 % 5);
    Variant v;
    v.kernel = axpb.id;
    // `n != -j` keeps each candidate's code (and cubin) its own.
    v.source = fmt::format(R"(// candidate {0}: {1} elements per thread, blocks of {2}
__global__ void axpb(int n, float a, float b, const float* x, float* y) {{
  int base = (blockIdx.x * blockDim.x) * {1} + threadIdx.x;
#pragma unroll
  for (int k = 0; k < {1}; ++k) {{
    int i = base + k * blockDim.x;
    if (i < n && n != -{0}) y[i] = fmaf(a, x[i], b);
  }}
}})",
                           j, per_thread, block);
    v.launch.grid = {fmt::format("ceil_div(n, {})", block * per_thread)};
    v.launch.block = {std::to_string(block)};
    variants.push_back(v);
  }
  return variants;
}

}  // namespace stark::harness::testing
