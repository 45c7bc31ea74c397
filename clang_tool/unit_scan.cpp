#include "clang_tool/unit_scan.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "clang_tool/annotation.h"
#include "clang_tool/clang_errors.h"
#include "clang_tool/fingerprint.h"
#include "clang_tool/kernel_collector.h"
#include "clang_tool/macro_log.h"
#include "core/paths.h"

namespace stark {

namespace {

class CollectConsumer : public clang::ASTConsumer {
 public:
  CollectConsumer(UnitScan& unit, const ClangSetup& setup, const ClangErrorCollector& errors,
                  std::unique_ptr<ToolchainFiles> toolchain, std::unique_ptr<MacroLog> macros)
      : unit_(unit), setup_(setup), errors_(errors), toolchain_(std::move(toolchain)), macros_(std::move(macros)) {}

  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    note_cuda_wrappers(ctx.getSourceManager());
    // Host code nvcc accepts may not parse with clang: the kernels it does
    // not touch are still read (the collector judges each one).
    KernelFingerprinter fingerprinter(ctx, *macros_, *toolchain_);
    collect_kernels(ctx, unit_, &fingerprinter, ParseErrors{errors_.clang_errors(), errors_.fatal()});
  }

 private:
  // Which cuda_wrappers folder the parse really read: a relocated binary
  // may silently fall back to a system copy, or to none.
  void note_cuda_wrappers(const clang::SourceManager& sm) {
    std::string ours = (setup_.resource_dir / "include" / "cuda_wrappers").lexically_normal().string();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      std::string path = absolute_normal(std::string(it->first.getName())).string();
      auto at = path.find("/cuda_wrappers/");
      if (at == std::string::npos) continue;
      unit_.cuda_wrappers = path.substr(0, at + std::string("/cuda_wrappers").size());
      if (unit_.cuda_wrappers == ours) return;
    }
  }

  UnitScan& unit_;
  const ClangSetup& setup_;
  const ClangErrorCollector& errors_;
  std::unique_ptr<ToolchainFiles> toolchain_;
  std::unique_ptr<MacroLog> macros_;
};

class CollectAction : public clang::ASTFrontendAction {
 public:
  CollectAction(UnitScan& unit, const ClangSetup& setup, const ClangErrorCollector& errors,
                std::filesystem::path cuda_path)
      : unit_(unit), setup_(setup), errors_(errors), cuda_path_(std::move(cuda_path)) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    report_annotations_after_definitions(ci.getDiagnostics());
    // The toolkit's and clang's headers are keyed by their versions, not walked.
    auto toolchain = std::make_unique<ToolchainFiles>(
        ci.getSourceManager(), std::vector<std::filesystem::path>{setup_.resource_dir, setup_.stub_dir, cuda_path_});
    auto macros = std::make_unique<MacroLog>(*toolchain);
    ci.getPreprocessor().addPPCallbacks(macros->recorder(ci.getPreprocessor()));
    return std::make_unique<CollectConsumer>(unit_, setup_, errors_, std::move(toolchain), std::move(macros));
  }

 private:
  UnitScan& unit_;
  const ClangSetup& setup_;
  const ClangErrorCollector& errors_;
  std::filesystem::path cuda_path_;
};

/// clang's errors in a unit the build compiled become warnings, the first
/// kMaxShown of them, and one line counting the rest.
void demote_clang_errors(UnitScan& unit, const std::vector<size_t>& clang_errors, const std::string& file) {
  constexpr size_t kMaxShown = 10;
  std::set<size_t> dropped(clang_errors.begin() + static_cast<std::ptrdiff_t>(std::min(kMaxShown, clang_errors.size())),
                           clang_errors.end());
  for (size_t i : clang_errors) {
    Diagnostic& d = unit.diagnostics[i];
    d.level = Severity::Warning;
    d.message = "clang (which STARK parses with) rejects this, though the build compiles it: " + d.message;
  }
  if (dropped.empty()) return;
  std::vector<Diagnostic> kept;
  for (size_t i = 0; i < unit.diagnostics.size(); ++i)
    if (!dropped.count(i)) kept.push_back(std::move(unit.diagnostics[i]));
  kept.push_back(
      {file, 0, 0, Severity::Warning, fmt::format("and {} more errors clang reports in this unit", dropped.size())});
  unit.diagnostics = std::move(kept);
}

}  // namespace

UnitScan scan_unit(const CompileCommand& command, const ClangSetup& setup) {
  register_stark_attribute();
  auto start = std::chrono::steady_clock::now();
  UnitScan unit;
  unit.file = command.file;

  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs(llvm::vfs::createPhysicalFileSystem().release());
  fs->setCurrentWorkingDirectory(command.directory);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), fs));
  ClangErrorCollector errors(unit.diagnostics, command.directory);
  clang::tooling::ToolInvocation invocation(
      clang_arguments(command, setup),
      std::make_unique<CollectAction>(unit, setup, errors, cuda_path_of(command.arguments)), files.get());
  invocation.setDiagnosticConsumer(&errors);
  bool ok = invocation.run();
  if (!ok && unit.diagnostics.empty())
    unit.diagnostics.push_back(
        {command.file, 0, 0, Severity::Error, "clang could not parse this translation unit (see the messages above)"});
  // The build compiled this unit, so what only clang rejects is a warning;
  // a kernel it touches is an error of its own (the collector's). A parse
  // that could not go on stays an error: its kernels were not read.
  if (!errors.fatal()) demote_clang_errors(unit, errors.clang_errors(), command.file);
  if (ok || unit.kernels.size() + unit.launches.size() > 0) {
    std::string ours = (setup.resource_dir / "include" / "cuda_wrappers").lexically_normal().string();
    if (unit.cuda_wrappers != ours)
      unit.diagnostics.push_back(
          {command.file, 0, 0, Severity::Error,
           unit.cuda_wrappers.empty()
               ? fmt::format("clang parsed this file without its CUDA wrapper headers ('{}' was not used); "
                             "the parse would not match nvcc's (check `stark doctor`)",
                             ours)
               : fmt::format("clang took its CUDA wrapper headers from '{}' instead of '{}'; the parse would not "
                             "match nvcc's (check `stark doctor`)",
                             unit.cuda_wrappers, ours)});
  }
  unit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return unit;
}

}  // namespace stark
