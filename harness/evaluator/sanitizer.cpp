#include "harness/evaluator/sanitizer.h"

#include <vector>
#include <string>
#include <chrono>
#include <fmt/format.h>

#include <random>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <sstream>

#include "core/child_process.h"
#include "core/file_io.h"
#include "core/text.h"

namespace stark::harness {

namespace fs = std::filesystem;

std::string find_compute_sanitizer(const std::string& configured) {
  if (!configured.empty()) return fs::exists(configured) ? configured : "";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty() && access((fs::path(dir) / "compute-sanitizer").c_str(), X_OK) == 0)
        return (fs::path(dir) / "compute-sanitizer").string();
  }
  std::string cuda = std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "/usr/local/cuda";
  for (const char* rel : {"bin/compute-sanitizer", "compute-sanitizer/compute-sanitizer"})
    if (access((fs::path(cuda) / rel).c_str(), X_OK) == 0) return (fs::path(cuda) / rel).string();
  return "";
}

std::vector<std::string> sanitizer_tool_options(CheckName tool) {
  // Wider than any vector access and any stride a candidate could use to
  // step over a smaller gap.
  if (tool == CheckName::Memcheck) return {"--padding", "65536"};
  return {};
}

std::string sanitizer_findings(const std::string& log, size_t n) {
  std::vector<std::string> out;
  std::stringstream ss(log);
  std::string line;
  while (std::getline(ss, line) && out.size() < n) {
    std::string_view l = trim(line);
    if (starts_with(l, "=========")) l = trim(l.substr(9));
    if (starts_with(l, "Invalid") || starts_with(l, "Race") || starts_with(l, "Error") || starts_with(l, "Warning") ||
        starts_with(l, "Program hit") || starts_with(l, "Misaligned") || starts_with(l, "Out-of-range") ||
        starts_with(l, "ERROR SUMMARY") || starts_with(l, "RACECHECK SUMMARY"))
      out.emplace_back(l);
  }
  return join(out, "; ");
}

Check run_sanitizer(CheckName tool, const std::string& compute_sanitizer, const std::vector<std::string>& worker_argv,
                    const nlohmann::json& request, std::chrono::seconds timeout, const fs::path& tmp_dir,
                    const std::map<std::string, std::string>& env) {
  Check c{tool, std::nullopt, ""};
  if (compute_sanitizer.empty()) {
    c.detail = "compute-sanitizer not found (install the CUDA toolkit's sanitizer or pass its path): not run";
    return c;
  }
  static std::atomic<int> counter{0};
  std::error_code ec;
  fs::create_directories(tmp_dir, ec);
  fs::path log = tmp_dir / fmt::format("sanitizer-{}-{}-{}.log", tool, getpid(), counter++);
  std::vector<std::string> argv = {compute_sanitizer,  "--tool", to_string(tool), "--log-file", log.string(),
                                   "--error-exitcode", "86",     "--print-limit", "20"};
  for (auto& o : sanitizer_tool_options(tool)) argv.push_back(o);
  argv.insert(argv.end(), worker_argv.begin(), worker_argv.end());
  SpawnOptions options;
  options.env = env;  // the worker's pinning to its GPU
  auto child = ChildProcess::start(argv, options);
  if (!child) {
    c.detail = fmt::format("compute-sanitizer could not start: {}", child.error().message);
    return c;
  }
  nlohmann::json numbered = request;
  const int64_t seq = static_cast<int64_t>(std::random_device{}() & 0x7fffffff);
  numbered["seq"] = seq;
  (*child)->write_line(numbered.dump());
  (*child)->write_line(R"({"op":"shutdown"})");
  std::string line;
  auto got = (*child)->read_line(line, timeout);
  ExitStatus status = got == ChildProcess::ReadStatus::Timeout ? (*child)->kill() : (*child)->finish(timeout);
  std::string text = read_file(log).ok() ? *read_file(log) : "";
  fs::remove(log, ec);
  if (got == ChildProcess::ReadStatus::Timeout) {
    c.detail = fmt::format("{} did not finish within {} s: not run to the end", tool, timeout.count());
    return c;
  }
  auto reply = nlohmann::json::parse(line, nullptr, false);
  std::string findings = sanitizer_findings(text);
  // The worker answers on a channel only it writes to, with the request's
  // number: a reply without it is no evidence of a clean run.
  if (reply.is_object() && (!reply.contains("seq") || reply["seq"] != seq)) {
    c.ok = false;
    c.detail = fmt::format("the worker's reply under {} does not answer its request{}", tool,
                           findings.empty() ? "" : ": " + findings);
    return c;
  }
  std::string reply_status = reply.is_object() ? reply.value("status", "") : "";
  if (status.code == 86 || reply_status == "fault") {
    c.ok = false;
    c.detail = findings.empty() ? fmt::format("{} reported errors", tool) : findings;
    return c;
  }
  if (status.code == 0 && reply_status == "ok") {
    c.ok = true;
    c.detail = findings.empty() ? "no errors" : findings;
    return c;
  }
  std::string why = reply.is_object() && reply.contains("detail") ? reply.value("detail", "") : "";
  if (why.empty()) why = findings;
  if (why.empty()) {
    std::string tail = text.size() > 300 ? text.substr(text.size() - 300) : text;
    why = trim(tail).empty() ? status.describe() : std::string(trim(tail));
  }
  c.detail = fmt::format("compute-sanitizer could not run the kernel here ({}): not checked", why);
  return c;
}

}  // namespace stark::harness
