// Prints the benchmark's problems (include/bench/problems.h) as JSON, so the
// Python tools (torch_times.py, make_table.py) and the tests of the STARK
// tree read the same shapes, bytes and FLOP counts the C++ code uses.
#include <cstdio>

#include "bench/problems.h"

int main() {
  std::printf("{\"schema\": \"stark.bench-problems/1\", \"problems\": [\n");
  bool first = true;
  for (const bench::Problem& p : bench::all_problems()) {
    std::printf("%s  {\"name\": \"%s\", \"kernel_id\": \"%s\", \"shape\": \"%s\", \"kernelbench\": \"%s\", "
                "\"scale\": %.6g, \"bytes\": %.17g, \"flops\": %.17g, \"dims\": [",
                first ? "" : ",\n", p.name, p.kernel_id, p.shape, p.kernelbench, p.scale, p.bytes, p.flops);
    const char* sep = "";
    for (long long v : p.dims) {
      if (v == 0) break;
      std::printf("%s%lld", sep, v);
      sep = ", ";
    }
    std::printf("]}");
    first = false;
  }
  std::printf("\n]}\n");
  return 0;
}
