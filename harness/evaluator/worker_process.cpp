#include "harness/evaluator/worker_process.h"

#include <vector>
#include <string>
#include <chrono>
#include <fmt/format.h>

#include "core/text.h"

namespace stark::harness {

namespace {

std::string last_lines(const std::string& text, size_t n) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      if (!cur.empty()) lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  if (lines.size() > n) lines.erase(lines.begin(), lines.end() - static_cast<long>(n));
  return join(lines, " | ");
}

}  // namespace

WorkerProcess::WorkerProcess(std::vector<std::string> argv, std::chrono::milliseconds start_timeout,
                             std::map<std::string, std::string> env)
    : argv_(std::move(argv)), start_timeout_(start_timeout), env_(std::move(env)) {}

WorkerProcess::~WorkerProcess() {
  if (child_) {
    child_->write_line(R"({"op":"shutdown"})");
    child_->finish(std::chrono::seconds(5));
  }
}

void WorkerProcess::stop() {
  if (child_) child_->kill();
  child_.reset();
  hello_.reset();
}

Expected<GpuInfo> WorkerProcess::start() {
  auto h = greet();
  if (!h) return h.error();
  if (!h->gpu) return Error{fmt::format("the worker on {} has no GPU (started with --no-gpu)", h->host)};
  return *h->gpu;
}

Expected<WorkerHello> WorkerProcess::greet() {
  if (child_ && child_->running() && hello_) return *hello_;
  if (child_ && !child_->running()) stop();
  bool fresh = !child_;
  if (fresh) {
    CommandOptions options;
    options.env = env_;
    auto c = Child::start(argv_, options);
    if (!c) return Error{fmt::format("cannot start the GPU worker ({}): {}", argv_.empty() ? "" : argv_[0], c.error().message)};
    child_ = std::move(*c);
    ++starts_;
  }
  if (!child_->write_line(R"({"op":"hello"})")) {
    auto status = child_->kill();
    std::string err = child_->stderr_tail();
    child_.reset();
    return Error{fmt::format("the GPU worker exited at start ({}){}", status.describe(),
                             err.empty() ? "" : ": " + last_lines(err, 2))};
  }
  std::string line;
  auto got = child_->read_line(line, start_timeout_);
  if (got != Child::ReadStatus::Line) {
    auto status = child_->kill();
    std::string err = child_->stderr_tail();
    child_.reset();
    if (got == Child::ReadStatus::Timeout)
      return Error{fmt::format("the GPU worker did not answer within {} s", start_timeout_.count() / 1000)};
    return Error{fmt::format("the GPU worker exited at start ({}){}", status.describe(),
                             err.empty() ? "" : ": " + last_lines(err, 2))};
  }
  auto hello = nlohmann::json::parse(line, nullptr, false);
  if (hello.is_discarded() || !hello.is_object()) {
    stop();
    return Error{fmt::format("the GPU worker answered something that is not JSON: {}", line.substr(0, 200))};
  }
  if (!hello.value("ok", false)) {
    std::string why = hello.value("error", "no reason given");
    stop();
    return Error{why};
  }
  try {
    WorkerHello h;
    h.mode = hello.value("mode", "gpu");
    if (h.mode != "no-gpu") h.gpu = hello.at("gpu").get<GpuInfo>();
    h.host = hello.value("host", "");
    h.pid = hello.value("pid", int64_t{0});
    hello_ = h;
    return h;
  } catch (const std::exception& e) {
    stop();
    return Error{fmt::format("the GPU worker's greeting lacks its GPU: {}", e.what())};
  }
}

WorkerProcess::Outcome WorkerProcess::request(const nlohmann::json& request, std::chrono::milliseconds timeout,
                                              std::string_view payload) {
  Outcome out;
  if (!child_ || !child_->running()) {
    auto hello = greet();
    if (!hello) {
      out.kind = Outcome::Kind::NotStarted;
      out.detail = hello.error().message;
      return out;
    }
  }
  if (!child_->write_line(request.dump()) || (!payload.empty() && !child_->write_raw(payload))) {
    auto status = child_->kill();
    out.kind = Outcome::Kind::Crashed;
    out.detail = fmt::format("the worker died before it read the request ({})", status.describe());
    child_.reset();
    hello_.reset();
    return out;
  }
  std::string line;
  auto got = child_->read_line(line, timeout);
  if (got == Child::ReadStatus::Line) {
    auto reply = nlohmann::json::parse(line, nullptr, false);
    if (reply.is_discarded()) {
      stop();
      out.kind = Outcome::Kind::Crashed;
      out.detail = "the worker answered something that is not JSON: " + line.substr(0, 200);
      return out;
    }
    out.reply = std::move(reply);
    // After a fault or a hang the worker exits by itself; reap it now.
    std::string status = out.reply.is_object() ? out.reply.value("status", "") : "";
    if (status == "fault" || status == "hang") {
      child_->finish(std::chrono::seconds(10));
      child_.reset();
      hello_.reset();
    }
    return out;
  }
  if (got == Child::ReadStatus::Timeout) {
    stop();
    out.kind = Outcome::Kind::TimedOut;
    out.detail = fmt::format("no answer within {} s: the worker was stopped (watchdog) and will be restarted",
                             timeout.count() / 1000);
    return out;
  }
  auto status = child_->kill();
  std::string err = child_->stderr_tail();
  child_.reset();
  hello_.reset();
  out.kind = Outcome::Kind::Crashed;
  out.detail = fmt::format("the worker crashed ({}){}; it will be restarted", status.describe(),
                           err.empty() ? "" : ": " + last_lines(err, 3));
  return out;
}

}  // namespace stark::harness
