#include "agents/builtin/block_per_row.h"

#include <fmt/format.h>

#include <set>

#include "agents/builtin/device_helpers.h"
#include "agents/builtin/rewrite.h"
#include "core/cpp_tokens.h"
#include "core/launch_expr.h"

namespace stark::builtin {

namespace {

/// A loop whose reductions are all max or min: its threads may each start
/// from the same seed (often the row's first element, the loop starting at
/// 1), since counting one element twice changes neither.
bool only_max_or_min(const Loop& l) {
  if (l.reductions.empty()) return false;
  for (const auto& r : l.reductions)
    if (r.op == ReduceOp::Sum) return false;
  return true;
}

/// The accumulator of one of the loop's reductions that the loop also reads
/// outside that accumulator's own updates: a running value written out
/// (a scan) or feeding another update (Welford's mean), which threads that
/// each see part of the row cannot compute.
std::optional<std::string> running_value_read(const Loop& l) {
  auto tokens = cpp_tokens(l.body.text);
  for (const auto& r : l.reductions) {
    for (const auto& t : tokens) {
      if (token_text(l.body.text, t) != r.acc) continue;
      int64_t at = l.body.begin + static_cast<int64_t>(t.begin);
      bool in_own_update = false;
      for (const auto& own : l.reductions)
        if (own.acc == r.acc && at >= own.statement.begin && at < own.statement.end) in_own_update = true;
      if (!in_own_update) return r.acc;
    }
  }
  return std::nullopt;
}

/// Why the kernel is not a row kernel, or nothing.
std::optional<std::string> unfit(const KernelAnalysis& a, const Kernel& k) {
  if (a.indices.size() != 1 || a.indices[0].axis != 'x') return "needs exactly one 1-D thread index";
  if (a.uses_shared_memory || a.uses_sync || a.uses_warp_ops) return "already cooperative";
  const std::string& row = a.indices[0].var;
  const Guard* guard = nullptr;
  for (const auto& g : a.guards)
    if (g.var == row) guard = &g;
  if (!guard) return "no bound check on the row index";
  if (!a.atomics.empty()) return "has atomics";
  int row_loops = 0;
  for (const auto& l : a.loops) {
    if (l.depth != 0) {
      if (!l.reductions.empty()) return "reductions in nested loops";
      continue;
    }
    if (!l.unit_step || !l.bound.valid()) return "a row loop that does not step by one to a bound";
    if (l.init_value.text != "0" && !only_max_or_min(l)) return "a row loop that starts past 0 and is not a max or min";
    if (auto acc = running_value_read(l))
      return fmt::format("the loop reads the running value of '{}' (a scan or a recurrence, not a reduction)", *acc);
    ++row_loops;
  }
  if (row_loops == 0) return "no loop over the row";
  // The grid becomes the row count: it must be a launch expression.
  auto bound = LaunchExpr::parse(guard->bound.text);
  if (!bound) return "the row bound is not a launch expression";
  for (const auto& n : bound->names()) {
    auto dot = n.find('.');
    const Param* p = a.param(dot == std::string::npos ? n : n.substr(0, dot));
    if (!p || p->kind == ParamKind::Pointer) return "the row bound is not made of parameters";
  }
  (void)k;
  return std::nullopt;
}

const Guard& row_guard(const KernelAnalysis& a) {
  for (const auto& g : a.guards)
    if (g.var == a.indices[0].var) return g;
  return a.guards.front();
}

}  // namespace

std::vector<Params> BlockPerRow::candidates(const Subject& s) const {
  if (s.has(name()) || unfit(*s.analysis, *s.kernel)) return {};
  std::vector<Params> out;
  for (int block : {256, 512, 128, 1024}) out.push_back({{{"block", block}}});
  return out;
}

Expected<Variant> BlockPerRow::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  if (auto why = unfit(a, *s.kernel)) return Error{"block-per-row does not apply: " + *why};
  int64_t block = p.get("block");
  const ThreadIndex& row = a.indices[0];
  std::vector<Edit> edits;

  // The row is the block: "int row = blockIdx.x;", or a grid-stride loop over rows by blocks.
  if (row.grid_stride) {
    edits.push_back({row.loop_header.begin, row.loop_header.end,
                     fmt::format("for ({0} {1} = blockIdx.x; {1} < {2}; {1} += gridDim.x)",
                                 declared_type(row.loop_header.text, row.var), row.var, row_guard(a).bound.text)});
  } else {
    const std::string& decl = row.statement.text;
    auto eq = decl.find('=');
    if (eq == std::string::npos) return Error{"block-per-row: cannot rewrite the row index declaration"};
    edits.push_back({row.statement.begin, row.statement.end, decl.substr(0, eq + 1) + " blockIdx.x;"});
  }

  std::set<std::pair<std::string, ReduceOp>> helpers;
  std::string type_of_first = "float";
  for (const auto& l : a.loops) {
    if (l.depth != 0) continue;
    std::string type = declared_type(l.header.text, l.var);
    edits.push_back(
        {l.header.begin, l.header.end,
         fmt::format("for ({} {} = {}threadIdx.x; {} < {}; {} += blockDim.x)", type, l.var,
                     l.init_value.text == "0" ? "" : "(" + l.init_value.text + ") + ", l.var, l.bound.text, l.var)});
    if (l.reductions.empty()) continue;
    int64_t after = statement_end(s.source, l.body.end);
    std::string indent = indentation_at(s.source, l.header.begin);
    std::string finish;
    std::set<std::string> done;
    for (const auto& r : l.reductions) {
      if (!done.insert(r.acc).second) continue;
      ReduceOp op = r.op;
      // A sum may only be split over threads if every thread starts from zero.
      if (op == ReduceOp::Sum && !r.starts_at_zero)
        return Error{fmt::format("block-per-row: the sum '{}' does not start at zero", r.acc)};
      const std::string acc_type = r.acc_type.empty() ? type_of_first : r.acc_type;
      const char* what = op == ReduceOp::Sum ? "block_sum" : op == ReduceOp::Max ? "block_max" : "block_min";
      std::string helper = helper_name(a.name, std::string(what) + "_" +
                                                   (acc_type == "double"  ? "f64"
                                                    : acc_type == "float" ? "f32"
                                                                          : "t"));
      helpers.insert({helper + "|" + acc_type, op});
      finish += fmt::format("\n{}{} = {}({});", indent, r.acc, helper, r.acc);
    }
    edits.push_back({after, after, finish});
  }
  // Writes outside the row loops would now come from every thread of the block.
  // (Inside a guard or a grid-stride loop every thread writes the same value: left as it is.)
  for (const auto& acc : a.accesses) {
    if (!acc.write || acc.loop >= 0) continue;
    for (const auto& st : a.top_statements)
      if (acc.expr.begin >= st.begin && acc.expr.end <= st.end && st.text.rfind("if", 0) != 0 &&
          st.begin != row.statement.begin)
        edits.push_back({st.begin, st.begin, "if (threadIdx.x == 0) "});
  }
  std::string helper_text;
  for (const auto& [key, op] : helpers) {
    auto bar = key.find('|');
    helper_text += block_reduce_helper(key.substr(0, bar), key.substr(bar + 1), op) + "\n";
  }
  if (!helper_text.empty()) edits.push_back(before_kernel(a, helper_text));
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  Variant v;
  v.kernel = s.kernel->id;
  v.source = *source;
  // Rows become blocks along x; whatever the kernel spread over y and z
  // (a batch, say) keeps its grid.
  v.launch.grid = {row_guard(a).bound.text, "grid.y", "grid.z"};
  v.launch.block = {std::to_string(block)};
  return v;
}

}  // namespace stark::builtin
