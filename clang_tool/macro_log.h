// What the preprocessor did to the project's own text, kept for the kernel
// fingerprint (fingerprint.h): every macro expansion, `defined`/#ifdef test,
// #if outcome and #include, at the place in a file where it happened. The
// text of a function says `TILE`; only this log says TILE was 32.
// Includes clang headers: for clang_tool's own .cpp files only.
#ifndef STARK_CLANG_TOOL_MACRO_LOG_H
#define STARK_CLANG_TOOL_MACRO_LOG_H

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace stark {

/// Tells the CUDA toolkit's and clang's own headers apart from the project's
/// files. Their contents are keyed by the toolkit's identity and STARK's
/// version instead, so neither the macro log nor the fingerprint walks them.
class ToolchainFiles {
 public:
  ToolchainFiles(const clang::SourceManager& sm, std::vector<std::filesystem::path> roots);
  /// True for toolkit or clang headers, and for buffers that are no file
  /// (<built-in>, <command line>: the compile command is keyed instead).
  bool contains(clang::FileID file) const;
  /// Absolute path of a file, empty for buffers that are no file.
  std::string path_of(clang::FileID file) const;
  bool contains_path(const std::string& absolute_path) const;

 private:
  const clang::SourceManager& sm_;
  std::vector<std::string> roots_;
  mutable std::map<unsigned, bool> cache_;
};

/// The entry of a region the preprocessor skipped (a false #if branch).
inline constexpr const char* kSkippedText = "skipped";

/// The log itself. One entry is a short string (what happened) at a byte
/// offset of a project file.
class MacroLog {
 public:
  explicit MacroLog(const ToolchainFiles& toolchain) : toolchain_(toolchain) {}

  /// Callbacks to hand to the Preprocessor; they write into this log, which
  /// must outlive the parse.
  std::unique_ptr<clang::PPCallbacks> recorder(const clang::Preprocessor& pp);

  /// Entries whose expansion point lies in [begin, end) of `file`, in order.
  std::vector<std::string> in_range(clang::FileID file, unsigned begin, unsigned end) const;

  void add(clang::SourceLocation at, std::string entry);
  const clang::SourceManager& source_manager() const;

 private:
  const ToolchainFiles& toolchain_;
  mutable std::map<unsigned, std::pair<clang::FileID, std::vector<std::pair<unsigned, std::string>>>> entries_;
  mutable bool sorted_ = true;
  const clang::Preprocessor* pp_ = nullptr;
};

}  // namespace stark

#endif  // STARK_CLANG_TOOL_MACRO_LOG_H
