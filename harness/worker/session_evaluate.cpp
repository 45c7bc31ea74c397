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
  auto started = std::chrono::steady_clock::now();
  auto lap = [&](const char* phase) {
    auto now = std::chrono::steady_clock::now();
    job.reply.seconds[phase] = std::chrono::duration<double>(now - started).count();
    started = now;
  };
  if (auto stop = load_targets(job)) return *stop;
  lap("load");
  // Each phase's time is recorded when it ends, however it ends.
  auto phase = [&](const char* name, bool (Session::*step)(Job&)) {
    bool go_on = (this->*step)(job);
    lap(name);
    return go_on;
  };
  if (!phase("correctness", &Session::judge_launches) || !phase("other_sizes", &Session::judge_other_sizes) ||
      !phase("fuzz", &Session::judge_fuzzed) || !phase("timing", &Session::time_launches) ||
      !phase("recheck", &Session::recheck)) {
    if (job.reply.status == ReplyStatus::Error) return job.reply;
    // A candidate that failed before the recheck may still have written
    // outside its buffers: the worker checks its own memory before it
    // judges another (a crash already ends the worker).
    if (job.reply.status == ReplyStatus::Ok && !must_exit_) {
      bool intact = memory_intact(job);
      lap("recheck");
      if (!intact && job.reply.status == ReplyStatus::Error) return job.reply;
    }
  }
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
  auto got = memory_.lend();
  Ran ran = run(t, true, in, job.var_mod, watchdog(t, job.r), &*got);
  if (ran.launch_error) {
    job.checks.fail(CheckName::Launch, fmt::format("{}: {}", label, ran.detail));
    return false;
  }
  if (ran.result != GpuContext::WaitResult::Done) {
    job.crashed(ran, label);
    return false;
  }
  Judgement j = judge(t.analysis->info, before, reference, *got, kPoison);
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

ReplayInputs Session::FuzzRound::inputs(const std::set<int>& unread) const {
  ReplayInputs in = candidate_inputs(unread);
  for (int b : fuzzed) in.replaced[b] = before[static_cast<size_t>(b)];
  in.scalars = scalars;
  return in;
}

uint64_t Session::FuzzRound::bytes() const {
  uint64_t n = 0;
  for (const auto& b : before) n += b.size();
  for (const auto& b : reference.buffers) n += b.size();
  return n;
}

Expected<const Session::FuzzRound*> Session::fuzz_round(Job& job, Target& t, int round, FuzzRound& scratch) {
  const EvaluateRequest& r = job.r;
  Analysis& a = *t.analysis;
  const auto key = std::make_pair(r.seed, round);
  if (auto it = a.fuzz_rounds.find(key); it != a.fuzz_rounds.end()) return &it->second;
  const Capture& c = t.replay->capture();
  auto fuzzable_buffer = [&](size_t b) {
    return !a.unread.count(static_cast<int>(b)) && t.replay->dtype(static_cast<int>(b)).is_float();
  };
  auto fuzzable_scalar = [&](size_t i) {
    return c.args[i].kind == ParamKind::Scalar && (*t.params)[i].dtype().is_float();
  };
  bool any = false;
  for (size_t b = 0; b < a.before.size(); ++b) any |= fuzzable_buffer(b);
  for (size_t i = 0; i < c.args.size(); ++i) any |= fuzzable_scalar(i);
  if (!any) return nullptr;

  const uint64_t seed =
      r.seed ^ std::hash<std::string>{}(c.id) ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(round + 1));
  FuzzRound f;
  f.before = a.before;
  for (size_t b = 0; b < f.before.size(); ++b) {
    if (!fuzzable_buffer(b)) continue;
    fuzz_floats(f.before[b], t.replay->dtype(static_cast<int>(b)), seed + b);
    f.fuzzed.insert(static_cast<int>(b));
  }
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!fuzzable_scalar(i)) continue;
    std::string bytes = c.args[i].bytes;
    fuzz_floats(bytes, (*t.params)[i].dtype(), seed + 1000 + i);
    f.scalars[i] = bytes;
  }
  Ran base = run(t, false, f.inputs(a.unread), job.base_mod, watchdog(t, r), &f.reference);
  if (base.result != GpuContext::WaitResult::Done || base.launch_error)
    return Error{fmt::format("capture {}: the original kernel failed on fuzzed inputs: {}", c.id, base.detail)};
  f.clean = std::all_of(f.reference.guard_damage.begin(), f.reference.guard_damage.end(),
                        [](const auto& d) { return d.empty(); });
  if (uint64_t bytes = f.bytes(); fuzz_cache_bytes_ + bytes <= kFuzzCacheBytes) {
    fuzz_cache_bytes_ += bytes;
    a.fuzz_bytes += bytes;
    return &(a.fuzz_rounds[key] = std::move(f));
  }
  scratch = std::move(f);
  return &scratch;
}

// 3. Fuzzed inputs: floating-point data and scalars scaled, both kernels run
// on them (the original once per capture and round, while memory allows).
bool Session::judge_fuzzed(Job& job) {
  int fuzzed = 0;
  for (int round = 0; round < job.r.fuzz_rounds; ++round) {
    for (auto& t : job.targets) {
      FuzzRound scratch;
      auto f = fuzz_round(job, t, round, scratch);
      if (!f) {
        job.error(f.error().message);
        return false;
      }
      if (!*f || !(*f)->clean) continue;  // nothing to fuzz, or the original misbehaves there: no reference
      const FuzzRound& round_inputs = **f;
      if (!judge_variant(job, t, round_inputs.inputs(t.analysis->unread), round_inputs.before, round_inputs.reference,
                         CheckName::Fuzz, fmt::format("{} (fuzzed, round {})", t.replay->capture().id, round + 1)))
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
  if (!memory_intact(job)) return false;
  job.checks.pass(CheckName::Recheck);
  return true;
}

bool Session::memory_intact(Job& job) {
  for (auto& t : job.targets) {
    const std::string& id = t.replay->capture().id;
    auto again = memory_.lend();
    Ran ran = run(t, false, candidate_inputs(t.analysis->unread), job.base_mod, watchdog(t, job.r), &*again);
    if (ran.result != GpuContext::WaitResult::Done || ran.launch_error) {
      job.error(
          fmt::format("capture {}: the original kernel failed when replayed after the candidate: {}", id, ran.detail));
      return false;
    }
    if (!judge(t.analysis->info, t.analysis->before, t.analysis->reference, *again, kPoison).ok()) {
      job.checks.fail(CheckName::Recheck,
                      fmt::format("capture {}: the original, replayed after the candidate, no longer gives its own "
                                  "result: the candidate changed memory outside its buffers",
                                  id));
      must_exit_ = true;  // nothing this worker holds can be trusted any more
      return false;
    }
  }
  return true;
}

}  // namespace stark::harness
