// Compiling the rewritten sources before anything is handed back: every
// translation unit that defines an applied kernel or holds one of its launch
// sites is compiled from the variant tree, once for each arch the target
// builds, with the unit's command from the local build's compile database
// (never one from the result or its manifest: see check_command.h), paths
// in the source root mapped into the tree. A unit that fails refuses the
// kernels it holds.
#ifndef STARK_REWRITER_COMPILE_CHECK_H
#define STARK_REWRITER_COMPILE_CHECK_H

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/nvcc_flags.h"
#include "rewriter/apply_plan.h"

namespace stark::rewriter {

/// One translation unit to compile from the tree.
struct CheckUnit {
  CompileCommand command;
  std::vector<std::string> archs;    // "80", "90"
  std::vector<std::string> kernels;  // applied kernels it defines or launches
};

/// The units to check, all taken from `database` (the local build's
/// compile_commands.json, may be empty): each applied kernel's own unit
/// (the entry for the manifest's "compile" file, or for the kernel's file)
/// and the unit of every launch-site source file. The manifest only says
/// which files; how to compile them comes from the database alone. Kernels
/// whose own unit is not in it are listed in `unchecked`.
/// The absolute path of the unit a compile command compiles.
std::filesystem::path unit_file(const CompileCommand& c);

std::vector<CheckUnit> check_units(const ApplyPlan& plan, const Manifest& manifest,
                                   const std::vector<CompileCommand>& database, std::vector<std::string>& unchecked);

/// One compile of the check: its argv, and the unit's flags left out of it
/// (shown when the compile fails).
struct CheckCommand {
  std::vector<std::string> argv;
  std::vector<std::string> dropped;
};

/// Builds the command that compiles `command`'s unit for one arch into
/// `output`, with every path inside `source_root` mapped into `tree`
/// (check_command_builder in check_command.h).
using CommandBuilder = std::function<Expected<CheckCommand>(
    const CompileCommand& command, const std::string& sm, const std::filesystem::path& output,
    const std::filesystem::path& source_root, const std::filesystem::path& tree)>;

struct CheckFailure {
  std::string file;  // the unit, relative to the source root when inside it
  std::string sm;
  std::string log;  // the compiler's output (or why it could not run)
  std::vector<std::string> kernels;
};

struct CheckSetup {
  std::filesystem::path source_root;
  std::filesystem::path tree;
  std::filesystem::path scratch;  // object files go here
  CommandBuilder builder;
  int jobs = 1;
  /// Called after each compile (serialised): compiles done, total, the unit
  /// shown relative to the source root, and its arch.
  std::function<void(size_t, size_t, const std::string&, const std::string&)> progress;
  /// Per compile; past it the compiler is stopped and the unit fails.
  std::chrono::milliseconds timeout = kNvccTimeout;
};

/// Compiles every unit for each of its archs, `jobs` at a time.
std::vector<CheckFailure> compile_check(const std::vector<CheckUnit>& units, const CheckSetup& setup);

/// The include folders (-I, -isystem, -iquote) of a command that lie inside `source_root`.
std::vector<std::filesystem::path> include_dirs_within(const CompileCommand& command,
                                                       const std::filesystem::path& source_root);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_COMPILE_CHECK_H
