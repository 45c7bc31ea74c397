#include "harness/worker/session.h"

#include <vector>
#include <string>
#include <set>
#include <optional>
#include <map>
#include <cstdint>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "core/hash.h"
#include "core/text.h"
#include "harness/worker/check_list.h"
#include "harness/worker/compare.h"
#include "harness/worker/fuzz.h"
#include "harness/worker/no_gpu_check.h"
#include "harness/worker/timing_stats.h"

namespace stark::harness {

using nlohmann::json;

Expected<GpuContext*> Session::gpu() {
  if (gpu_) return gpu_.get();
  if (gpu_error_) return *gpu_error_;
  auto g = GpuContext::open(device_);
  if (!g) {
    gpu_error_ = g.error();
    return g.error();
  }
  gpu_ = std::move(*g);
  return gpu_.get();
}

static std::string host_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "unknown";
  return host;
}

Expected<BlobCache*> Session::cache() {
  if (cache_) return &*cache_;
  auto c = BlobCache::open(options_.cache_dir.empty() ? BlobCache::default_dir() : options_.cache_dir);
  if (!c) return c.error();
  cache_ = std::move(*c);
  return &*cache_;
}

json Session::have(const json& request) {
  auto c = cache();
  if (!c) return {{"ok", false}, {"error", c.error().message}};
  json missing = json::array();
  for (const auto& h : request.at("blobs"))
    if (!(*c)->has(h.get<std::string>())) missing.push_back(h);
  return {{"ok", true}, {"missing", missing}};
}

json Session::put(const json& request, const std::string& payload) {
  auto c = cache();
  if (!c) return {{"ok", false}, {"error", c.error().message}};
  std::string kind = request.value("kind", "file");
  if (kind != "file" && kind != "store") return {{"ok", false}, {"error", "unknown blob kind '" + kind + "'"}};
  auto ok = (*c)->put(request.at("hash").get<std::string>(), kind == "store" ? BlobKind::Store : BlobKind::File, payload);
  if (!ok) return {{"ok", false}, {"error", ok.error().message}};
  return {{"ok", true}};
}

json Session::evaluate_request(const json& request, bool once) {
  EvaluateRequest r = request.get<EvaluateRequest>();
  if (r.shipped) {
    auto c = cache();
    if (!c) return EvaluateReply{r.id, ReplyStatus::Error, c.error().message, {}, {}, false};
    auto local = (*c)->localize(r);
    if (!local) return EvaluateReply{r.id, ReplyStatus::Error, local.error().message, {}, {}, false};
    r = std::move(*local);
  }
  if (options_.no_gpu) return check_without_gpu(r);
  return once ? run_once(r) : evaluate(r);
}

json Session::handle(const json& request, const std::string& payload) {
  std::string op = request.is_object() ? request.value("op", "") : "";
  try {
    if (op == "hello") {
      if (options_.no_gpu)
        return {{"ok", true}, {"gpu", nullptr}, {"mode", "no-gpu"}, {"host", host_name()}, {"pid", getpid()}};
      auto g = gpu();
      if (!g) return {{"ok", false}, {"error", g.error().message}, {"pid", getpid()}};
      return {{"ok", true}, {"gpu", (*g)->info()}, {"mode", "gpu"}, {"host", host_name()}, {"pid", getpid()}};
    }
    if (op == "shutdown") {
      must_exit_ = true;
      return {{"ok", true}};
    }
    if (op == "have") return have(request);
    if (op == "put") return put(request, payload);
    if (op == "evaluate") return evaluate_request(request, false);
    if (op == "run_once") return evaluate_request(request, true);
    return {{"status", "error"},
            {"detail", "unknown request '" + op + "' (hello, have, put, evaluate, run_once, shutdown)"}};
  } catch (const std::exception& e) {
    return {{"status", "error"}, {"detail", std::string("malformed request: ") + e.what()}};
  }
}

Expected<ReplayCapture*> Session::replay(const CaptureStore& store, const Capture& capture) {
  std::string key = store.dir().string() + "\n" + capture.id;
  if (auto it = replays_.find(key); it != replays_.end()) {
    it->second.last_used = ++clock_;
    return it->second.replay.get();
  }
  auto g = gpu();
  if (!g) return g.error();
  auto r = ReplayCapture::load(**g, store, capture);
  if (!r) return r.error();
  Loaded& l = replays_[key];
  l.replay = std::move(*r);
  l.replay->set_key(key);
  l.last_used = ++clock_;
  return l.replay.get();
}

void Session::evict(const std::set<std::string>& keep) {
  size_t free_bytes = 0, total = 0;
  gpu_->cu().cuMemGetInfo(&free_bytes, &total);
  // Keep at least a quarter of the GPU free for the kernels and the next captures.
  while (free_bytes < total / 4) {
    auto oldest = replays_.end();
    for (auto it = replays_.begin(); it != replays_.end(); ++it)
      if (!keep.count(it->first) && (oldest == replays_.end() || it->second.last_used < oldest->second.last_used))
        oldest = it;
    if (oldest == replays_.end()) return;
    size_t freed = oldest->second.replay->device_bytes();
    for (auto a = analyses_.begin(); a != analyses_.end();)
      a = a->first.rfind(oldest->first + "\n", 0) == 0 ? analyses_.erase(a) : std::next(a);
    replays_.erase(oldest);
    free_bytes += freed;
  }
}

EvaluateReply Session::evaluate(const EvaluateRequest& r) {
  EvaluateReply reply;
  reply.id = r.id;
  auto error = [&](const std::string& msg) {
    reply.status = ReplyStatus::Error;
    reply.detail = msg;
    return reply;
  };
  auto g = gpu();
  if (!g) return error(g.error().message);
  GpuContext& gpu = **g;
  {
    std::set<std::string> keep;
    auto dir = CaptureStore::open(r.store, false);
    for (const auto& id : r.captures) keep.insert((dir ? dir->dir().string() : r.store) + "\n" + id);
    evict(keep);
  }
  auto store = CaptureStore::open(r.store, false);
  if (!store) return error(store.error().message);
  auto index = store->read_index();
  if (!index) return error(index.error().message);
  auto base_mod = gpu.module(r.baseline_cubin);
  if (!base_mod) return error(base_mod.error().message);

  CheckList checks;
  std::map<std::string, CaptureEvaluation> per_capture;
  auto finish = [&]() {
    reply.checks = checks.list();
    for (const auto& id : r.captures)
      if (auto it = per_capture.find(id); it != per_capture.end()) reply.captures.push_back(it->second);
    return reply;
  };
  auto crashed = [&](const Ran& ran, const std::string& capture) {
    reply.status = ran.result == GpuContext::WaitResult::Hang ? ReplyStatus::Hang : ReplyStatus::Fault;
    reply.detail = fmt::format("capture {}: the variant {}", capture,
                               ran.result == GpuContext::WaitResult::Hang ? ran.detail : "crashed: " + ran.detail);
    checks.fail(check::kNoCrash, reply.detail);
    return finish();
  };

  auto var_mod = gpu.module(r.variant_cubin);
  if (!var_mod) {
    checks.fail(check::kLaunch, var_mod.error().message);
    return finish();
  }

  std::vector<Target> targets;
  std::vector<std::string> skipped;  // captures the original itself does not reproduce
  for (const auto& id : r.captures) {
    const Capture* c = index->find(id);
    if (!c) return error(fmt::format("capture {} is not in the store {}", id, r.store));
    auto inst = r.instantiations.find(c->mangled);
    if (inst == r.instantiations.end())
      return error(fmt::format("capture {} launches {}, which the manifest does not list for {}", id, c->mangled, r.kernel));
    if (auto ok = check_args(*c, inst->second); !ok) return error(ok.error().message);
    auto rep = replay(*store, *c);
    if (!rep) return error(rep.error().message);
    Target t;
    t.replay = *rep;
    t.params = &inst->second;
    auto fb = gpu.function(*base_mod, c->mangled, r.baseline_cubin);
    if (!fb) return error(fb.error().message);
    t.baseline = *fb;
    auto fv = gpu.function(*var_mod, c->mangled, r.variant_cubin);
    if (!fv) {
      checks.fail(check::kLaunch, fv.error().message);
      return finish();
    }
    t.variant = *fv;
    auto bd = launch_dims(*c, inst->second, {});
    if (!bd) return error(bd.error().message);
    t.baseline_dims = *bd;
    auto vd = launch_dims(*c, inst->second, r.launch);
    if (!vd) {
      checks.fail(check::kLaunch, vd.error().message);
      return finish();
    }
    if (auto ok = check_limits(*vd, gpu.limits()); !ok) {
      checks.fail(check::kLaunch, fmt::format("capture {}: {}", id, ok.error().message));
      return finish();
    }
    t.variant_dims = *vd;
    auto a = analyse(t, *base_mod, r.baseline_cubin, r);
    if (!a) return error(a.error().message);
    if (!(*a)->problem.empty()) {
      skipped.push_back((*a)->problem);
      continue;
    }
    t.analysis = *a;
    per_capture[id].id = id;
    targets.push_back(t);
  }
  // A capture the original does not reproduce is no evidence either way: it
  // is left out (and said so); with none left there is nothing to judge on.
  if (targets.empty())
    return error(skipped.empty() ? "no capture to evaluate on" : join(skipped, "; "));
  checks.pass(check::kBaselineReplay,
              skipped.empty() ? "" : fmt::format("{} of {} captures left out: {}", skipped.size(), r.captures.size(),
                                                  join(skipped, "; ")));

  auto candidate_inputs = [](const Target& t) {
    ReplayInputs in;
    in.poisoned = t.analysis->unread;
    return in;
  };

  // 1. Correctness on every capture, then a second launch on the same inputs.
  for (const char* phase : {check::kCorrectness, check::kRepeat}) {
    for (auto& t : targets) {
      Memory got;
      Ran ran = run(t, true, candidate_inputs(t), *var_mod, watchdog(t, r), &got);
      if (ran.launch_error) {
        checks.fail(check::kLaunch, fmt::format("capture {}: {}", t.replay->capture().id, ran.detail));
        return finish();
      }
      if (ran.result != GpuContext::WaitResult::Done) return crashed(ran, t.replay->capture().id);
      Judgement j = judge(t.analysis->info, t.analysis->before, t.analysis->reference, got, kPoison);
      record(checks, j, phase, t.replay->capture().id);
      if (phase == check::kCorrectness) {
        auto& ce = per_capture[t.replay->capture().id];
        ce.max_abs_err = j.max_abs_err;
        ce.max_rel_err = j.max_rel_err;
      }
    }
    checks.pass(check::kLaunch);
    checks.pass(check::kNoCrash);
    if (checks.failed()) return finish();
    checks.pass(phase);
    checks.pass(check::kInputsUnchanged);
    checks.pass(check::kGuards);
  }

  // 2. Fuzzed inputs: floating-point data and scalars scaled, both kernels run on them.
  int fuzzed = 0;
  for (int round = 0; round < r.fuzz_rounds; ++round) {
    for (auto& t : targets) {
      const Capture& c = t.replay->capture();
      uint64_t seed = r.seed ^ std::hash<std::string>{}(c.id) ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(round + 1));
      ReplayInputs in = candidate_inputs(t);
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
        if (c.args[i].kind != CapturedArg::Kind::Scalar || !dt.is_float()) continue;
        std::string bytes = c.args[i].bytes;
        fuzz_floats(bytes, dt, seed + 1000 + i);
        in.scalars[i] = bytes;
      }
      if (in.replaced.empty() && in.scalars.empty()) continue;
      Memory ref, got;
      Ran base = run(t, false, in, *base_mod, watchdog(t, r), &ref);
      if (base.result != GpuContext::WaitResult::Done || base.launch_error)
        return error(fmt::format("capture {}: the original kernel failed on fuzzed inputs: {}", c.id, base.detail));
      bool clean = std::all_of(ref.guard_damage.begin(), ref.guard_damage.end(), [](const auto& d) { return d.empty(); });
      if (!clean) continue;  // the original itself misbehaves on these inputs: no reference
      Ran ran = run(t, true, in, *var_mod, watchdog(t, r), &got);
      if (ran.launch_error) {
        checks.fail(check::kLaunch, ran.detail);
        return finish();
      }
      if (ran.result != GpuContext::WaitResult::Done) return crashed(ran, c.id);
      record(checks, judge(t.analysis->info, before, ref, got, kPoison), check::kFuzz,
             fmt::format("{} (fuzzed, round {})", c.id, round + 1));
      ++fuzzed;
    }
  }
  if (checks.failed()) return finish();
  if (fuzzed) checks.pass(check::kFuzz, fmt::format("{} fuzzed launches matched the original", fuzzed));
  else checks.skip(check::kFuzz, "nothing to fuzz: the inputs hold no floating-point data (integers and sizes are never fuzzed)");

  // 3. Timing: interleaved, cold L2, memory restored before every run.
  if (!r.timing.enabled) {
    checks.skip(check::kTiming, "timing disabled");
    checks.skip(check::kRecheck, "not run: timing disabled");
    return finish();
  }
  const CudaDriver& cu = gpu.cu();
  CUevent ev[4];
  for (auto& e : ev) cu.cuEventCreate(&e, CU_EVENT_DEFAULT);
  struct EventGuard {
    const CudaDriver& cu;
    CUevent* ev;
    ~EventGuard() {
      for (int i = 0; i < 4; ++i) cu.cuEventDestroy(ev[i]);
    }
  } event_guard{cu, ev};
  std::vector<std::string> spreads;
  for (auto& t : targets) {
    ReplayInputs in = candidate_inputs(t);
    if (auto ok = t.replay->prepare(in, *base_mod, true); !ok) return error(ok.error().message);  // full restore once
    in.keep = t.analysis->read_only;
    std::vector<double> tb, tv, medians;
    StopRule rule;
    rule.min_runs = r.timing.min_runs;
    rule.max_runs = r.timing.max_runs;
    rule.stable = r.timing.stable;
    rule.max_seconds = r.timing.max_seconds;
    auto started = std::chrono::steady_clock::now();
    for (int it = 0;; ++it) {
      bool variant_first = it % 2 == 1;
      for (int k = 0; k < 2; ++k) {
        bool variant = (k == 0) == variant_first;
        CUmodule m = variant ? *var_mod : *base_mod;
        if (auto ok = t.replay->prepare(in, m, false); !ok) return error(ok.error().message);
        if (r.timing.flush_l2) gpu.flush_l2();
        cu.cuEventRecord(ev[variant ? 2 : 0], gpu.stream());
        CUresult e = t.replay->launch(variant ? t.variant : t.baseline, variant ? t.variant_dims : t.baseline_dims, in);
        cu.cuEventRecord(ev[variant ? 3 : 1], gpu.stream());
        if (e != CUDA_SUCCESS) {
          Ran ran;
          ran.result = GpuContext::WaitResult::Fault;
          ran.detail = cu.describe(e);
          if (GpuContext::is_sticky(e)) must_exit_ = true;
          return crashed(ran, t.replay->capture().id);
        }
      }
      auto w = gpu.wait(watchdog(t, r));
      if (w.result != GpuContext::WaitResult::Done) {
        Ran ran;
        ran.result = w.result;
        ran.detail = w.result == GpuContext::WaitResult::Hang ? fmt::format("still running {:.1f} s after its launch (watchdog)", watchdog(t, r))
                                                              : cu.describe(w.error);
        must_exit_ = true;
        return crashed(ran, t.replay->capture().id);
      }
      if (it < r.timing.warmup) continue;
      float b_ms = 0, v_ms = 0;
      cu.cuEventElapsedTime(&b_ms, ev[0], ev[1]);
      cu.cuEventElapsedTime(&v_ms, ev[2], ev[3]);
      tb.push_back(b_ms * 1000.0);
      tv.push_back(v_ms * 1000.0);
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      if (rule.done(tb, tv, elapsed, medians)) break;
    }
    auto& ce = per_capture[t.replay->capture().id];
    ce.baseline_us = summarize(tb);
    ce.variant_us = summarize(tv);
    spreads.push_back(fmt::format("{}: n={}, spread (p90-p10)/median {:.1f}% original, {:.1f}% variant",
                                  t.replay->capture().id, tb.size(),
                                  100 * (ce.baseline_us->p90 - ce.baseline_us->p10) / std::max(ce.baseline_us->median, 1e-9),
                                  100 * (ce.variant_us->p90 - ce.variant_us->p10) / std::max(ce.variant_us->median, 1e-9)));
  }
  std::string timing_detail;
  for (const auto& s : spreads) timing_detail += (timing_detail.empty() ? "" : "; ") + s;
  checks.pass(check::kTiming, timing_detail);

  // 4. Still right after all those launches (state kept between launches, races).
  for (auto& t : targets) {
    Memory got;
    Ran ran = run(t, true, candidate_inputs(t), *var_mod, watchdog(t, r), &got);
    if (ran.result != GpuContext::WaitResult::Done) return crashed(ran, t.replay->capture().id);
    record(checks, judge(t.analysis->info, t.analysis->before, t.analysis->reference, got, kPoison), check::kRecheck,
           t.replay->capture().id);
  }
  checks.pass(check::kRecheck);
  return finish();
}

EvaluateReply Session::run_once(const EvaluateRequest& r) {
  EvaluateReply reply;
  reply.id = r.id;
  auto error = [&](const std::string& msg) {
    reply.status = ReplyStatus::Error;
    reply.detail = msg;
    return reply;
  };
  auto g = gpu();
  if (!g) return error(g.error().message);
  if (r.captures.empty()) return error("run_once needs a capture");
  auto store = CaptureStore::open(r.store, false);
  if (!store) return error(store.error().message);
  auto index = store->read_index();
  if (!index) return error(index.error().message);
  const Capture* c = index->find(r.captures[0]);
  if (!c) return error("capture " + r.captures[0] + " is not in the store");
  auto inst = r.instantiations.find(c->mangled);
  if (inst == r.instantiations.end()) return error("capture " + c->id + " launches an unknown instantiation");
  auto m = (*g)->module(r.variant_cubin);
  if (!m) return error(m.error().message);
  auto f = (*g)->function(*m, c->mangled, r.variant_cubin);
  if (!f) return error(f.error().message);
  auto rep = replay(*store, *c);
  if (!rep) return error(rep.error().message);
  auto dims = launch_dims(*c, inst->second, r.launch);
  if (!dims) return error(dims.error().message);
  Target t;
  t.replay = *rep;
  t.params = &inst->second;
  t.variant = *f;
  t.baseline = *f;
  t.variant_dims = t.baseline_dims = *dims;
  Memory got;
  Ran ran = run(t, true, {}, *m, r.watchdog_seconds, &got);
  if (ran.launch_error) return error(ran.detail);
  if (ran.result == GpuContext::WaitResult::Fault) reply.status = ReplyStatus::Fault;
  if (ran.result == GpuContext::WaitResult::Hang) reply.status = ReplyStatus::Hang;
  reply.detail = ran.detail;
  return reply;
}

}  // namespace stark::harness
