#include "agents/builtin/block_per_row.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "agents/builtin/device_helpers.h"
#include "agents/builtin/rewrite.h"
#include "agents/builtin/row_kernel.h"

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

/// Why the kernel is not a row kernel, or nothing.
std::optional<std::string> unfit(const KernelAnalysis& a) {
  if (auto why = not_a_row_kernel(a)) return why;
  int row_loops = 0;
  for (const auto& l : a.loops) {
    if (l.depth != 0) {
      if (!l.reductions.empty()) return "reductions in nested loops";
      continue;
    }
    for (const auto& r : l.reductions) {
      if (r.op == ReduceOp::Product) return "a product over the row (its threads would need to start at one)";
      if (!r.index_acc.empty()) return fmt::format("an argmax or argmin ('{}' is not combined)", r.index_acc);
    }
    if (!l.unit_step || !l.bound.valid()) return "a row loop that does not step by one to a bound";
    if (l.init_value.text != "0" && !only_max_or_min(l)) return "a row loop that starts past 0 and is not a max or min";
    if (auto acc = running_value_read(l))
      return fmt::format("the loop reads the running value of '{}' (a scan or a recurrence, not a reduction)", *acc);
    ++row_loops;
  }
  if (row_loops == 0) return "no loop over the row";
  return std::nullopt;
}

}  // namespace

std::vector<Params> BlockPerRow::candidates(const Subject& s) const {
  if (s.has(name()) || unfit(*s.analysis)) return {};
  std::vector<Params> out;
  for (int block : {256, 512, 128, 1024}) out.push_back({{{"block", block}}});
  return out;
}

Expected<Variant> BlockPerRow::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  if (auto why = unfit(a)) return Error{"block-per-row does not apply: " + *why};
  int64_t block = p.get("block");
  auto row = row_from_block(a);
  if (!row) return Error{"block-per-row: " + row.error().message};
  std::vector<TextEdit> edits{*row};

  std::map<std::string, ReduceKind> helpers;  // by name
  std::string type_of_first = "float";
  for (const auto& l : a.loops) {
    if (l.depth != 0) continue;
    std::string type = l.var_type;
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
      // A sum may only be split over threads if every thread starts from zero.
      if (r.op == ReduceOp::Sum && !r.starts_at_zero)
        return Error{fmt::format("block-per-row: the sum '{}' does not start at zero", r.acc)};
      ReduceKind kind = reduce_kind(r, type_of_first);
      std::string helper = helper_name(a.name, "block_" + kind.tag());
      helpers[helper] = kind;
      finish += fmt::format("\n{}{} = {}({});", indent, r.acc, helper, r.acc);
    }
    edits.push_back({after, after, finish});
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
