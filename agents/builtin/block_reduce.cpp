#include "agents/builtin/block_reduce.h"

#include <fmt/format.h>

#include <tuple>
#include <utility>

#include "agents/builtin/device_helpers.h"
#include "agents/builtin/guarded_body.h"
#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

const AtomicCall* single_uniform_add(const KernelAnalysis& a) {
  if (a.atomics.size() != 1) return nullptr;
  const AtomicCall& at = a.atomics[0];
  if (at.function != "atomicAdd" || !at.uniform_address || at.base.empty() || at.loop >= 0) return nullptr;
  if (at.statement.text != at.call.text) return nullptr;  // its result must be unused
  return &at;
}

/// A thread's partial sum over a grid-stride loop, then one atomicAdd of it
/// as the body's last statement:
///   T acc = 0; for (i = <index>; i < n; i += <grid size>) acc += ...; atomicAdd(p, acc);
/// Every thread of a block reaches that atomic (nothing returns early), so
/// the block can add its partials first and make one atomic of them.
const AtomicCall* partial_then_atomic(const KernelAnalysis& a) {
  const AtomicCall* at = single_uniform_add(a);
  if (!at || a.indices.size() != 1 || !a.indices[0].grid_stride || a.returns || a.uses_sync || a.top_statements.empty())
    return nullptr;
  if (a.top_statements.back().begin != at->statement.begin || at->call.begin < a.indices[0].statement.end)
    return nullptr;
  return at;
}

/// partial_then_atomic's kernel with the block's partials added first:
/// `atomicAdd(p, v);` becomes `T s = block_sum(v); if (threadIdx.x == 0) atomicAdd(p, s);`.
Expected<Variant> sum_partials_first(const Subject& s, const AtomicCall& at, const Params& p) {
  const KernelAnalysis& a = *s.analysis;
  std::string type = element_type(a, at.base);
  std::string acc = helper_name(a.name, "sum");
  std::string reduce = helper_name(a.name, "block_sum");
  std::string indent = indentation_at(s.source, at.call.begin);
  std::string code = fmt::format(
      "{t} {acc} = {reduce}(static_cast<{t}>({value}));\n"
      "{ind}if (threadIdx.x == 0) atomicAdd({addr}, {acc})",
      fmt::arg("t", type), fmt::arg("acc", acc), fmt::arg("reduce", reduce), fmt::arg("value", at.value.text),
      fmt::arg("ind", indent), fmt::arg("addr", at.address.text));
  auto source = apply_edits(s.source, {{at.call.begin, at.call.end, code},
                                       before_kernel(a, block_reduce_helper(reduce, {type, ReduceOp::Sum}))});
  if (!source) return source.error();
  return s.on_capped_grid(std::move(*source), p);
}

}  // namespace

std::vector<Params> BlockReduce::candidates(const Subject& s) const {
  const KernelAnalysis& a = *s.analysis;
  if (s.has(name()) || !a.loops.empty()) return {};
  std::vector<Params> out;
  if (partial_then_atomic(a)) {
    // The loop stays as written: only the grid's shape is a parameter.
    for (auto [block, per_sm] : {std::pair{256, 8}, {512, 4}, {256, 16}, {1024, 2}, {128, 16}})
      out.push_back({{{"block", block}, {"blocks_per_sm", per_sm}}});
    return out;
  }
  if (!single_uniform_add(a) || !guarded_body(a, s.source) || a.uses_sync) return {};
  // ilp=4: four elements in flight per thread (the loads of one pass do not wait for each other).
  for (auto [block, per_sm, ilp] :
       {std::tuple{256, 8, 4}, {512, 4, 4}, {256, 8, 1}, {256, 16, 4}, {1024, 2, 4}, {512, 4, 1}, {128, 16, 1}})
    out.push_back({{{"block", block}, {"blocks_per_sm", per_sm}, {"ilp", ilp}}});
  return out;
}

Expected<Variant> BlockReduce::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  if (const AtomicCall* at = partial_then_atomic(a)) return sum_partials_first(s, *at, p);
  const AtomicCall* at = single_uniform_add(a);
  std::string why;
  auto body = guarded_body(a, s.source, &why);
  if (!at || !body)
    return Error{"block-reduce does not apply: " +
                 (why.empty() ? std::string("no single atomicAdd into one address") : why)};
  if (at->call.begin < body->begin || at->call.end > body->end)
    return Error{"block-reduce: the atomicAdd is not in the per-element code"};

  std::string type = element_type(a, at->base);
  std::string acc = helper_name(a.name, "sum");
  std::string reduce = helper_name(a.name, "block_sum");
  std::string indent = indentation_at(s.source, body->replace_begin);
  // The per-element code with the atomic turned into a register accumulation.
  std::string element =
      s.source.substr(static_cast<size_t>(body->begin), static_cast<size_t>(at->call.begin - body->begin)) +
      fmt::format("{} += ({})", acc, at->value.text) +
      s.source.substr(static_cast<size_t>(at->call.end), static_cast<size_t>(body->end - at->call.end));
  // Each thread adds its elements in the same order with or without ILP: i, i + stride, ...
  std::string loop = grid_stride_loop(*body, a, element, indent, p.get_or("ilp", 1));
  std::string code = fmt::format(
      "{t} {acc} = static_cast<{t}>(0);\n"
      "{ind}{loop}"
      "{ind}{acc} = {reduce}({acc});\n"
      "{ind}if (threadIdx.x == 0) atomicAdd({addr}, {acc});",
      fmt::arg("t", type), fmt::arg("acc", acc), fmt::arg("ind", indent), fmt::arg("loop", loop),
      fmt::arg("reduce", reduce), fmt::arg("addr", at->address.text));
  std::vector<TextEdit> edits = {{body->replace_begin, body->replace_end, code},
                                 before_kernel(a, block_reduce_helper(reduce, {type, ReduceOp::Sum}))};
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.on_capped_grid(std::move(*source), p);
}

}  // namespace stark::builtin
