#include "core/child_groups.h"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace stark {

namespace {

// A fixed table of lock-free slots: the handler may only read it, and may run
// while another thread adds or removes a group. More groups alive at once than
// slots go untracked (they still end by their own time limit).
constexpr int kSlots = 512;
std::atomic<pid_t> g_groups[kSlots];
static_assert(std::atomic<pid_t>::is_always_lock_free, "the signal handler reads the table");

extern "C" void pass_signal_on(int sig) {
  for (auto& slot : g_groups) {
    pid_t leader = slot.load(std::memory_order_relaxed);
    if (leader > 0) ::kill(-leader, sig);
  }
  // End as the signal says, with its default action (the exit status shows it).
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current{};
    if (::sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction on{};
    on.sa_handler = pass_signal_on;
    sigemptyset(&on.sa_mask);
    on.sa_flags = SA_RESTART;
    ::sigaction(sig, &on, nullptr);
  }
}

}  // namespace

void track_child_group(pid_t leader) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  for (auto& slot : g_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, leader)) return;
  }
}

void forget_child_group(pid_t leader) {
  for (auto& slot : g_groups) {
    pid_t expected = leader;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

}  // namespace stark
