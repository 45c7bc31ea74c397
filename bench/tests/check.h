// Comparison helper of the bench tests: every element against a CPU
// reference computed on the fly, in parallel, reporting the first mismatch.
#ifndef BENCH_TESTS_CHECK_H
#define BENCH_TESTS_CHECK_H

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "test_util.h"

namespace bench_test {

using namespace nnops_test;  // CudaTest, DeviceBuffer, uniform, unit, parallel_for, count_failures

// Expects |got(i) - ref(i)| <= tol(i) for every i < n (NaN fails). `what`
// names the case in the failure message.
template <typename Got, typename Ref, typename Tol>
void expect_all_close(const std::string& what, size_t n, Got got, Ref ref, Tol tol) {
  size_t first = 0;
  size_t bad = count_failures(n, [&](size_t i) { return std::abs(double(got(i)) - ref(i)) <= tol(i); }, &first);
  if (bad == 0) return;
  ADD_FAILURE() << what << ": " << bad << " of " << n << " wrong; first at " << first << ": got " << got(first)
                << ", expected " << ref(first) << " within " << tol(first);
}

}  // namespace bench_test

#endif  // BENCH_TESTS_CHECK_H
