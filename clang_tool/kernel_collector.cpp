#include "clang_tool/kernel_collector.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Index/USRGeneration.h>
#include <clang/Lex/Lexer.h>
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "clang_tool/annotation.h"
#include "clang_tool/clang_errors.h"
#include "clang_tool/fingerprint.h"
#include "clang_tool/kernel_references.h"
#include "clang_tool/launch_dims.h"
#include "clang_tool/mangle.h"
#include "clang_tool/module_variables.h"
#include "core/option_names.h"
#include "core/paths.h"

namespace stark {

namespace {

using namespace clang;

/// Source text and byte range of an expression, when it is spelled in a file.
struct Spelled {
  std::string text;
  ByteRange range;
};

class Collector : public RecursiveASTVisitor<Collector> {
  using Base = RecursiveASTVisitor<Collector>;

 public:
  Collector(ASTContext& ctx, UnitScan& unit, const KernelFingerprinter* fingerprinter, const ParseErrors& errors)
      : ctx_(ctx),
        sm_(ctx.getSourceManager()),
        unit_(unit),
        fingerprinter_(fingerprinter),
        errors_(errors),
        mangler_(ctx),
        policy_(ctx.getPrintingPolicy()) {
    policy_.SuppressTagKeyword = true;
    policy_.FullyQualifiedName = true;
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl* d) {
    auto* fd = dyn_cast_or_null<FunctionDecl>(d);
    auto* md = dyn_cast_or_null<CXXMethodDecl>(d);
    bool named = fd && !(md && md->getParent()->isLambda());
    if (named) callers_.push_back(fd);
    bool result = Base::TraverseDecl(d);
    if (named) callers_.pop_back();
    return result;
  }

  bool VisitDecl(Decl* d) {
    auto* fd = dyn_cast<FunctionDecl>(d);
    if (fd && fd->isTemplateInstantiation()) return true;  // handled once, on the pattern
    if (const AnnotateAttr* attr = own_stark_annotation(d); attr && !(fd && fd->hasAttr<CUDAGlobalAttr>())) {
      std::string what = fd ? fmt::format("'{}' is not a __global__ kernel", fd->getQualifiedNameAsString())
                            : std::string("it is not on a function");
      error(attr->getLocation(), fmt::format("[[stark::optimize]] marks only __global__ kernels; {}", what));
      return true;
    }
    // Two annotations on one declaration: the second's options were dropped.
    if (const AnnotateAttr* first = own_stark_annotation(d)) {
      for (const auto* a : d->specific_attrs<AnnotateAttr>())
        if (a != first && a->getAnnotation() == kAnnotation && !a->isInherited()) {
          error(a->getLocation(), "[[stark::optimize]] is given twice on this declaration; give every option in one");
          return true;
        }
    }
    // Marked on a declaration whose definition this unit does not see: the
    // merge warns when no other unit defines it either.
    if (fd && fd->hasAttr<CUDAGlobalAttr>() && !fd->getDefinition())
      if (const AnnotateAttr* attr = own_stark_annotation(fd)) {
        SourceLocation at = sm_.getExpansionLoc(attr->getLocation());
        unit_.declared_only.push_back(
            {usr_of(fd),
             {file_of(at), static_cast<int>(sm_.getExpansionLineNumber(at)),
              static_cast<int>(sm_.getExpansionColumnNumber(at)), Severity::Warning,
              fmt::format("kernel '{}' is marked [[stark::optimize]] here, but no scanned translation unit defines it "
                          "(is its .cu file compiled by this build, or in a target --target left out?)",
                          fd->getQualifiedNameAsString())}});
      }
    // The annotation may sit on an earlier declaration (a header prototype).
    if (fd && fd->isThisDeclarationADefinition() && fd->hasAttr<CUDAGlobalAttr>())
      for (const FunctionDecl* r : fd->redecls())
        if (const AnnotateAttr* attr = own_stark_annotation(r)) {
          add_kernel(fd, attr);
          break;
        }
    return true;
  }

  // A lambda's call operator is not visited as a declaration.
  bool VisitLambdaExpr(LambdaExpr* lambda) {
    if (const CXXMethodDecl* op = lambda->getCallOperator())
      if (const AnnotateAttr* attr = own_stark_annotation(op))
        error(attr->getLocation(), "[[stark::optimize]] marks only __global__ kernels; a lambda is not one");
    return true;
  }

  // A marked kernel's name used other than as what a launch calls or an
  // attribute query reads (kernel_references.h).
  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    const auto* fd = dyn_cast<FunctionDecl>(ref->getDecl());
    if (fd && fd->hasAttr<CUDAGlobalAttr>() && address_escapes(*ref, ctx_)) note_address_use(ref);
    return true;
  }

  bool VisitInitListExpr(InitListExpr* list) {
    for (DeclRefExpr* ref : names_initialized(list)) note_address_use(ref);
    return true;
  }

  void note_address_use(DeclRefExpr* ref) {
    const auto* fd = dyn_cast<FunctionDecl>(ref->getDecl());
    if (!fd || !fd->hasAttr<CUDAGlobalAttr>()) return;
    SourceLocation at = sm_.getExpansionLoc(ref->getBeginLoc());
    if (sm_.isInSystemHeader(at)) return;
    const FunctionDecl* pattern = annotated_pattern(fd);
    if (!pattern) return;
    unit_.address_uses.push_back(
        {usr_of(pattern),
         {file_of(at), static_cast<int>(sm_.getExpansionLineNumber(at)),
          static_cast<int>(sm_.getExpansionColumnNumber(at)), Severity::Warning,
          fmt::format("kernel '{}' is used through a pointer here: STARK records its launches by symbol, but "
                      "cannot rewrite a launch configuration it does not see, so only its body is searched",
                      pattern->getQualifiedNameAsString())}});
  }

  bool VisitCallExpr(CallExpr* call) {
    if (sm_.isInSystemHeader(sm_.getExpansionLoc(call->getBeginLoc()))) return true;
    if (auto* kcall = dyn_cast<CUDAKernelCallExpr>(call)) return add_chevron_launch(kcall);
    const FunctionDecl* callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier()) return true;
    StringRef name = callee->getName();
    if (name == "cudaLaunchKernel" || name == "cudaLaunchCooperativeKernel")
      add_api_launch(call, /*kernel_arg=*/0, /*first_config=*/1, /*args_array=*/3);
    else if (name == "cudaLaunchKernelEx")
      add_api_launch(call, /*kernel_arg=*/1, /*first_config=*/0, /*args_array=*/-1);
    return true;
  }

 private:
  // --- locations -----------------------------------------------------------

  std::string file_of(SourceLocation loc) const {
    FileID fid = sm_.getFileID(sm_.getExpansionLoc(loc));
    auto entry = sm_.getFileEntryRefForID(fid);
    if (!entry) return {};
    SmallString<256> path(entry->getName());
    sm_.getFileManager().makeAbsolutePath(path);
    return absolute_normal(std::string(path)).string();
  }

  int64_t offset_of(SourceLocation loc) const { return sm_.getFileOffset(sm_.getExpansionLoc(loc)); }

  void error(SourceLocation loc, std::string message) { diag(loc, Severity::Error, std::move(message)); }

  void diag(SourceLocation loc, Severity level, std::string message) {
    SourceLocation at = sm_.getExpansionLoc(loc);
    unit_.diagnostics.push_back({file_of(at), static_cast<int>(sm_.getExpansionLineNumber(at)),
                                 static_cast<int>(sm_.getExpansionColumnNumber(at)), level, std::move(message)});
  }

  std::optional<Spelled> spelled(const Expr* e) const {
    if (!e || isa<CXXDefaultArgExpr>(e)) return std::nullopt;
    CharSourceRange r =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e->getSourceRange()), sm_, ctx_.getLangOpts());
    if (r.isInvalid()) return std::nullopt;
    Spelled s;
    s.text = Lexer::getSourceText(r, sm_, ctx_.getLangOpts()).str();
    s.range = {sm_.getFileOffset(r.getBegin()), sm_.getFileOffset(r.getEnd())};
    return s;
  }

  // --- kernels -------------------------------------------------------------

  std::string usr_of(const Decl* d) const {
    SmallString<128> buf;
    if (index::generateUSRForDecl(d, buf)) return {};
    return std::string(buf);
  }

  std::string mangled(const FunctionDecl* fd) const { return mangler_.device_name(fd); }

  Param param_of(const ParmVarDecl* p) const {
    Param out;
    out.name = p->getNameAsString();
    QualType t = p->getType();
    bool dependent = t->isDependentType();
    out.type = (dependent ? t : t.getCanonicalType()).getAsString(policy_);
    if (t->isPointerType()) {
      QualType pointee = t->getPointeeType();
      out.kind = ParamKind::Pointer;
      out.pointee = (dependent ? pointee : pointee.getCanonicalType()).getUnqualifiedType().getAsString(policy_);
      out.is_const = pointee.isConstQualified();
      out.is_restrict = t.isRestrictQualified();
    } else if (t->isRecordType()) {
      out.kind = ParamKind::Record;
    }
    if (!dependent && !t->isIncompleteType()) {
      out.size = ctx_.getTypeSizeInChars(t).getQuantity();
      out.align = ctx_.getTypeAlignInChars(t).getQuantity();
      if (out.kind == ParamKind::Record) add_fields(t, "", 0, out.fields);
    }
    return out;
  }

  // The scalar fields of a record, nested records flattened ("dims.rows").
  void add_fields(QualType t, const std::string& prefix, int64_t base, std::vector<Field>& out) const {
    const RecordDecl* rd = t->getAsRecordDecl();
    if (!rd || !rd->isCompleteDefinition() || rd->isInvalidDecl()) return;
    const ASTRecordLayout& layout = ctx_.getASTRecordLayout(rd);
    for (const FieldDecl* f : rd->fields()) {
      if (f->isBitField() || f->getName().empty()) continue;
      int64_t offset = base + ctx_.toCharUnitsFromBits(layout.getFieldOffset(f->getFieldIndex())).getQuantity();
      std::string name = prefix + f->getNameAsString();
      QualType ft = f->getType().getCanonicalType();
      if (ft->isRecordType()) add_fields(ft, name + ".", offset, out);
      else if (ft->isScalarType() && !ft->isPointerType())
        out.push_back(
            {name, ft.getUnqualifiedType().getAsString(policy_), offset, ctx_.getTypeSizeInChars(ft).getQuantity()});
    }
  }

  std::vector<Param> params_of(const FunctionDecl* fd) const {
    std::vector<Param> out;
    for (const ParmVarDecl* p : fd->parameters()) out.push_back(param_of(p));
    return out;
  }

  // Warns about parameters the capture cannot record faithfully.
  void check_params(const FunctionDecl* fd) {
    for (const ParmVarDecl* p : fd->parameters()) {
      QualType t = p->getType();
      if (t->isDependentType()) continue;
      if (t->isPointerType() && t->getPointeeType()->isPointerType())
        diag(p->getLocation(), Severity::Warning,
             fmt::format("parameter '{}' of kernel '{}' is a pointer to pointers: STARK captures only the outer "
                         "array, so give this kernel inputs with the 'args'/'buffers' keys or expect it to be skipped",
                         p->getName().str(), fd->getNameAsString()));
      else if (const auto* rd = t->getAsRecordDecl())
        for (const FieldDecl* f : rd->fields())
          if (f->getType()->isPointerType()) {
            diag(p->getLocation(), Severity::Warning,
                 fmt::format("parameter '{}' of kernel '{}' is a struct with a pointer field '{}': STARK does not "
                             "follow pointers inside structs, so the capture of this kernel will be refused",
                             p->getName().str(), fd->getNameAsString(), f->getName().str()));
            break;
          }
    }
  }

  // Where the declaration really starts: the template header, an attribute
  // or macro before the declaration specifiers, whichever is first.
  int64_t declaration_begin(const FunctionDecl* fd, const Decl* outer) const {
    FileID fid = sm_.getFileID(sm_.getExpansionLoc(fd->getLocation()));
    int64_t name_at = offset_of(fd->getLocation());
    int64_t begin = offset_of(outer->getBeginLoc());
    StringRef buffer = sm_.getBufferData(fid);
    for (const Attr* a : fd->attrs()) {
      if (a->isInherited() || a->isImplicit() || a->getLocation().isInvalid()) continue;
      SourceLocation loc = a->getRange().getBegin().isValid() ? a->getRange().getBegin() : a->getLocation();
      bool from_macro = loc.isMacroID();
      SourceLocation at = sm_.getExpansionLoc(loc);
      if (sm_.getFileID(at) != fid) continue;
      int64_t off = sm_.getFileOffset(at);
      if (off >= name_at) continue;
      // A raw [[ns::attr]]: the attribute's range starts at its name; move
      // back over "[[" so the range holds the whole attribute.
      if (!from_macro) {
        int64_t p = off;
        while (p > 0 && (buffer[p - 1] == ' ' || buffer[p - 1] == '\t' || buffer[p - 1] == '\n')) --p;
        if (p >= 2 && buffer[p - 1] == '[' && buffer[p - 2] == '[') off = p - 2;
        else if (p >= 2 && buffer[p - 1] == '(' && buffer[p - 2] == '(') {
          // __attribute__((x)): back over "__attribute__"
          int64_t q = p - 2;
          while (q > 0 && (buffer[q - 1] == ' ')) --q;
          constexpr llvm::StringLiteral kw = "__attribute__";
          if (q >= static_cast<int64_t>(kw.size()) && buffer.substr(q - kw.size(), kw.size()) == kw)
            off = q - kw.size();
        }
      }
      begin = std::min(begin, off);
    }
    return begin;
  }

  /// "scale.cu:12:5: message": a clang error inside another message.
  static std::string brief(const Diagnostic& d) {
    return fmt::format("{}:{}:{}: {}", std::filesystem::path(d.file).filename().string(), d.line, d.column, d.message);
  }

  /// Why a kernel of a unit with clang errors cannot be trusted, if it
  /// cannot: an error inside its lines, or in what error recovery made of its
  /// declaration, body or instantiations, or a parse that went on blind.
  std::optional<std::string> unreadable(const FunctionDecl* fd, const FunctionTemplateDecl* tmpl,
                                        const std::string& file, int first_line, int last_line) const {
    const Diagnostic& first = unit_.diagnostics[errors_.clang_errors.front()];
    if (errors_.fatal) return fmt::format("clang could not go on parsing its unit after {}", brief(first));
    for (size_t i : errors_.clang_errors) {
      const Diagnostic& d = unit_.diagnostics[i];
      if (d.file == file && d.line >= first_line && d.line <= last_line)
        return fmt::format("clang reports an error in it: {}", brief(d));
    }
    bool broken = parsed_with_errors(fd);
    if (tmpl)
      for (const FunctionDecl* spec : tmpl->specializations()) broken = broken || parsed_with_errors(spec);
    if (broken) return fmt::format("what it uses did not parse (first error of the unit: {})", brief(first));
    return std::nullopt;
  }

  void add_kernel(const FunctionDecl* fd, const AnnotateAttr* attr) {
    KernelOptions options;
    if (!read_options(attr, options)) return;
    bool names_ok = true;
    for (const std::string& problem : option_name_problems(options, params_of(fd))) {
      error(attr->getLocation(), "invalid [[stark::optimize]] option: " + problem);
      names_ok = false;
    }
    if (!names_ok) return;
    check_params(fd);

    const FunctionTemplateDecl* tmpl = fd->getDescribedFunctionTemplate();
    const Decl* outer = tmpl ? static_cast<const Decl*>(tmpl) : fd;
    const auto* body = dyn_cast_or_null<CompoundStmt>(fd->getBody());
    if (!body) return;

    UnitKernel uk;
    uk.key = usr_of(fd);
    Kernel& k = uk.kernel;
    k.name = fd->getNameAsString();
    k.qualified_name = fd->getQualifiedNameAsString();
    k.file = file_of(fd->getLocation());
    k.range = {declaration_begin(fd, outer), offset_of(body->getRBracLoc()) + 1};
    k.body = {offset_of(body->getLBracLoc()), offset_of(body->getRBracLoc()) + 1};
    SourceLocation begin_loc =
        sm_.getComposedLoc(sm_.getFileID(sm_.getExpansionLoc(fd->getLocation())), static_cast<unsigned>(k.range.begin));
    k.line = static_cast<int>(sm_.getExpansionLineNumber(begin_loc));
    k.column = static_cast<int>(sm_.getExpansionColumnNumber(begin_loc));
    if (!errors_.clang_errors.empty()) {
      const int last_line = static_cast<int>(sm_.getExpansionLineNumber(body->getRBracLoc()));
      if (auto why = unreadable(fd, tmpl, k.file, k.line, last_line)) {
        error(begin_loc, fmt::format("kernel '{}' cannot be read: {}", k.qualified_name, *why));
        return;
      }
      diag(begin_loc, Severity::Warning,
           fmt::format("kernel '{}' is read although clang rejects other code of this unit (first: {}); its "
                       "candidates are checked against the same parse",
                       k.qualified_name, brief(unit_.diagnostics[errors_.clang_errors.front()])));
    }
    k.is_template = tmpl != nullptr;
    k.params = params_of(fd);
    k.options = options;

    std::vector<std::string> types;
    for (const auto& p : k.params) types.push_back(p.type);
    uk.signature = fmt::format("({})", fmt::join(types, ", "));
    int same_name = 0;
    for (const NamedDecl* d : fd->getDeclContext()->lookup(fd->getDeclName()))
      if (isa<FunctionDecl>(d) || isa<FunctionTemplateDecl>(d)) ++same_name;
    uk.overloaded = same_name > 1;

    if (tmpl) {
      for (const FunctionDecl* spec : tmpl->specializations()) {
        if (spec->getTemplateSpecializationKind() == TSK_ExplicitSpecialization) continue;
        Instantiation inst;
        inst.mangled = mangled(spec);
        if (const auto* args = spec->getTemplateSpecializationArgs()) {
          std::string s;
          llvm::raw_string_ostream os(s);
          printTemplateArgumentList(os, args->asArray(), policy_);
          inst.template_args = os.str();
          if (inst.template_args.size() >= 2 && inst.template_args.front() == '<')
            inst.template_args = inst.template_args.substr(1, inst.template_args.size() - 2);
        }
        inst.params = params_of(spec);
        k.instantiations.push_back(std::move(inst));
      }
    } else {
      k.instantiations.push_back({mangled(fd), "", k.params});
    }
    if (fingerprinter_) {
      std::vector<std::string> names{k.qualified_name};
      for (const auto& i : k.instantiations) names.push_back(i.mangled + " <" + i.template_args + ">");
      k.fingerprint = fingerprinter_->fingerprint(fd, names);
    }
    k.module_variables = module_variables(fd, mangler_);
    unit_.kernels.push_back(std::move(uk));
  }

  // Reads "key=value" strings; errors point at the offending string literal.
  bool read_options(const AnnotateAttr* attr, KernelOptions& options) {
    bool ok = true;
    for (const Expr* arg : attr->args()) {
      const auto* lit = dyn_cast<StringLiteral>(arg->IgnoreParenImpCasts());
      if (!lit) {
        error(arg->getExprLoc(), "[[stark::optimize]] options must be string literals like \"budget=20\"");
        ok = false;
        continue;
      }
      std::string item = lit->getString().str();
      if (item.empty()) continue;  // STARK_OPTIMIZE() passes "" when given no options
      if (auto applied = apply_option(options, item); !applied) {
        SourceLocation at = sm_.getSpellingLoc(lit->getStrTokenLoc(lit->getNumConcatenated() - 1));
        error(at, "invalid [[stark::optimize]] option: " + applied.error().message);
        ok = false;
      }
    }
    return ok;
  }

  // --- launches ------------------------------------------------------------

  /// The annotated kernel an expression names (&k, (void*)k, k<float>), or null.
  const FunctionDecl* referenced_kernel(const Expr* e) const {
    for (int guard = 0; e && guard < 16; ++guard) {
      e = e->IgnoreParenCasts();
      if (const auto* uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_AddrOf) {
        e = uo->getSubExpr();
        continue;
      }
      if (const auto* ref = dyn_cast<DeclRefExpr>(e)) return dyn_cast<FunctionDecl>(ref->getDecl());
      return nullptr;
    }
    return nullptr;
  }

  /// The pattern (template) decl of an annotated kernel, or null if not ours.
  const FunctionDecl* annotated_pattern(const FunctionDecl* callee) const {
    if (!callee) return nullptr;
    const FunctionDecl* pattern = callee;
    if (const FunctionTemplateDecl* primary = callee->getPrimaryTemplate()) pattern = primary->getTemplatedDecl();
    if (!pattern->hasAttr<CUDAGlobalAttr>() || !has_stark_annotation(pattern)) return nullptr;
    return pattern;
  }

  Launch new_launch(const Expr* call, const FunctionDecl* callee, LaunchKind kind) const {
    Launch l;
    l.kind = kind;
    l.file = file_of(call->getBeginLoc());
    l.line = static_cast<int>(sm_.getExpansionLineNumber(call->getBeginLoc()));
    l.instantiation = mangled(callee);
    if (!callers_.empty()) l.caller = callers_.back()->getQualifiedNameAsString();
    return l;
  }

  void set_part(std::optional<std::string>& text, std::optional<ByteRange>& range, const Expr* e) const {
    if (auto s = spelled(e)) {
      text = s->text;
      range = s->range;
    }
  }

  /// The type of a grid or block argument and the local variable it names.
  void describe_dim(const Expr* arg, DimType& type, std::optional<LaunchVariable>& var) const {
    type = dim_type(arg);
    if (!callers_.empty()) var = launch_variable(arg, callers_.back(), ctx_);
  }

  bool add_chevron_launch(CUDAKernelCallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    const FunctionDecl* pattern = annotated_pattern(callee);
    if (!pattern) return true;
    Launch l = new_launch(call, callee, LaunchKind::Chevron);
    const CallExpr* config = call->getConfig();
    if (config->getNumArgs() > 0) {
      set_part(l.grid, l.grid_range, config->getArg(0));
      describe_dim(config->getArg(0), l.grid_type, l.grid_var);
    }
    if (config->getNumArgs() > 1) {
      set_part(l.block, l.block_range, config->getArg(1));
      describe_dim(config->getArg(1), l.block_type, l.block_var);
    }
    if (config->getNumArgs() > 2) set_part(l.shmem, l.shmem_range, config->getArg(2));
    if (config->getNumArgs() > 3) set_part(l.stream, l.stream_range, config->getArg(3));
    SourceLocation open = config->getBeginLoc(), close = config->getRParenLoc();
    if (open.isMacroID() || close.isMacroID()) {
      diag(call->getBeginLoc(), Severity::Warning,
           fmt::format("launch of '{}' is written inside a macro: STARK can measure it but cannot rewrite its "
                       "launch configuration",
                       pattern->getNameAsString()));
    } else {
      l.config_range = {offset_of(open), offset_of(close) + 3};  // "<<<" .. ">>>"
    }
    for (const Expr* arg : call->arguments())
      if (auto s = spelled(arg)) l.args.push_back(s->text);
    unit_.launches.push_back({usr_of(pattern), std::move(l)});
    return true;
  }

  void add_api_launch(const CallExpr* call, unsigned kernel_arg, unsigned first_config, int args_array) {
    if (call->getNumArgs() <= kernel_arg) return;
    const FunctionDecl* callee = referenced_kernel(call->getArg(kernel_arg));
    const FunctionDecl* pattern = annotated_pattern(callee);
    if (!pattern) return;
    Launch l = new_launch(call, callee, LaunchKind::Api);
    std::optional<ByteRange> first, last;
    if (args_array >= 0) {
      // cudaLaunchKernel(func, grid, block, args, shmem, stream)
      auto part = [&](unsigned i, std::optional<std::string>& text, std::optional<ByteRange>& range) {
        if (i < call->getNumArgs()) set_part(text, range, call->getArg(i));
        if (range) {
          if (!first) first = range;
          last = range;
        }
      };
      part(first_config, l.grid, l.grid_range);
      part(first_config + 1, l.block, l.block_range);
      if (first_config + 1 < call->getNumArgs()) {
        describe_dim(call->getArg(first_config), l.grid_type, l.grid_var);
        describe_dim(call->getArg(first_config + 1), l.block_type, l.block_var);
      }
      part(first_config + 3, l.shmem, l.shmem_range);
      part(first_config + 4, l.stream, l.stream_range);
      l.args = args_of_array(call->getArg(static_cast<unsigned>(args_array)), pattern);
    } else {
      // cudaLaunchKernelEx(&config, func, args...): the shape lives in the config struct.
      if (auto s = spelled(call->getArg(first_config))) first = last = s->range;
      for (unsigned i = kernel_arg + 1; i < call->getNumArgs(); ++i)
        if (auto s = spelled(call->getArg(i))) l.args.push_back(s->text);
    }
    if (first && last) l.config_range = {first->begin, last->end};
    unit_.launches.push_back({usr_of(pattern), std::move(l)});
  }

  /// The argument expressions behind `void* args[] = {&n, &x}`, or none
  /// (with a note) when the array is built some other way.
  std::vector<std::string> args_of_array(const Expr* array, const FunctionDecl* kernel) {
    std::vector<std::string> out;
    const auto* ref = dyn_cast<DeclRefExpr>(array->IgnoreParenCasts());
    const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    const auto* init = var && var->getInit() ? dyn_cast<InitListExpr>(var->getInit()->IgnoreImplicit()) : nullptr;
    if (init) {
      for (const Expr* e : init->inits()) {
        e = e->IgnoreParenCasts();
        const auto* addr = dyn_cast<UnaryOperator>(e);
        auto s = addr && addr->getOpcode() == UO_AddrOf ? spelled(addr->getSubExpr()) : std::nullopt;
        if (!s) {
          out.clear();
          break;
        }
        out.push_back(s->text);
      }
    }
    if (out.size() != kernel->getNumParams()) {
      diag(array->getExprLoc(), Severity::Note,
           fmt::format("cannot see the arguments of this launch of '{}' (STARK reads a local "
                       "'void* args[] = {{&a, &b}}' array); launch overrides that use parameters will be refused here",
                       kernel->getNameAsString()));
      out.clear();
    }
    return out;
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  UnitScan& unit_;
  const KernelFingerprinter* fingerprinter_;
  ParseErrors errors_;  // a copy: the walk appends to unit_.diagnostics
  KernelMangler mangler_;
  PrintingPolicy policy_;
  std::vector<const FunctionDecl*> callers_;
};

}  // namespace

void collect_kernels(clang::ASTContext& context, UnitScan& unit, const KernelFingerprinter* fingerprinter,
                     const ParseErrors& errors) {
  Collector collector(context, unit, fingerprinter, errors);
  collector.TraverseDecl(context.getTranslationUnitDecl());
}

}  // namespace stark
