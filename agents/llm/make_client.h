// Building the client stack stark optimize uses: audit -> cache -> backend
// (the HTTP backends retry and cap their requests in flight themselves), or
// audit -> dry run.
#ifndef STARK_AGENTS_LLM_MAKE_CLIENT_H
#define STARK_AGENTS_LLM_MAKE_CLIENT_H

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "agents/llm/chat.h"
#include "agents/llm/http.h"
#include "agents/llm/priced_client.h"
#include "agents/llm/response_cache.h"
#include "agents/llm/retry.h"

namespace stark::llm {

/// Settings of the stack.
struct ClientOptions {
  std::filesystem::path cache_dir;  // empty: no response cache
  bool cache_read = true;           // false: send every request, its reply replaces the entry (--force)
  std::filesystem::path audit_dir;  // empty: no audit log (stark optimize passes RESULT_DIR/audit)
  int concurrency = 4;              // requests (or command runs) in flight at most
  HttpTimeouts timeouts;
  RetryPolicy retry;
  std::chrono::milliseconds command_timeout{600'000};
  bool dry_run = false;                 // print the prompts, send nothing (no key needed)
  std::ostream* dry_run_out = nullptr;  // where to print them; nullptr: std::cout
  std::filesystem::path price_file;     // empty: the built-in price table
  std::optional<TokenRates> price;      // --price: every reply's cost at these rates, whatever the table says
  /// Reads an environment variable (the keys); empty: the process environment.
  std::function<std::optional<std::string>(const std::string&)> env;
};

/// The built stack and what it talks to.
struct ClientStack {
  std::shared_ptr<ChatClient> client;
  std::string backend;  // openai, anthropic, command
  std::string model;
  std::string base_url;                  // the endpoint's base URL; the command line for the command backend
  std::shared_ptr<CachingClient> cache;  // null without a cache; its store_problem() is worth a warning
  /// Why replies of a model would have no cost on this stack (see
  /// unknown_cost_reason); empty when their cost is known.
  std::function<std::string(const std::string& model)> unknown_cost;
};

/// Builds the stack for backend "openai" (base URL default
/// https://api.openai.com/v1, key OPENAI_API_KEY), "anthropic" (default
/// https://api.anthropic.com, key ANTHROPIC_API_KEY) or "command" (runs
/// `command`). A hosted endpoint without its key is an Error naming the
/// variable; a local base URL may go without one.
Expected<ClientStack> make_chat_client(const std::string& backend, const std::string& model,
                                       const std::string& base_url, const std::string& command,
                                       const ClientOptions& options);

/// Why `stark optimize --max-cost` cannot be kept for these models: the
/// first model whose replies would have no cost (not in the price table, an
/// endpoint that does not bill list prices, the command backend), or nullopt
/// when every cost is known.
std::optional<std::string> unknown_cost_reason(const ClientStack& stack, const std::vector<std::string>& models);

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_MAKE_CLIENT_H
