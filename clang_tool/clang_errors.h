// Shared by the clang translation units of clang_tool/ (includes clang
// headers: never include it from elsewhere). Turns clang's errors into
// STARK diagnostics.
#ifndef STARK_CLANG_TOOL_CLANG_ERRORS_H
#define STARK_CLANG_TOOL_CLANG_ERRORS_H

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/paths.h"

namespace stark {

/// Keeps clang's errors (not warnings: the build compiles with its own
/// compiler and flags, so a clang-only warning is noise), with absolute paths.
class ClangErrorCollector : public clang::DiagnosticConsumer {
 public:
  ClangErrorCollector(std::vector<Diagnostic>& out, std::string directory)
      : out_(out), directory_(std::move(directory)) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    Diagnostic d;
    d.level = Severity::Error;
    d.message = std::string(message);
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const clang::SourceManager& sm = info.getSourceManager();
      clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) {
        std::filesystem::path file(p.getFilename());
        if (file.is_relative()) file = std::filesystem::path(directory_) / file;
        d.file = absolute_normal(file).string();
        d.line = static_cast<int>(p.getLine());
        d.column = static_cast<int>(p.getColumn());
      }
    }
    out_.push_back(std::move(d));
  }

 private:
  std::vector<Diagnostic>& out_;
  std::string directory_;
};

}  // namespace stark

#endif  // STARK_CLANG_TOOL_CLANG_ERRORS_H
