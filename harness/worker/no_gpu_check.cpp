#include "harness/worker/no_gpu_check.h"

#include <fmt/format.h>

#include "core/file_io.h"
#include "core/text.h"
#include "harness/common/cubin_info.h"
#include "harness/store/capture_store.h"
#include "harness/worker/launch_config.h"

namespace stark::harness {

EvaluateReply check_without_gpu(const EvaluateRequest& r) {
  EvaluateReply reply;
  reply.id = r.id;
  reply.no_gpu = true;
  auto error = [&](const std::string& msg) {
    reply.status = ReplyStatus::Error;
    reply.detail = msg;
    return reply;
  };
  auto base_bytes = read_file(r.baseline_cubin);
  auto var_bytes = read_file(r.variant_cubin);
  if (!base_bytes || !var_bytes) return error("cannot read the cubins " + r.baseline_cubin + ", " + r.variant_cubin);
  auto base = read_cubin(*base_bytes);
  if (!base) return error("the original's cubin: " + base.error().message);
  auto var = read_cubin(*var_bytes);
  if (!var) return error("the variant's cubin: " + var.error().message);
  auto store = CaptureStore::open(r.store, false);
  if (!store) return error(store.error().message);
  auto index = store->read_index();
  if (!index) return error(index.error().message);

  std::vector<std::string> launches;
  std::optional<std::string> launch_problem;
  for (const auto& id : r.captures) {
    const Capture* c = index->find(id);
    if (!c) return error(fmt::format("capture {} is not in the store {}", id, r.store));
    auto inst = r.instantiations.find(c->mangled);
    if (inst == r.instantiations.end())
      return error(
          fmt::format("capture {} launches {}, which the manifest does not list for {}", id, c->mangled, r.kernel));
    if (auto ok = check_args(*c, inst->second); !ok) return error(ok.error().message);
    // The cubins must define what the capture launches, with the layout the
    // manifest gives its parameters.
    const CubinKernel* bk = base->find_kernel(c->mangled);
    if (!bk) return error(fmt::format("the original's cubin does not define {}", c->mangled));
    if (bk->params.size() != inst->second.size())
      return error(fmt::format("{}: the cubin has {} parameters, the manifest {}", c->mangled, bk->params.size(),
                               inst->second.size()));
    for (size_t i = 0; i < bk->params.size(); ++i)
      if (bk->params[i].size != inst->second[i].size)
        return error(fmt::format("{}: parameter {} is {} bytes in the cubin, {} in the manifest", c->mangled,
                                 inst->second[i].name, bk->params[i].size, inst->second[i].size));
    const CubinKernel* vk = var->find_kernel(c->mangled);
    if (!vk || !compare_params(*bk, *vk).empty()) {
      launch_problem = fmt::format("capture {}: the variant's cubin does not define {} with the original's parameters",
                                   id, c->mangled);
      break;
    }
    auto dims = launch_dims(*c, inst->second, r.launch);
    if (!dims) {
      launch_problem = fmt::format("capture {}: {}", id, dims.error().message);
      break;
    }
    if (auto ok = check_limits(*dims, DeviceLimits{}); !ok) {
      launch_problem = fmt::format("capture {}: {} (limits of the default device)", id, ok.error().message);
      break;
    }
    launches.push_back(fmt::format("{}: {}", id, dims->describe()));
  }
  if (r.captures.empty()) return error("no capture to evaluate on");
  reply.checks.push_back({CheckName::WorkerInputs, true,
                          fmt::format("{} capture{} and 2 cubins read by a worker without a GPU", r.captures.size(),
                                      r.captures.size() == 1 ? "" : "s")});
  reply.checks.push_back({CheckName::Launch, !launch_problem, launch_problem ? *launch_problem : join(launches, "; ")});
  for (CheckName name : {CheckName::BaselineReplay, CheckName::NoCrash, CheckName::Correctness,
                         CheckName::InputsUnchanged, CheckName::Guards, CheckName::Repeat, CheckName::OtherSizes,
                         CheckName::Fuzz, CheckName::Timing, CheckName::TimedOutputs, CheckName::Recheck})
    reply.checks.push_back({name, std::nullopt, "not run: the worker has no GPU"});
  return reply;
}

}  // namespace stark::harness
