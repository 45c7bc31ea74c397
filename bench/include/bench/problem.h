// One row of the benchmark table: what a problem computes on which sizes, and
// how much work it must do at least (the roofline bound of its row).
#ifndef BENCH_PROBLEM_H
#define BENCH_PROBLEM_H

namespace bench {

/// A benchmark problem. `bytes`: the least DRAM traffic (every input read
/// once, every output written once); `flops`: a multiply-add counts 2,
/// anything else 1. Both feed the roofline bound. `dims`: the sizes
/// tools/torch_times.py builds its tensors from, in the order its builder for
/// `name` reads them (unused entries 0).
struct Problem {
  const char* name;         // snake_case; KernelBench's problem name where there is one
  const char* kernel_id;    // as `stark scan` names it
  const char* shape;        // the sizes used here, for people
  const char* kernelbench;  // the KernelBench level-1 problem number, or ""
  double scale;             // elements of the largest tensor here / there (1 = KernelBench's own shape)
  double bytes;
  double flops;
  long long dims[8];
};

namespace detail {
inline constexpr double F = 4;  // bytes of a float (and of an int index)
inline constexpr double d(long long v) { return static_cast<double>(v); }
}  // namespace detail

}  // namespace bench

#endif  // BENCH_PROBLEM_H
