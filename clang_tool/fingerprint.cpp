#include "clang_tool/fingerprint.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <optional>
#include <set>

#include "clang_tool/macro_log.h"
#include "core/hash.h"

namespace stark {

using namespace clang;

namespace {

// Bumped whenever what goes into a fingerprint changes, so old cache entries
// stop matching instead of matching wrongly.
constexpr const char* kFingerprintVersion = "stark.fingerprint/1";

// A walk that grows past this many declarations is not a kernel's closure
// any more but most of a library: hash the unit instead.
constexpr size_t kMaxDecls = 20000;

/// Where a declaration's text is: a file and a byte range in it.
struct Span {
  FileID file;
  unsigned begin = 0, end = 0;
};

}  // namespace

struct KernelFingerprinter::Impl {
  ASTContext& ctx;
  const SourceManager& sm;
  const MacroLog& macros;
  const ToolchainFiles& toolchain;
  PrintingPolicy policy;
  mutable std::optional<std::string> unit_hash;

  Impl(ASTContext& c, const MacroLog& m, const ToolchainFiles& t)
      : ctx(c), sm(c.getSourceManager()), macros(m), toolchain(t), policy(c.getPrintingPolicy()) {
    policy.FullyQualifiedName = true;
    policy.SuppressTagKeyword = true;
  }

  /// Every project file the unit read, by content: the fallback when the
  /// walk cannot be sure (close to the preprocessed text, never less).
  const std::string& unit_text_hash() const {
    if (unit_hash) return *unit_hash;
    std::vector<std::string> parts;
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      std::string path = toolchain.path_of(sm.translateFile(it->first));
      if (path.empty() || toolchain.contains_path(path)) continue;
      auto data = it->second->getBufferDataIfLoaded();
      // Contents only: the same project checked out elsewhere means the same.
      parts.push_back(data ? content_hash(*data) : "not loaded: " + std::filesystem::path(path).filename().string());
    }
    std::sort(parts.begin(), parts.end());
    unit_hash = content_hash(fmt::format("{}", fmt::join(parts, "\n")));
    return *unit_hash;
  }
};

namespace {

/// The walk over one kernel's dependencies. Visit* methods see every
/// expression, type and reference in the code traversed and queue the
/// declarations they name; process() records a declaration's text and
/// traverses what it contains.
class DependencyWalk : public RecursiveASTVisitor<DependencyWalk> {
 public:
  explicit DependencyWalk(const KernelFingerprinter::Impl& impl) : impl_(impl), sm_(impl.sm) {}

  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return false; }  // the ones used are queued one by one

  void run(const FunctionDecl* kernel) {
    for (const FunctionDecl* r : kernel->redecls()) queue(r);  // the annotation may be on a prototype
    if (const FunctionTemplateDecl* tmpl = kernel->getDescribedFunctionTemplate()) {
      bool any = false;
      for (const FunctionDecl* spec : tmpl->specializations()) {
        any = true;
        record("instantiation " + name_of(spec));
        walk_function(spec);  // resolves what the pattern leaves dependent
      }
      if (!any) unsure("a template kernel without an instantiation in this unit");
    }
    while (!pending_.empty()) {
      const Decl* d = pending_.front();
      pending_.pop_front();
      process(d);
      if (seen_.size() > kMaxDecls) {
        unsure("more than 20000 declarations");
        break;
      }
    }
  }

  std::vector<std::string>& records() { return records_; }
  bool is_unsure() const { return unsure_; }

  // --- what code refers to --------------------------------------------------

  bool VisitDeclRefExpr(DeclRefExpr* e) { return queue(e->getDecl()); }
  bool VisitMemberExpr(MemberExpr* e) { return queue(e->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr* e) { return queue(e->getConstructor()); }
  bool VisitCXXNewExpr(CXXNewExpr* e) { return queue(e->getOperatorNew()); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr* e) {
    add_type(e->getDestroyedType());
    return queue(e->getOperatorDelete());
  }
  bool VisitCallExpr(CallExpr* e) { return queue(e->getCalleeDecl()); }
  // Calls a template pattern cannot resolve yet: every candidate counts.
  bool VisitOverloadExpr(OverloadExpr* e) {
    for (const NamedDecl* d : e->decls()) queue(d);
    return true;
  }
  bool VisitExpr(Expr* e) {
    add_type(e->getType());
    return true;
  }
  bool VisitTypeLoc(TypeLoc tl) {
    add_type(tl.getType());
    return true;
  }
  bool VisitValueDecl(ValueDecl* d) {
    add_type(d->getType());
    return true;
  }

 private:
  // --- queueing -------------------------------------------------------------

  bool queue(const Decl* d) {
    if (!d) return true;
    if (const auto* t = dyn_cast<FunctionTemplateDecl>(d)) d = t->getTemplatedDecl();
    if (const auto* t = dyn_cast<ClassTemplateDecl>(d)) d = t->getTemplatedDecl();
    if (const auto* u = dyn_cast<UsingShadowDecl>(d)) d = u->getTargetDecl();
    if (isa<FieldDecl, EnumConstantDecl, IndirectFieldDecl>(d)) d = cast<Decl>(d->getDeclContext());
    if (const auto* v = dyn_cast<VarDecl>(d); v && (!v->hasGlobalStorage() || v->isStaticLocal()))
      return true;  // a local or a parameter: part of its function's text
    if (isa<ParmVarDecl, NonTypeTemplateParmDecl, TemplateTypeParmDecl, NamespaceDecl, TranslationUnitDecl,
            LinkageSpecDecl>(d))
      return true;
    if (seen_.insert(d).second) pending_.push_back(d);
    return true;
  }

  void add_type(QualType t) {
    for (int guard = 0; !t.isNull() && guard < 256; ++guard) {
      if (!seen_types_.insert(t.getAsOpaquePtr()).second) return;
      const Type* ty = t.getTypePtr();
      if (const auto* td = dyn_cast<TypedefType>(ty)) queue(td->getDecl());
      if (const auto* ts = dyn_cast<TemplateSpecializationType>(ty)) {
        if (TemplateDecl* td = ts->getTemplateName().getAsTemplateDecl()) queue(td);
        for (const TemplateArgument& a : ts->template_arguments())
          if (a.getKind() == TemplateArgument::Type) add_type(a.getAsType());
      }
      QualType next = t.getSingleStepDesugaredType(impl_.ctx);
      if (next != t) {
        t = next;
        continue;
      }
      if (const auto* p = dyn_cast<PointerType>(ty)) t = p->getPointeeType();
      else if (const auto* r = dyn_cast<ReferenceType>(ty)) t = r->getPointeeType();
      else if (const auto* a = dyn_cast<ArrayType>(ty)) t = a->getElementType();
      else if (const auto* v = dyn_cast<VectorType>(ty)) t = v->getElementType();
      else if (const auto* m = dyn_cast<MemberPointerType>(ty)) {
        add_type(QualType(m->getClass(), 0));
        t = m->getPointeeType();
      } else if (const auto* f = dyn_cast<FunctionProtoType>(ty)) {
        for (QualType p : f->param_types()) add_type(p);
        t = f->getReturnType();
      } else if (const auto* tag = dyn_cast<TagType>(ty)) {
        queue(tag->getDecl());
        return;
      } else {
        return;
      }
    }
  }

  // --- recording ------------------------------------------------------------

  void record(std::string r) { records_.push_back(std::move(r)); }

  void unsure(const std::string& why) {
    if (!unsure_) record("unit " + impl_.unit_text_hash() + " (" + why + ")");
    unsure_ = true;
  }

  std::string name_of(const Decl* d) const {
    const auto* nd = dyn_cast<NamedDecl>(d);
    if (!nd) return d->getDeclKindName();
    std::string s;
    llvm::raw_string_ostream os(s);
    nd->getNameForDiagnostic(os, impl_.policy, /*Qualified=*/true);
    return os.str();
  }

  /// The declaration's text in its file, widened to attributes written in
  /// front of it (__device__ __forceinline__, __launch_bounds__).
  std::optional<Span> span_of(const Decl* d) const {
    SourceRange r = d->getSourceRange();
    if (r.isInvalid()) return std::nullopt;
    CharSourceRange cr = sm_.getExpansionRange(r);
    SourceLocation b = cr.getBegin(), e = cr.getEnd();
    if (cr.isTokenRange()) {
      SourceLocation after = Lexer::getLocForEndOfToken(e, 0, sm_, impl_.ctx.getLangOpts());
      if (after.isValid()) e = after;
    }
    Span s{sm_.getFileID(b), sm_.getFileOffset(b), sm_.getFileOffset(e)};
    if (s.file != sm_.getFileID(e) || s.end < s.begin) return std::nullopt;
    for (const Attr* a : d->attrs()) {
      if (a->isImplicit() || a->isInherited() || a->getLocation().isInvalid()) continue;
      SourceLocation at = sm_.getExpansionLoc(a->getLocation());
      if (sm_.getFileID(at) == s.file) s.begin = std::min(s.begin, sm_.getFileOffset(at));
    }
    return s;
  }

  /// Records "kind name text-hash macros..." of a declaration. False when it
  /// lives in the toolkit (keyed by the toolkit, not walked).
  bool record_text(const Decl* d, const Decl* text_of) {
    std::string head = fmt::format("{} {}", d->getDeclKindName(), name_of(d));
    SourceLocation loc = sm_.getExpansionLoc(text_of->getLocation());
    if (loc.isInvalid()) {
      record(head + " (no source)");
      return false;
    }
    if (impl_.toolchain.contains(sm_.getFileID(loc))) {
      record(head + " (toolkit)");
      return false;
    }
    auto span = span_of(text_of);
    if (!span) {
      unsure("a declaration whose text is not in one file: " + name_of(d));
      return true;
    }
    bool invalid = false;
    StringRef buffer = sm_.getBufferData(span->file, &invalid);
    if (invalid || span->end > buffer.size()) {
      unsure("unreadable source of " + name_of(d));
      return true;
    }
    std::string r = head + " " + content_hash(buffer.substr(span->begin, span->end - span->begin));
    for (const std::string& m : impl_.macros.in_range(span->file, span->begin, span->end)) {
      if (m == kSkippedText) unsure("text the host-side parse skipped (#ifdef __CUDA_ARCH__...) in " + name_of(d));
      r += "\n  " + m;
    }
    record(std::move(r));
    return true;
  }

  void process(const Decl* d) {
    if (const auto* fd = dyn_cast<FunctionDecl>(d)) return process_function(fd);
    if (const auto* rd = dyn_cast<RecordDecl>(d)) return process_record(rd);
    if (const auto* ed = dyn_cast<EnumDecl>(d)) {
      const EnumDecl* def = ed->getDefinition() ? ed->getDefinition() : ed;
      if (record_text(ed, def) && def->getIntegerTypeSourceInfo()) add_type(def->getIntegerType());
      return;
    }
    if (const auto* td = dyn_cast<TypedefNameDecl>(d)) {
      if (record_text(td, td)) add_type(td->getUnderlyingType());
      return;
    }
    if (const auto* vd = dyn_cast<VarDecl>(d)) {
      const VarDecl* def = vd->getDefinition() ? vd->getDefinition() : vd;
      if (!record_text(vd, def)) return;
      add_type(def->getType());
      if (const Expr* init = def->getInit()) TraverseStmt(const_cast<Expr*>(init));
      return;
    }
    if (const auto* td = dyn_cast<TemplateDecl>(d)) {  // alias templates and the like
      if (record_text(td, td) && td->getTemplatedDecl()) queue(td->getTemplatedDecl());
      return;
    }
    record_text(d, d);
  }

  void process_function(const FunctionDecl* fd) {
    if (const auto* md = dyn_cast<CXXMethodDecl>(fd); md && md->isVirtual())
      unsure("a virtual call: " + name_of(md));  // which override runs is not in the call
    const FunctionDecl* def = fd->getDefinition();
    // A template's text starts at its template header; an implicit
    // instantiation's text is its template's.
    const Decl* text_of = def ? def : fd;
    if (const FunctionTemplateDecl* t = fd->getDescribedFunctionTemplate()) text_of = t;
    else if (fd->getTemplateSpecializationKind() != TSK_ExplicitSpecialization && fd->getPrimaryTemplate())
      text_of = fd->getPrimaryTemplate();
    if (!record_text(fd, text_of)) return;
    if (def && def != fd->getFirstDecl()) record_text(fd->getFirstDecl(), fd->getFirstDecl());  // default arguments
    if (const auto* args = fd->getTemplateSpecializationArgs())
      for (const TemplateArgument& a : args->asArray()) {
        if (a.getKind() == TemplateArgument::Type) add_type(a.getAsType());
        if (a.getKind() == TemplateArgument::Declaration) queue(a.getAsDecl());
      }
    if (const auto* md = dyn_cast<CXXMethodDecl>(fd)) queue(md->getParent());
    walk_function(def ? def : fd);
  }

  void walk_function(const FunctionDecl* fd) { TraverseDecl(const_cast<FunctionDecl*>(fd)); }

  void process_record(const RecordDecl* rd) {
    if (rd->isLambda()) return;  // its body is part of the function that holds it
    const RecordDecl* def = rd->getDefinition() ? rd->getDefinition() : rd;
    const Decl* text_of = def;
    if (const auto* cxx = dyn_cast<CXXRecordDecl>(def))
      if (const CXXRecordDecl* pattern = cxx->getTemplateInstantiationPattern()) text_of = pattern;
    if (const auto* cxx = dyn_cast<CXXRecordDecl>(text_of))
      if (const ClassTemplateDecl* t = cxx->getDescribedClassTemplate()) text_of = t;
    if (!record_text(rd, text_of)) return;
    for (const FieldDecl* f : def->fields()) {
      add_type(f->getType());
      if (const Expr* init = f->getInClassInitializer()) TraverseStmt(const_cast<Expr*>(init));
    }
    const auto* cxx = dyn_cast<CXXRecordDecl>(def);
    if (!cxx || !cxx->hasDefinition()) return;
    if (cxx->isPolymorphic()) unsure("a polymorphic type: " + name_of(cxx));
    for (const CXXBaseSpecifier& b : cxx->bases()) add_type(b.getType());
    if (const CXXDestructorDecl* dtor = cxx->getDestructor(); dtor && dtor->isUserProvided()) queue(dtor);
    if (const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(cxx))
      for (const TemplateArgument& a : spec->getTemplateArgs().asArray()) {
        if (a.getKind() == TemplateArgument::Type) add_type(a.getAsType());
        if (a.getKind() == TemplateArgument::Declaration) queue(a.getAsDecl());
      }
  }

  const KernelFingerprinter::Impl& impl_;
  const SourceManager& sm_;
  std::deque<const Decl*> pending_;
  std::set<const Decl*> seen_;
  std::set<const void*> seen_types_;
  std::vector<std::string> records_;
  bool unsure_ = false;
};

}  // namespace

KernelFingerprinter::KernelFingerprinter(ASTContext& context, const MacroLog& macros, const ToolchainFiles& toolchain)
    : impl_(std::make_unique<Impl>(context, macros, toolchain)) {}

KernelFingerprinter::~KernelFingerprinter() = default;

std::string KernelFingerprinter::fingerprint(const FunctionDecl* kernel, const std::vector<std::string>& extra) const {
  DependencyWalk walk(*impl_);
  walk.run(kernel);
  std::vector<std::string>& records = walk.records();
  // Order of discovery is an accident of the AST: the set is what counts.
  std::sort(records.begin(), records.end());
  records.erase(std::unique(records.begin(), records.end()), records.end());
  std::string text = kFingerprintVersion;
  for (const std::string& e : extra) text += fmt::format("\n{} {}", e.size(), e);
  for (const std::string& r : records) text += fmt::format("\n{} {}", r.size(), r);
  return content_hash(text);
}

}  // namespace stark
