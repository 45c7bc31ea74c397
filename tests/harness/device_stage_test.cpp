// The capture's device stage on a real GPU (label gpu; skips without one):
// a staged copy comes home intact from another thread, buffers are pooled by
// size within a budget, and a released context's buffers are never lent again.
#include "harness/capture/device_stage.h"

#include <gtest/gtest.h>

#include <numeric>
#include <thread>
#include <vector>

#include "gpu_project.h"

namespace stark::harness {
namespace {

TEST(DeviceStage, StagedCopiesComeHomeAndBuffersArePooled) {
  if (auto why = testing::no_gpu_reason(); !why.empty()) GTEST_SKIP() << "no GPU here: " << why;
  auto driver = cuda_driver();
  ASSERT_TRUE(driver) << driver.error().message;
  const CudaDriver& cu = **driver;
  CUdevice device = 0;
  CUcontext context = nullptr;
  ASSERT_EQ(cu.cuDeviceGet(&device, 0), CUDA_SUCCESS);
  ASSERT_EQ(cu.cuDevicePrimaryCtxRetain(&context, device), CUDA_SUCCESS);
  ASSERT_EQ(cu.cuCtxSetCurrent(context), CUDA_SUCCESS);

  std::vector<uint32_t> pattern(1 << 22);
  std::iota(pattern.begin(), pattern.end(), 7u);
  const size_t bytes = pattern.size() * sizeof(uint32_t);
  CUdeviceptr source = 0;
  ASSERT_EQ(cu.cuMemAlloc(&source, bytes), CUDA_SUCCESS);
  ASSERT_EQ(cu.cuMemcpyHtoD(source, pattern.data(), bytes), CUDA_SUCCESS);

  DeviceStage stage(cu, std::nullopt);
  auto staged = stage.take(context, bytes);
  ASSERT_TRUE(staged);
  ASSERT_EQ(cu.cuMemcpyDtoD(staged->data, source, bytes), CUDA_SUCCESS);
  std::vector<uint32_t> home(pattern.size());
  Expected<void> copied = Error{"not run"};
  std::thread writer([&] { copied = stage.to_host(*staged, reinterpret_cast<char*>(home.data())); });
  writer.join();
  ASSERT_TRUE(copied) << copied.error().message;
  EXPECT_EQ(home, pattern);

  stage.give(*staged);
  auto again = stage.take(context, bytes);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->data, staged->data);                // pooled, not allocated again
  EXPECT_FALSE(stage.take(context, size_t{1} << 50));  // over the budget: the caller copies to the host

  stage.release(context);
  stage.give(*again);  // lent before the release: dropped
  auto fresh = stage.take(context, bytes);
  ASSERT_TRUE(fresh);
  stage.release(context);

  cu.cuMemFree(source);
  cu.cuDevicePrimaryCtxRelease(device);
}

TEST(DeviceStage, BudgetIsAQuarterOfFreeMemoryAtMostEightGiB) {
  EXPECT_EQ(DeviceStage::budget(16ull << 30), 4ull << 30);
  EXPECT_EQ(DeviceStage::budget(139ull << 30), 8ull << 30);
  // The user's limit (stark capture --device-stage), at most half of what is free.
  EXPECT_EQ(DeviceStage::budget(139ull << 30, 1ull << 30), 1ull << 30);
  EXPECT_EQ(DeviceStage::budget(16ull << 30, 12ull << 30), 8ull << 30);
  EXPECT_EQ(DeviceStage::budget(16ull << 30, 0), 0u);
}

}  // namespace
}  // namespace stark::harness
