#include "agents/builtin/ldg.h"

#include <set>

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

/// Types __ldg has an overload for.
bool ldg_type(const std::string& t) {
  static const std::set<std::string> kTypes = {
      "char",       "signed char",  "unsigned char", "short",     "unsigned short",
      "int",        "unsigned int", "unsigned",      "long long", "unsigned long long",
      "float",      "double",       "char2",         "char4",     "uchar2",
      "uchar4",     "short2",       "short4",        "ushort2",   "ushort4",
      "int2",       "int4",         "uint2",         "uint4",     "longlong2",
      "ulonglong2", "float2",       "float4",        "double2"};
  return kTypes.count(t) > 0;
}

/// Reads of parameters declared `const T* __restrict__` that no access writes.
std::vector<const Access*> read_only_reads(const KernelAnalysis& a) {
  std::vector<const Access*> out;
  for (const auto& acc : a.accesses) {
    const Param* p = a.param(acc.base);
    if (acc.write || !p || p->kind != ParamKind::Pointer || !p->is_restrict || !p->is_const || !ldg_type(p->pointee))
      continue;
    if (acc.expr.text.rfind("__ldg", 0) == 0) continue;
    out.push_back(&acc);
  }
  return out;
}

}  // namespace

std::vector<Params> Ldg::candidates(const Subject& s) const {
  if (s.has(name()) || read_only_reads(*s.analysis).empty()) return {};
  return {Params{}};
}

Expected<Variant> Ldg::apply(const Subject& s, const Params&) const {
  // Insertions only, so a load inside another's index nests: p[q[i]] -> __ldg(&p[__ldg(&q[i])]).
  std::vector<TextEdit> edits;
  for (const Access* acc : read_only_reads(*s.analysis)) {
    edits.push_back({acc->expr.begin, acc->expr.begin, "__ldg(&"});
    edits.push_back({acc->expr.end, acc->expr.end, ")"});
  }
  if (edits.empty()) return Error{"ldg: no load through a const __restrict__ pointer"};
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
