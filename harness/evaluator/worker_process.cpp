#include "harness/evaluator/worker_process.h"

#include <vector>
#include <string>
#include <chrono>
#include <random>
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
    : argv_(std::move(argv)), start_timeout_(start_timeout), env_(std::move(env)) {
  // Numbers start somewhere unguessable: a stray line cannot answer by luck.
  seq_ = static_cast<int64_t>(std::random_device{}() & 0x7fffffff) << 8;
}

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
    SpawnOptions options;
    options.env = env_;
    auto c = ChildProcess::start(argv_, options);
    if (!c)
      return Error{
          fmt::format("cannot start the GPU worker ({}): {}", argv_.empty() ? "" : argv_[0], c.error().message)};
    child_ = std::move(*c);
    ++starts_;
  }
  bool written = false;
  std::string line;
  auto got = exchange({{"op", "hello"}}, start_timeout_, {}, &written, line);
  if (!written) {
    auto status = child_->kill();
    std::string err = child_->stderr_tail();
    child_.reset();
    return Error{fmt::format("the GPU worker exited at start ({}){}", status.describe(),
                             err.empty() ? "" : ": " + last_lines(err, 2))};
  }
  if (got != ChildProcess::ReadStatus::Line) {
    auto status = child_->kill();
    std::string err = child_->stderr_tail();
    child_.reset();
    if (got == ChildProcess::ReadStatus::Timeout)
      return Error{fmt::format("the GPU worker did not answer within {} s", start_timeout_.count() / 1000)};
    return Error{fmt::format("the GPU worker exited at start ({}){}", status.describe(),
                             err.empty() ? "" : ": " + last_lines(err, 2))};
  }
  auto taken = take_reply(line);
  if (!taken || !taken->is_object()) {
    stop();
    return Error{taken ? "the GPU worker's greeting is not a JSON object" : taken.error().message};
  }
  const nlohmann::json& hello = *taken;
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
  bool written = false;
  std::string line;
  auto got = exchange(request, timeout, payload, &written, line);
  if (!written) {
    auto status = child_->kill();
    out.kind = Outcome::Kind::Crashed;
    out.detail = fmt::format("the worker died before it read the request ({})", status.describe());
    child_.reset();
    hello_.reset();
    return out;
  }
  if (got == ChildProcess::ReadStatus::Line) {
    auto reply = take_reply(line);
    if (!reply) {
      stop();
      out.kind = Outcome::Kind::Crashed;
      out.detail = reply.error().message;
      return out;
    }
    out.reply = std::move(*reply);
    // After a fault or a hang the worker exits by itself; reap it now.
    std::string status = out.reply.is_object() ? out.reply.value("status", "") : "";
    if (status == "fault" || status == "hang") {
      child_->finish(std::chrono::seconds(10));
      child_.reset();
      hello_.reset();
    }
    return out;
  }
  if (got == ChildProcess::ReadStatus::Timeout) {
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

ChildProcess::ReadStatus WorkerProcess::exchange(nlohmann::json request, std::chrono::milliseconds timeout,
                                                 std::string_view payload, bool* written, std::string& line) {
  request["seq"] = ++seq_;
  *written = child_->write_line(request.dump()) && (payload.empty() || child_->write_raw(payload));
  if (!*written) return ChildProcess::ReadStatus::Eof;
  return child_->read_line(line, timeout);
}

Expected<nlohmann::json> WorkerProcess::take_reply(const std::string& line) const {
  auto reply = nlohmann::json::parse(line, nullptr, false);
  if (reply.is_discarded()) return Error{"the worker answered something that is not JSON: " + line.substr(0, 200)};
  // Only the worker writes to the reply channel, and it echoes the number of
  // the request it answers: anything else means the stream is out of step.
  const nlohmann::json* seq = reply.is_object() ? &reply["seq"] : nullptr;
  if (!seq || !seq->is_number_integer() || seq->get<int64_t>() != seq_)
    return Error{fmt::format("the worker's reply does not answer request {} (it says {}): the worker was stopped", seq_,
                             seq && !seq->is_null() ? seq->dump() : "no request number")};
  reply.erase("seq");
  return reply;
}

}  // namespace stark::harness
