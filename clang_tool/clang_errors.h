// Shared by the clang translation units of clang_tool/ (includes clang
// headers: never include it from elsewhere). Turns clang's errors into
// STARK diagnostics.
#ifndef STARK_CLANG_TOOL_CLANG_ERRORS_H
#define STARK_CLANG_TOOL_CLANG_ERRORS_H

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/SourceManager.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/paths.h"

namespace stark {

/// Lets the one warning STARK turns into its own error through the parse's
/// -w: an attribute after a function's definition, which clang drops (so an
/// annotation there never reaches the AST). A remark is not silenced by -w.
inline void report_annotations_after_definitions(clang::DiagnosticsEngine& diagnostics) {
  diagnostics.setSeverity(clang::diag::warn_attribute_precede_definition, clang::diag::Severity::Remark,
                          clang::SourceLocation());
}

/// Keeps clang's errors (not warnings: the build compiles with its own
/// compiler and flags, so a clang-only warning is noise), with absolute paths;
/// and, as an error, a [[stark::optimize]] that clang dropped because it came
/// after the definition.
class ClangErrorCollector : public clang::DiagnosticConsumer {
 public:
  ClangErrorCollector(std::vector<Diagnostic>& out, std::string directory)
      : out_(out), directory_(std::move(directory)) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    const bool late_annotation =
        info.getID() == clang::diag::warn_attribute_precede_definition && is_stark_annotation(info);
    if (level < clang::DiagnosticsEngine::Error && !late_annotation) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    Diagnostic d;
    d.level = Severity::Error;
    d.message = late_annotation ? "[[stark::optimize]] after the kernel's definition is dropped by the compiler; put "
                                  "it on the definition or on a declaration before it"
                                : std::string(message);
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
    if (!late_annotation) clang_errors_.push_back(out_.size());
    if (level == clang::DiagnosticsEngine::Fatal) fatal_ = true;
    out_.push_back(std::move(d));
  }

  /// Indexes (into the output) of the errors clang itself reported.
  const std::vector<size_t>& clang_errors() const { return clang_errors_; }
  /// True when the parse stopped trusting itself (a missing header...).
  bool fatal() const { return fatal_; }

 private:
  /// True when the diagnostic points at STARK_OPTIMIZE or stark::optimize.
  static bool is_stark_annotation(const clang::Diagnostic& info) {
    if (!info.hasSourceManager() || info.getLocation().isInvalid()) return false;
    const clang::SourceManager& sm = info.getSourceManager();
    clang::SourceLocation at = sm.getExpansionLoc(info.getLocation());
    bool invalid = false;
    llvm::StringRef buffer = sm.getBufferData(sm.getFileID(at), &invalid);
    if (invalid) return false;
    const size_t offset = sm.getFileOffset(at);
    llvm::StringRef rest = buffer.substr(offset, 64);
    llvm::StringRef before = buffer.substr(offset >= 7 ? offset - 7 : 0, offset >= 7 ? 7 : 0);
    return rest.starts_with("STARK_OPTIMIZE") || rest.starts_with("stark::optimize") ||
           (rest.starts_with("optimize") && before == "stark::") ||
           rest.starts_with("clang::annotate(\"stark::optimize\"");
  }

  std::vector<Diagnostic>& out_;
  std::string directory_;
  std::vector<size_t> clang_errors_;
  bool fatal_ = false;
};

/// True when clang's error recovery left a mark in `s` (a RecoveryExpr, an
/// expression of an invalid type...).
inline bool contains_errors(const clang::Stmt* s) {
  if (!s) return false;
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s); e && e->containsErrors()) return true;
  for (const clang::Stmt* child : s->children())
    if (contains_errors(child)) return true;
  return false;
}

/// True when a function did not parse cleanly: its declaration is invalid
/// or its body holds what error recovery made of broken code.
inline bool parsed_with_errors(const clang::FunctionDecl* fd) {
  return fd->isInvalidDecl() || fd->getType()->containsErrors() || contains_errors(fd->getBody());
}

}  // namespace stark

#endif  // STARK_CLANG_TOOL_CLANG_ERRORS_H
