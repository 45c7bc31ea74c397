#include "rewriter/check_command.h"

#include <fmt/format.h>

#include "core/file_io.h"
#include "core/nvcc_flags.h"
#include "core/paths.h"
#include "core/text.h"

namespace stark::rewriter {

namespace fs = std::filesystem;

namespace {

std::string basename(const std::string& s) { return fs::path(s).filename().string(); }

/// The path of an options file, when it lies inside `root` (links resolved).
std::optional<fs::path> options_file(const fs::path& dir, const std::string& name, const fs::path& root) {
  if (root.empty()) return std::nullopt;
  fs::path abs = absolute_normal(dir / name), base = absolute_normal(root);
  if (!is_within(abs, base)) return std::nullopt;
  auto confined = confine_path(base, abs.lexically_relative(base).generic_string());
  if (!confined) return std::nullopt;
  return *confined;
}

/// The arguments after the compiler, options files inside the build folder
/// expanded in place (others are left out and listed in `dropped`).
Expected<std::vector<std::string>> expanded_arguments(const CompileCommand& unit, const fs::path& dir,
                                                      const fs::path& options_root, std::vector<std::string>& dropped) {
  const auto& args = unit.arguments;
  size_t first = 0;
  while (first < args.size() && (basename(args[first]) == "ccache" || basename(args[first]) == "sccache")) ++first;
  if (first >= args.size()) return Error{fmt::format("the build's command for {} names no compiler", unit.file)};
  if (basename(args[first]) != "nvcc")
    return Error{fmt::format("the build compiles {} with '{}', not nvcc; the compile check uses nvcc only", unit.file,
                             basename(args[first]))};
  std::vector<std::string> out;
  for (size_t i = first + 1; i < args.size(); ++i) {
    std::string rsp = options_file_at(args, i);
    if (rsp.empty()) {
      out.push_back(args[i]);
      continue;
    }
    auto path = options_file(dir, rsp, options_root);
    auto text = path ? read_file(*path) : Expected<std::string>(Error{""});
    if (!text) {
      dropped.push_back("--options-file=" + rsp);
      continue;
    }
    for (auto& part : shell_split(*text)) out.push_back(part);
  }
  return out;
}

}  // namespace

Expected<CheckCommand> check_command(const CompileCommand& unit, const std::string& sm, const fs::path& output,
                                     const fs::path& source_root, const fs::path& tree,
                                     const CheckToolchain& toolchain) {
  if (!valid_sm(sm)) return Error{fmt::format("'{}' is not a GPU arch (a number such as 90)", sm)};
  if (toolchain.nvcc.empty()) return Error{"no local nvcc for the compile check"};
  const fs::path dir = unit.directory.empty() ? fs::current_path() : fs::path(unit.directory);
  const fs::path file = absolute_normal(dir / unit.file), root = absolute_normal(source_root);
  auto map_path = [&](const std::string& p) {
    fs::path abs = absolute_normal(dir / p);
    if (!tree.empty() && is_within(abs, root)) return (tree / fs::relative(abs, root)).lexically_normal().string();
    return abs.string();
  };

  CheckCommand command;
  auto args = expanded_arguments(unit, dir, toolchain.options_root, command.dropped);
  if (!args) return args.error();
  size_t sources = std::erase_if(
      *args, [&](const std::string& a) { return !a.empty() && a[0] != '-' && absolute_normal(dir / a) == file; });
  if (sources == 0) return Error{fmt::format("the build's command for {} does not name that file", file.string())};
  // -dc is "relocatable, and compile": the check compiles (-c) itself, and a
  // unit that uses other units' device code must stay relocatable to compile.
  for (auto& a : *args)
    if (a == "-dc" || a == "--device-c") a = "-rdc=true";
  NvccFlags flags = allowed_nvcc_flags(*args, map_path);

  command.argv = {toolchain.nvcc.string()};
  if (!toolchain.host_compiler.empty()) command.argv.push_back("-ccbin=" + toolchain.host_compiler);
  command.argv.insert(command.argv.end(), flags.kept.begin(), flags.kept.end());
  for (const auto& d :
       {"-arch=sm_" + sm, std::string("-c"), std::string("-o"), output.string(), map_path(file.string())})
    command.argv.push_back(d);
  command.dropped.insert(command.dropped.end(), flags.dropped.begin(), flags.dropped.end());
  return command;
}

void use_cmake_cache(const fs::path& build_dir, CheckToolchain& toolchain) {
  auto text = read_file(build_dir / "CMakeCache.txt");
  if (!text) return;
  for (auto line : split(*text, '\n')) {
    // NAME:TYPE=VALUE
    auto colon = line.find(':'), eq = line.find('=');
    if (colon == std::string_view::npos || eq == std::string_view::npos || eq < colon) continue;
    std::string_view name = line.substr(0, colon);
    std::string value(trim(line.substr(eq + 1)));
    std::error_code ec;
    if (name == "CMAKE_CUDA_COMPILER" && basename(value) == "nvcc" && fs::is_regular_file(value, ec))
      toolchain.nvcc = value;
    else if (name == "CMAKE_CUDA_HOST_COMPILER" && !value.empty() && fs::path(value).is_absolute())
      toolchain.host_compiler = value;
  }
}

CommandBuilder check_command_builder(CheckToolchain toolchain) {
  return [toolchain = std::move(toolchain)](const CompileCommand& unit, const std::string& sm, const fs::path& output,
                                            const fs::path& source_root, const fs::path& tree) {
    return check_command(unit, sm, output, source_root, tree, toolchain);
  };
}

}  // namespace stark::rewriter
