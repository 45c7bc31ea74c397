// stark apply: hand an optimize result back as a patch, in-place edits, or
// variant files the CMake module compiles instead of the originals.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <thread>

#include "clang_tool/build_info.h"
#include "clang_tool/nvcc_args.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "core/folder_lock.h"
#include "rewriter/apply.h"
#include "rewriter/check_command.h"

namespace stark::cli {

namespace {

namespace fs = std::filesystem;

std::string last_lines(const std::string& text, size_t n) {
  size_t pos = text.size();
  for (size_t seen = 0; pos > 0 && seen <= n;)
    if (text[--pos] == '\n') ++seen;
  return pos == 0 ? text : "  ...\n" + text.substr(pos + 1);
}

class ApplyCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub = app.add_subcommand("apply", "Hand an optimize result back: a patch, in-place edits, or variant files");
    sub->add_option("--result", result_dir_, "Result directory of stark optimize (holds result.json)")
        ->required()
        ->transform(absolute_path());
    sub->add_option("--mode", mode_, "patch (a unified diff), inplace (edit the sources), variants (files for CMake)")
        ->check(CLI::IsMember({"patch", "inplace", "variants"}));
    sub->add_option("-o,--output", output_,
                    "patch: write the diff here (default: standard output); variants: the folder (default: "
                    "RESULT/variants); inplace: the backup folder (default: RESULT/backup/<time>)")
        ->transform(absolute_path());
    sub->add_option("--kernel", kernels_,
                    "Apply only this kernel id (repeat the option for several; default: every improved kernel)")
        ->allow_extra_args(false);
    sub->add_option("-p,--build-dir", build_dir_,
                    "Local build tree whose compile database and CMake cache the compile check uses (default: the "
                    "manifest's build folder, its compile_commands.json only)")
        ->transform(absolute_path());
    sub->add_flag("--no-compile-check", no_check_, "Do not compile the rewritten sources for every arch first");
    sub->add_flag("--recover", recover_,
                  "Finish (or, when it cannot, undo) a --mode inplace run that was interrupted; its journal is in "
                  "the source root");
    sub->add_option("-j,--jobs", jobs_, "Compiles run in parallel (default: one per core)")
        ->check(whole_number(0, 1024));
    sub->footer(
        "\nOnly kernels whose status is \"improved\" are applied. Each one's variant passes the variant check\n"
        "again first (the result folder is not trusted): one that fails stops the apply before any file is\n"
        "written. Each variant's source replaces its range\n"
        "(annotation kept, a comment says where it came from), and a launch override is written into\n"
        "every launch site with that call's own argument expressions. Before anything is handed back,\n"
        "each translation unit involved is compiled with its own nvcc command for every arch the target\n"
        "builds; a kernel that fails, or whose sources changed since the scan, is refused (exit 1) and\n"
        "the others are still applied.\n"
        "\nExamples:\n"
        "  stark apply --result build/stark/ops > stark.patch     review, then: git apply stark.patch\n"
        "  stark apply --result build/stark/ops --mode inplace    edit the sources (backup in RESULT/backup)\n"
        "  stark apply --result build/stark/ops --mode variants   what stark_optimize_target() runs\n");
    return sub;
  }

  int run() override {
    if (recover_) return recover();
    rewriter::ApplyRequest request;
    request.result_dir = result_dir_;
    request.mode = mode_ == "inplace"    ? rewriter::ApplyMode::Inplace
                   : mode_ == "variants" ? rewriter::ApplyMode::Variants
                                         : rewriter::ApplyMode::Patch;
    request.output = output_;
    request.only = kernels_;
    request.compile_check = !no_check_;
    request.jobs = jobs_ > 0 ? jobs_ : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    request.note = [](const std::string& s) { print_note(s); };
    // nvcc takes seconds per unit and arch: one line per compile, or one
    // line redrawn on a terminal.
    const bool tty = isatty(STDERR_FILENO);
    request.compile_progress = [tty](size_t done, size_t total, const std::string& file, const std::string& sm) {
      std::string line = fmt::format("stark: compile check [{}/{}] {} (sm_{})", done, total, file, sm);
      if (tty) fmt::print(stderr, "\r\033[K{}{}", line, done == total ? "\n" : "");
      else fmt::print(stderr, "{}\n", line);
      std::fflush(stderr);
    };
    // Modes that write beside the result wait for no optimize run into it.
    std::optional<FolderLock> lock;
    std::error_code ec;
    if (request.mode != rewriter::ApplyMode::Patch && fs::is_directory(result_dir_, ec)) {
      auto held = FolderLock::acquire(result_dir_, "stark apply");
      if (!held) {
        print_error(held.error().message);
        return kExitFailed;
      }
      lock.emplace(std::move(*held));
    }
    if (request.compile_check && !load_database(request)) return kExitFailed;
    auto setup = locate_clang_setup();  // the variant check, which every variant passes again
    if (!setup) {
      print_error(setup.error().message);
      return kExitFailed;
    }
    request.validator = [setup = *setup](const Manifest& m) {
      return std::make_unique<ClangVariantValidator>(setup, m.source_root);
    };

    auto report = rewriter::apply_result(request);
    if (!report) {
      print_error(report.error().message);
      return kExitFailed;
    }
    for (const auto& f : report->failures) {
      print_error(fmt::format("{} does not compile for sm_{} with the variant of {}:", f.file, f.sm,
                              fmt::join(f.kernels, ", ")));
      fmt::print(stderr, "{}\n", last_lines(f.log, 30));
    }
    for (const auto& r : report->plan.refused) print_error(fmt::format("{}: not applied: {}", r.kernel, r.message));
    for (const auto& k : report->unchecked)
      print_warning(
          fmt::format("{}: its translation unit is not in the local build's compile database (-p BUILD); "
                      "not compile-checked",
                      k));

    if (request.mode == rewriter::ApplyMode::Patch && output_.empty()) fmt::print("{}", report->patch);
    print_note(summary(*report, request.mode));
    return report->plan.refused.empty() ? kExitOk : kExitFailed;
  }

 private:
  /// The compile check's units and programs come from the local build, never
  /// from the result: -p BUILD (its compile_commands.json, else the CMake File
  /// API reply of its last configure; its CMake cache may name nvcc and the
  /// host compiler), else the build folder the result names, of which only
  /// compile_commands.json is read. The program is always a local nvcc.
  bool load_database(rewriter::ApplyRequest& request) {
    const bool named = !build_dir_.empty();
    fs::path build = build_dir_;
    if (!named) {
      auto result = load_result(result_dir_);
      if (!result) return true;  // apply_result reports it
      auto manifest = rewriter::load_result_manifest(*result, result_dir_);
      if (!manifest) return true;
      build = manifest->build_dir;
    }
    rewriter::CheckToolchain toolchain;
    toolchain.nvcc = cuda_path_of({}) / "bin" / "nvcc";
    std::error_code ec;
    if (build.empty() || !fs::is_directory(build, ec)) {
      request.builder = rewriter::check_command_builder(toolchain);
      return true;  // every kernel is reported unchecked
    }
    toolchain.options_root = build;
    if (named) rewriter::use_cmake_cache(build, toolchain);
    request.builder = rewriter::check_command_builder(toolchain);
    if (fs::path db = build / "compile_commands.json"; fs::is_regular_file(db, ec)) {
      auto units = read_compile_commands(db);
      if (!units) {
        print_error(units.error().message);
        return false;
      }
      request.database = std::move(*units);
    } else if (auto info = named ? read_file_api_reply(build) : Expected<BuildInfo>(Error{""})) {
      request.database = std::move(info->units);  // read only: CMake is not run
    }
    return true;
  }

  int recover() const {
    auto result = load_result(result_dir_);
    if (!result) {
      print_error(result.error().message);
      return kExitFailed;
    }
    auto manifest = rewriter::load_result_manifest(*result, result_dir_);
    if (!manifest) {
      print_error(manifest.error().message);
      return kExitFailed;
    }
    auto r = rewriter::recover_in_place(manifest->source_root);
    if (!r) {
      print_error(r.error().message);
      return kExitFailed;
    }
    bool finished = r->outcome == rewriter::Recovery::Outcome::Finished;
    print_note(fmt::format("{} the interrupted apply; {}: {}", finished ? "finished" : "undid",
                           finished ? "new content in" : "original content back in", fmt::join(r->files, ", ")));
    return kExitOk;
  }

  static std::string summary(const rewriter::ApplyReport& r, rewriter::ApplyMode mode) {
    size_t applied = r.plan.kernels.size();
    std::string kernels = fmt::format("{} kernel{}", applied, applied == 1 ? "" : "s");
    std::string files = fmt::format("{} file{}", r.plan.files.size(), r.plan.files.size() == 1 ? "" : "s");
    std::string rest;
    if (!r.plan.refused.empty()) rest += fmt::format("; {} refused", r.plan.refused.size());
    if (r.plan.skipped) rest += fmt::format("; {} not improved, left as they are", r.plan.skipped);
    if (applied == 0 && mode != rewriter::ApplyMode::Variants) return "nothing to apply" + rest;
    switch (mode) {
      case rewriter::ApplyMode::Patch:
        return fmt::format("patch of {} in {}{}{}", kernels, files,
                           r.written.empty() ? "" : " -> " + r.written.string(), rest);
      case rewriter::ApplyMode::Inplace:
        return fmt::format("rewrote {} for {}; originals backed up in {}{}", files, kernels, r.written.string(), rest);
      case rewriter::ApplyMode::Variants:
        return fmt::format("variants of {} in {} -> {} (stark_optimize_target() compiles them at the next configure){}",
                           kernels, files, r.written.string(), rest);
    }
    return rest;
  }

  std::string result_dir_, mode_ = "patch", output_, build_dir_;
  std::vector<std::string> kernels_;
  bool no_check_ = false, recover_ = false;
  int jobs_ = 0;
};

}  // namespace

std::unique_ptr<Command> make_apply_command() { return std::make_unique<ApplyCommand>(); }

}  // namespace stark::cli
