#include "harness/evaluator/worker_pool.h"

#include <chrono>

#include <fmt/format.h>

#include <future>

namespace stark::harness {

using Kind = WorkerProcess::Outcome::Kind;

WorkerPool::WorkerPool(std::unique_ptr<Executor> executor, WorkerPoolOptions options)
    : executor_(std::move(executor)), options_(options) {
  for (int i = 0; i < executor_->size(); ++i) {
    WorkerLaunch l = executor_->launch(i);
    Slot s;
    s.worker = std::make_unique<WorkerProcess>(l.argv, std::chrono::milliseconds(executor_->start_timeout()), l.env);
    slots_.push_back(std::move(s));
  }
}

WorkerPool::~WorkerPool() = default;

WorkerPool::Probe WorkerPool::probe() {
  std::vector<std::future<Expected<WorkerHello>>> greetings;
  for (auto& s : slots_) greetings.push_back(std::async(std::launch::async, [&s] { return s.worker->greet(); }));
  Probe p;
  for (auto& g : greetings) {
    auto h = g.get();
    if (!h) {
      if (p.problem.empty()) p.problem = h.error().message;
    } else if (h->gpu) {
      if (!p.gpu) p.gpu = h->gpu;
    } else {
      p.no_gpu_workers = true;
    }
  }
  if (!p.gpu && p.no_gpu_workers) p.problem = "the workers run without a GPU (stark-worker --no-gpu)";
  return p;
}

std::vector<WorkerStats> WorkerPool::stats() const {
  std::lock_guard lock(mutex_);
  std::vector<WorkerStats> out;
  for (const auto& s : slots_) {
    WorkerStats st = s.stats;
    st.starts = s.worker->starts();
    out.push_back(st);
  }
  return out;
}

size_t WorkerPool::lease(bool first_in_line) {
  std::unique_lock lock(mutex_);
  if (first_in_line) ++requeued_waiting_;
  for (;;) {
    if (first_in_line || requeued_waiting_ == 0)
      for (size_t i = 0; i < slots_.size(); ++i)
        if (!slots_[i].busy) {
          slots_[i].busy = true;
          if (first_in_line) --requeued_waiting_;
          return i;
        }
    free_.wait(lock);
  }
}

void WorkerPool::release(size_t slot) {
  {
    std::lock_guard lock(mutex_);
    slots_[slot].busy = false;
  }
  free_.notify_all();
}

std::optional<WorkerProcess::Outcome> WorkerPool::ship(Slot& slot, const Shipment& shipment) {
  // Start the worker first when it is not running: a new worker process (a
  // restart, perhaps on another node) knows nothing of what its predecessor
  // received, though its node's cache may still have it.
  if (auto hello = slot.worker->greet(); !hello) {
    WorkerProcess::Outcome o;
    o.kind = Kind::NotStarted;
    o.detail = hello.error().message;
    return o;
  }
  if (slot.worker->starts() != slot.starts_seen) {
    slot.has.clear();
    slot.starts_seen = slot.worker->starts();
  }
  nlohmann::json ask = nlohmann::json::array();
  for (const auto& b : shipment.blobs)
    if (!slot.has.count(b.hash)) ask.push_back(b.hash);
  if (ask.empty()) return std::nullopt;
  auto out = slot.worker->request({{"op", "have"}, {"blobs", ask}}, options_.request_timeout);
  if (out.kind != Kind::Reply) return out;
  if (!out.reply.is_object() || !out.reply.value("ok", false) || !out.reply.contains("missing")) {
    out.reply = {{"status", "error"},
                 {"detail", "the worker cannot take shipped files: " + out.reply.value("error", out.reply.dump())}};
    return out;
  }
  if (slot.worker->starts() != slot.starts_seen) {  // greet() restarted it on the way
    slot.has.clear();
    slot.starts_seen = slot.worker->starts();
  }
  std::set<std::string> missing;
  for (const auto& h : out.reply["missing"]) missing.insert(h.get<std::string>());
  for (const auto& b : shipment.blobs) {
    if (slot.has.count(b.hash)) continue;
    if (missing.count(b.hash)) {
      auto bytes = blob_bytes(shipment, b);
      if (!bytes) {
        WorkerProcess::Outcome o;
        o.reply = {{"status", "error"}, {"detail", bytes.error().message}};
        return o;
      }
      nlohmann::json put = {{"op", "put"}, {"hash", b.hash}, {"kind", to_string(b.kind)}, {"bytes", bytes->size()}};
      auto r = slot.worker->request(put, options_.request_timeout, *bytes);
      if (r.kind != Kind::Reply) return r;
      if (!r.reply.is_object() || !r.reply.value("ok", false)) {
        r.reply = {{"status", "error"},
                   {"detail", "the worker refused a shipped file: " + r.reply.value("error", r.reply.dump())}};
        return r;
      }
      std::lock_guard lock(mutex_);
      ++slot.stats.blobs_sent;
      slot.stats.bytes_sent += bytes->size();
    }
    slot.has.insert(b.hash);
  }
  return std::nullopt;
}

WorkerProcess::Outcome WorkerPool::submit(const nlohmann::json& request, const Shipment* shipment) {
  nlohmann::json body = request;
  if (shipment) {
    std::string op = request.value("op", "evaluate");
    body = shipment->request;
    body["op"] = op;
  }
  std::vector<std::string> losses;
  double queued = 0;
  for (int attempt = 0;; ++attempt) {
    auto waiting = std::chrono::steady_clock::now();
    size_t index = lease(attempt > 0);
    queued += std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting).count();
    Slot& slot = slots_[index];
    WorkerProcess::Outcome out;
    std::optional<WorkerProcess::Outcome> failed;
    if (shipment) failed = ship(slot, *shipment);
    if (failed) {
      out = std::move(*failed);
    } else {
      if (on_dispatch) {
        auto hello = slot.worker->greet();
        if (hello) on_dispatch(static_cast<int>(index), *hello);
      }
      out = slot.worker->request(body, options_.request_timeout);
    }
    {
      std::lock_guard lock(mutex_);
      if (out.kind == Kind::Crashed) ++slot.stats.lost;
      else if (out.kind == Kind::Reply) ++slot.stats.served;
    }
    release(index);
    out.queued_seconds = queued;
    // Lost (no answer, the process gone): re-queued. A hang (the watchdog)
    // or a refusal to start is the answer.
    if (out.kind != Kind::Crashed) return out;
    losses.push_back(fmt::format("worker {} ({})", index, executor_->launch(static_cast<int>(index)).where));
    if (attempt >= options_.max_losses) {
      out.detail =
          fmt::format("{} (the request lost {} workers: {})", out.detail, losses.size(), fmt::join(losses, ", "));
      return out;
    }
  }
}

}  // namespace stark::harness
