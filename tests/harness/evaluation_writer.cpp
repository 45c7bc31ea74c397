// Prints one stark.evaluation/1 JSON per line, as stark eval would, for a
// compile error, a renamed kernel, a launch override naming an unknown value,
// and the original itself (accepted on a GPU; "nothing was run" without one),
// for check_evaluation_schema.py.
#include <vector>
#include <string>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/test_project.h"

using namespace stark;
using namespace stark::harness;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  testing::TestProject p("evaluation_writer");
  const char* source =
      "__global__ void scale(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) y[i] = a * x[i];\n"
      "}\n";
  p.write("src/scale.cu", source);
  Kernel& k = p.add_kernel("scale", "src/scale.cu", "__global__ void scale", "_Z5scaleifPKfPf",
                           {testing::scalar("n", "int", 4), testing::scalar("a", "float", 4),
                            testing::pointer("x", "float", true), testing::pointer("y", "float", false)});
  k.options.args = "n=65536, a=2.0";
  k.options.buffers = "x[n], y[n]";
  k.options.grid = "ceil_div(n, 256)";
  k.options.block = "256";
  GpuEvaluatorOptions o;
  o.store = p.root() / "captures";
  o.cache_dir = p.root() / "cache";
  o.nvcc = p.nvcc();
  o.worker = {argv[1], "--device", "{device}"};
  o.check_all_archs = false;
  GpuEvaluator ev(p.manifest(), o);
  const Kernel& kernel = p.manifest().kernels[0];
  auto variant = [&](std::string src) {
    Variant v;
    v.kernel = kernel.id;
    v.source = std::move(src);
    return v;
  };
  std::vector<Variant> variants = {
      variant("__global__ void scale(int n, float a, const float* x, float* y) { not_declared(); }"),
      variant("__global__ void scale(int n, float a, float* x, float* y) {}"),
      variant(std::string(source).substr(0, std::string(source).size() - 1)),
  };
  Variant bad_launch = variants[2];
  bad_launch.launch.grid = {"ceil_div(count, 256)"};
  variants.push_back(bad_launch);
  for (const auto& v : variants) fmt::print("{}\n", nlohmann::json(ev.evaluate(kernel, v)).dump());
  return 0;
}
