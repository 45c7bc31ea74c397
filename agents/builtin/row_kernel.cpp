#include "agents/builtin/row_kernel.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/cpp_tokens.h"
#include "core/launch_expr.h"

namespace stark::builtin {

std::optional<std::string> not_a_row_kernel(const KernelAnalysis& a) {
  if (a.indices.size() != 1 || a.indices[0].axis != 'x') return "needs exactly one 1-D thread index";
  if (a.uses_shared_memory || a.uses_sync || a.uses_warp_ops) return "already cooperative";
  const std::string& row = a.indices[0].var;
  const Guard* guard = nullptr;
  for (const auto& g : a.guards)
    if (g.var == row) guard = &g;
  if (!guard) return "no bound check on the row index";
  if (!a.atomics.empty()) return "has atomics";
  // The grid becomes the row count: it must be a launch expression.
  auto bound = LaunchExpr::parse(row_count(a));
  if (!bound) return "the row bound is not a launch expression";
  for (const auto& n : bound->names()) {
    auto dot = n.find('.');
    const Param* p = a.param(dot == std::string::npos ? n : n.substr(0, dot));
    if (!p || p->kind == ParamKind::Pointer) return "the row bound is not made of parameters";
  }
  return std::nullopt;
}

const Guard& row_guard(const KernelAnalysis& a) {
  for (const auto& g : a.guards)
    if (g.var == a.indices[0].var) return g;
  return a.guards.front();
}

std::string row_count(const KernelAnalysis& a) {
  std::string text = row_guard(a).bound.text;
  auto constant_local = [&](std::string_view name) -> const LocalDeclaration* {
    if (std::find(a.assigned.begin(), a.assigned.end(), name) != a.assigned.end()) return nullptr;
    for (const auto& d : a.local_declarations)
      if (d.name == name && d.init.valid()) return &d;
    return nullptr;
  };
  // A few rounds: a local's initialiser may name another local.
  for (int round = 0; round < 4; ++round) {
    std::string next;
    size_t copied = 0;
    for (const auto& t : cpp_tokens(text)) {
      const bool member = t.begin > 0 && (text[t.begin - 1] == '.' || text[t.begin - 1] == '>');
      const LocalDeclaration* d = member ? nullptr : constant_local(token_text(text, t));
      if (!d) continue;
      next += text.substr(copied, t.begin - copied) + "(" + d->init.text + ")";
      copied = t.end;
    }
    if (copied == 0) break;
    text = next + text.substr(copied);
  }
  return text;
}

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

Expected<TextEdit> row_from_block(const KernelAnalysis& a) {
  const ThreadIndex& row = a.indices[0];
  if (row.grid_stride)
    return TextEdit{row.loop_header.begin, row.loop_header.end,
                    fmt::format("for ({0} {1} = blockIdx.x; {1} < {2}; {1} += gridDim.x)", row.type, row.var,
                                row_guard(a).bound.text)};
  const std::string& decl = row.statement.text;
  auto eq = decl.find('=');
  if (eq == std::string::npos) return Error{"cannot rewrite the row index declaration"};
  return TextEdit{row.statement.begin, row.statement.end, decl.substr(0, eq + 1) + " blockIdx.x;"};
}

std::vector<TextEdit> writes_from_one_thread(const KernelAnalysis& a) {
  std::vector<TextEdit> edits;
  for (const auto& acc : a.accesses) {
    if (!acc.write || acc.loop >= 0) continue;
    for (const auto& st : a.top_statements)
      if (acc.expr.begin >= st.begin && acc.expr.end <= st.end && st.text.rfind("if", 0) != 0 &&
          st.begin != a.indices[0].statement.begin)
        edits.push_back({st.begin, st.begin, "if (threadIdx.x == 0) "});
  }
  return edits;
}

LaunchOverride rows_as_blocks(const KernelAnalysis& a, int64_t block) {
  LaunchOverride launch;
  launch.grid = {row_count(a), "grid.y", "grid.z"};
  launch.block = {std::to_string(block)};
  return launch;
}

}  // namespace stark::builtin
