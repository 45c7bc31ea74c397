#include "agents/builtin/block_per_row.h"

#include <fmt/format.h>

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
  struct Combine {
    const Reduction* reduction;
    int after;  // the loop after whose end every thread takes part
  };
  std::vector<Combine> combines;
};

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
    if (!r.index_acc.empty()) return fmt::format("an argmax or argmin ('{}' is not combined)", r.index_acc);
  }
  if (l.var.empty() || !l.unit_step || !l.bound.valid())
    return "a row loop that does not step its own variable by one to a bound";
  if (l.exits) return "a row loop that breaks or returns (its iterations are not independent)";
  if (l.init_value.text != "0" && !only_max_or_min(l)) return "a row loop that starts past 0 and is not a max or min";
  return std::nullopt;
}

/// The accumulator's reads in `scope` outside its own updates: a running
/// value (a scan, a recurrence) no thread's part holds.
bool read_on_the_way(const std::string& acc, const Snippet& scope, const std::vector<RowLoops::Combine>& updates) {
  auto tokens = cpp_tokens(scope.text);
  for (const auto& t : tokens) {
    if (token_text(scope.text, t) != acc) continue;
    const int64_t at = scope.begin + static_cast<int64_t>(t.begin);
    bool own = false;
    for (const auto& u : updates) own = own || (u.reduction->acc == acc && inside(u.reduction->statement, at));
    if (!own) return true;
  }
  return false;
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
    const int nest = nest_of(a, index);
    for (const auto& r : l.reductions) {
      const bool before_nest = r.acc_declaration.begin < a.loops[static_cast<size_t>(nest)].header.begin;
      out.combines.push_back({&r, before_nest ? nest : index});
    }
  }
  if (out.split.empty()) return Error{"no loop over the row"};
  for (const auto& c : out.combines) {
    for (const auto& other : out.combines)
      if (other.reduction->acc == c.reduction->acc && other.after != c.after)
        return Error{fmt::format("'{}' is reduced in two loops (its parts would be combined twice)", c.reduction->acc)};
    if (read_on_the_way(c.reduction->acc, a.loops[static_cast<size_t>(c.after)].body, out.combines))
      return Error{fmt::format("the loop reads the running value of '{}' (a scan or a recurrence, not a reduction)",
                               c.reduction->acc)};
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

  std::map<std::string, ReduceKind> helpers;  // by name
  std::map<int, std::string> finishes;        // by the loop they follow
  std::set<std::string> done;
  for (const auto& [r, after] : loops->combines) {
    if (!done.insert(r->acc).second) continue;
    // A sum may only be split over threads if every thread starts from zero.
    if (r->op == ReduceOp::Sum && !r->starts_at_zero)
      return Error{fmt::format("block-per-row: the sum '{}' does not start at zero", r->acc)};
    ReduceKind kind = reduce_kind(*r, "float");
    std::string helper = helper_name(a.name, "block_" + kind.tag());
    helpers[helper] = kind;
    const Loop& l = a.loops[static_cast<size_t>(after)];
    finishes[after] += fmt::format("\n{}{} = {}({});", indentation_at(s.source, l.header.begin), r->acc, helper, r->acc);
  }
  for (const auto& [after, finish] : finishes) {
    int64_t end = statement_end(s.source, a.loops[static_cast<size_t>(after)].body.end);
    edits.push_back({end, end, finish});
  }
  for (auto& e : writes_from_one_thread(a)) edits.push_back(std::move(e));
  std::string helper_text;
  for (const auto& [helper, kind] : helpers) helper_text += block_reduce_helper(helper, kind) + "\n";
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
