// Model replies are untrusted text: this finds the kernel in them (code
// fences, prose around it, a reply cut off at max_tokens), the STRATEGY line
// of a plan and an optional LAUNCH override.
#ifndef STARK_AGENTS_REPLY_PARSER_H
#define STARK_AGENTS_REPLY_PARSER_H

#include <string>
#include <string_view>

#include "core/expected.h"
#include "core/variant.h"

namespace stark {

struct ParsedReply {
  std::string code;      // helpers and the kernel, as the reply wrote them
  std::string strategy;  // from "STRATEGY: ...", empty if none
  LaunchOverride launch;  // from "LAUNCH: {...}", empty if none
};

/// Extracts the code that defines kernel_name. truncated: the API said the
/// reply stopped at max_tokens (then an unfinished kernel is an error that
/// says so, rather than a compile error later).
Expected<ParsedReply> parse_reply(std::string_view reply, std::string_view kernel_name, bool truncated = false);

}  // namespace stark

#endif  // STARK_AGENTS_REPLY_PARSER_H
