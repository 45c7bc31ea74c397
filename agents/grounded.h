// Grounded instructions (docs/design.md, "The method"): the plan role returns the
// current kernel with markers around the exact code to change,
//
//   /*STARK_SPAN 1: load four floats per thread with float4*/
//     ...code to change...
//   /*STARK_END 1*/
//
// and the code role must return the kernel with every span filled and every
// marker gone. These functions check both ends of that contract.
#ifndef STARK_AGENTS_GROUNDED_H
#define STARK_AGENTS_GROUNDED_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"

namespace stark {

/// One marked span of a grounded instruction.
struct Span {
  int id = 0;
  std::string instruction;
  std::string code;  // the text between the markers
  // Where it sits in the grounded text: its STARK_SPAN marker starts at
  // marker_begin, its STARK_END marker ends at marker_end.
  size_t marker_begin = 0, marker_end = 0;
};

/// The spans of a grounded instruction, in order; an Error for unmatched,
/// nested, repeated or empty-instruction markers.
Expected<std::vector<Span>> parse_spans(std::string_view grounded);

/// A plan that came without markers: one span over the kernel body.
std::string ground_whole_body(std::string_view source, const ByteRange& body_in_source, std::string_view instruction);

/// The body ("{" .. "}", half-open) of the kernel named name in a variant's
/// source: the first "{" after "name(...)", on C++ tokens, so names and
/// brackets in comments and string literals (raw ones too) do not count.
std::optional<ByteRange> find_body(std::string_view source, std::string_view name);

/// Ok when the code role's kernel carries no marker any more.
Expected<void> check_spans_filled(std::string_view code);

}  // namespace stark

#endif  // STARK_AGENTS_GROUNDED_H
