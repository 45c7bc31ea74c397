#include "harness/common/cuda_driver.h"
#include "tests/support/argv.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace stark::harness {
namespace {

using stark::testing::has;

// Each entry point comes from the symbol cuda.h declares under its name:
// the _v2 that cuda.h's macros name where it has one, and the original
// where CUDA 13 added a _v2 with another signature (cuCtxGetDevice_v2 takes
// a context too: loaded for the one-argument call, it read a context from a
// stray register, and captured programs crashed now and then).
TEST(CudaDriver, EntryPointsAreTheSymbolsCudaHDeclares) {
  auto symbols = cuda_driver_symbols();
  EXPECT_TRUE(has(symbols, "cuMemAlloc_v2"));
  EXPECT_TRUE(has(symbols, "cuMemcpyDtoHAsync_v2"));
  EXPECT_TRUE(has(symbols, "cuCtxGetDevice"));
  EXPECT_FALSE(has(symbols, "cuCtxGetDevice_v2"));
  EXPECT_TRUE(has(symbols, "cuCtxSynchronize"));
  EXPECT_FALSE(has(symbols, "cuCtxSynchronize_v2"));
  EXPECT_TRUE(has(symbols, "cuStreamGetCtx"));
  for (const auto& s : symbols) EXPECT_EQ(s.rfind("cu", 0), 0u) << s;
}

}  // namespace
}  // namespace stark::harness
