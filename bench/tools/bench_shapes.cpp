// Prints the benchmark's problems (include/bench/shapes.h) as JSON, so the
// Python tools (torch_times.py, make_table.py) and the tests of the STARK
// tree read the same shapes, bytes and FLOP counts the C++ code uses.
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "bench/shapes.h"

namespace {

using namespace bench::shapes;

// The sizes torch_times.py builds its tensors from, in the order it reads them.
struct Dims {
  const char* name;
  std::initializer_list<long long> values;
};
const Dims kDims[] = {
    {"relu", {kEltRows, kEltCols}},
    {"gelu", {kEltRows, kEltCols}},
    {"saxpy", {kElt}},
    {"row_sum", {kRowSumRows, kRowSumCols}},
    {"dim_sum", {kDimB, kDimD1, kDimD2}},
    {"argmax", {kDimB, kDimD1, kDimD2}},
    {"softmax", {kSoftmaxRows, kSoftmaxCols}},
    {"layer_norm", {kLnBatch, kLnFeatures}},
    {"rms_norm", {kRmsBatch, kRmsFeatures, kRmsSpatial}},
    {"transpose", {kTransRows, kTransCols}},
    {"matmul", {kMatN}},
    {"matmul_tall_skinny", {kTsM, kTsK}},
    {"matvec", {kMvM, kMvK}},
    {"conv2d", {kC2N, kC2Cin, kC2Cout, kC2K, kC2H, kC2W}},
    {"conv1d", {kC1N, kC1Cin, kC1Cout, kC1K, kC1L}},
    {"cumsum", {kScanRows, kScanCols}},
    {"histogram", {kHistN, kHistBins}},
    {"spmv", {kSpRows, kSpCols, kSpMinRow, kSpMaxRow}},
    {"stencil", {kStRows, kStCols}},
};

void print_dims(const char* name) {
  for (const auto& d : kDims) {
    if (std::strcmp(d.name, name) != 0) continue;
    const char* sep = "";
    for (long long v : d.values) std::printf("%s%lld", sep, v), sep = ", ";
    return;
  }
}

}  // namespace

int main() {
  std::printf("{\"schema\": \"stark.bench-problems/1\", \"problems\": [\n");
  bool first = true;
  for (const auto& p : bench::shapes::kProblems) {
    std::printf("%s  {\"name\": \"%s\", \"kernel_id\": \"%s\", \"shape\": \"%s\", \"kernelbench\": \"%s\", "
                "\"scale\": %.6g, \"bytes\": %.17g, \"flops\": %.17g, \"dims\": [",
                first ? "" : ",\n", p.name, p.kernel_id, p.shape, p.kernelbench, p.scale, p.bytes, p.flops);
    print_dims(p.name);
    std::printf("]}");
    first = false;
  }
  std::printf("\n]}\n");
  return 0;
}
