// What the original kernel does on one capture, learned once per capture and
// cubin before any candidate runs there: which buffers it writes, which it
// never reads (poisoned for candidates), its reference result and launch
// time; and Session::run, the one launch every check is made of.
#include <fmt/format.h>

#include <algorithm>

#include "harness/worker/compare.h"
#include "harness/worker/session.h"

namespace stark::harness {

double Session::watchdog(const Target& t, const EvaluateRequest& r) const {
  double ms = t.analysis ? t.analysis->launch_ms : 0;
  return std::max(r.watchdog_seconds, 50 * ms / 1000);
}

Session::Ran Session::run(Target& t, bool variant, const ReplayInputs& inputs, CUmodule module, double watchdog_s,
                          Memory* out) {
  Ran ran;
  GpuContext& g = *gpu_;
  auto fault = [&](std::string d) {
    ran.result = GpuContext::WaitResult::Fault;
    ran.detail = std::move(d);
    must_exit_ = true;
    return ran;
  };
  if (auto ok = t.replay->prepare(inputs, module, true); !ok) return fault(ok.error().message);
  CUresult e = t.replay->launch(variant ? t.variant : t.baseline, variant ? t.variant_dims : t.baseline_dims, inputs);
  if (e != CUDA_SUCCESS) {
    if (GpuContext::is_sticky(e)) return fault(g.cu().describe(e));
    ran.launch_error = true;
    ran.detail = fmt::format("the launch ({}) failed: {}", (variant ? t.variant_dims : t.baseline_dims).describe(),
                             g.cu().describe(e));
    return ran;
  }
  auto w = g.wait(watchdog_s);
  if (w.result == GpuContext::WaitResult::Fault) return fault(g.cu().describe(w.error));
  if (w.result == GpuContext::WaitResult::Hang) {
    ran.result = GpuContext::WaitResult::Hang;
    ran.detail = fmt::format("still running {:.1f} s after its launch (watchdog)", watchdog_s);
    must_exit_ = true;
    return ran;
  }
  if (out)
    if (auto read = t.replay->read(module, *out); !read) return fault(read.error().message);
  return ran;
}

std::vector<BufferInfo> Session::buffer_info(const Target& t, const EvaluateRequest& r) {
  const Capture& c = t.replay->capture();
  std::vector<BufferInfo> info(t.replay->buffer_count());
  for (size_t b = 0; b < info.size(); ++b) {
    info[b].dtype = t.replay->dtype(static_cast<int>(b));
    info[b].tolerance = default_tolerance(info[b].dtype.kind);
    if (r.rtol) info[b].tolerance.rtol = *r.rtol;
    if (r.atol) info[b].tolerance.atol = *r.atol;
    info[b].writable = false;
  }
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!c.args[i].buffer) continue;
    auto& bi = info[static_cast<size_t>(*c.args[i].buffer)];
    bi.name += (bi.name.empty() ? "" : "/") + c.args[i].name;
    if (!(*t.params)[i].is_const) bi.writable = true;
  }
  return info;
}

std::string Session::does_not_reproduce(const Target& t, const Analysis& a, const Memory& normal) {
  const Capture& c = t.replay->capture();
  for (size_t b = 0; b < a.info.size(); ++b) {
    if (!normal.guard_damage[b].empty())
      return fmt::format(
          "capture {}: the original kernel writes outside {} ({}): the capture does not hold all the "
          "memory it uses (a pool allocator, or an offset the manifest does not know)",
          c.id, a.info[b].name, normal.guard_damage[b]);
    if (const auto& after = t.replay->after(static_cast<int>(b))) {
      auto cmp = compare_buffer(*after, normal.buffers[b], a.info[b].dtype, a.info[b].tolerance);
      if (!cmp.ok)
        return fmt::format(
            "capture {}: the original kernel does not reproduce the captured result ({}); it may "
            "read memory the capture does not hold (pointers inside structs, textures, variables "
            "of other files) or be nondeterministic beyond tolerance",
            c.id, cmp.describe(a.info[b].name));
    }
  }
  for (size_t g = 0; g < t.replay->global_count() && g < normal.globals.size(); ++g) {
    const auto& after = t.replay->global_after(g);
    if (after && normal.globals[g] && *after != *normal.globals[g])
      return fmt::format("capture {}: the original kernel does not reproduce module variable {}", c.id,
                         c.globals[g].name);
  }
  return "";
}

Expected<Memory> Session::run_original_timed(Target& t, CUmodule bm, const EvaluateRequest& r, double& launch_ms) {
  const Capture& c = t.replay->capture();
  const CudaDriver& cu = gpu_->cu();
  CUevent start = nullptr, stop = nullptr;
  cu.cuEventCreate(&start, CU_EVENT_DEFAULT);
  cu.cuEventCreate(&stop, CU_EVENT_DEFAULT);
  struct Events {  // destroyed on every way out
    const CudaDriver& cu;
    CUevent start, stop;
    ~Events() {
      cu.cuEventDestroy(start);
      cu.cuEventDestroy(stop);
    }
  } events{cu, start, stop};
  ReplayInputs plain;
  if (auto ok = t.replay->prepare(plain, bm, true); !ok) return ok.error();
  cu.cuEventRecord(start, gpu_->stream());
  CUresult e = t.replay->launch(t.baseline, t.baseline_dims, plain);
  cu.cuEventRecord(stop, gpu_->stream());
  if (e != CUDA_SUCCESS) {
    if (GpuContext::is_sticky(e)) must_exit_ = true;
    return Error{fmt::format("the original kernel cannot be launched on capture {} ({}): {}", c.id,
                             t.baseline_dims.describe(), cu.describe(e))};
  }
  const double limit = std::max(r.watchdog_seconds, 60.0);
  auto w = gpu_->wait(limit);
  if (w.result != GpuContext::WaitResult::Done) {
    must_exit_ = true;
    return Error{w.result == GpuContext::WaitResult::Hang
                     ? fmt::format("the original kernel did not finish on capture {} within {:.0f} s", c.id, limit)
                     : fmt::format("the original kernel crashed on capture {}: {}", c.id, cu.describe(w.error))};
  }
  float ms = 0;
  cu.cuEventElapsedTime(&ms, start, stop);
  launch_ms = ms;
  Memory normal;
  if (auto read = t.replay->read(bm, normal); !read) return read.error();
  return normal;
}

Expected<void> Session::find_unread(Target& t, CUmodule bm, const EvaluateRequest& r, Analysis& a,
                                    const Memory& normal) {
  const Capture& c = t.replay->capture();
  const size_t n = a.info.size();
  double wd = std::max(r.watchdog_seconds, 50 * a.launch_ms / 1000);
  Target probe = t;
  probe.analysis = nullptr;
  for (size_t b = 0; b < n; ++b) {
    if (!a.info[b].writable) continue;
    ReplayInputs in;
    in.poisoned = {static_cast<int>(b)};
    auto poisoned = memory_.lend();
    Ran ran = run(probe, false, in, bm, wd, &*poisoned);
    if (ran.result != GpuContext::WaitResult::Done || ran.launch_error)
      return Error{fmt::format("the original kernel failed on capture {} with {} poisoned: {}", c.id, a.info[b].name,
                               ran.detail)};
    if (unread(a.info, static_cast<int>(b), normal, *poisoned, kPoison)) a.unread.insert(static_cast<int>(b));
  }
  a.reference = normal;
  if (a.unread.empty()) return {};
  // The reference is the original's result with every unread buffer poisoned, where that changes nothing else.
  ReplayInputs in;
  in.poisoned = a.unread;
  Memory ref;
  Ran ran = run(probe, false, in, bm, wd, &ref);
  if (ran.result != GpuContext::WaitResult::Done || ran.launch_error)
    return Error{fmt::format("the original kernel failed on capture {}: {}", c.id, ran.detail)};
  bool consistent = true;
  for (size_t b = 0; b < n; ++b)
    if (!a.unread.count(static_cast<int>(b)) && ref.buffers[b] != normal.buffers[b] &&
        !compare_buffer(normal.buffers[b], ref.buffers[b], a.info[b].dtype, a.info[b].tolerance).ok)
      consistent = false;
  if (consistent) a.reference = std::move(ref);
  else a.unread.clear();
  return {};
}

Expected<Session::Analysis*> Session::analyse(Target& t, CUmodule bm, const std::string& cubin,
                                              const EvaluateRequest& r) {
  std::string key = t.replay->key() + "\n" + cubin;
  if (auto it = analyses_.find(key); it != analyses_.end()) return &it->second;
  Analysis a;
  a.info = buffer_info(t, r);
  for (size_t b = 0; b < a.info.size(); ++b)
    if (!a.info[b].writable) a.read_only.insert(static_cast<int>(b));

  // The original on the captured inputs, timed once for the watchdog.
  auto normal = run_original_timed(t, bm, r, a.launch_ms);
  if (!normal) return normal.error();
  a.problem = does_not_reproduce(t, a, *normal);
  if (!a.problem.empty()) return &(analyses_[key] = std::move(a));

  // Which writable buffers does the original never read? Poison each alone and look.
  if (auto found = find_unread(t, bm, r, a, *normal); !found) return found.error();
  for (size_t b = 0; b < a.info.size(); ++b)
    a.before.push_back(a.unread.count(static_cast<int>(b))
                           ? std::string(t.replay->before(static_cast<int>(b)).size(), static_cast<char>(kPoison))
                           : t.replay->before(static_cast<int>(b)));
  if (r.other_sizes)
    if (auto ok = analyse_other_size(t, bm, a, r); !ok) return ok.error();
  return &(analyses_[key] = std::move(a));
}

Expected<void> Session::analyse_other_size(Target& t, CUmodule bm, Analysis& a, const EvaluateRequest& r) {
  const Capture& c = t.replay->capture();
  auto size = other_size(c, *t.params);
  if (!size) {
    a.no_other = size.error().message;
    return {};
  }
  double wd = std::max(r.watchdog_seconds, 50 * a.launch_ms / 1000);
  Target probe = t;
  probe.analysis = nullptr;
  ReplayInputs in;
  in.poisoned = a.unread;
  in.scalars = size->scalars;
  // The original at the smaller size, on `dims`; false (with a.no_other) when
  // it gives no usable reference there.
  auto original_at = [&](const LaunchDims& dims, Memory* out) -> Expected<bool> {
    probe.baseline_dims = dims;
    Ran ran = run(probe, false, in, bm, wd, out);
    if (ran.result != GpuContext::WaitResult::Done) {
      other_size_faulted_ = true;
      return Error{
          fmt::format("the original kernel failed at a smaller size derived from capture {} ({}): {}; "
                      "other sizes are off for this kernel",
                      c.id, size->describe, ran.detail)};
    }
    if (ran.launch_error) {
      a.no_other = fmt::format("the original cannot be launched at {}: {}", size->describe, ran.detail);
      return false;
    }
    for (size_t b = 0; b < out->guard_damage.size(); ++b)
      if (!out->guard_damage[b].empty()) {
        a.no_other = fmt::format("the original writes outside {} at {}", a.info[b].name, size->describe);
        return false;
      }
    return true;
  };
  Memory small;
  auto ok = original_at(size->original_dims, &small);
  if (!ok || !*ok) return ok ? Expected<void>{} : Expected<void>{ok.error()};
  // An original that checks its sizes gives the same answer on its captured
  // grid: then the smaller problem is well defined. One that relies on the
  // grid matching the sizes does not, and its answer there is no oracle.
  if (!(size->original_dims == t.baseline_dims)) {
    auto wide = memory_.lend();
    auto wide_ok = original_at(t.baseline_dims, &*wide);
    if (!wide_ok || !*wide_ok) return wide_ok ? Expected<void>{} : Expected<void>{wide_ok.error()};
    for (size_t b = 0; b < small.buffers.size(); ++b)
      if (small.buffers[b] != wide->buffers[b] &&
          !compare_buffer(small.buffers[b], wide->buffers[b], a.info[b].dtype, a.info[b].tolerance).ok) {
        a.no_other = fmt::format(
            "at {} the original's result depends on its grid, not only on its size arguments "
            "(it does not check them itself)",
            size->describe);
        return {};
      }
  }
  if (small.buffers == a.reference.buffers) {
    a.no_other = fmt::format("the original computes the same at {}: those arguments are no sizes", size->describe);
    return {};
  }
  a.other = OtherSizeReference{std::move(*size), std::move(small)};
  return {};
}

}  // namespace stark::harness
