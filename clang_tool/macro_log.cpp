#include "clang_tool/macro_log.h"

#include <clang/Basic/FileManager.h>
#include <clang/Lex/MacroInfo.h>
#include <fmt/format.h>

#include <algorithm>

#include "core/hash.h"
#include "core/paths.h"

namespace stark {

namespace {

using namespace clang;

/// Writes what the preprocessor does into a MacroLog. Definitions are
/// written out token by token (not by where they are), so a macro defined on
/// the command line or in an unscanned header counts with its value.
class Recorder : public PPCallbacks {
 public:
  Recorder(MacroLog& log, const Preprocessor& pp) : log_(log), pp_(pp) {}

  void MacroExpands(const Token& name, const MacroDefinition& md, SourceRange range, const MacroArgs*) override {
    const MacroInfo* mi = md.getMacroInfo();
    std::string text = std::string(name.getIdentifierInfo()->getName());
    if (mi && mi->isBuiltinMacro()) {
      // __LINE__, __FILE__...: their value is where they are expanded.
      PresumedLoc p = pp_.getSourceManager().getPresumedLoc(range.getBegin());
      log_.add(range.getBegin(), fmt::format("expand {} builtin {}:{}", text, p.isValid() ? p.getFilename() : "",
                                             p.isValid() ? p.getLine() : 0));
      return;
    }
    log_.add(range.getBegin(), "expand " + text + " " + definition(mi));
  }

  void Defined(const Token& name, const MacroDefinition& md, SourceRange range) override {
    log_.add(range.getBegin(), tested("defined", name, md));
  }
  void Ifdef(SourceLocation loc, const Token& name, const MacroDefinition& md) override {
    log_.add(loc, tested("ifdef", name, md));
  }
  void Ifndef(SourceLocation loc, const Token& name, const MacroDefinition& md) override {
    log_.add(loc, tested("ifndef", name, md));
  }
  void Elifdef(SourceLocation loc, const Token& name, const MacroDefinition& md) override {
    log_.add(loc, tested("elifdef", name, md));
  }
  void Elifndef(SourceLocation loc, const Token& name, const MacroDefinition& md) override {
    log_.add(loc, tested("elifndef", name, md));
  }
  void If(SourceLocation loc, SourceRange, ConditionValueKind value) override {
    log_.add(loc, fmt::format("if {}", static_cast<int>(value)));
  }
  void Elif(SourceLocation loc, SourceRange, ConditionValueKind value, SourceLocation) override {
    log_.add(loc, fmt::format("elif {}", static_cast<int>(value)));
  }

  // Text the preprocessor skipped: this parse is host-side only, so what an
  // `#ifdef __CUDA_ARCH__` keeps for the device was never seen (the
  // fingerprint then falls back to the whole unit).
  void SourceRangeSkipped(SourceRange range, SourceLocation) override { log_.add(range.getBegin(), kSkippedText); }

  // An #include inside a function body pulls text in that the function's
  // own range does not show.
  void InclusionDirective(SourceLocation hash, const Token&, StringRef name, bool, CharSourceRange,
                          OptionalFileEntryRef file, StringRef, StringRef, const Module*, bool,
                          SrcMgr::CharacteristicKind) override {
    std::string contents = "unreadable";
    if (file)
      if (auto buffer = pp_.getSourceManager().getFileManager().getBufferForFile(*file))
        contents = content_hash((*buffer)->getBuffer());
    log_.add(hash, fmt::format("include {} {}", name.str(), contents));
  }

 private:
  std::string tested(const char* what, const Token& name, const MacroDefinition& md) {
    return fmt::format("{} {} {}", what, name.getIdentifierInfo()->getName().str(),
                       md.getMacroInfo() ? definition(md.getMacroInfo()) : "undefined");
  }

  std::string definition(const MacroInfo* mi) {
    if (!mi) return "undefined";
    auto [it, fresh] = definitions_.try_emplace(mi);
    if (!fresh) return it->second;
    std::string text = mi->isFunctionLike() ? "(" : "";
    if (mi->isFunctionLike()) {
      for (const IdentifierInfo* p : mi->params()) text += p->getName().str() + ",";
      text += mi->isVariadic() ? "...)" : ")";
    }
    for (const Token& t : mi->tokens()) text += (t.hasLeadingSpace() ? " " : "") + pp_.getSpelling(t);
    it->second = content_hash(text);
    return it->second;
  }

  MacroLog& log_;
  const Preprocessor& pp_;
  std::map<const MacroInfo*, std::string> definitions_;
};

}  // namespace

ToolchainFiles::ToolchainFiles(const SourceManager& sm, std::vector<std::filesystem::path> roots) : sm_(sm) {
  for (const auto& r : roots)
    if (!r.empty()) roots_.push_back(absolute_normal(r).string() + "/");
}

std::string ToolchainFiles::path_of(FileID file) const {
  auto entry = sm_.getFileEntryRefForID(file);
  if (!entry) return {};
  SmallString<256> path(entry->getName());
  sm_.getFileManager().makeAbsolutePath(path);
  return absolute_normal(std::string(path)).string();
}

bool ToolchainFiles::contains(FileID file) const {
  auto [it, fresh] = cache_.try_emplace(file.getHashValue(), true);
  if (!fresh) return it->second;
  std::string path = path_of(file);
  it->second = path.empty() || contains_path(path);
  return it->second;
}

bool ToolchainFiles::contains_path(const std::string& path) const {
  return std::any_of(roots_.begin(), roots_.end(), [&](const std::string& r) { return path.rfind(r, 0) == 0; });
}

std::unique_ptr<PPCallbacks> MacroLog::recorder(const Preprocessor& pp) {
  pp_ = &pp;
  return std::make_unique<Recorder>(*this, pp);
}

const SourceManager& MacroLog::source_manager() const { return pp_->getSourceManager(); }

void MacroLog::add(SourceLocation at, std::string entry) {
  const SourceManager& sm = source_manager();
  SourceLocation loc = sm.getExpansionLoc(at);
  FileID file = sm.getFileID(loc);
  if (file.isInvalid() || toolchain_.contains(file)) return;
  sorted_ = false;
  auto& [id, list] = entries_[file.getHashValue()];
  id = file;
  list.emplace_back(sm.getFileOffset(loc), std::move(entry));
}

std::vector<std::string> MacroLog::in_range(FileID file, unsigned begin, unsigned end) const {
  std::vector<std::string> out;
  auto it = entries_.find(file.getHashValue());
  if (it == entries_.end()) return out;
  // Offsets mostly grow as the preprocessor moves through a file, but macro
  // arguments are logged at their macro's start: sort once, stably.
  if (!sorted_) {
    for (auto& [key, e] : entries_)
      std::stable_sort(e.second.begin(), e.second.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
    sorted_ = true;
  }
  const auto& list = it->second.second;
  auto from = std::lower_bound(list.begin(), list.end(), begin,
                               [](const auto& e, unsigned offset) { return e.first < offset; });
  for (; from != list.end() && from->first < end; ++from) out.push_back(from->second);
  return out;
}

}  // namespace stark
