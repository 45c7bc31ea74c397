// Prints one stark.evaluation/1 JSON per line, as stark eval would, for a
// compile error, a renamed kernel, a launch override naming an unknown value,
// and the original itself (accepted on a GPU; "nothing was run" without one),
// for check_evaluation_schema.py.
#include <vector>
#include <string>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/evaluator_options.h"

using namespace stark;
using namespace stark::harness;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  testing::TestProject p("evaluation_writer");
  const Kernel& kernel = testing::add_annotated_scale(p, "n=65536, a=2.0");
  GpuEvaluatorOptions o = testing::evaluator_options(p);
  o.worker = {argv[1], "--device", "{device}"};
  GpuEvaluator ev(p.manifest(), o);
  auto variant = [&](std::string src) {
    Variant v;
    v.kernel = kernel.id;
    v.source = std::move(src);
    return v;
  };
  std::vector<Variant> variants = {
      variant("__global__ void scale(int n, float a, const float* x, float* y) { not_declared(); }"),
      variant("__global__ void scale(int n, float a, float* x, float* y) {}"),
      testing::unchanged_variant(p, kernel),
  };
  Variant bad_launch = variants[2];
  bad_launch.launch.grid = {"ceil_div(count, 256)"};
  variants.push_back(bad_launch);
  for (const auto& v : variants) fmt::print("{}\n", nlohmann::json(ev.evaluate(kernel, v)).dump());
  return 0;
}
