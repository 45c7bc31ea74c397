#include "agents/builtin/guarded_body.h"

#include <fmt/format.h>

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

std::optional<GuardedBody> guarded_body(const KernelAnalysis& a, const std::string& source, std::string* why) {
  auto fail = [&](const char* reason) -> std::optional<GuardedBody> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (a.indices.size() != 1 || a.indices[0].axis != 'x') return fail("needs exactly one 1-D thread index");
  GuardedBody g;
  g.index = &a.indices[0];
  for (const auto& guard : a.guards)
    if (guard.var == g.index->var && !g.guard) g.guard = &guard;
  if (!g.guard) return fail("no bound check on the thread index");
  // The index declaration and the guard must be statements of the body itself.
  int index_at = -1, guard_at = -1;
  for (size_t i = 0; i < a.top_statements.size(); ++i) {
    if (a.top_statements[i].begin == g.index->statement.begin) index_at = static_cast<int>(i);
    if (a.top_statements[i].begin == g.guard->statement.begin) guard_at = static_cast<int>(i);
  }
  if (g.index->grid_stride) {
    // The loop is index declaration and guard at once; its body is the per-element code.
    if (index_at < 0 || index_at + 1 != static_cast<int>(a.top_statements.size()))
      return fail("statements after the grid-stride loop");
    if (!g.guard->then_body.valid()) return fail("cannot find the grid-stride loop's body");
    g.replace_begin = g.index->statement.begin;
    g.replace_end = statement_end(source, g.index->statement.end);
    g.begin = g.guard->then_body.begin;
    g.end = statement_end(source, g.guard->then_body.end);
    // A continue or break would leave the loop a rewrite puts around the code.
    if (g.index->loop_jumps) return fail("the grid-stride loop's body continues or breaks");
    return g;
  }
  if (index_at < 0 || guard_at != index_at + 1) return fail("the bound check does not follow the index declaration");
  g.replace_begin = g.index->statement.begin;
  g.replace_end = statement_end(source, a.top_statements.back().end);
  if (g.guard->early_return) {
    if (guard_at + 1 >= static_cast<int>(a.top_statements.size())) return fail("nothing after the bound check");
    g.begin = a.top_statements[static_cast<size_t>(guard_at) + 1].begin;
    g.end = g.replace_end;
  } else {
    if (guard_at + 1 != static_cast<int>(a.top_statements.size())) return fail("statements after the guarded block");
    if (!g.guard->then_body.valid()) return fail("cannot find the guarded statements");
    g.begin = g.guard->then_body.begin;
    g.end = statement_end(source, g.guard->then_body.end);
  }
  return g;
}

std::string grid_stride_loop(const GuardedBody& body, const KernelAnalysis& a, const std::string& element,
                             const std::string& indent, int64_t ilp) {
  std::string itype = body.index->type;
  if (ilp <= 1)
    return fmt::format(
        "for ({it} {i} = blockIdx.x * blockDim.x + threadIdx.x; {i} < {n}; {i} += gridDim.x * blockDim.x) {{\n"
        "{ind}  {element}\n"
        "{ind}}}\n",
        fmt::arg("ind", indent), fmt::arg("it", itype), fmt::arg("i", body.index->var),
        fmt::arg("n", body.guard->bound.text), fmt::arg("element", indent_more(element, "  ")));
  // 64-bit positions: i + 3 * stride must not overflow the index's own type.
  return fmt::format(
      "auto {elem} = [&]({it} {i}) {{\n"
      "{ind}  {element}\n"
      "{ind}}};\n"
      "{ind}const long long {stride} = static_cast<long long>(gridDim.x) * blockDim.x;\n"
      "{ind}long long {pos} = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n"
      "{ind}for (; {pos} + 3 * {stride} < static_cast<long long>({n}); {pos} += 4 * {stride}) {{\n"
      "{ind}  {elem}(static_cast<{it}>({pos}));\n"
      "{ind}  {elem}(static_cast<{it}>({pos} + {stride}));\n"
      "{ind}  {elem}(static_cast<{it}>({pos} + 2 * {stride}));\n"
      "{ind}  {elem}(static_cast<{it}>({pos} + 3 * {stride}));\n"
      "{ind}}}\n"
      "{ind}for (; {pos} < static_cast<long long>({n}); {pos} += {stride}) {elem}(static_cast<{it}>({pos}));\n",
      fmt::arg("elem", helper_name(a.name, "element")), fmt::arg("stride", helper_name(a.name, "stride")),
      fmt::arg("pos", helper_name(a.name, "position")), fmt::arg("ind", indent), fmt::arg("it", itype),
      fmt::arg("i", body.index->var), fmt::arg("n", body.guard->bound.text),
      fmt::arg("element", indent_more(element, "  ")));
}

}  // namespace stark::builtin
