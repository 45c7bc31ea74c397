// stark scan: find the [[stark::optimize]] kernels of a build and write the manifest.
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>

#include "clang_tool/scan.h"
#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "core/file_io.h"
#include "report/kernel_list.h"

namespace stark::cli {

namespace {

class ScanCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub = app.add_subcommand("scan", "Find the [[stark::optimize]] kernels of a build; print the manifest");
    sub->add_option("-p,--build-dir", build_dir_, "Build tree with compile_commands.json or a CMake File API reply")
        ->required()
        ->transform(absolute_path());
    sub->add_option("--target", target_, "Only this CMake target's sources");
    sub->add_option("--config", config_, "Configuration of a multi-config build whose flags to use (Release, ...)");
    sub->add_option("--source-root", source_root_,
                    "Folder manifest paths are relative to (default: the CMake source dir, else the git top level)")
        ->transform(absolute_path());
    sub->add_option("-o,--output", output_, "Write the manifest here instead of standard output")
        ->transform(absolute_path());
    sub->add_option("-j,--jobs", jobs_, "Translation units parsed in parallel (default: one per core)")
        ->check(whole_number(0, 1024));
    sub->add_flag("--timings", timings_, "Print the parse time of each translation unit");
    auto* list = sub->add_flag(
        "--list", list_, "Print a table of kernel ids, instantiations and launch sites (the default on a terminal)");
    sub->add_flag("--json", json_, "Print the manifest JSON even on a terminal")->excludes(list);
    sub->footer(
        "\nThe manifest (stark.manifest/1) lists each marked kernel with its parameters, every\n"
        "instantiation's device symbol, its launch sites and options; later stages read it.\n"
        "Problems in your sources are printed as file:line:col: error: ... and make the exit code 1;\n"
        "the other files are still scanned.\n"
        "\nExamples:\n"
        "  stark scan -p build                      every CUDA file of the build\n"
        "  stark scan -p build --list               the kernel ids --kernel takes, as a table\n"
        "  stark scan -p build --target ops -o m.json\n");
    return sub;
  }

  int run() override {
    ScanOptions options;
    options.build_dir = build_dir_;
    options.target = target_;
    options.config = config_;
    options.source_root = source_root_;
    options.jobs = jobs_;
    bool tty = isatty(STDERR_FILENO);
    if (tty)
      options.progress = [](const std::string& file, size_t done, size_t total) {
        fmt::print(stderr, "\r\033[K[{}/{}] scanned {}", done, total, std::filesystem::path(file).filename().string());
        std::fflush(stderr);
      };
    auto out = scan_build(options);
    if (tty) fmt::print(stderr, "\r\033[K");
    if (!out) {
      print_error(out.error().message);
      return kExitFailed;
    }
    const Manifest& m = out->manifest;
    for (const auto& d : m.diagnostics) print_diagnostic(d);

    if (!output_.empty())
      if (auto ok = write_file_atomic(output_, nlohmann::json(m).dump(2) + "\n"); !ok) {
        print_error(ok.error().message);
        return kExitFailed;
      }
    if (list_ || (output_.empty() && !json_ && isatty(STDOUT_FILENO))) fmt::print("{}", report::kernel_list(m));
    else if (output_.empty()) fmt::print("{}", nlohmann::json(m).dump(2) + "\n");

    size_t instantiations = 0, launches = 0;
    for (const auto& k : m.kernels) {
      instantiations += k.instantiations.size();
      launches += k.launches.size();
    }
    if (timings_)
      for (const auto& t : out->timings) fmt::print(stderr, "  {:7.3f} s  {}\n", t.seconds, t.file);
    print_note(fmt::format("{} kernel{} ({} instantiation{}, {} launch site{}) in {} translation unit{}{}",
                           m.kernels.size(), m.kernels.size() == 1 ? "" : "s", instantiations,
                           instantiations == 1 ? "" : "s", launches, launches == 1 ? "" : "s", out->timings.size(),
                           out->timings.size() == 1 ? "" : "s", output_.empty() ? "" : " -> " + output_));
    return m.has_errors() ? kExitFailed : kExitOk;
  }

 private:
  std::string build_dir_, target_, config_, source_root_, output_;
  int jobs_ = 0;
  bool timings_ = false, list_ = false, json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_scan_command() { return std::make_unique<ScanCommand>(); }

}  // namespace stark::cli
