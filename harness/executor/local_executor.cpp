#include "harness/executor/local_executor.h"

#include <cstdlib>

#include "core/text.h"
#include "harness/common/cuda_driver.h"

namespace stark::harness {

std::vector<std::string> visible_device_list(const std::string& value) {
  std::vector<std::string> out;
  for (std::string_view part : split(value, ',')) {
    std::string p(trim(part));
    if (!p.empty()) out.push_back(p);
  }
  return out;
}

namespace {

int count_visible_gpus() {
  auto cu = cuda_driver();
  if (!cu) return 0;
  int n = 0;
  if ((*cu)->cuDeviceGetCount(&n) != CUDA_SUCCESS) return 0;
  return n;
}

}  // namespace

LocalExecutor::LocalExecutor(ExecutorOptions options, std::optional<int> visible) : options_(std::move(options)) {
  if (!options_.devices.empty()) {
    devices_ = options_.devices;
    return;
  }
  int gpus = visible ? *visible : count_visible_gpus();
  // More workers than GPUs share them round-robin (their timings then
  // disturb each other); workers without a GPU (--no-gpu) are only counted.
  int n = options_.workers > 0 ? options_.workers : gpus;
  for (int i = 0; i < std::max(n, 1); ++i) devices_.push_back(i % std::max(gpus, 1));
}

WorkerLaunch LocalExecutor::launch(int index, const std::vector<std::string>& wrap) const {
  int device = devices_.at(static_cast<size_t>(index));
  WorkerLaunch l;
  // Pinned: the worker sees one GPU, its device 0. The parent's own
  // CUDA_VISIBLE_DEVICES is honoured: ordinal i is the parent's i-th entry.
  const char* parent = std::getenv("CUDA_VISIBLE_DEVICES");
  std::vector<std::string> list = parent ? visible_device_list(parent) : std::vector<std::string>{};
  std::string pin =
      parent ? (static_cast<size_t>(device) < list.size() ? list[static_cast<size_t>(device)] : std::string("-1"))
             : std::to_string(device);
  l.env["CUDA_VISIBLE_DEVICES"] = pin;
  l.argv = wrap;
  auto worker = worker_command(options_.worker, 0);
  l.argv.insert(l.argv.end(), worker.begin(), worker.end());
  l.where = "GPU " + std::to_string(device);
  return l;
}

}  // namespace stark::harness
