// What known models accept, so requests they would reject are never sent.
// Unknown models get the plain request; a 400 naming the parameter then
// teaches the client (openai_client.h, anthropic_client.h).
#ifndef STARK_AGENTS_LLM_MODEL_RULES_H
#define STARK_AGENTS_LLM_MODEL_RULES_H

#include <string_view>

namespace stark::llm {

/// OpenAI reasoning models (the o1, o3, o4 families and the GPT-5 and later
/// families) reject a non-default temperature with HTTP 400.
bool openai_rejects_temperature(std::string_view model);

/// Claude models from Opus 4.7 on (Opus 4.7, 4.8, the 5 generation, Fable,
/// Mythos) reject non-default sampling parameters with HTTP 400
/// "`temperature` is deprecated for this model".
bool anthropic_rejects_temperature(std::string_view model);

/// Whether an OpenAI-compatible request states its output limit as
/// max_completion_tokens (OpenAI's own API, and reasoning models, which reject
/// max_tokens) or as max_tokens (what local servers such as Ollama and older
/// llama.cpp understand).
bool openai_uses_max_completion_tokens(std::string_view model, bool official_endpoint);

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_MODEL_RULES_H
