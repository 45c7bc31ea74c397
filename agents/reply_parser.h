// Model replies are untrusted text: this finds the kernel in them (code
// fences, prose around it, a reply cut off at max_tokens), the STRATEGY line
// of a plan and an optional LAUNCH override. Every scan is linear in the
// reply's length, and replies and the code taken from them are size-capped,
// so no reply can exhaust the stack or the time of a run.
#ifndef STARK_AGENTS_REPLY_PARSER_H
#define STARK_AGENTS_REPLY_PARSER_H

#include <cstddef>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "core/variant.h"

namespace stark {

/// The most reply text parse_reply reads. A kernel with its helpers is a few
/// KiB; a reply past this is refused unread (agents/llm/README.md, "Replies").
inline constexpr size_t kMaxReplyBytes = 256 * 1024;

/// The most code a reply may hand on to the checks and the compiler.
inline constexpr size_t kMaxCodeBytes = 128 * 1024;

struct ParsedReply {
  std::string code;       // helpers and the kernel, as the reply wrote them
  std::string strategy;   // from "STRATEGY: ...", empty if none
  LaunchOverride launch;  // from "LAUNCH: {...}", empty if none
};

/// Extracts the code that defines kernel_name. truncated: the API said the
/// reply stopped at max_tokens (then an unfinished kernel is an error that
/// says so, rather than a compile error later).
Expected<ParsedReply> parse_reply(std::string_view reply, std::string_view kernel_name, bool truncated = false);

/// The text of the first "STRATEGY: ..." line ("**STRATEGY:** ..." too),
/// trimmed; empty when there is none.
std::string find_strategy(std::string_view reply);

/// Ok when parse_reply may read the reply: an Error naming the size limit
/// for one that is larger.
Expected<void> check_reply_size(std::string_view reply);

}  // namespace stark

#endif  // STARK_AGENTS_REPLY_PARSER_H
