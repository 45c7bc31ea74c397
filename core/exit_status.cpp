#include "core/exit_status.h"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstring>

namespace stark {

ExitStatus ExitStatus::from_wait_status(int status) {
  if (WIFSIGNALED(status)) return killed_by(WTERMSIG(status));
  return exited(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

std::string ExitStatus::describe() const {
  switch (kind) {
    case Kind::Exited: return fmt::format("exit code {}", code);
    case Kind::Signaled: return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
    case Kind::TimedOut: return "stopped at its time limit";
    case Kind::OutputLimit: return "stopped at its output limit";
  }
  return "ended";
}

}  // namespace stark
