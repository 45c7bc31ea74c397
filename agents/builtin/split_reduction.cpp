#include "agents/builtin/split_reduction.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "agents/builtin/device_helpers.h"
#include "agents/builtin/rewrite.h"
#include "core/cpp_tokens.h"
#include "core/text.h"

namespace stark::builtin {

namespace {

/// Threads of x per block: one warp of neighbouring outputs, so a row of the
/// loop is still read 128 bytes at a time.
constexpr int64_t kOutputsPerBlock = 32;

/// The kernel body as tokens, positioned in the kernel source.
class BodyTokens {
 public:
  explicit BodyTokens(const KernelAnalysis& a) : a_(a), tokens_(cpp_tokens(a.body.text)) {}

  /// Whether the body names `object.member` (threadIdx.y, blockDim.z).
  bool names(std::string_view object, char member) const {
    const std::string_view m(&member, 1);
    for (size_t i = 0; i + 2 < tokens_.size(); ++i)
      if (text(i) == object && text(i + 1) == "." && text(i + 2) == m) return true;
    return false;
  }

  /// What encloses the statement starting at `at`: the braces still open
  /// there (source offsets, outermost first), or nothing when it is no
  /// statement of its own (inside parentheses, or the body of an unbraced
  /// if, else, for or while).
  std::optional<std::vector<int64_t>> open_braces_at(int64_t at) const {
    std::vector<int64_t> open;
    int parens = 0;
    std::string_view previous;
    for (size_t i = 0; i < tokens_.size() && position(i) < at; ++i) {
      std::string_view t = text(i);
      if (t == "{") open.push_back(position(i));
      if (t == "}" && !open.empty()) open.pop_back();
      if (t == "(") ++parens;
      if (t == ")") --parens;
      previous = t;
    }
    if (parens != 0 || !(previous == ";" || previous == "{" || previous == "}")) return std::nullopt;
    return open;
  }

  /// Where `name` occurs in [begin, end) of the source.
  std::vector<int64_t> occurrences(std::string_view name, int64_t begin, int64_t end) const {
    std::vector<int64_t> out;
    for (size_t i = 0; i < tokens_.size(); ++i)
      if (position(i) >= begin && position(i) < end && text(i) == name) out.push_back(position(i));
    return out;
  }

 private:
  std::string_view text(size_t i) const { return token_text(a_.body.text, tokens_[i]); }
  int64_t position(size_t i) const { return a_.body.begin + static_cast<int64_t>(tokens_[i].begin); }

  const KernelAnalysis& a_;
  std::vector<CppToken> tokens_;
};

/// One accumulator the split loop leaves partial in each thread.
struct Partial {
  std::string acc;
  ReduceKind kind;
  std::string index_acc;  // an argmax's or argmin's place, combined with it
};

/// A loop dealt out along the axis, and what to combine after it.
struct SplitLoop {
  const Loop* loop = nullptr;
  std::vector<Partial> partials;
  std::vector<const Loop::PointerWalk*> walks;  // set from the iteration number at each iteration's start
};

/// What the rewrite changes: the axis, the loops, the stores made once.
struct Split {
  char axis = 'y';
  std::vector<SplitLoop> loops;
  std::set<int64_t> single_stores;  // where `if (threadIdx.<axis> == 0) ` goes
};

bool inside(const Loop& l, int64_t at) { return at >= l.header.begin && at < l.body.end; }

/// The loop of depth 0 that holds loop `index`.
int outermost(const KernelAnalysis& a, int index) {
  while (index >= 0 && a.loops[static_cast<size_t>(index)].parent >= 0)
    index = a.loops[static_cast<size_t>(index)].parent;
  return index;
}

/// Whether the open braces of a statement are the kernel body's, a thread
/// index guard's or a grid-stride loop's: then whether a thread reaches it
/// depends on its outputs only, never on the data.
bool only_guard_braces(const KernelAnalysis& a, const std::vector<int64_t>& open) {
  for (int64_t brace : open) {
    if (brace == a.body.begin) continue;
    bool guard = false;
    for (const auto& g : a.guards)
      if (g.then_body.valid() && brace >= g.statement.begin && brace <= g.then_body.begin) guard = true;
    if (!guard) return false;
  }
  return true;
}

/// The reductions in loop `index` (depth 0) and in its inner loops.
std::vector<const Reduction*> reductions_in(const KernelAnalysis& a, size_t index) {
  std::vector<const Reduction*> out;
  for (size_t i = 0; i < a.loops.size(); ++i)
    if (outermost(a, static_cast<int>(i)) == static_cast<int>(index))
      for (const auto& r : a.loops[i].reductions)
        if (!inside(a.loops[index], r.acc_declaration.begin)) out.push_back(&r);
  return out;
}

/// Whether loop `index` (depth 0) or a loop inside it stores into memory.
bool stores_in(const KernelAnalysis& a, size_t index) {
  for (const auto* list : {&a.accesses, &a.local_accesses})
    for (const auto& acc : *list)
      if (acc.write && acc.loop >= 0 && outermost(a, acc.loop) == static_cast<int>(index)) return true;
  return false;
}

/// The pointers loop `index` walks that a dealt-out iteration can set from
/// its own number: stepped in the loop's braces, read nowhere after it.
std::vector<const Loop::PointerWalk*> rebased_walks(const KernelAnalysis& a, const BodyTokens& body, size_t index) {
  const Loop& l = a.loops[index];
  std::vector<const Loop::PointerWalk*> out;
  if (l.hinted || !l.body.text.starts_with("{")) return out;  // no room for the set-up before it or in it
  for (const auto& walk : l.pointer_walks)
    if (body.occurrences(walk.var, l.body.end, a.body.end).empty()) out.push_back(&walk);
  return out;
}

/// The partial results loop `index` (depth 0) leaves, from `all` (its
/// reductions_in): each accumulator once, read nowhere in the loop but in its
/// own updates; `walks` are carried too, set anew in each iteration. Error:
/// why the loop cannot be split.
Expected<std::vector<Partial>> partials_of(const KernelAnalysis& a, const BodyTokens& body, size_t index,
                                           const std::vector<const Reduction*>& all,
                                           const std::vector<const Loop::PointerWalk*>& walks) {
  const Loop& l = a.loops[index];
  std::vector<Partial> out;
  for (const Reduction* r : all) {
    if (!r->acc_declaration.valid()) return Error{fmt::format("the accumulator '{}' is not a local", r->acc)};
    if (r->op == ReduceOp::Product)
      return Error{fmt::format("the product '{}' (each thread would start at one)", r->acc)};
    if (r->op == ReduceOp::Sum && !r->starts_at_zero)
      return Error{fmt::format("the sum '{}' does not start at zero", r->acc)};
    auto same = std::find_if(out.begin(), out.end(), [&](const Partial& p) { return p.acc == r->acc; });
    if (same != out.end()) {
      if (same->kind != reduce_kind(*r, "float")) return Error{fmt::format("'{}' is reduced in two ways", r->acc)};
      continue;
    }
    out.push_back({r->acc, reduce_kind(*r, "float"), r->index_acc});
  }
  auto is_partial = [&](const std::string& v) {
    return std::any_of(out.begin(), out.end(), [&](const Partial& p) { return p.acc == v || p.index_acc == v; });
  };
  // A partial read or reset anywhere but in its own updates is a running
  // value (a scan, Welford's mean), not something threads can split.
  for (const auto& p : out)
    for (const std::string& name : {p.acc, p.index_acc}) {
      if (name.empty()) continue;
      for (int64_t at : body.occurrences(name, l.header.begin, l.body.end)) {
        bool own = false;
        for (const Reduction* r : all)
          if (r->acc == p.acc && at >= r->statement.begin && at < r->statement.end) own = true;
        if (!own) return Error{fmt::format("the loop reads the running value of '{}'", name)};
      }
    }
  // Anything else the loop carries from one iteration to the next would be
  // split without being combined.
  for (const auto& v : l.assigned) {
    bool walked = std::any_of(walks.begin(), walks.end(), [&](const Loop::PointerWalk* w) { return w->var == v; });
    bool fine =
        v == l.var || std::find(l.declared.begin(), l.declared.end(), v) != l.declared.end() || is_partial(v) || walked;
    if (!fine) return Error{fmt::format("the loop carries '{}' from one iteration to the next", v)};
  }
  return out;
}

/// The split of a kernel, or why there is none.
Expected<Split> plan(const KernelAnalysis& a) {
  if (a.uses_shared_memory || a.uses_sync || a.uses_warp_ops) return Error{"already cooperative"};
  if (!a.atomics.empty()) return Error{"has atomics"};
  if (!a.indirect_writes.empty())
    return Error{fmt::format("stores through '{}', which the analysis does not follow", a.indirect_writes[0].text)};
  const ThreadIndex* x = a.index('x');
  if (!x) return Error{"no thread index on x"};
  if (x->grid_stride && x->loop_jumps) return Error{"the grid-stride loop's body continues or breaks"};
  BodyTokens body(a);
  Split split;
  if (!body.names("threadIdx", 'y') && !body.names("blockDim", 'y')) split.axis = 'y';
  else if (!body.names("threadIdx", 'z') && !body.names("blockDim", 'z')) split.axis = 'z';
  else return Error{"no block axis left free"};

  // Memory both read and written may be read by another thread than the one
  // that wrote it once iterations are dealt out.
  std::set<std::string> read, written;
  for (const auto* list : {&a.accesses, &a.local_accesses})
    for (const auto& acc : *list) (acc.write ? written : read).insert(acc.base);
  for (const auto& base : written)
    if (read.count(base)) return Error{fmt::format("reads '{}', which it also writes", base)};

  std::optional<int64_t> container;
  for (size_t i = 0; i < a.loops.size(); ++i) {
    const Loop& l = a.loops[i];
    if (l.depth != 0) continue;
    auto reductions = reductions_in(a, i);
    if (reductions.empty() && !stores_in(a, i)) continue;  // runs in every thread, as before
    auto walks = rebased_walks(a, body, i);
    auto partials = partials_of(a, body, i, reductions, walks);
    if (!partials) return partials.error();
    if (l.var.empty() || l.var_type.empty() || !l.unit_step || !l.bound.valid())
      return Error{"a loop that does not declare its variable and step it by one to a bound"};
    if (l.exits) return Error{"a loop that breaks or returns"};
    auto open = body.open_braces_at(l.header.begin);
    if (!open || !only_guard_braces(a, *open)) return Error{"a loop that runs only for some data"};
    // Threads of other outputs may skip a guarded block: every combine must
    // then be behind the same braces, so they never wait at another one.
    int64_t innermost = open->empty() ? a.body.begin : open->back();
    if (container && *container != innermost) return Error{"loops to split behind different guards"};
    container = innermost;
    split.loops.push_back({&l, std::move(*partials), std::move(walks)});
  }
  if (std::none_of(split.loops.begin(), split.loops.end(), [](const SplitLoop& s) { return !s.partials.empty(); }))
    return Error{"no reduction loop to split"};

  // Stores outside the split loops are made once, by the first thread of each output.
  for (const auto* list : {&a.accesses, &a.local_accesses})
    for (const auto& acc : *list) {
      if (!acc.write) continue;
      if (acc.loop >= 0) {
        const Loop* top = &a.loops[static_cast<size_t>(outermost(a, acc.loop))];
        if (std::none_of(split.loops.begin(), split.loops.end(), [&](const SplitLoop& s) { return s.loop == top; }))
          return Error{fmt::format("'{}' is stored in a loop that is not split", acc.expr.text)};
        continue;
      }
      if (!body.open_braces_at(acc.expr.begin))
        return Error{fmt::format("'{}' is stored inside an expression or an unbraced branch", acc.expr.text)};
      split.single_stores.insert(acc.expr.begin);
    }
  return split;
}

/// A walked pointer's value before the loop, kept, and its value at each
/// dealt-out iteration set from it: the iteration's own number of strides.
std::vector<TextEdit> rebase_walks(const Subject& s, const Loop& l,
                                   const std::vector<const Loop::PointerWalk*>& walks) {
  std::vector<TextEdit> edits;
  const std::string indent = indentation_at(s.source, l.header.begin);
  const std::string offset =
      trim(l.init_value.text) == "0" ? l.var : fmt::format("({} - ({}))", l.var, l.init_value.text);
  for (const Loop::PointerWalk* w : walks) {
    const std::string start = fmt::format("stark_{}_start", w->var);
    edits.push_back({l.header.begin, l.header.begin, fmt::format("const auto {} = {};\n{}", start, w->var, indent)});
    edits.push_back({l.body.begin + 1, l.body.begin + 1,
                     fmt::format("\n{}  {} = {} + {} * ({});", indent, w->var, start, offset, w->step)});
  }
  return edits;
}

/// The block's threads: 32 outputs on x, `split` threads of each on the free
/// axis; the grid covers the outputs 32 at a time on x and keeps y and z.
LaunchOverride split_launch(const Subject& s, char axis, int64_t split) {
  auto original = [](const std::vector<std::string>& override, size_t i, const char* name) {
    return i < override.size() ? override[i] : override.empty() ? std::string(name) : std::string("1");
  };
  LaunchOverride launch;
  launch.grid = {fmt::format("ceil_div({}, {})", s.extent('x'), kOutputsPerBlock), original(s.launch.grid, 1, "grid.y"),
                 original(s.launch.grid, 2, "grid.z")};
  const std::string x = std::to_string(kOutputsPerBlock);
  if (axis == 'y') {
    launch.block = {x, std::to_string(split), original(s.launch.block, 2, "block.z")};
  } else {
    std::string y = original(s.launch.block, 1, "block.y");
    launch.block = {x, y, fmt::format("max(1, min({}, 1024 / ({} * ({}))))", split, x, y)};
  }
  return launch;
}

}  // namespace

std::vector<Params> SplitReduction::candidates(const Subject& s) const {
  if (s.has(name())) return {};
  auto split = plan(*s.analysis);
  if (!split) return {};
  const KernelAnalysis& a = *s.analysis;
  std::vector<Params> out;
  for (int64_t n : {16, 8, 32, 4}) {
    // __launch_bounds__ caps the block: on z the block's y is not known here.
    if (a.has_launch_bounds && (split->axis == 'z' || kOutputsPerBlock * n > a.launch_bounds_threads)) continue;
    out.push_back({{{"split", n}}});
  }
  return out;
}

Expected<Variant> SplitReduction::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  auto split = plan(a);
  if (!split) return Error{"split-reduction does not apply: " + split.error().message};
  const char axis = split->axis;
  std::vector<TextEdit> edits;
  std::map<std::string, std::pair<ReduceKind, bool>> helpers;  // by name: the kind, with an index or not
  for (const auto& [l, partials, walks] : split->loops) {
    const std::string init = trim(l->init_value.text) == "0" ? "" : "(" + l->init_value.text + ") + ";
    edits.push_back({l->header.begin, l->header.end,
                     fmt::format("for ({0} {1} = {2}threadIdx.{3}; {1} < {4}; {1} += blockDim.{3})", l->var_type,
                                 l->var, init, axis, l->bound.text)});
    for (auto& e : rebase_walks(s, *l, walks)) edits.push_back(std::move(e));
    if (partials.empty()) continue;
    int64_t after = statement_end(s.source, l->body.end);
    std::string indent = indentation_at(s.source, l->header.begin);
    std::string combine;
    for (const auto& part : partials) {
      const bool arg = !part.index_acc.empty();
      std::string helper = helper_name(a.name, (arg ? "split_arg" : "split_") + part.kind.tag());
      helpers[helper] = {part.kind, arg};
      combine += arg ? fmt::format("\n{}{}({}, {});", indent, helper, part.acc, part.index_acc)
                     : fmt::format("\n{}{} = {}({});", indent, part.acc, helper, part.acc);
    }
    edits.push_back({after, after, combine});
  }
  for (int64_t at : split->single_stores) edits.push_back({at, at, fmt::format("if (threadIdx.{} == 0) ", axis)});
  std::string helper_text;
  for (const auto& [helper, what] : helpers)
    helper_text += (what.second ? split_arg_combine_helper(helper, what.first, axis)
                                : split_combine_helper(helper, what.first, axis)) +
                   "\n";
  edits.push_back(before_kernel(a, helper_text));
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  Variant v;
  v.kernel = s.kernel->id;
  v.source = *source;
  v.launch = split_launch(s, axis, p.get("split"));
  return v;
}

}  // namespace stark::builtin
