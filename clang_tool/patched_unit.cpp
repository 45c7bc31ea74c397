#include "clang_tool/patched_unit.h"

#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "clang_tool/annotation.h"
#include "clang_tool/clang_errors.h"
#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"

namespace stark {

namespace fs = std::filesystem;

namespace {

class FactoryAction : public clang::ASTFrontendAction {
 public:
  explicit FactoryAction(const ConsumerFactory& factory) : factory_(factory) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci, llvm::StringRef) override {
    return factory_(ci);
  }

 private:
  const ConsumerFactory& factory_;
};

}  // namespace

int64_t PatchedSource::offset(const clang::SourceManager& sm, clang::SourceLocation loc) const {
  clang::SourceLocation at = sm.getExpansionLoc(loc);
  auto entry = sm.getFileEntryRefForID(sm.getFileID(at));
  if (!entry || absolute_normal(std::string(entry->getName())) != file) return -1;
  int64_t off = sm.getFileOffset(at);
  return off >= begin && off < end ? off - begin : -1;
}

bool PatchedSource::contains(const clang::SourceManager& sm, clang::SourceLocation loc) const {
  return offset(sm, loc) >= 0;
}

std::string PatchedSource::describe(const Diagnostic& d) const {
  if (d.file == file.string() && d.line >= first_line && d.line < first_line + lines)
    return fmt::format("variant line {}:{}: {}", d.line - first_line + 1, d.column, d.message);
  return d.format();
}

Expected<PatchedSource> patch_kernel_file(const Kernel& kernel, const std::string& source, const fs::path& root) {
  PatchedSource p;
  p.file = absolute_normal(root / kernel.file);
  auto original = read_file(p.file);
  if (!original) return original.error();
  if (kernel.range.begin < 0 || kernel.range.end > static_cast<int64_t>(original->size()) ||
      kernel.range.begin > kernel.range.end)
    return Error{fmt::format("'{}' changed since it was scanned (the kernel's range is past its end)", kernel.file)};
  p.text = original->substr(0, kernel.range.begin) + source + original->substr(kernel.range.end);
  p.begin = kernel.range.begin;
  p.end = kernel.range.begin + static_cast<int64_t>(source.size());
  p.first_line = 1 + static_cast<int>(std::count(original->begin(), original->begin() + kernel.range.begin, '\n'));
  p.lines = 1 + static_cast<int>(std::count(source.begin(), source.end(), '\n'));
  p.original_lines = 1 + static_cast<int>(std::count(original->begin() + kernel.range.begin,
                                                     original->begin() + kernel.range.end, '\n'));
  return p;
}

namespace {

/// clang's errors for the kernel's unit, with `patch` (if any) overlaid on
/// the disk; `fatal` when the parse could not go on (a header not found).
std::vector<Diagnostic> parse_errors(const Kernel& kernel, const PatchedSource* patch, const ClangSetup& setup,
                                     const ConsumerFactory& consumer, bool& fatal) {
  // A physical file system of its own: the shared real one's working
  // directory is the process's, and setting it would move every relative
  // path the user gave.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> disk(llvm::vfs::createPhysicalFileSystem().release());
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fs(new llvm::vfs::OverlayFileSystem(disk));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  if (patch) memory->addFile(patch->file.string(), 0, llvm::MemoryBuffer::getMemBufferCopy(patch->text));
  fs->pushOverlay(memory);
  fs->setCurrentWorkingDirectory(kernel.compile->directory);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), fs));

  std::vector<Diagnostic> errors;
  ClangErrorCollector collector(errors, kernel.compile->directory);
  clang::tooling::ToolInvocation invocation(clang_arguments(*kernel.compile, setup),
                                            std::make_unique<FactoryAction>(consumer), files.get());
  invocation.setDiagnosticConsumer(&collector);
  invocation.run();
  fatal = collector.fatal();
  return errors;
}

using ErrorKey = std::tuple<std::string, int, int, std::string>;

/// The errors of the unit as it is on disk, parsed once per process and
/// file content (a search checks many candidates of one kernel).
std::set<ErrorKey> unit_errors(const Kernel& kernel, const PatchedSource& patch, const ClangSetup& setup) {
  static std::mutex mutex;
  static std::map<std::string, std::set<ErrorKey>> known;
  auto text = read_file(patch.file);
  std::string key = fmt::format("{}\n{}\n{}\n{}", kernel.compile->directory, fmt::join(kernel.compile->arguments, "\n"),
                                patch.file.string(), text ? content_hash(*text) : std::string("unreadable"));
  {
    std::lock_guard lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  std::set<ErrorKey> out;
  ConsumerFactory nothing = [](clang::CompilerInstance&) { return std::make_unique<clang::ASTConsumer>(); };
  bool fatal = false;
  for (const auto& d : parse_errors(kernel, nullptr, setup, nothing, fatal))
    out.insert({d.file, d.line, d.column, d.message});
  std::lock_guard lock(mutex);
  return known.emplace(key, std::move(out)).first->second;
}

}  // namespace

std::vector<Diagnostic> parse_patched(const Kernel& kernel, const PatchedSource& patch, const ClangSetup& setup,
                                      const ConsumerFactory& consumer) {
  register_stark_attribute();
  bool fatal = false;
  std::vector<Diagnostic> errors = parse_errors(kernel, &patch, setup, consumer, fatal);
  // A parse that could not go on proves nothing about the patch: all its
  // errors count, whoever else has them.
  if (errors.empty() || fatal) return errors;
  const std::string file = patch.file.string();
  const int after = patch.first_line + patch.lines;  // first line past the patch
  auto inside = [&](const Diagnostic& d) { return d.file == file && d.line >= patch.first_line && d.line < after; };
  if (std::all_of(errors.begin(), errors.end(), inside)) return errors;
  // Errors elsewhere: the unit's own when the file on disk has them too, at
  // the same place once the patch's change in length is taken out.
  const std::set<ErrorKey> own = unit_errors(kernel, patch, setup);
  std::vector<Diagnostic> brought;
  for (const auto& d : errors) {
    int line = d.file == file && d.line >= after ? d.line - (patch.lines - patch.original_lines) : d.line;
    if (inside(d) || !own.count({d.file, line, d.column, d.message})) brought.push_back(d);
  }
  return brought;
}

}  // namespace stark
