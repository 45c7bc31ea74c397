// The stark command: parses the command line and runs one subcommand.
// Each subcommand lives in its own cmd_*.cpp; this file only dispatches.
#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/console.h"
#include "cli/version.h"

int main(int argc, char** argv) {
  using namespace stark::cli;
  CLI::App app{
      "STARK makes the [[stark::optimize]] CUDA kernels of a CMake project faster:\n"
      "it finds them (scan), records their real inputs while your tests run\n"
      "(capture), searches faster variants (optimize), proves each one correct\n"
      "and faster on the GPU, and hands the winner back (apply, report).",
      "stark"};
  app.set_version_flag("--version", std::string("stark ") + stark_version_string());
  app.require_subcommand(1);
  app.footer(
      "\nTypical use, inside a CMake build tree:\n"
      "  stark doctor                      check the toolchain and the GPU\n"
      "  stark scan -p build               list the kernels marked for STARK\n"
      "  stark optimize -p build -- ctest  search faster kernels, proven on your tests\n"
      "\nRun 'stark <command> --help' for a command's options.");

  auto commands = all_commands();
  std::vector<std::pair<CLI::App*, Command*>> subs;
  for (auto& c : commands) subs.emplace_back(c->add_to(app), c.get());

  // `stark`, `stark help` and `stark version` do what they say.
  std::string_view first = argc > 1 ? argv[1] : "";
  if (argc == 1 || first == "help") {
    fmt::print("{}", app.help());
    return argc == 1 ? kExitUsage : kExitOk;
  }
  if (first == "version") {
    fmt::print("stark {}\n", stark_version_string());
    return kExitOk;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string unknown = unknown_argument_message(app, argc, argv);
    print_error(unknown.empty() ? e.what() : unknown);
    std::string which;
    for (auto& [sub, cmd] : subs)
      if (sub->parsed()) which = " " + sub->get_name();
    fmt::print(stderr, "Run 'stark{} --help' for usage.\n", which);
    return kExitUsage;
  }

  for (auto& [sub, cmd] : subs)
    if (sub->parsed()) return cmd->run();
  return kExitUsage;
}
