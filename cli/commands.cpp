// The list of subcommands. Add a new one here and in its own cmd_*.cpp.
#include "cli/command.h"
#include "cli/commands.h"

namespace stark::cli {

std::vector<std::unique_ptr<Command>> all_commands() {
  std::vector<std::unique_ptr<Command>> out;
  out.push_back(make_scan_command());
  out.push_back(make_capture_command());
  out.push_back(make_eval_command());
  out.push_back(make_optimize_command());
  out.push_back(make_doctor_command());
  out.push_back(make_report_command());
  out.push_back(make_apply_command());
  out.push_back(make_cache_command());
  return out;
}

}  // namespace stark::cli
