// The role prompts: versioned template files in agents/prompts/, compiled
// into the binary (prompts_data.cpp is generated from them) so an installed
// stark never looks for them on disk.
#ifndef STARK_AGENTS_PROMPTS_H
#define STARK_AGENTS_PROMPTS_H

#include <map>
#include <string>
#include <string_view>

namespace stark {

/// "v1": part of every request, so a prompt change never hits an old cache entry.
std::string_view prompt_version();

/// The template named "system", "plan", "code" or "debug".
std::string_view prompt_template(std::string_view name);

/// Replaces every {{key}}; unknown keys are an error in STARK, not in the
/// user's input, so they throw std::logic_error (tests catch them).
std::string render_template(std::string_view text, const std::map<std::string, std::string>& values);

}  // namespace stark

#endif  // STARK_AGENTS_PROMPTS_H
