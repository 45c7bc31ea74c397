// Turns a role's window of the tree into the text of its prompt. Measured
// figures are rounded to 3 significant digits so a re-run with the same
// tree sends the same prompt (and hits the response cache).
#ifndef STARK_AGENTS_PROMPT_BUILDER_H
#define STARK_AGENTS_PROMPT_BUILDER_H

#include <string>

#include "agents/team.h"

namespace stark {

/// A prompt: the system part and the user message.
struct Prompt {
  std::string system;
  std::string user;
};

Prompt plan_prompt(const PlanInput& in);
Prompt code_prompt(const CodeInput& in);
Prompt debug_prompt(const DebugInput& in);

/// 3 significant digits, no exponent: 1234.5 -> "1230", 0.012345 -> "0.0123".
std::string three_digits(double value);

}  // namespace stark

#endif  // STARK_AGENTS_PROMPT_BUILDER_H
