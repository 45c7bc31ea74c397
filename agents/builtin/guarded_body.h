// The per-element work of a 1-D kernel: the statements a thread runs for its
// index once the bound check passed, whether the kernel writes
// `if (i < n) { ... }` or `if (i >= n) return; ...`. Strategies that give a
// thread several elements (grid-stride loops) wrap exactly this text.
#ifndef STARK_AGENTS_BUILTIN_GUARDED_BODY_H
#define STARK_AGENTS_BUILTIN_GUARDED_BODY_H

#include <optional>
#include <string>

#include "clang_tool/kernel_analysis.h"

namespace stark::builtin {

struct GuardedBody {
  const ThreadIndex* index = nullptr;
  const Guard* guard = nullptr;
  int64_t begin = 0, end = 0;  // the per-element statements in the source
  int64_t replace_begin = 0;   // from the index declaration...
  int64_t replace_end = 0;     // ...to the end of the body's last statement
};

/// The per-element statements of a kernel shaped
///   [locals...] int i = <1-D index>; <guard on i> <statements>
/// or
///   [locals...] for (T i = <1-D index>; i < n; i += <grid size>) { <statements> }
/// or nullopt (with the reason in `why`).
std::optional<GuardedBody> guarded_body(const KernelAnalysis& a, const std::string& source, std::string* why = nullptr);

/// A grid-stride loop running `element` (per-element code using the body's
/// index variable) for every index of the guard's range, ending in a newline;
/// its first line goes at the caller's position, the others get `indent`.
/// With ilp > 1 (4 is supported) a thread keeps four elements in flight: the
/// element becomes a lambda called four times per pass, in the same order a
/// plain grid-stride loop visits them, then a tail loop.
std::string grid_stride_loop(const GuardedBody& body, const KernelAnalysis& a, const std::string& element,
                             const std::string& indent, int64_t ilp);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_GUARDED_BODY_H
