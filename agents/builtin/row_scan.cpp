#include "agents/builtin/row_scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "agents/builtin/device_helpers.h"
#include "agents/builtin/rewrite.h"
#include "agents/builtin/row_kernel.h"
#include "core/cpp_tokens.h"
#include "core/text.h"

namespace stark::builtin {

namespace {

bool is_identifier(std::string_view t) {
  return !t.empty() && is_identifier_char(t[0]) && !(t[0] >= '0' && t[0] <= '9');
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The names a declaration statement of the loop body introduces ("at" in
/// "const size_t at = ...;"): body-declared names followed by what follows
/// a declarator.
std::vector<std::string> declared_by(const Loop& l, const std::string& text) {
  std::vector<std::string> out;
  auto tokens = cpp_tokens(text);
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    std::string_view t = token_text(text, tokens[i]);
    std::string_view next = token_text(text, tokens[i + 1]);
    if (contains(l.declared, t) && (next == "=" || next == "{" || next == "(" || next == ";" || next == ",") &&
        !contains(out, t))
      out.emplace_back(t);
  }
  return out;
}

/// The names of `text` that the loop body declares, members' names left out.
std::vector<std::string> body_names_in(const Loop& l, const std::string& text) {
  std::vector<std::string> out;
  auto tokens = cpp_tokens(text);
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view t = token_text(text, tokens[i]);
    std::string_view prev = i > 0 ? token_text(text, tokens[i - 1]) : "";
    if (prev != "." && prev != "->" && contains(l.declared, t)) out.emplace_back(t);
  }
  return out;
}

/// The body's declarations before the update that the accumulated value
/// needs, directly or through one another (`const size_t at = ...;`), in
/// order: they run ahead of the body when each element's value is computed.
std::vector<Snippet> hoisted(const Loop& l, const Reduction& r) {
  std::vector<std::string> needed = body_names_in(l, r.value.text);
  std::vector<Snippet> out;
  for (auto d = l.declarations.rbegin(); d != l.declarations.rend(); ++d) {
    if (d->end > r.statement.begin) continue;
    auto names = declared_by(l, d->text);
    if (std::none_of(names.begin(), names.end(), [&](const std::string& n) { return contains(needed, n); })) continue;
    out.insert(out.begin(), *d);
    for (auto& n : body_names_in(l, d->text))
      if (!contains(names, n)) needed.push_back(n);
  }
  return out;
}

/// Why the value the loop accumulates at one element cannot be computed
/// ahead of the loop body (from the declarations it needs and the value's
/// expression): it uses a variable the body changes, one declared after it
/// or in a nested block, or the running value itself; or it changes
/// something.
std::optional<std::string> value_not_ahead(const Loop& l, const Reduction& r,
                                           const std::vector<Snippet>& declarations) {
  std::vector<std::string> ahead;  // what the hoisted declarations declare, so far
  std::vector<const Snippet*> parts;
  for (const auto& d : declarations) parts.push_back(&d);
  parts.push_back(&r.value);
  for (const Snippet* part : parts) {
    const std::string& text = part->text;
    const bool declaration = part != &r.value;
    auto own = declaration ? declared_by(l, text) : std::vector<std::string>{};
    auto tokens = cpp_tokens(text);
    for (size_t i = 0; i < tokens.size(); ++i) {
      std::string_view t = token_text(text, tokens[i]);
      if (t == "++" || t == "--" || (!declaration && t == "=") ||
          (t.size() >= 2 && t.back() == '=' && t != "==" && t != "!=" && t != "<=" && t != ">="))
        return fmt::format("the value it accumulates changes something ('{}')", text);
      if (!is_identifier(t)) continue;
      std::string_view prev = i > 0 ? token_text(text, tokens[i - 1]) : "";
      if (prev == "." || prev == "->") continue;  // a member's name
      if (t == r.acc) return fmt::format("the value it accumulates reads the running value '{}'", r.acc);
      if (t == l.stepped || contains(own, t)) continue;
      if (contains(l.assigned, t))
        return fmt::format("the value it accumulates uses '{}', which the loop body changes", t);
      if (contains(l.declared, t) && !contains(ahead, t))
        return fmt::format("the value it accumulates uses '{}', which the loop body computes after it", t);
    }
    ahead.insert(ahead.end(), own.begin(), own.end());
  }
  return std::nullopt;
}

/// The update runs once per element: a statement of the body's own block,
/// not under an if, an else or a nested block.
bool unconditional(const Loop& l, const Reduction& r) {
  const std::string& body = l.body.text;
  if (body.empty() || body.front() != '{') return false;
  int64_t at = r.statement.begin - l.body.begin;
  int depth = 0;
  std::string_view last;
  for (const auto& t : cpp_tokens(body)) {
    if (static_cast<int64_t>(t.begin) >= at) break;
    std::string_view s = token_text(body, t);
    if (s == "{") ++depth;
    if (s == "}") --depth;
    last = s;
  }
  return depth == 1 && (last == "{" || last == ";" || last == "}");
}

/// The pointers `range` reads through (parameters or local pointers).
std::set<std::string> bases_in(const KernelAnalysis& a, const Snippet& range) {
  std::set<std::string> out;
  for (const auto* list : {&a.accesses, &a.local_accesses})
    for (const auto& acc : *list)
      if (acc.expr.begin >= range.begin && acc.expr.end <= range.end) out.insert(acc.base);
  return out;
}

/// What a row scan needs to know of the kernel's one row loop.
struct ScanLoop {
  const Loop* loop = nullptr;
  const Reduction* update = nullptr;
  std::vector<Snippet> ahead;  // the body's declarations the value needs (hoisted())
};

/// The kernel's row loop carrying a running sum or product it reads on the
/// way, or why there is none that a block can scan.
Expected<ScanLoop> scan_loop(const KernelAnalysis& a) {
  if (auto why = not_a_row_kernel(a)) return Error{*why};
  ScanLoop found;
  for (const Loop& l : a.loops) {
    if (l.depth != 0) return Error{"a loop inside the row loop"};
    if (found.loop) return Error{"more than one row loop"};
    found.loop = &l;
  }
  if (!found.loop) return Error{"no loop over the row"};
  const Loop& l = *found.loop;
  if (!l.init_statement.valid() || l.stepped.empty()) return Error{"the row loop does not declare its variable"};
  if (!(l.unit_step && l.bound.valid()) && !(l.counts_down && l.floor.valid()))
    return Error{"a row loop that does not step by one to a bound"};
  if (l.jumps) return Error{"the row loop breaks, continues or returns"};
  if (l.hinted) return Error{"the row loop carries a loop pragma"};
  if (contains(l.assigned, l.stepped)) return Error{"the row loop's body changes its variable"};
  if (l.reductions.size() != 1) return Error{"not exactly one running value in the row loop"};
  const Reduction& r = l.reductions[0];
  if (r.op != ReduceOp::Sum && r.op != ReduceOp::Product) return Error{"the running value is not a sum or a product"};
  if (!running_value_read(l)) return Error{"the running value is not read on the way (a reduction, not a scan)"};
  if (!unconditional(l, r)) return Error{"the running value's update is conditional"};
  found.ahead = hoisted(l, r);
  if (auto why = value_not_ahead(l, r, found.ahead)) return Error{*why};
  auto read = bases_in(a, r.value);
  for (const auto& d : found.ahead) read.merge(bases_in(a, d));
  for (const auto* list : {&a.accesses, &a.local_accesses})
    for (const auto& acc : *list)
      if (acc.write && acc.expr.begin >= l.body.begin && acc.expr.end <= l.body.end && read.count(acc.base))
        return Error{fmt::format("the loop writes '{}', which it scans (in place)", acc.base)};
  found.update = &r;
  return found;
}

/// The row loop as tiles of `k` times the block's threads: each thread
/// computes the values of its k elements first (their loads in flight
/// together), then for each it gets the running value before its element
/// from `helper` and runs the original body with it.
std::string tiled_loop(const std::string& source, const ScanLoop& scan, const std::string& helper, int64_t k) {
  const Loop& l = *scan.loop;
  const Reduction& r = *scan.update;
  const char* op = r.op == ReduceOp::Product ? "*" : "+";
  const std::string identity = fmt::format("static_cast<{}>({})", r.acc_type, r.op == ReduceOp::Product ? 1 : 0);
  std::string init = l.init_statement.text;
  while (!init.empty() && (init.back() == ';' || std::isspace(static_cast<unsigned char>(init.back()))))
    init.pop_back();
  const std::string count = l.counts_down ? fmt::format("stark_first - static_cast<long long>({}) + 1", l.floor.text)
                                          : fmt::format("static_cast<long long>({}) - stark_first", l.bound.text);
  const std::string element = l.counts_down ? "stark_first - stark_t" : "stark_first + stark_t";
  int64_t body_end = statement_end(source, l.body.end);
  std::string body = source.substr(static_cast<size_t>(l.body.begin), static_cast<size_t>(body_end - l.body.begin));
  std::string indent = indentation_at(source, l.header.begin);
  std::string ahead;
  for (const auto& d : scan.ahead)
    ahead += fmt::format("{}        {}\n", indent, d.text.back() == ';' ? d.text : d.text + ";");
  std::string text = fmt::format(
      "{{  // Generated by STARK: the row in tiles of {k} x blockDim.x elements, scanned by the block\n"
      "{i}  {init};\n"
      "{i}  using stark_index = decltype({var});\n"
      "{i}  const long long stark_first = static_cast<long long>({var});\n"
      "{i}  const long long stark_count = {count};\n"
      "{i}  for (long long stark_tile = 0; stark_tile < stark_count; stark_tile += {k}LL * blockDim.x) {{\n"
      "{i}    {a} stark_value[{k}];\n"
      "#pragma unroll\n"
      "{i}    for (int stark_k = 0; stark_k < {k}; ++stark_k) {{\n"
      "{i}      const long long stark_t = stark_tile + stark_k * static_cast<long long>(blockDim.x) + threadIdx.x;\n"
      "{i}      stark_value[stark_k] = {id};\n"
      "{i}      if (stark_t < stark_count) {{\n"
      "{i}        const stark_index {var} = static_cast<stark_index>({element});\n"
      "{ahead}"
      "{i}        stark_value[stark_k] = ({value});\n"
      "{i}      }}\n"
      "{i}    }}\n"
      "#pragma unroll\n"
      "{i}    for (int stark_k = 0; stark_k < {k}; ++stark_k) {{\n"
      "{i}      const long long stark_t = stark_tile + stark_k * static_cast<long long>(blockDim.x) + threadIdx.x;\n"
      "{i}      {a} stark_total;\n"
      "{i}      const {a} stark_before = {helper}(stark_value[stark_k], stark_total);\n"
      "{i}      const {a} stark_carry = {acc};\n"
      "{i}      if (stark_t < stark_count) {{\n"
      "{i}        stark_index {var} = static_cast<stark_index>({element});\n"
      "{i}        {a} {acc} = stark_carry {op} stark_before;\n"
      "{i}        {body}\n"
      "{i}      }}\n"
      "{i}      {acc} = stark_carry {op} stark_total;\n"
      "{i}    }}\n"
      "{i}  }}\n"
      "{i}}}",
      fmt::arg("i", indent), fmt::arg("k", k), fmt::arg("init", init), fmt::arg("var", l.stepped),
      fmt::arg("count", count), fmt::arg("a", r.acc_type), fmt::arg("id", identity), fmt::arg("element", element),
      fmt::arg("value", r.value.text), fmt::arg("helper", helper), fmt::arg("acc", r.acc), fmt::arg("op", op),
      fmt::arg("body", indent_more(body, "        ")), fmt::arg("ahead", ahead));
  return text;
}

}  // namespace

std::vector<Params> RowScan::candidates(const Subject& s) const {
  if (s.has(name()) || !scan_loop(*s.analysis)) return {};
  std::vector<Params> out;
  for (auto [block, k] : {std::pair{512, 4}, {1024, 2}, {256, 8}, {1024, 1}})
    out.push_back({{{"block", block}, {"k", k}}});
  return out;
}

Expected<Variant> RowScan::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  auto scan = scan_loop(a);
  if (!scan) return Error{"row-scan does not apply: " + scan.error().message};
  int64_t block = p.get("block");
  int64_t k = p.get_or("k", 1);
  if (block % 32 != 0 || block < 32 || block > 1024 || k < 1 || k > 16)
    return Error{fmt::format("row-scan: block={} k={} (block: a multiple of 32 up to 1024; k: 1 to 16)", block, k)};
  auto row = row_from_block(a);
  if (!row) return Error{"row-scan: " + row.error().message};
  const Reduction& r = *scan->update;
  std::string helper = helper_name(a.name, fmt::format("block_scan_{}_{}", reduce_op_name(r.op), type_tag(r.acc_type)));
  const Loop& l = *scan->loop;
  std::vector<TextEdit> edits{
      *row,
      {l.header.begin, statement_end(s.source, l.body.end), tiled_loop(s.source, *scan, helper, k)},
      before_kernel(a, block_scan_helper(helper, r.acc_type, r.op))};
  for (auto& e : writes_from_one_thread(a)) edits.push_back(std::move(e));
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  Variant v = s.with_source(*source);
  v.launch = rows_as_blocks(a, block);
  return v;
}

}  // namespace stark::builtin
