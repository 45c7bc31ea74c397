// Every problem of the benchmark, in table order: the original suite
// (shapes.h) and KernelBench level 1 by family (kb/*.h). bench_shapes prints
// this list; the table and the torch timings follow it.
#ifndef BENCH_PROBLEMS_H
#define BENCH_PROBLEMS_H

#include <vector>

#include "bench/kb/conv.h"
#include "bench/kb/conv_transposed.h"
#include "bench/kb/matmul.h"
#include "bench/kb/pointwise.h"
#include "bench/kb/reductions.h"
#include "bench/problem.h"
#include "bench/shapes.h"

namespace bench {

/// The problems of every family, in table order.
inline std::vector<Problem> all_problems() {
  std::vector<Problem> all;
  // A push_back loop: GCC 12's -Wstringop-overflow misfires on vector::insert of these constexpr arrays.
  auto add = [&all](const auto& family) {
    for (const Problem& p : family) all.push_back(p);
  };
  add(shapes::kProblems);
  add(kb::pointwise::kProblems);
  add(kb::reductions::kProblems);
  add(kb::matmul::kProblems);
  add(kb::conv::kProblems);
  add(kb::conv_transposed::kProblems);
  return all;
}

}  // namespace bench

#endif  // BENCH_PROBLEMS_H
