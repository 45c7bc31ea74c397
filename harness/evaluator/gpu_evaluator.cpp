#include "harness/evaluator/gpu_evaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "harness/capture/annotation_inputs.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

GpuEvaluator::GpuEvaluator(Manifest manifest, GpuEvaluatorOptions options)
    : manifest_(std::move(manifest)),
      options_(std::move(options)),
      compiler_(CompileServiceOptions{options_.cache_dir, options_.compile_jobs, options_.nvcc, kNvccTimeout}) {
  ExecutorOptions eo;
  eo.kind = options_.executor;
  eo.worker = options_.worker;
  if (options_.executor == ExecutorKind::Local && options_.workers == 0) eo.devices = options_.devices;
  eo.workers = options_.workers;
  eo.srun_args = options_.srun_args;
  eo.ship = options_.ship;
  auto executor = make_executor(eo);
  if (!executor) {
    setup_error_ = executor.error().message;
    return;
  }
  WorkerPoolOptions po;
  po.request_timeout = std::chrono::duration_cast<std::chrono::milliseconds>(options_.request_timeout);
  po.max_losses = options_.max_losses;
  pool_ = std::make_unique<WorkerPool>(std::move(*executor), po);
}

GpuEvaluator::~GpuEvaluator() = default;

std::optional<GpuInfo> GpuEvaluator::gpu() const {
  std::lock_guard lock(mutex_);
  if (!probed_) {
    probed_ = true;
    if (!pool_) {
      no_gpu_ = setup_error_;
    } else {
      auto p = pool_->probe();
      gpu_ = p.gpu;
      no_gpu_workers_ = p.no_gpu_workers;
      no_gpu_ = p.problem;
    }
  }
  return gpu_;
}

std::string GpuEvaluator::no_gpu_reason() const {
  std::lock_guard lock(mutex_);
  return no_gpu_;
}

int GpuEvaluator::worker_starts() const {
  if (!pool_) return 0;
  int n = 0;
  for (const auto& s : pool_->stats()) n += s.starts;
  return n;
}

Expected<std::vector<std::string>> GpuEvaluator::captures_for(const Kernel& kernel) {
  std::lock_guard lock(store_mutex_);
  std::vector<std::string> ids;
  std::set<std::string> known;
  for (const auto& i : kernel.instantiations) known.insert(i.mangled);
  auto store = CaptureStore::open(options_.store, has_annotation_inputs(kernel));
  bool annotated = false;  // the store already holds the annotation's inputs
  if (store) {
    auto index = store->read_index();
    if (!index) return index.error();
    for (const Capture* c : index->for_kernel(kernel.id))
      if (known.count(c->mangled)) {
        ids.push_back(c->id);
        annotated = annotated || c->origin == "annotation";
      }
  }
  if (annotated) return ids;
  if (!has_annotation_inputs(kernel)) {
    if (!ids.empty()) return ids;
    return Error{
        fmt::format("no inputs for kernel {}: no captured launch in {} and no args=/buffers= in its annotation. "
                    "Run `stark capture -p BUILD -- <tests that launch it>`, or annotate it with {}",
                    kernel.id, options_.store.string(), annotation_hint(kernel))};
  }
  // The annotation's sizes are judged (and timed) beside the captured ones:
  // one more size a candidate tuned to the captures must get right.
  if (!store) return store.error();
  auto c = capture_from_annotation(kernel, *store);
  if (!c) return c.error();
  std::string id = c->id;
  auto ok = store->update([&](CaptureIndex& index) -> Expected<void> {
    if (!index.find(id)) index.captures.push_back(*c);
    return {};
  });
  if (!ok) return ok.error();
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  return ids;
}

// The gates in the order a candidate meets them: the cheap ones first, the
// GPU once the candidate compiled as the same kernel, the final ones (whose
// compiles started early) only for a candidate the GPU found correct.
const GpuEvaluator::Gate GpuEvaluator::kGates[] = {
    &GpuEvaluator::check_launch,
    &GpuEvaluator::compile,
    &GpuEvaluator::start_final_compiles,
    &GpuEvaluator::check_signature,
    &GpuEvaluator::require_gpu,
    &GpuEvaluator::choose_captures,
    &GpuEvaluator::check_restrict_assumption,
    &GpuEvaluator::judge_on_gpu,
    &GpuEvaluator::check_host_code,
    &GpuEvaluator::check_archs,
    &GpuEvaluator::sanitize,
    &GpuEvaluator::profile,
    &GpuEvaluator::accept,
};

Evaluation GpuEvaluator::evaluate(const Kernel& kernel, const Variant& variant) {
  EvaluationRun run(kernel, variant);
  for (Gate gate : kGates) {
    (this->*gate)(run);
    if (run.finished()) break;
  }
  Evaluation e = std::move(run.e);
  // Every guard appears in the verdict: the ones that did not run say so.
  static const CheckName all[] = {CheckName::Compile,         CheckName::Signature, CheckName::BaselineReplay,
                                  CheckName::Launch,          CheckName::NoCrash,   CheckName::Correctness,
                                  CheckName::InputsUnchanged, CheckName::Guards,    CheckName::Repeat,
                                  CheckName::OtherSizes,      CheckName::Fuzz,      CheckName::Timing,
                                  CheckName::TimedOutputs,    CheckName::Recheck,   CheckName::HostCode,
                                  CheckName::Archs,           CheckName::Memcheck,  CheckName::Racecheck};
  for (CheckName name : all) {
    bool present = std::any_of(e.checks.begin(), e.checks.end(), [&](const Check& c) { return c.name == name; });
    if (present) continue;
    if (name == CheckName::Archs && !(options_.check_all_archs && kernel.compile)) continue;
    if (name == CheckName::HostCode && !options_.host_code_check) continue;
    if ((name == CheckName::Memcheck || name == CheckName::Racecheck) &&
        options_.sanitize == GpuEvaluatorOptions::Sanitize::Never)
      continue;
    e.checks.push_back(Check{name, std::nullopt,
                             e.verdict == Verdict::Accepted ? "not run" : "not run: the evaluation stopped earlier"});
  }
  return e;
}

void GpuEvaluator::accept(EvaluationRun& run) {
  Evaluation& e = run.e;
  if (e.speedup && *e.speedup > options_.flag_speedup)
    run.not_run(CheckName::SpeedupPlausible,
                fmt::format("{:.1f}x is above {:.0f}x: flagged for a second look by a person", *e.speedup,
                            options_.flag_speedup));
  bool fuzzed = std::any_of(run.checks().begin(), run.checks().end(),
                            [](const Check& c) { return c.name == CheckName::Fuzz && c.ok; });
  size_t n = run.captures.size();
  e.verdict = Verdict::Accepted;
  e.reason = e.speedup
                 ? fmt::format("correct on {} capture{}{}; {:.2f}x ({:.1f} us -> {:.1f} us)", n, n == 1 ? "" : "s",
                               fuzzed ? " and fuzzed inputs" : "", *e.speedup, *e.baseline_us, *e.variant_us)
                 : fmt::format("correct on {} capture{}; not timed", n, n == 1 ? "" : "s");
  run.finish();
}

}  // namespace stark::harness
