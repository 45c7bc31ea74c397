#include "clang_tool/kernel_analysis.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>
#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>
#include <tuple>

#include "clang_tool/ast_patterns.h"
#include "clang_tool/clang_errors.h"
#include "clang_tool/patched_unit.h"
#include "clang_tool/welford.h"

namespace stark {

namespace {

using namespace clang;

const std::set<std::string> kFastMath = {"expf", "exp",  "logf",  "log",   "sinf",   "cosf",
                                         "powf", "tanf", "exp2f", "log2f", "log10f", "tanhf"};

/// Text of an index expression with spaces and integer casts removed, so
/// "(int)(blockIdx.x * blockDim.x) + threadIdx.x" compares equal to "blockIdx.x*blockDim.x+threadIdx.x".
std::string normal_form(std::string s) {
  static const std::regex casts(
      R"(\((?:unsigned\s+)?(?:int|long|long long|size_t|int64_t|uint32_t|uint64_t|unsigned)\))");
  static const std::regex static_casts(R"(static_cast<[^>]*>)");
  s = std::regex_replace(s, static_casts, "");
  s = std::regex_replace(s, casts, "");
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '(' && c != ')') out += c;
  return out;
}

std::optional<char> thread_index_axis(const std::string& text) {
  std::string t = normal_form(text);
  for (char a : {'x', 'y', 'z'}) {
    std::string bi = std::string("blockIdx.") + a, bd = std::string("blockDim.") + a,
                ti = std::string("threadIdx.") + a;
    for (const std::string& form :
         {bi + "*" + bd + "+" + ti, bd + "*" + bi + "+" + ti, ti + "+" + bi + "*" + bd, ti + "+" + bd + "*" + bi})
      if (t == form) return a;
  }
  return std::nullopt;
}

/// Whether `text` is the thread count of the grid along `axis`.
bool is_grid_size(const std::string& text, char axis) {
  std::string t = normal_form(text), bd = std::string("blockDim.") + axis, gd = std::string("gridDim.") + axis;
  return t == bd + "*" + gd || t == gd + "*" + bd;
}

class Analyzer : public RecursiveASTVisitor<Analyzer> {
  using Base = RecursiveASTVisitor<Analyzer>;

 public:
  Analyzer(ASTContext& ctx, const PatchedSource& patch, KernelAnalysis& out)
      : ctx_(ctx), sm_(ctx.getSourceManager()), patch_(patch), out_(out) {}

  /// A variable's declared type as the code spells it (typedefs kept), qualifiers dropped.
  std::string type_of(const ValueDecl* v) const {
    return v->getType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
  }

  Snippet snip(SourceRange r) const {
    CharSourceRange cr = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
    if (cr.isInvalid()) return {};
    int64_t b = patch_.offset(sm_, cr.getBegin());
    if (b < 0) return {};
    int64_t e = b + (sm_.getFileOffset(cr.getEnd()) - sm_.getFileOffset(cr.getBegin()));
    return {Lexer::getSourceText(cr, sm_, ctx_.getLangOpts()).str(), b, e};
  }

  void run(FunctionDecl* kernel) {
    kernel_ = kernel;
    const auto* body = cast<CompoundStmt>(kernel->getBody());
    out_.body = snip(body->getSourceRange());
    out_.declaration = {patch_.text.substr(patch_.begin, out_.body.begin), 0, out_.body.begin};
    if (const auto* g = kernel->getAttr<CUDAGlobalAttr>()) {
      SourceLocation at = sm_.getExpansionLoc(g->getLocation());
      int64_t b = patch_.offset(sm_, at);
      if (b >= 0) out_.global_attr = {"__global__", b, b + 10};
    }
    out_.has_launch_bounds = kernel->hasAttr<CUDALaunchBoundsAttr>();
    if (const auto* bounds = kernel->getAttr<CUDALaunchBoundsAttr>())
      if (const Expr* threads = bounds->getMaxThreads(); threads && !threads->isValueDependent())
        if (auto v = threads->getIntegerConstantExpr(ctx_)) out_.launch_bounds_threads = v->getExtValue();
    // The manifest describes the original; a candidate may have added __restrict__.
    for (unsigned i = 0; i < kernel->getNumParams() && i < out_.params.size(); ++i)
      out_.params[i].is_restrict = kernel->getParamDecl(i)->getType().isRestrictQualified();
    for (unsigned i = 0; i < kernel->getNumParams(); ++i) {
      const ParmVarDecl* p = kernel->getParamDecl(i);
      out_.param_names.push_back(p->getIdentifier() ? snip(SourceRange(p->getLocation())) : Snippet{});
    }
    out_.is_template = kernel->getDescribedFunctionTemplate() != nullptr;
    for (const Stmt* s : body->body()) {
      out_.top_statements.push_back(snip(s->getSourceRange()));
      if (const auto* ds = dyn_cast<DeclStmt>(s))
        for (const Decl* d : ds->decls())
          if (const auto* v = dyn_cast<VarDecl>(d)) {
            out_.locals.push_back(v->getNameAsString());
            if (v->hasInit())
              out_.local_declarations.push_back(
                  {v->getNameAsString(), type_of(v), snip(v->getInit()->getSourceRange())});
          }
    }
    TraverseStmt(kernel->getBody());
  }

  bool TraverseStmt(Stmt* s) {
    if (!s) return true;
    stack_.push_back(s);
    bool r = Base::TraverseStmt(s);
    stack_.pop_back();
    return r;
  }

  bool TraverseForStmt(ForStmt* f) {
    // A grid-stride loop at the top of the body maps threads to elements:
    // its variable is a thread index and its condition the guard.
    if (loops_.empty() && grid_strides_.empty() && enclosing_statement_is_top(f)) {
      if (auto axis = grid_stride_axis(f)) {
        grid_strides_.insert(f);
        add_grid_stride(f, *axis);
        return Base::TraverseForStmt(f);
      }
    }
    int index = add_loop(f);
    loops_.push_back(index);
    bool r = Base::TraverseForStmt(f);
    loops_.pop_back();
    return r;
  }

  bool VisitVarDecl(VarDecl* v) {
    if (v->hasAttr<CUDASharedAttr>()) out_.uses_shared_memory = true;
    note_in_loop_bodies(v->getSourceRange(), v->getNameAsString(), &Loop::declared);
    if (!v->hasInit() || !loops_.empty()) return true;
    Snippet init = snip(v->getInit()->getSourceRange());
    if (auto axis = thread_index_axis(init.text)) {
      const Stmt* decl_stmt = enclosing_statement();
      if (decl_stmt && grid_strides_.count(decl_stmt)) return true;  // add_grid_stride recorded it
      out_.indices.push_back(
          {v->getNameAsString(), type_of(v), *axis, decl_stmt ? snip(decl_stmt->getSourceRange()) : Snippet{}});
      index_vars_.insert(v);
    }
    return true;
  }

  bool VisitIfStmt(IfStmt* s) {
    // if (e > acc) acc = e; : a max (or a min) as much as acc = e > acc ? e : acc is.
    const BinaryOperator* assign = nullptr;
    bool nan_wins = false;
    if (auto op = ast::guarded_extreme(ctx_, s, assign, nan_wins))
      reduction_candidate(assign->getLHS(), *op, assign->getRHS(), s, nan_wins);
    // if (e > acc) { acc = e; idx = i; }: an argmax.
    if (auto arg = ast::guarded_arg_extreme(ctx_, s))
      if (Reduction* r = reduction_candidate(arg->value->getLHS(), arg->op, arg->value->getRHS(), s, arg->nan_wins)) {
        const auto* index = cast<VarDecl>(cast<DeclRefExpr>(arg->index->getLHS()->IgnoreParenImpCasts())->getDecl());
        r->index_acc = index->getNameAsString();
        r->index_value = snip(arg->index->getRHS()->getSourceRange());
        r->index_type = type_of(index);
      }
    std::vector<const BinaryOperator*> conds;
    ast::collect_conjuncts(s->getCond()->IgnoreParenImpCasts(), conds);
    for (const BinaryOperator* c : conds) {
      const auto* lhs = dyn_cast<DeclRefExpr>(c->getLHS()->IgnoreParenImpCasts());
      if (!lhs || !index_vars_.count(dyn_cast<VarDecl>(lhs->getDecl()))) continue;
      Guard g;
      g.var = lhs->getDecl()->getNameAsString();
      g.bound = snip(c->getRHS()->getSourceRange());
      g.statement = snip(s->getSourceRange());
      if (c->getOpcode() == BO_GE && ast::is_return(s->getThen())) g.early_return = true;
      else if (c->getOpcode() != BO_LT) continue;
      if (!g.early_return) g.then_body = statements_of(s->getThen());
      out_.guards.push_back(std::move(g));
    }
    return true;
  }

  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* f = call->getDirectCallee();
    if (!f || !f->getIdentifier()) return true;
    std::string name = f->getName().str();
    if (name.rfind("__syncthreads", 0) == 0 || name == "__syncwarp") out_.uses_sync = true;
    if (name.rfind("__shfl", 0) == 0 || name.rfind("__ballot", 0) == 0 || name.rfind("__reduce", 0) == 0)
      out_.uses_warp_ops = true;
    // Cooperative groups: block.sync(), cg::sync(g), tile.shfl_down(), cg::reduce()...
    if (ast::in_cooperative_groups(f)) {
      if (name == "sync" || name.rfind("barrier", 0) == 0) out_.uses_sync = true;
      else if (name.rfind("shfl", 0) == 0 || name == "reduce" || name == "ballot" || name == "any" || name == "all" ||
               name.rfind("match", 0) == 0)
        out_.uses_warp_ops = true;
    }
    // Shared memory a helper declares (the extern __shared__ of a template
    // such as SharedArray<T>::get()) is the kernel's shared memory too.
    if (ast::declares_shared_memory(f)) out_.uses_shared_memory = true;
    if (name.rfind("atomic", 0) == 0 && call->getNumArgs() >= 2) add_atomic(call, name);
    if (kFastMath.count(name)) out_.math.push_back({name, snip(call->getCallee()->getSourceRange())});
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr*) { return true; }

  bool VisitReturnStmt(ReturnStmt* r) {
    out_.returns = true;
    if (std::none_of(stack_.begin(), stack_.end(), [](const Stmt* s) { return isa<LambdaExpr>(s); }))
      out_.kernel_returns.push_back(snip(r->getSourceRange()));
    for (int l : loops_) out_.loops[static_cast<size_t>(l)].jumps = out_.loops[static_cast<size_t>(l)].exits = true;
    return true;
  }

  // Conservative: a jump inside a while loop or switch of the body counts too.
  bool VisitContinueStmt(ContinueStmt*) { return note_jump(false); }
  bool VisitBreakStmt(BreakStmt*) { return note_jump(true); }
  bool VisitGotoStmt(GotoStmt*) { return note_jump(true); }
  bool note_jump(bool exits) {
    for (int l : loops_) {
      out_.loops[static_cast<size_t>(l)].jumps = true;
      out_.loops[static_cast<size_t>(l)].exits = out_.loops[static_cast<size_t>(l)].exits || exits;
    }
    if (loops_.empty() && !grid_strides_.empty())
      for (auto& i : out_.indices) i.loop_jumps = i.loop_jumps || i.grid_stride;
    return true;
  }

  /// Adds `name` to the `list` of each enclosing loop whose body holds `range`.
  void note_in_loop_bodies(SourceRange range, const std::string& name, std::vector<std::string> Loop::* list) {
    if (loops_.empty()) return;
    Snippet at = snip(range);
    if (!at.valid()) return;
    for (int i : loops_) {
      Loop& l = out_.loops[static_cast<size_t>(i)];
      if (at.begin >= l.body.begin && at.end <= l.body.end) (l.*list).push_back(name);
    }
  }

  void note_assigned(const Expr* target, SourceRange range) {
    if (const auto* ref = dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()))
      if (const auto* var = dyn_cast<VarDecl>(ref->getDecl()))
        note_in_loop_bodies(range, var->getNameAsString(), &Loop::assigned);
    // s.f = ... and s.a.b++ change s.
    const Expr* root = target->IgnoreParenImpCasts();
    while (const auto* m = dyn_cast<MemberExpr>(root)) root = m->getBase()->IgnoreParenImpCasts();
    if (const auto* ref = dyn_cast<DeclRefExpr>(root))
      if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
          var && std::find(out_.assigned.begin(), out_.assigned.end(), var->getNameAsString()) == out_.assigned.end())
        out_.assigned.push_back(var->getNameAsString());
  }

  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->isAssignmentOp()) note_assigned(b->getLHS(), b->getSourceRange());
    if (b->isAssignmentOp()) written_.insert(b->getLHS()->IgnoreParenImpCasts());
    if (b->isCompoundAssignmentOp()) {
      if (b->getOpcode() == BO_AddAssign) reduction_candidate(b->getLHS(), ReduceOp::Sum, b->getRHS(), b);
      if (b->getOpcode() == BO_MulAssign) reduction_candidate(b->getLHS(), ReduceOp::Product, b->getRHS(), b);
    } else if (b->getOpcode() == BO_Assign) {
      // acc = fmaxf(acc, e) / max(acc, e) / fminf...
      if (const auto* call = dyn_cast<CallExpr>(b->getRHS()->IgnoreParenImpCasts()); call && call->getNumArgs() == 2) {
        const FunctionDecl* f = call->getDirectCallee();
        std::string n = f && f->getIdentifier() ? f->getName().str() : "";
        bool max = n == "fmaxf" || n == "fmax" || n == "max";
        bool min = n == "fminf" || n == "fmin" || n == "min";
        const auto* first = dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts());
        const auto* lhs = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts());
        if ((max || min) && first && lhs && first->getDecl() == lhs->getDecl())
          reduction_candidate(b->getLHS(), max ? ReduceOp::Max : ReduceOp::Min, call->getArg(1), b);
      } else if (const auto* pick = dyn_cast<ConditionalOperator>(b->getRHS()->IgnoreParenImpCasts())) {
        // acc = e > acc ? e : acc, and the other ways to write a max or a min with ?:
        const Expr* value = nullptr;
        if (auto op = ast::selected_extreme(ctx_, b->getLHS(), pick, value))
          reduction_candidate(b->getLHS(), *op, value, b);
      }
    }
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->isIncrementDecrementOp()) note_assigned(u->getSubExpr(), u->getSourceRange());
    if (u->isIncrementDecrementOp()) written_.insert(u->getSubExpr()->IgnoreParenImpCasts());
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr* a) {
    const auto* base = dyn_cast<DeclRefExpr>(a->getBase()->IgnoreParenImpCasts());
    const auto* var = base ? dyn_cast<VarDecl>(base->getDecl()) : nullptr;
    if (!var || !var->getType()->isPointerType()) return true;
    Access acc;
    acc.base = var->getNameAsString();
    acc.const_pointee = var->getType()->getPointeeType().isConstQualified();
    acc.pointee = var->getType()->getPointeeType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    acc.index = snip(a->getIdx()->getSourceRange());
    acc.expr = snip(a->getSourceRange());
    acc.loop = loops_.empty() ? -1 : loops_.back();
    pending_accesses_.push_back({a, acc, !isa<ParmVarDecl>(var)});
    return true;
  }

  void finish() {
    for (auto& [expr, acc, local] : pending_accesses_) {
      acc.write = written_.count(expr) > 0;
      if (acc.write && acc.loop >= 0) out_.loops[static_cast<size_t>(acc.loop)].writes_memory = true;
      (local ? out_.local_accesses : out_.accesses).push_back(acc);
    }
    for (const Expr* target : written_)
      if (!ast::names_storage(target)) out_.indirect_writes.push_back(snip(target->getSourceRange()));
    std::sort(out_.indirect_writes.begin(), out_.indirect_writes.end(),
              [](const Snippet& a, const Snippet& b) { return a.begin < b.begin; });
  }

 private:
  /// Whether `f` is a statement of the kernel body itself.
  bool enclosing_statement_is_top(const ForStmt* f) const {
    for (const auto& parent : ctx_.getParents(*f))
      if (parent.get<CompoundStmt>() == kernel_->getBody()) return true;
    return false;
  }

  /// The axis of `for (T i = <thread index>; i < n; i += <grid size>)`, where
  /// the stride may also be a local initialised to the grid size.
  std::optional<char> grid_stride_axis(const ForStmt* f) const {
    const VarDecl* var = ast::loop_variable(f);
    if (!var || !var->hasInit()) return std::nullopt;
    auto axis = thread_index_axis(snip(var->getInit()->getSourceRange()).text);
    const auto* cond = dyn_cast_or_null<BinaryOperator>(f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
    const auto* inc =
        dyn_cast_or_null<CompoundAssignOperator>(f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr);
    if (!axis || !cond || cond->getOpcode() != BO_LT || !inc || inc->getOpcode() != BO_AddAssign) return std::nullopt;
    auto refers_to_var = [&](const Expr* e) {
      const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return r && r->getDecl() == var;
    };
    if (!refers_to_var(cond->getLHS()) || !refers_to_var(inc->getLHS())) return std::nullopt;
    std::string stride = snip(inc->getRHS()->getSourceRange()).text;
    if (const auto* r = dyn_cast<DeclRefExpr>(inc->getRHS()->IgnoreParenImpCasts()))
      if (const auto* local = dyn_cast<VarDecl>(r->getDecl());
          local && !isa<ParmVarDecl>(local) && local->hasInit() && local->getType().isConstQualified())
        stride = snip(local->getInit()->getSourceRange()).text;
    if (!is_grid_size(stride, *axis)) return std::nullopt;
    return axis;
  }

  void add_grid_stride(const ForStmt* f, char axis) {
    const VarDecl* var = ast::loop_variable(f);
    Snippet loop = snip(f->getSourceRange());
    out_.indices.push_back({var->getNameAsString(), type_of(var), axis, loop, true,
                            snip(SourceRange(f->getBeginLoc(), f->getRParenLoc()))});
    index_vars_.insert(var);
    Guard g;
    g.var = var->getNameAsString();
    g.bound = snip(cast<BinaryOperator>(f->getCond()->IgnoreParenImpCasts())->getRHS()->getSourceRange());
    g.statement = loop;
    g.then_body = statements_of(f->getBody());
    out_.guards.push_back(std::move(g));
  }

  /// The statements a branch or loop body runs: a block's contents without
  /// its braces, or the single statement (its ';' not included).
  Snippet statements_of(const Stmt* body) const {
    if (!isa<CompoundStmt>(body)) return snip(body->getSourceRange());
    Snippet block = snip(body->getSourceRange());
    if (!block.valid()) return {};
    return {block.text.substr(1, block.text.size() - 2), block.begin + 1, block.end - 1};
  }

  const Stmt* enclosing_statement() const {
    // The nearest statement on the stack whose parent is a compound statement.
    for (size_t i = stack_.size(); i-- > 1;)
      if (isa<CompoundStmt>(stack_[i - 1])) return stack_[i];
    return nullptr;
  }

  /// The outermost expression around the top of the stack: the statement an
  /// expression forms on its own ("atomicAdd(...)" in "if (c) atomicAdd(...);").
  const Stmt* expression_statement() const {
    for (size_t i = stack_.size(); i-- > 1;)
      if (!isa<Expr>(stack_[i - 1])) return stack_[i];
    return nullptr;
  }

  int add_loop(ForStmt* f) {
    Loop l;
    l.header = snip(SourceRange(f->getBeginLoc(), f->getRParenLoc()));
    l.body = snip(f->getBody()->getSourceRange());
    l.depth = static_cast<int>(loops_.size());
    l.parent = loops_.empty() ? -1 : loops_.back();
    for (const auto& parent : ctx_.getParents(*f))
      if (const auto* attributed = parent.get<AttributedStmt>())
        for (const Attr* a : attributed->getAttrs()) l.hinted = l.hinted || isa<LoopHintAttr>(a);
    if (const VarDecl* var = ast::loop_variable(f)) {
      l.var = var->getNameAsString();
      l.var_type = type_of(var);
      if (var->hasInit()) l.init_value = snip(var->getInit()->getSourceRange());
    }
    if (f->getInit()) l.init_statement = snip(f->getInit()->getSourceRange());
    for (const auto& walk : ast::pointer_walks(ctx_, f))
      l.pointer_walks.push_back({walk.var->getNameAsString(), walk.step ? snip(walk.step->getSourceRange()).text : "1",
                                 snip(walk.statement->getSourceRange())});
    if (auto w = ast::welford_update(ctx_, f)) {
      l.welford = Loop::Welford{w->mean->getNameAsString(), w->m2->getNameAsString(), type_of(w->mean),
                                snip(w->count->getSourceRange()), w->counter ? w->counter->getNameAsString() : ""};
      if (w->counter_step) w->statements.push_back(w->counter_step);
      for (const Stmt* st : w->statements) l.welford->statements.push_back(snip(st->getSourceRange()));
    }
    if (const auto* block = dyn_cast<CompoundStmt>(f->getBody()))
      for (const Stmt* st : block->body())
        if (isa<DeclStmt>(st)) l.declarations.push_back(snip(st->getSourceRange()));
    const auto* c = dyn_cast_or_null<BinaryOperator>(f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
    if (c && c->getOpcode() == BO_LT) l.bound = snip(c->getRHS()->getSourceRange());
    if (const auto* compared = c ? dyn_cast<DeclRefExpr>(c->getLHS()->IgnoreParenImpCasts()) : nullptr)
      l.compared = compared->getDecl()->getNameAsString();
    const ast::LoopStep step = ast::loop_step(f);
    if (step.stepped) l.stepped = step.stepped->getNameAsString();
    if (step.step) l.step = snip(step.step->getSourceRange());
    l.unit_step = step.unit_step;
    l.counts_down = step.counts_down;
    if (l.counts_down && c && (c->getOpcode() == BO_GE || c->getOpcode() == BO_GT)) {
      l.floor = snip(c->getRHS()->getSourceRange());
      if (c->getOpcode() == BO_GT) l.floor.text = "(" + l.floor.text + ") + 1";
    } else {
      l.counts_down = false;  // a downward loop whose end is not `c >= floor` is no unit-step loop here
    }
    auto literal = [&](const Snippet& s) -> std::optional<int64_t> {
      if (!s.valid() || s.text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
      return std::stoll(s.text);
    };
    if (l.unit_step)
      if (auto a = literal(l.init_value), b = literal(l.bound); a && b) l.trip_count = *b - *a;
    out_.loops.push_back(std::move(l));
    return static_cast<int>(out_.loops.size()) - 1;
  }

  /// The reduction into lhs the loop now holds, or nullptr.
  Reduction* reduction_candidate(const Expr* lhs, ReduceOp op, const Expr* value, const Stmt* stmt,
                                 bool nan_wins = false) {
    if (loops_.empty()) return nullptr;
    const auto* ref = dyn_cast<DeclRefExpr>(lhs->IgnoreParenImpCasts());
    const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    // `p += stride` walks a pointer: a position, not a value that accumulates.
    if (!var || isa<ParmVarDecl>(var) || var->getType()->isPointerType()) return nullptr;
    Loop& l = out_.loops[static_cast<size_t>(loops_.back())];
    // The accumulator lives outside the loop.
    if (sm_.getFileOffset(sm_.getExpansionLoc(var->getLocation())) >=
        sm_.getFileOffset(sm_.getExpansionLoc(l_begin(loops_.back()))))
      return nullptr;
    Reduction r{var->getNameAsString(), op, snip(value->getSourceRange()), snip(stmt->getSourceRange())};
    r.acc_type = type_of(var);
    r.acc_declaration = snip(var->getSourceRange());
    r.starts_at_zero = var->getInit() && ast::is_zero(ctx_, var->getInit());
    r.nan_wins = nan_wins;
    l.reductions.push_back(std::move(r));
    return &l.reductions.back();
  }

  SourceLocation l_begin(int loop) const {
    return sm_.getComposedLoc(sm_.getFileID(sm_.getExpansionLoc(kernel_->getLocation())),
                              static_cast<unsigned>(patch_.begin + out_.loops[static_cast<size_t>(loop)].header.begin));
  }

  void add_atomic(CallExpr* call, const std::string& name) {
    AtomicCall a;
    a.function = name;
    a.call = snip(call->getSourceRange());
    a.address = snip(call->getArg(0)->getSourceRange());
    a.value = snip(call->getArg(1)->getSourceRange());
    a.loop = loops_.empty() ? -1 : loops_.back();
    if (const Stmt* s = expression_statement()) a.statement = snip(s->getSourceRange());
    bool uniform = true;
    std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
      if (!s) return;
      if (const auto* r = dyn_cast<DeclRefExpr>(s)) {
        const auto* p = dyn_cast<ParmVarDecl>(r->getDecl());
        if (p && p->getType()->isPointerType() && a.base.empty()) a.base = p->getNameAsString();
        if (!p && !isa<EnumConstantDecl>(r->getDecl())) uniform = false;  // a local (thread index, loaded value...)
      }
      // p[3] is one address for every thread; p[i] or threadIdx.x and friends are not.
      if (const auto* sub = dyn_cast<ArraySubscriptExpr>(s)) {
        if (!sub->getIdx()->isValueDependent() && !sub->getIdx()->getIntegerConstantExpr(ctx_)) uniform = false;
      } else if (isa<MemberExpr>(s) || isa<PseudoObjectExpr>(s) || isa<MSPropertyRefExpr>(s)) {
        uniform = false;
      }
      for (const Stmt* c : s->children()) scan(c);
    };
    scan(call->getArg(0));
    a.uniform_address = uniform;
    a.index = offset_from(call->getArg(0), a.base);
    out_.atomics.push_back(std::move(a));
  }

  /// e in `&base[e]`, `base + e` or `e + base`, where base names the pointer
  /// parameter `base`; empty for any other address.
  Snippet offset_from(const Expr* address, const std::string& base) {
    auto names_base = [&](const Expr* e) {
      const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      const auto* p = r ? dyn_cast<ParmVarDecl>(r->getDecl()) : nullptr;
      return p && !base.empty() && p->getNameAsString() == base;
    };
    const Expr* e = address->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_AddrOf) {
      const auto* sub = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens());
      if (sub && names_base(sub->getBase())) return snip(sub->getIdx()->getSourceRange());
    } else if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Add) {
      if (names_base(b->getLHS())) return snip(b->getRHS()->getSourceRange());
      if (names_base(b->getRHS())) return snip(b->getLHS()->getSourceRange());
    }
    return {};
  }

  ASTContext& ctx_;
  SourceManager& sm_;
  const PatchedSource& patch_;
  KernelAnalysis& out_;
  FunctionDecl* kernel_ = nullptr;
  std::vector<Stmt*> stack_;
  std::vector<int> loops_;
  std::set<const VarDecl*> index_vars_;
  std::set<const Stmt*> grid_strides_;  // the top-level grid-stride loops (not in out_.loops)
  std::set<const Expr*> written_;
  std::vector<std::tuple<const Expr*, Access, bool>> pending_accesses_;  // bool: a local pointer
};

/// Finds the kernel's definition in the patch and analyses it.
class AnalysisConsumer : public ASTConsumer {
 public:
  AnalysisConsumer(const Kernel& kernel, const PatchedSource& patch, KernelAnalysis& out, bool& found)
      : kernel_(kernel), patch_(patch), out_(out), found_(found) {}

  // Errors elsewhere in the unit can be its own (host code only clang
  // rejects); a kernel that did not parse cleanly is not analysed.
  void HandleTranslationUnit(ASTContext& ctx) override { find(ctx, ctx.getTranslationUnitDecl()); }

 private:
  void find(ASTContext& ctx, DeclContext* dc) {
    for (Decl* d : dc->decls()) {
      if (found_) return;
      if (auto* inner = dyn_cast<NamespaceDecl>(d)) find(ctx, inner);
      else if (auto* ls = dyn_cast<LinkageSpecDecl>(d)) find(ctx, ls);
      FunctionDecl* fd = dyn_cast<FunctionDecl>(d);
      if (auto* t = dyn_cast<FunctionTemplateDecl>(d)) fd = t->getTemplatedDecl();
      if (!fd || !fd->hasAttr<CUDAGlobalAttr>() || fd->getNameAsString() != kernel_.name ||
          !fd->doesThisDeclarationHaveABody() || !patch_.contains(ctx.getSourceManager(), fd->getLocation()) ||
          parsed_with_errors(fd))
        continue;
      found_ = true;
      Analyzer a(ctx, patch_, out_);
      a.run(fd);
      a.finish();
    }
  }

  const Kernel& kernel_;
  const PatchedSource& patch_;
  KernelAnalysis& out_;
  bool& found_;
};

}  // namespace

const Param* KernelAnalysis::param(std::string_view n) const {
  for (const auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const ThreadIndex* KernelAnalysis::index(char axis) const {
  for (const auto& i : indices)
    if (i.axis == axis) return &i;
  return nullptr;
}

Expected<KernelAnalysis> analyze_kernel(const Kernel& kernel, const std::string& source, const ClangSetup& setup,
                                        const std::filesystem::path& root) {
  if (!kernel.compile) return Error{fmt::format("kernel '{}' has no compile command in the manifest", kernel.id)};
  auto patch = patch_kernel_file(kernel, source, root);
  if (!patch) return patch.error();
  KernelAnalysis out;
  out.name = kernel.name;
  out.params = kernel.params;
  bool found = false;
  auto errors = parse_patched(kernel, *patch, setup, [&](clang::CompilerInstance&) {
    return std::make_unique<AnalysisConsumer>(kernel, *patch, out, found);
  });
  if (!errors.empty()) return Error{"the kernel does not parse: " + patch->describe(errors.front())};
  if (!found) return Error{fmt::format("no definition of the kernel '{}' in its source", kernel.name)};
  return out;
}

}  // namespace stark
