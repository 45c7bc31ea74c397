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
  auto ok =
      (*c)->put(request.at("hash").get<std::string>(), kind == "store" ? BlobKind::Store : BlobKind::File, payload);
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
  other_size_faulted_ = false;
  EvaluateReply reply = once ? run_once(r) : evaluate(r);
  reply.other_sizes_faulted = other_size_faulted_;
  return reply;
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

Expected<ReplayCapture*> Session::replay(const CaptureStore& store, const Capture& capture, bool guard_zones) {
  std::string key = store.dir().string() + "\n" + capture.id + (guard_zones ? "" : "\nexact");
  if (auto it = replays_.find(key); it != replays_.end()) {
    it->second.last_used = ++clock_;
    return it->second.replay.get();
  }
  auto g = gpu();
  if (!g) return g.error();
  auto r = ReplayCapture::load(**g, store, capture, guard_zones);
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
    for (auto a = analyses_.begin(); a != analyses_.end();) {
      if (a->first.rfind(oldest->first + "\n", 0) != 0) {
        ++a;
        continue;
      }
      fuzz_cache_bytes_ -= a->second.fuzz_bytes;
      a = analyses_.erase(a);
    }
    replays_.erase(oldest);
    free_bytes += freed;
  }
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
  // Exact-size allocations: an access past a buffer's end, read or write,
  // leaves the allocation and compute-sanitizer reports it.
  auto rep = replay(*store, *c, false);
  if (!rep) return error(rep.error().message);
  auto dims = launch_dims(*c, inst->second, r.launch);
  if (!dims) return error(dims.error().message);
  Target t;
  t.replay = *rep;
  t.params = &inst->second;
  t.variant = *f;
  t.baseline = *f;
  t.variant_dims = t.baseline_dims = *dims;
  auto got = memory_.lend();
  Ran ran = run(t, true, {}, *m, r.watchdog_seconds, &*got);
  if (ran.launch_error) return error(ran.detail);
  if (ran.result == GpuContext::WaitResult::Fault) reply.status = ReplyStatus::Fault;
  if (ran.result == GpuContext::WaitResult::Hang) reply.status = ReplyStatus::Hang;
  reply.detail = ran.detail;
  return reply;
}

}  // namespace stark::harness
