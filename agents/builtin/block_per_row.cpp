#include "agents/builtin/block_per_row.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "agents/builtin/device_helpers.h"
#include "agents/builtin/rewrite.h"
#include "agents/builtin/row_kernel.h"
#include "core/cpp_tokens.h"

namespace stark::builtin {

namespace {

/// A loop whose reductions are all max or min: its threads may each start
/// from the same seed (often the row's first element, the loop starting at
/// 1), since counting one element twice changes neither.
bool only_max_or_min(const Loop& l) {
  if (l.reductions.empty()) return false;
  for (const auto& r : l.reductions)
    if (r.op != ReduceOp::Max && r.op != ReduceOp::Min) return false;
  return true;
}

bool inside(const Snippet& outer, int64_t at) { return at >= outer.begin && at < outer.end; }

/// The outermost loop around loop i (i itself at depth 0).
int nest_of(const KernelAnalysis& a, int i) {
  while (a.loops[static_cast<size_t>(i)].parent >= 0) i = a.loops[static_cast<size_t>(i)].parent;
  return i;
}

bool holds_loops(const KernelAnalysis& a, int i) {
  for (const auto& l : a.loops)
    if (l.parent == i) return true;
  return false;
}

/// The innermost loop whose body holds offset `at`, or -1.
int loop_at(const KernelAnalysis& a, int64_t at) {
  int found = -1;
  for (size_t i = 0; i < a.loops.size(); ++i)
    if (inside(a.loops[i].body, at) && (found < 0 || a.loops[i].depth > a.loops[static_cast<size_t>(found)].depth))
      found = static_cast<int>(i);
  return found;
}

/// How a row's loops are shared out over the block's threads. Either the
/// outermost loops are split and the loops inside them run whole in each
/// iteration (reductions in those inner loops stay out), or (`innermost`)
/// the innermost loop of each nest is split and the loops around it run in
/// every thread alike (their bounds cannot depend on the thread): a short
/// inner loop favours the first, a long one under a short outer loop (a
/// channel's planes, a group's channels) the second. Each accumulator's
/// per-thread parts are combined once, after the loop that holds its
/// lifetime: the nest's outermost loop when it is declared before the nest,
/// else the split loop itself (a value per iteration of the loops around,
/// `float s = 0; for (p...) s += ...;` inside them).
struct RowLoops {
  std::vector<int> split;  // the loops dealt out over the block's threads
  /// One accumulator's parts combined (a sum, max or min), or a loop's
  /// Welford mean and m2 (with their count).
  struct Combine {
    const Reduction* reduction = nullptr;
    const Loop* welford = nullptr;
    int after = -1;  // the loop after whose end every thread takes part
    /// The variables it combines and the statements that update them (and
    /// may read them on the way).
    std::vector<std::string> vars() const;
    std::vector<Snippet> updates() const;
  };
  std::vector<Combine> combines;
};

std::vector<std::string> RowLoops::Combine::vars() const {
  if (reduction && reduction->index_acc.empty()) return {reduction->acc};
  if (reduction) return {reduction->acc, reduction->index_acc};
  std::vector<std::string> out{welford->welford->mean, welford->welford->m2};
  if (!welford->welford->counter.empty()) out.push_back(welford->welford->counter);
  return out;
}

std::vector<Snippet> RowLoops::Combine::updates() const {
  return reduction ? std::vector<Snippet>{reduction->statement} : welford->welford->statements;
}

/// Why a loop around the split loops cannot run in every thread alike, or nothing.
std::optional<std::string> outer_loop_unfit(const KernelAnalysis& a, int i) {
  const Loop& l = a.loops[static_cast<size_t>(i)];
  if (!l.reductions.empty()) return "a reduction in a loop around other loops";
  if (l.exits) return "a loop around the row loops breaks or returns";
  // Every thread would run it: a write there would come from every thread.
  for (const auto& acc : a.accesses)
    if (acc.write && acc.loop == i)
      return fmt::format("'{}' is written in a loop around the row loops (by every thread)", acc.expr.text);
  for (const auto& w : a.indirect_writes)
    if (loop_at(a, w.begin) == i)
      return fmt::format("'{}' is written in a loop around the row loops (by every thread)", w.text);
  return std::nullopt;
}

/// Why a loop cannot be split over the block's threads, or nothing.
std::optional<std::string> split_loop_unfit(const Loop& l) {
  for (const auto& r : l.reductions) {
    if (r.op == ReduceOp::Product) return "a product over the row (its threads would need to start at one)";
  }
  if (l.var.empty() || !l.unit_step || !l.bound.valid())
    return "a row loop that does not step its own variable by one to a bound";
  if (l.exits) return "a row loop that breaks or returns (its iterations are not independent)";
  if (l.init_value.text != "0" && !only_max_or_min(l)) return "a row loop that starts past 0 and is not a max or min";
  return std::nullopt;
}

/// The accumulator's reads in `scope` outside its own updates: a running
/// value (a scan, a recurrence) no thread's part holds.
bool read_on_the_way(const std::string& acc, const Snippet& scope, const std::vector<RowLoops::Combine>& combines) {
  std::vector<Snippet> own;
  for (const auto& c : combines) {
    auto vars = c.vars();
    if (std::find(vars.begin(), vars.end(), acc) == vars.end()) continue;
    for (const auto& u : c.updates()) own.push_back(u);
  }
  for (const auto& t : cpp_tokens(scope.text)) {
    if (token_text(scope.text, t) != acc) continue;
    const int64_t at = scope.begin + static_cast<int64_t>(t.begin);
    if (std::none_of(own.begin(), own.end(), [&](const Snippet& u) { return inside(u, at); })) return true;
  }
  return false;
}

/// The reduction into acc in loop l, or nullptr.
const Reduction* reduction_of(const Loop& l, const std::string& acc) {
  for (const auto& r : l.reductions)
    if (r.acc == acc) return &r;
  return nullptr;
}

/// Why a loop's Welford update cannot be split (its m2 must start at zero,
/// in the mean's type), or nothing.
std::optional<std::string> welford_unfit(const Loop& l) {
  const auto& w = *l.welford;
  const Reduction* m2 = reduction_of(l, w.m2);
  if (m2 && m2->starts_at_zero && m2->acc_type == w.type) return std::nullopt;
  return fmt::format("'{}' (Welford's second moment) does not start at zero in the mean's type", w.m2);
}

Expected<RowLoops> row_loops(const KernelAnalysis& a, bool innermost) {
  if (auto why = not_a_row_kernel(a)) return Error{*why};
  RowLoops out;
  for (size_t i = 0; i < a.loops.size(); ++i) {
    const int index = static_cast<int>(i);
    const Loop& l = a.loops[i];
    if (!innermost && l.depth != 0) {
      if (!l.reductions.empty()) return Error{"reductions in nested loops"};
      continue;
    }
    if (innermost && holds_loops(a, index)) {
      if (auto why = outer_loop_unfit(a, index)) return Error{*why};
      continue;
    }
    if (auto why = split_loop_unfit(l)) return Error{*why};
    out.split.push_back(index);
    const int64_t nest_begin = a.loops[static_cast<size_t>(nest_of(a, index))].header.begin;
    auto after = [&](const Reduction& r) { return r.acc_declaration.begin < nest_begin ? nest_of(a, index) : index; };
    std::vector<std::string> welford_vars;
    if (l.welford) {
      if (auto why = welford_unfit(l)) return Error{*why};
      const Reduction* mean = reduction_of(l, l.welford->mean);
      if (!mean) return Error{fmt::format("Welford's mean '{}' is not a running sum here", l.welford->mean)};
      RowLoops::Combine c{nullptr, &l};
      c.after = after(*mean);
      // i + 1 counts this loop's iterations only, not a nest's.
      if (l.welford->counter.empty() && c.after != index)
        return Error{fmt::format("Welford's count '{}' restarts with each outer iteration", l.welford->count.text)};
      welford_vars = c.vars();
      out.combines.push_back(c);
    }
    for (const auto& r : l.reductions)
      if (std::find(welford_vars.begin(), welford_vars.end(), r.acc) == welford_vars.end())
        out.combines.push_back({&r, nullptr, after(r)});
  }
  if (out.split.empty()) return Error{"no loop over the row"};
  for (const auto& c : out.combines) {
    for (const auto& var : c.vars()) {
      for (const auto& other : out.combines) {
        auto others = other.vars();
        if (other.after != c.after && std::find(others.begin(), others.end(), var) != others.end())
          return Error{fmt::format("'{}' is reduced in two loops (its parts would be combined twice)", var)};
      }
      if (read_on_the_way(var, a.loops[static_cast<size_t>(c.after)].body, out.combines))
        return Error{
            fmt::format("the loop reads the running value of '{}' (a scan or a recurrence, not a reduction)", var)};
    }
  }
  return out;
}

}  // namespace

std::vector<Params> BlockPerRow::candidates(const Subject& s) const {
  if (s.has(name())) return {};
  const KernelAnalysis& a = *s.analysis;
  bool nested = false;
  for (const auto& l : a.loops) nested = nested || l.depth > 0;
  const bool outer = static_cast<bool>(row_loops(a, false));
  const bool inner = nested && static_cast<bool>(row_loops(a, true));
  std::vector<Params> out;
  for (int block : {256, 512, 128, 1024}) {
    if (outer) out.push_back({{{"block", block}}});
    if (inner) out.push_back({{{"block", block}, {"inner", 1}}});
  }
  return out;
}

Expected<Variant> BlockPerRow::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  auto loops = row_loops(a, p.get_or("inner", 0) != 0);
  if (!loops) return Error{"block-per-row does not apply: " + loops.error().message};
  int64_t block = p.get("block");
  auto row = row_from_block(a);
  if (!row) return Error{"block-per-row: " + row.error().message};
  std::vector<TextEdit> edits{*row};
  for (int i : loops->split) {
    const Loop& l = a.loops[static_cast<size_t>(i)];
    edits.push_back(
        {l.header.begin, l.header.end,
         fmt::format("for ({} {} = {}threadIdx.x; {} < {}; {} += blockDim.x)", l.var_type, l.var,
                     l.init_value.text == "0" ? "" : "(" + l.init_value.text + ") + ", l.var, l.bound.text, l.var)});
  }

  std::map<std::string, ReduceKind> helpers, arg_helpers;  // by name
  std::map<int, std::string> finishes;                     // by the loop they follow
  std::set<std::string> done;
  std::string welford_helper;
  for (const auto& c : loops->combines) {
    if (!c.welford) continue;
    welford_helper = helper_name(a.name, "block_welford");
    const Loop& l = *c.welford;
    const std::string indent = indentation_at(s.source, a.loops[static_cast<size_t>(c.after)].header.begin);
    const std::string call = fmt::format("{}({{}}, {}, {});", welford_helper, l.welford->mean, l.welford->m2);
    if (!l.welford->counter.empty()) {
      finishes[c.after] += fmt::format("\n{}{}", indent, fmt::format(fmt::runtime(call), l.welford->counter));
      continue;
    }
    // The count was the loop's i + 1: a thread's own count is its iterations
    // so far, and after the loop all of its iterations.
    edits.push_back(
        {l.welford->count.begin, l.welford->count.end, fmt::format("(({} - threadIdx.x) / blockDim.x + 1)", l.var)});
    finishes[c.after] += fmt::format(
        "\n{0}{{\n{0}  const long long stark_left = static_cast<long long>({1}) - static_cast<long "
        "long>(threadIdx.x);\n"
        "{0}  long long stark_count = stark_left > 0 ? (stark_left - 1) / blockDim.x + 1 : 0;\n{0}  {2}\n{0}}}",
        indent, l.bound.text, fmt::format(fmt::runtime(call), "stark_count"));
  }
  for (const auto& c : loops->combines) {
    const Reduction* r = c.reduction;
    const int after = c.after;
    if (!r || !done.insert(r->acc).second) continue;
    // A sum may only be split over threads if every thread starts from zero.
    if (r->op == ReduceOp::Sum && !r->starts_at_zero)
      return Error{fmt::format("block-per-row: the sum '{}' does not start at zero", r->acc)};
    ReduceKind kind = reduce_kind(*r, "float");
    const std::string indent = indentation_at(s.source, a.loops[static_cast<size_t>(after)].header.begin);
    if (!r->index_acc.empty()) {  // an argmax: the value and its place together
      std::string helper = helper_name(a.name, "block_arg" + kind.tag());
      arg_helpers[helper] = kind;
      finishes[after] += fmt::format("\n{}{}({}, {});", indent, helper, r->acc, r->index_acc);
      continue;
    }
    std::string helper = helper_name(a.name, "block_" + kind.tag());
    helpers[helper] = kind;
    finishes[after] += fmt::format("\n{}{} = {}({});", indent, r->acc, helper, r->acc);
  }
  for (const auto& [after, finish] : finishes) {
    int64_t end = statement_end(s.source, a.loops[static_cast<size_t>(after)].body.end);
    edits.push_back({end, end, finish});
  }
  for (auto& e : writes_from_one_thread(a)) edits.push_back(std::move(e));
  std::string helper_text;
  for (const auto& [helper, kind] : helpers) helper_text += block_reduce_helper(helper, kind) + "\n";
  for (const auto& [helper, kind] : arg_helpers) helper_text += block_arg_reduce_helper(helper, kind) + "\n";
  if (!welford_helper.empty()) helper_text += block_welford_helper(welford_helper) + "\n";
  if (!helper_text.empty()) edits.push_back(before_kernel(a, helper_text));
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  Variant v;
  v.kernel = s.kernel->id;
  v.source = *source;
  v.launch = rows_as_blocks(a, block);
  return v;
}

}  // namespace stark::builtin
