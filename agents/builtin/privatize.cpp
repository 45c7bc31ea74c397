#include "agents/builtin/privatize.h"

#include <fmt/format.h>

#include <tuple>

#include "agents/builtin/guarded_body.h"
#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

/// The one atomicAdd that scatters into a table: `&base[e]` or `base + e`
/// with a per-thread e, the whole statement it stands in. The table's size
/// need not be known: bins past the shared copy's capacity (and negative
/// ones) go to the global table directly, so the copy is exact for any index.
const AtomicCall* scatter(const KernelAnalysis& a) {
  if (a.atomics.size() != 1) return nullptr;
  const AtomicCall& at = a.atomics[0];
  if (at.function != "atomicAdd" || at.uniform_address || at.base.empty() || !at.index.valid() || at.loop >= 0)
    return nullptr;
  if (at.statement.text != at.call.text) return nullptr;
  return &at;
}

}  // namespace

std::vector<Params> Privatize::candidates(const Subject& s) const {
  const KernelAnalysis& a = *s.analysis;
  if (s.has(name()) || a.uses_shared_memory || !a.loops.empty() || !scatter(a) || !guarded_body(a, s.source)) return {};
  std::vector<Params> out;
  // ilp=4: four elements' loads in flight per thread before their shared-memory
  // atomics. bins: the shared copy's capacity; a table that small costs little
  // to clear and flush, one that big takes every bin of most histograms.
  for (auto [block, per_sm, ilp, bins] :
       {std::tuple{512, 4, 4, 1024}, {512, 4, 1, 256}, {256, 8, 4, 4096}, {1024, 2, 1, 1024}, {256, 16, 1, 256}})
    out.push_back({{{"block", block}, {"blocks_per_sm", per_sm}, {"ilp", ilp}, {"bins", bins}}});
  return out;
}

Expected<Variant> Privatize::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  const AtomicCall* at = scatter(a);
  std::string why;
  auto body = guarded_body(a, s.source, &why);
  if (!at || !body)
    return Error{"privatize does not apply: " + (why.empty() ? std::string("no atomic scatter into a table") : why)};
  const int64_t capacity = p.get_or("bins", 1024);
  // A plan names the parameter: a capacity past 48 KiB of shared memory (12288 4-byte bins) cannot launch.
  if (capacity < 1 || capacity > 12288)
    return Error{fmt::format("privatize: bins={} is not from 1 to 12288", capacity)};
  std::string type = element_type(a, at->base);
  std::string local = helper_name(a.name, "table");
  std::string raw = helper_name(a.name, "shared");
  std::string bin = helper_name(a.name, "bin");
  std::string indent = indentation_at(s.source, body->replace_begin);
  // The bin is computed once; the call keeps its place (and its value, if used).
  std::string add = fmt::format(
      "(({bin} = static_cast<long long>({index})) >= 0 && {bin} < {cap} ? "
      "atomicAdd(&{tab}[{bin}], {value}) : atomicAdd(&{base}[{bin}], {value}))",
      fmt::arg("bin", bin), fmt::arg("index", at->index.text), fmt::arg("cap", capacity), fmt::arg("tab", local),
      fmt::arg("value", at->value.text), fmt::arg("base", at->base));
  std::string element =
      s.source.substr(static_cast<size_t>(body->begin), static_cast<size_t>(at->call.begin - body->begin)) + add +
      s.source.substr(static_cast<size_t>(at->call.end), static_cast<size_t>(body->end - at->call.end));
  std::string code = fmt::format(
      "extern __shared__ unsigned char {raw}[];\n"
      "{ind}{t}* {tab} = reinterpret_cast<{t}*>({raw});\n"
      "{ind}for (int b = threadIdx.x; b < {cap}; b += blockDim.x) {tab}[b] = static_cast<{t}>(0);\n"
      "{ind}__syncthreads();\n"
      "{ind}long long {bin} = 0;\n"
      "{ind}{loop}"
      "{ind}__syncthreads();\n"
      "{ind}for (int b = threadIdx.x; b < {cap}; b += blockDim.x) {{\n"
      "{ind}  {t} count = {tab}[b];\n"
      "{ind}  if (count != static_cast<{t}>(0)) atomicAdd(&{base}[b], count);\n"
      "{ind}}}",
      fmt::arg("raw", raw), fmt::arg("ind", indent), fmt::arg("t", type), fmt::arg("tab", local),
      fmt::arg("cap", capacity), fmt::arg("bin", bin),
      fmt::arg("loop", grid_stride_loop(*body, a, element, indent, p.get_or("ilp", 1))), fmt::arg("base", at->base));
  // An early `return` in the per-element code would skip the flush that
  // needs every thread of the block.
  if (element.find("return") != std::string::npos) return Error{"privatize: the per-element code returns early"};
  auto source = apply_edits(s.source, {{body->replace_begin, body->replace_end, code}});
  if (!source) return source.error();
  Variant v = s.on_capped_grid(std::move(*source), p);
  v.launch.shmem = std::to_string(capacity * scalar_size(type));
  return v;
}

}  // namespace stark::builtin
