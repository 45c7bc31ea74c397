// Token prices per model, from the data file prices.json (built in, or a
// user's updated copy), and the cost of one reply. A model the table does not
// know has an unknown cost, never an estimate.
#ifndef STARK_AGENTS_LLM_PRICES_H
#define STARK_AGENTS_LLM_PRICES_H

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark::llm {

/// One model's standard-tier rates, USD per million tokens.
struct ModelPrice {
  std::string provider;  // "openai", "anthropic"
  std::string model;     // the alias; dated snapshots map onto it
  double input = 0;
  double output = 0;
  std::optional<double> cached_input;        // prompt tokens served from the provider's prompt cache
  std::optional<int64_t> max_prompt_tokens;  // above it a long-context rate applies (cost unknown)
  std::string as_of, source;
};

/// The price table.
class PriceTable {
 public:
  /// The table compiled into STARK from agents/llm/prices.json.
  static const PriceTable& builtin();
  /// The same table, shared (clients hold their table by shared_ptr).
  static std::shared_ptr<const PriceTable> shared_builtin();
  /// A table read from a file in the same format (to update prices without a rebuild).
  static Expected<PriceTable> from_file(const std::filesystem::path& path);
  /// Parses the JSON text; origin names it in errors.
  static Expected<PriceTable> parse(std::string_view text, std::string_view origin);

  /// The entry for a model: its exact id, or the id without a date suffix
  /// ("-20251001", "-2026-03-05"). nullptr when unknown.
  const ModelPrice* find(std::string_view provider, std::string_view model) const;

  /// USD for one reply's tokens; nullopt when the model is unknown, the prompt
  /// is past max_prompt_tokens, or cached tokens have no rate.
  std::optional<double> cost(std::string_view provider, std::string_view model, int64_t prompt_tokens,
                             int64_t cached_prompt_tokens, int64_t completion_tokens) const;

  const std::vector<ModelPrice>& models() const { return models_; }

 private:
  std::vector<ModelPrice> models_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_PRICES_H
