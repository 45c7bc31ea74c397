#include "harness/testing/worker_loss.h"

#include <signal.h>

#include <chrono>
#include <thread>

namespace stark::harness::testing {

void lose_mid_flight(int64_t pid) {
  kill(static_cast<pid_t>(pid), SIGSTOP);
  std::thread([pid] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(static_cast<pid_t>(pid), SIGKILL);
  }).detach();
}

}  // namespace stark::harness::testing
