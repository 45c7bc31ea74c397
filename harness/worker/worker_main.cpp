// stark-worker: the GPU worker. Reads one JSON request per line on stdin and
// writes one JSON reply per line on stdout (worker/protocol.h). Exits at the
// end of its input, on "shutdown", and after a kernel faulted or hung (the
// GPU context is then unusable; whoever started it starts a new one).
//
// The replies travel on a private copy of the stdout the worker was started
// with; file descriptor 1 itself is pointed at stderr before anything runs.
// A candidate kernel's device printf (and anything else that writes to
// "stdout" inside this process) therefore lands on stderr and can never
// be read as a reply (docs/threat-model.md, "The worker's reply").
//
//   stark-worker [--device N] [--no-gpu] [--cache DIR]
//
// --no-gpu: a worker without a GPU (worker/no_gpu_check.h): it receives and
// verifies shipped files and checks what needs no device; it runs nothing.
// --cache: where shipped files are kept (default: a folder of this node's
// temporary directory, shared by its workers).
#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "harness/worker/session.h"

namespace {

/// Moves the reply stream off file descriptor 1: returns a stream on a
/// close-on-exec duplicate of the original stdout and points descriptor 1 at
/// stderr, so nothing else in the process can write to the reply channel.
std::FILE* private_reply_channel() {
  std::fflush(stdout);
  int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (fd < 0) return nullptr;
  if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return nullptr;
  return fdopen(fd, "w");
}

}  // namespace

int main(int argc, char** argv) {
  stark::harness::SessionOptions options;
  const char* usage = "usage: stark-worker [--device N] [--no-gpu] [--cache DIR]";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--device" || a == "-d") && i + 1 < argc) {
      options.device = std::atoi(argv[++i]);
    } else if (a == "--no-gpu") {
      options.no_gpu = true;
    } else if (a == "--cache" && i + 1 < argc) {
      options.cache_dir = argv[++i];
    } else if (a == "--help" || a == "-h") {
      fmt::print(
          "{}\n"
          "Evaluates STARK kernel variants on one GPU; speaks JSON lines on stdin/stdout.\n"
          "Started by stark itself; see docs/CONTRACTS.md for the protocol.\n",
          usage);
      return 0;
    } else {
      fmt::print(stderr, "stark-worker: error: unknown argument '{}' ({})\n", a, usage);
      return 2;
    }
  }
  std::FILE* replies = private_reply_channel();
  if (!replies) {
    fmt::print(stderr, "stark-worker: error: cannot set up the reply channel: {}\n", std::strerror(errno));
    return 2;
  }
  std::ios::sync_with_stdio(false);
  stark::harness::Session session(options);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    nlohmann::json reply;
    auto request = nlohmann::json::parse(line, nullptr, false);
    // A "put" line is followed by its blob's bytes: read them all before
    // answering, so the stream stays in step even when the blob is refused.
    std::string payload;
    if (!request.is_discarded() && request.is_object() && request.value("op", "") == "put") {
      auto bytes = request.value("bytes", int64_t{-1});
      if (bytes < 0) {
        fmt::print(stderr, "stark-worker: error: a put request without its byte count; the stream is lost\n");
        return 2;
      }
      payload.resize(static_cast<size_t>(bytes));
      if (!std::cin.read(payload.data(), bytes)) {
        fmt::print(stderr, "stark-worker: error: the input ended inside a blob ({} of {} bytes)\n", std::cin.gcount(),
                   bytes);
        return 2;
      }
    }
    if (request.is_discarded()) reply = {{"status", "error"}, {"detail", "malformed request: not JSON"}};
    else reply = session.handle(request, payload);
    // The sequence number says which request this answers (worker/protocol.h).
    if (request.is_object() && request.contains("seq")) reply["seq"] = request["seq"];
    std::string out = reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::fflush(stdout);  // whatever a kernel printed goes out first, on stderr
    std::fwrite(out.data(), 1, out.size(), replies);
    std::fflush(replies);
    if (session.must_exit()) {
      // A faulted or hung kernel leaves the context unusable; exit without
      // running destructors that would wait on it.
      std::_Exit(0);
    }
  }
  return 0;
}
