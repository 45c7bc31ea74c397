// One `stark` subcommand = one small class in its own file (cmd_*.cpp).
#ifndef STARK_CLI_COMMAND_H
#define STARK_CLI_COMMAND_H

#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

namespace stark::cli {

/// Exit codes of docs/CONTRACTS.md.
enum ExitCode { kExitOk = 0, kExitFailed = 1, kExitUsage = 2 };

/// A subcommand: declares its options on its CLI11 sub-app, then runs.
class Command {
 public:
  virtual ~Command() = default;
  /// Adds the sub-app with its description, options and a help epilog.
  virtual CLI::App* add_to(CLI::App& app) = 0;
  /// Runs after a successful parse; returns the process exit code.
  virtual int run() = 0;
};

/// Every subcommand, in the order `stark --help` lists them.
std::vector<std::unique_ptr<Command>> all_commands();

}  // namespace stark::cli

#endif  // STARK_CLI_COMMAND_H
