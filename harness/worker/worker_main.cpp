// stark-worker: the GPU worker. Reads one JSON request per line on stdin and
// writes one JSON reply per line on stdout (worker/protocol.h). Exits at the
// end of its input, on "shutdown", and after a kernel faulted or hung (the
// GPU context is then unusable; whoever started it starts a new one).
//
//   stark-worker [--device N]
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "harness/worker/session.h"

int main(int argc, char** argv) {
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--device" || a == "-d") && i + 1 < argc) {
      device = std::atoi(argv[++i]);
    } else if (a == "--help" || a == "-h") {
      fmt::print("usage: stark-worker [--device N]\n"
                 "Evaluates STARK kernel variants on one GPU; speaks JSON lines on stdin/stdout.\n"
                 "Started by stark itself; see docs/capture-store.md for the protocol.\n");
      return 0;
    } else {
      fmt::print(stderr, "stark-worker: error: unknown argument '{}' (usage: stark-worker [--device N])\n", a);
      return 2;
    }
  }
  std::ios::sync_with_stdio(false);
  stark::harness::Session session(device);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    nlohmann::json reply;
    auto request = nlohmann::json::parse(line, nullptr, false);
    if (request.is_discarded()) reply = {{"status", "error"}, {"detail", "malformed request: not JSON"}};
    else reply = session.handle(request);
    std::string out = reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
    if (session.must_exit()) {
      // A faulted or hung kernel leaves the context unusable; exit without
      // running destructors that would wait on it.
      std::_Exit(0);
    }
  }
  return 0;
}
