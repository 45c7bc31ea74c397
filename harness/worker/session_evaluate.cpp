// Session::evaluate: one candidate against the original on every capture,
// as a line of phases (docs/threat-model.md, "How a candidate is judged"):
// correctness and a repeat, smaller sizes, fuzzed inputs, interleaved timing
// with spot checks of timed launches, and a re-check after timing. A phase
// that finds a failure ends the evaluation; the checks it never reached say
// so.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "core/text.h"
#include "harness/worker/fuzz.h"
#include "harness/worker/session.h"
#include "harness/worker/traffic.h"

namespace stark::harness {

EvaluateReply Session::Job::finish() {
  reply.checks = checks.list();
  reply.captures.clear();
  for (const auto& id : r.captures)
    if (auto it = per_capture.find(id); it != per_capture.end()) reply.captures.push_back(it->second);
  return reply;
}

EvaluateReply Session::Job::crashed(const Ran& ran, const std::string& capture) {
  reply.status = ran.result == GpuContext::WaitResult::Hang ? ReplyStatus::Hang : ReplyStatus::Fault;
  reply.detail = fmt::format("capture {}: the variant {}", capture,
                             ran.result == GpuContext::WaitResult::Hang ? ran.detail : "crashed: " + ran.detail);
  checks.fail(CheckName::NoCrash, reply.detail);
  return finish();
}

EvaluateReply Session::Job::error(const std::string& message) {
  reply.status = ReplyStatus::Error;
  reply.detail = message;
  reply.checks.clear();
  reply.captures.clear();
  return reply;
}

namespace {

ReplayInputs candidate_inputs(const std::set<int>& unread) {
  ReplayInputs in;
  in.poisoned = unread;
  return in;
}

}  // namespace

EvaluateReply Session::evaluate(const EvaluateRequest& r) {
  Job job{r, {}, {}, {}, {}, nullptr, nullptr};
  job.reply.id = r.id;
  if (auto stop = load_targets(job)) return *stop;
  if (!judge_launches(job) || !judge_other_sizes(job) || !judge_fuzzed(job) || !time_launches(job) || !recheck(job))
    return job.reply.status == ReplyStatus::Error ? job.reply : job.finish();
  return job.finish();
}

std::optional<EvaluateReply> Session::load_targets(Job& job) {
  const EvaluateRequest& r = job.r;
  auto g = gpu();
  if (!g) return job.error(g.error().message);
  GpuContext& gpu = **g;
  {
    std::set<std::string> keep;
    auto dir = CaptureStore::open(r.store, false);
    for (const auto& id : r.captures) keep.insert((dir ? dir->dir().string() : r.store) + "\n" + id);
    evict(keep);
  }
  auto store = CaptureStore::open(r.store, false);
  if (!store) return job.error(store.error().message);
  auto index = store->read_index();
  if (!index) return job.error(index.error().message);
  auto base_mod = gpu.module(r.baseline_cubin);
  if (!base_mod) return job.error(base_mod.error().message);
  job.base_mod = *base_mod;
  auto var_mod = gpu.module(r.variant_cubin);
  if (!var_mod) {
    job.checks.fail(CheckName::Launch, var_mod.error().message);
    return job.finish();
  }
  job.var_mod = *var_mod;

  std::vector<std::string> skipped;  // captures the original itself does not reproduce
  for (const auto& id : r.captures)
    if (auto stop = load_target(job, *store, *index, id, skipped)) return stop;
  // A capture the original does not reproduce is no evidence either way: it
  // is left out (and said so); with none left there is nothing to judge on.
  if (job.targets.empty()) return job.error(skipped.empty() ? "no capture to evaluate on" : join(skipped, "; "));
  job.checks.pass(CheckName::BaselineReplay, skipped.empty()
                                                 ? ""
                                                 : fmt::format("{} of {} captures left out: {}", skipped.size(),
                                                               r.captures.size(), join(skipped, "; ")));
  return std::nullopt;
}

std::optional<EvaluateReply> Session::load_target(Job& job, const CaptureStore& store, const CaptureIndex& index,
                                                  const std::string& id, std::vector<std::string>& skipped) {
  const EvaluateRequest& r = job.r;
  GpuContext& gpu = *gpu_;
  const Capture* c = index.find(id);
  if (!c) return job.error(fmt::format("capture {} is not in the store {}", id, r.store));
  auto inst = r.instantiations.find(c->mangled);
  if (inst == r.instantiations.end())
    return job.error(
        fmt::format("capture {} launches {}, which the manifest does not list for {}", id, c->mangled, r.kernel));
  if (auto ok = check_args(*c, inst->second); !ok) return job.error(ok.error().message);
  auto rep = replay(store, *c);
  if (!rep) return job.error(rep.error().message);
  Target t;
  t.replay = *rep;
  t.params = &inst->second;
  auto fb = gpu.function(job.base_mod, c->mangled, r.baseline_cubin);
  if (!fb) return job.error(fb.error().message);
  t.baseline = *fb;
  auto fv = gpu.function(job.var_mod, c->mangled, r.variant_cubin);
  if (!fv) {
    job.checks.fail(CheckName::Launch, fv.error().message);
    return job.finish();
  }
  t.variant = *fv;
  auto bd = launch_dims(*c, inst->second, {});
  if (!bd) return job.error(bd.error().message);
  t.baseline_dims = *bd;
  auto vd = launch_dims(*c, inst->second, r.launch);
  if (!vd) {
    job.checks.fail(CheckName::Launch, vd.error().message);
    return job.finish();
  }
  if (auto ok = check_limits(*vd, gpu.limits()); !ok) {
    job.checks.fail(CheckName::Launch, fmt::format("capture {}: {}", id, ok.error().message));
    return job.finish();
  }
  t.variant_dims = *vd;
  auto a = analyse(t, job.base_mod, r.baseline_cubin, r);
  if (!a) return job.error(a.error().message);
  if (!(*a)->problem.empty()) {
    skipped.push_back((*a)->problem);
    return std::nullopt;
  }
  t.analysis = *a;
  job.per_capture[id].id = id;
  job.per_capture[id].baseline_occupancy = gpu.occupancy(t.baseline, t.baseline_dims);
  job.per_capture[id].variant_occupancy = gpu.occupancy(t.variant, t.variant_dims);
  job.targets.push_back(t);
  return std::nullopt;
}

bool Session::judge_variant(Job& job, Target& t, const ReplayInputs& in, const std::vector<std::string>& before,
                            const Memory& reference, CheckName check_name, const std::string& label,
                            Judgement* judged) {
  Memory got;
  Ran ran = run(t, true, in, job.var_mod, watchdog(t, job.r), &got);
  if (ran.launch_error) {
    job.checks.fail(CheckName::Launch, fmt::format("{}: {}", label, ran.detail));
    return false;
  }
  if (ran.result != GpuContext::WaitResult::Done) {
    job.crashed(ran, label);
    return false;
  }
  Judgement j = judge(t.analysis->info, before, reference, got, kPoison);
  record(job.checks, j, check_name, label);
  if (judged) *judged = j;
  return true;
}

// 1. Correctness on every capture, then a second launch on the same inputs.
bool Session::judge_launches(Job& job) {
  for (CheckName phase : {CheckName::Correctness, CheckName::Repeat}) {
    for (auto& t : job.targets) {
      const std::string& id = t.replay->capture().id;
      Judgement j;
      if (!judge_variant(job, t, candidate_inputs(t.analysis->unread), t.analysis->before, t.analysis->reference, phase,
                         id, &j))
        return false;
      if (phase == CheckName::Correctness) {
        job.per_capture[id].max_abs_err = j.max_abs_err;
        job.per_capture[id].max_rel_err = j.max_rel_err;
        job.per_capture[id].bytes = compulsory_bytes(t.replay->capture(), t.analysis->unread, t.analysis->before,
                                                     t.analysis->reference.buffers);
      }
    }
    job.checks.pass(CheckName::Launch);
    job.checks.pass(CheckName::NoCrash);
    if (job.checks.failed()) return false;
    job.checks.pass(phase);
    job.checks.pass(CheckName::InputsUnchanged);
    job.checks.pass(CheckName::Guards);
  }
  return true;
}

// 2. The same memory at smaller sizes, the original's answer there as the oracle.
bool Session::judge_other_sizes(Job& job) {
  if (!job.r.other_sizes) {
    job.checks.skip(CheckName::OtherSizes, "not run: the original itself faulted at a smaller size");
    return true;
  }
  std::vector<std::string> judged, none;
  for (auto& t : job.targets) {
    const std::string& id = t.replay->capture().id;
    if (!t.analysis->other) {
      none.push_back(fmt::format("{}: {}", id, t.analysis->no_other));
      continue;
    }
    const OtherSizeReference& other = *t.analysis->other;
    auto dims = launch_dims(other.size.capture, *t.params, job.r.launch);
    std::string label = fmt::format("{} at {}", id, other.size.describe);
    if (!dims) {
      job.checks.fail(CheckName::Launch, fmt::format("{}: {}", label, dims.error().message));
      return false;
    }
    if (auto ok = check_limits(*dims, gpu_->limits()); !ok) {
      job.checks.fail(CheckName::Launch, fmt::format("{}: {}", label, ok.error().message));
      return false;
    }
    Target small = t;
    small.baseline_dims = other.size.original_dims;
    small.variant_dims = *dims;
    ReplayInputs in = candidate_inputs(t.analysis->unread);
    in.scalars = other.size.scalars;
    if (!judge_variant(job, small, in, t.analysis->before, other.reference, CheckName::OtherSizes, label)) return false;
    judged.push_back(label);
  }
  if (job.checks.failed()) return false;
  if (judged.empty()) job.checks.skip(CheckName::OtherSizes, "no smaller size: " + join(none, "; "));
  else
    job.checks.pass(CheckName::OtherSizes,
                    join(judged, "; ") + (none.empty() ? "" : "; not judged: " + join(none, "; ")));
  return true;
}

// 3. Fuzzed inputs: floating-point data and scalars scaled, both kernels run on them.
bool Session::judge_fuzzed(Job& job) {
  const EvaluateRequest& r = job.r;
  int fuzzed = 0;
  for (int round = 0; round < r.fuzz_rounds; ++round) {
    for (auto& t : job.targets) {
      const Capture& c = t.replay->capture();
      uint64_t seed =
          r.seed ^ std::hash<std::string>{}(c.id) ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(round + 1));
      ReplayInputs in = candidate_inputs(t.analysis->unread);
      std::vector<std::string> before = t.analysis->before;
      for (size_t b = 0; b < t.replay->buffer_count(); ++b) {
        int bi = static_cast<int>(b);
        if (in.poisoned.count(bi) || !t.replay->dtype(bi).is_float()) continue;
        std::string data = t.replay->before(bi);
        fuzz_floats(data, t.replay->dtype(bi), seed + b);
        before[b] = data;
        in.replaced[bi] = std::move(data);
      }
      for (size_t i = 0; i < c.args.size(); ++i) {
        DType dt = (*t.params)[i].dtype();
        if (c.args[i].kind != ParamKind::Scalar || !dt.is_float()) continue;
        std::string bytes = c.args[i].bytes;
        fuzz_floats(bytes, dt, seed + 1000 + i);
        in.scalars[i] = bytes;
      }
      if (in.replaced.empty() && in.scalars.empty()) continue;
      Memory ref;
      Ran base = run(t, false, in, job.base_mod, watchdog(t, r), &ref);
      if (base.result != GpuContext::WaitResult::Done || base.launch_error) {
        job.error(fmt::format("capture {}: the original kernel failed on fuzzed inputs: {}", c.id, base.detail));
        return false;
      }
      bool clean =
          std::all_of(ref.guard_damage.begin(), ref.guard_damage.end(), [](const auto& d) { return d.empty(); });
      if (!clean) continue;  // the original itself misbehaves on these inputs: no reference
      if (!judge_variant(job, t, in, before, ref, CheckName::Fuzz,
                         fmt::format("{} (fuzzed, round {})", c.id, round + 1)))
        return false;
      ++fuzzed;
    }
  }
  if (job.checks.failed()) return false;
  if (fuzzed) job.checks.pass(CheckName::Fuzz, fmt::format("{} fuzzed launches matched the original", fuzzed));
  else
    job.checks.skip(CheckName::Fuzz,
                    "nothing to fuzz: the inputs hold no floating-point data (integers and sizes are never fuzzed)");
  return true;
}

// 5. Still right after all those launches (races, anything left behind);
// and the original still reproduces its reference from the worker's copies
// of the inputs, which a kernel writing past its buffers could have changed
// (a changed copy could make a lazy launch look right).
bool Session::recheck(Job& job) {
  for (auto& t : job.targets)
    if (!judge_variant(job, t, candidate_inputs(t.analysis->unread), t.analysis->before, t.analysis->reference,
                       CheckName::Recheck, t.replay->capture().id))
      return false;
  if (job.checks.failed()) return false;
  for (auto& t : job.targets) {
    const std::string& id = t.replay->capture().id;
    Memory again;
    Ran ran = run(t, false, candidate_inputs(t.analysis->unread), job.base_mod, watchdog(t, job.r), &again);
    if (ran.result != GpuContext::WaitResult::Done || ran.launch_error) {
      job.error(
          fmt::format("capture {}: the original kernel failed when replayed after the candidate: {}", id, ran.detail));
      return false;
    }
    if (!judge(t.analysis->info, t.analysis->before, t.analysis->reference, again, kPoison).ok()) {
      job.checks.fail(CheckName::Recheck,
                      fmt::format("capture {}: the original, replayed after the candidate, no longer gives its own "
                                  "result: the candidate changed memory outside its buffers",
                                  id));
      must_exit_ = true;  // nothing this worker holds can be trusted any more
      return false;
    }
  }
  job.checks.pass(CheckName::Recheck);
  return true;
}

}  // namespace stark::harness
