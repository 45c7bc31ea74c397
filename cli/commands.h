// Factories of the subcommands, one per cmd_*.cpp.
#ifndef STARK_CLI_COMMANDS_H
#define STARK_CLI_COMMANDS_H

#include <memory>

#include "cli/command.h"

namespace stark::cli {

std::unique_ptr<Command> make_scan_command();
std::unique_ptr<Command> make_doctor_command();
std::unique_ptr<Command> make_optimize_command();
std::unique_ptr<Command> make_capture_command();
std::unique_ptr<Command> make_eval_command();
std::unique_ptr<Command> make_report_command();
std::unique_ptr<Command> make_apply_command();
std::unique_ptr<Command> make_cache_command();

}  // namespace stark::cli

#endif  // STARK_CLI_COMMANDS_H
