#include "agents/llm/command_client.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>

#include "agents/llm/http.h"
#include "core/process.h"

namespace stark::llm {

namespace {

// The last few non-empty lines of stderr, joined into one line.
std::string stderr_tail(const std::string& err) {
  std::vector<std::string> lines;
  std::string line;
  for (char c : err + "\n") {
    if (c != '\n') {
      line += c;
      continue;
    }
    bool blank = true;
    for (char x : line) blank = blank && std::isspace(static_cast<unsigned char>(x));
    if (!blank) lines.push_back(line);
    line.clear();
  }
  if (lines.empty()) return "(nothing on stderr)";
  size_t first = lines.size() > 3 ? lines.size() - 3 : 0;
  std::string out;
  for (size_t i = first; i < lines.size(); ++i) out += (out.empty() ? "" : " | ") + lines[i];
  if (out.size() > 400) out = "..." + out.substr(out.size() - 400);
  return out;
}

bool blank(const std::string& s) {
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

CommandClient::CommandClient(CommandOptions options) : options_(std::move(options)), gate_(options_.concurrency) {}

Expected<ChatReply> CommandClient::complete(const ChatRequest& request) {
  if (options_.command.empty()) return Error{"the command backend needs a command: pass --command"};
  if (auto ok = validate_request(request); !ok) return ok.error();

  // The caller's deadline (a kernel's --time-limit) cuts a run short.
  std::chrono::milliseconds limit = options_.timeout;
  if (request.deadline) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(*request.deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return Error{fmt::format("the command '{}' was not run: the kernel's --time-limit has passed", options_.command)};
    limit = std::min(limit, left);
  }
  ProcessOptions run_options = ProcessOptions::in(options_.cwd);
  run_options.input = request_to_json(request).dump() + "\n";
  run_options.timeout = limit;
  run_options.output = ProcessOutput::Separate;
  run_options.max_output = kMaxResponseBytes;
  run_options.overflow = OutputOverflow::Stop;
  Expected<ProcessResult> run = Error{""};
  {
    Gate::Slot slot(gate_);
    run = run_process({"/bin/sh", "-c", options_.command}, run_options);
  }
  if (!run) return run.error();
  if (run->status.kind == ExitStatus::Kind::OutputLimit)
    return Error{fmt::format("the command '{}' printed more than {} MiB and was killed", options_.command,
                             kMaxResponseBytes >> 20)};
  if (run->status.timed_out())
    return Error{fmt::format("the command '{}' gave no answer within {:g} s and was killed: {}", options_.command,
                             static_cast<double>(limit.count()) / 1000.0, stderr_tail(run->err))};
  if (!run->status.success())
    return Error{fmt::format("the command '{}' failed ({}): {}", options_.command, run->status.describe(),
                             stderr_tail(run->err))};
  if (blank(run->output))
    return Error{
        fmt::format("the command '{}' printed nothing on stdout: {}", options_.command, stderr_tail(run->err))};
  ChatReply reply;
  reply.text = std::move(run->output);
  return reply;
}

}  // namespace stark::llm
