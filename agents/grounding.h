// The machine check of the grounded-instruction contract (docs/design.md,
// "Grounding"): a plan marks code of the node it was made for and changes
// nothing else; the code role changes only what the plan marked. Both sides
// are compared as C++ tokens (cpp_tokens.h), so layout and comments do not
// count as changes.
#ifndef STARK_AGENTS_GROUNDING_H
#define STARK_AGENTS_GROUNDING_H

#include <optional>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "core/result.h"

namespace stark {

/// A plan whose markers sit in the node's own source text.
struct AnchoredPlan {
  std::string grounded;               // the node's source, byte for byte, with the plan's markers placed in it
  Grounding mode = Grounding::Spans;  // Spans or Reanchored
};

/// Places the marked plan's spans in the node's source. Outside its markers
/// a plan must be the node's source: its markers then stay where they are
/// (Spans). When it is not, each span's code is looked for in the source, in
/// order, and must be there exactly once (Reanchored). Otherwise an Error
/// says what the plan changed, for the plan role to try again. The plan must
/// have at least one span (parse_spans).
Expected<AnchoredPlan> anchor_plan(std::string_view source, std::string_view plan);

/// Where the code role changed code outside the spans of `grounded` (an
/// anchored plan): nullopt when every text between, before and after the
/// spans is still there, in order; else one line saying what changed. New
/// helpers before the kernel are not a change.
std::optional<std::string> outside_span_edit(std::string_view grounded, std::string_view code);

}  // namespace stark

#endif  // STARK_AGENTS_GROUNDING_H
