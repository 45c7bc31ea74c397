#include "agents/llm/make_client.h"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>

#include "agents/llm/anthropic_client.h"
#include "agents/llm/audit_log.h"
#include "agents/llm/command_client.h"
#include "agents/llm/dry_run_client.h"
#include "agents/llm/openai_client.h"
#include "agents/llm/prices.h"

namespace stark::llm {

namespace {

std::optional<std::string> process_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

struct Provider {
  std::string default_base;
  std::string official_host;
  std::string key_env;
  std::string hint;  // how to fix a missing key
};

// An HTTP client's options (OpenAiOptions, AnthropicOptions): where, with
// which key, how patiently, how many requests at once, at what prices.
template <typename Options>
Options connection(const std::string& base_url, const std::optional<std::string>& key, const ClientOptions& options,
                   std::shared_ptr<const PriceTable> prices) {
  Options o;
  o.base_url = base_url;
  o.api_key = key;
  o.timeouts = options.timeouts;
  o.retry = options.retry;
  o.concurrency = options.concurrency;
  o.prices = std::move(prices);
  return o;
}

// The OpenAI or Anthropic client for stack.base_url, with the price table
// that says what its calls cost (stack.unknown_cost: why a model's is not known).
Expected<std::shared_ptr<ChatClient>> provider_client(const std::string& backend, const std::optional<std::string>& key,
                                                      bool hosted, const ClientOptions& options, ClientStack& stack) {
  std::shared_ptr<const PriceTable> prices = PriceTable::shared_builtin();
  if (!options.price_file.empty()) {
    auto table = PriceTable::from_file(options.price_file);
    if (!table) return table.error();
    prices = std::make_shared<const PriceTable>(std::move(*table));
  }
  std::string base = stack.base_url;
  stack.unknown_cost = [prices, backend, hosted, base](const std::string& m) -> std::string {
    if (!hosted) return fmt::format("{} is not {}'s own API, so its prices are unknown", redact_url(base), backend);
    if (!prices->find(backend, m)) return fmt::format("the price table has no entry for {} model '{}'", backend, m);
    return "";
  };
  if (backend == "openai")
    return std::shared_ptr<ChatClient>(
        std::make_shared<OpenAiClient>(connection<OpenAiOptions>(stack.base_url, key, options, prices)));
  return std::shared_ptr<ChatClient>(
      std::make_shared<AnthropicClient>(connection<AnthropicOptions>(stack.base_url, key, options, prices)));
}

// What a dry run sends to: the prompts, printed.
std::shared_ptr<ChatClient> dry_run_client(const ClientOptions& options, const std::string& what) {
  std::ostream& out = options.dry_run_out ? *options.dry_run_out : std::cout;
  return std::make_shared<DryRunClient>(out, what);
}

// The layers around every client: a fixed price, the reply cache, the audit
// log. What is written down names the endpoint without its credentials, and
// has the key scrubbed out of whatever a server echoed back.
std::shared_ptr<ChatClient> layered(std::shared_ptr<ChatClient> client, const std::string& backend,
                                    const std::optional<std::string>& key, const ClientOptions& options,
                                    ClientStack& stack) {
  if (options.price && !options.dry_run) {
    client = std::make_shared<PricedClient>(client, *options.price);
    stack.unknown_cost = [](const std::string&) { return std::string(); };
  }
  std::string shown_url = redact_url(stack.base_url);
  std::vector<std::string> secrets;
  if (key) secrets.push_back(*key);
  if (!options.cache_dir.empty() && !options.dry_run) {
    stack.cache =
        std::make_shared<CachingClient>(client, std::make_shared<const ResponseCache>(options.cache_dir, secrets),
                                        backend, shown_url, options.cache_read);
    client = stack.cache;
  }
  if (!options.audit_dir.empty())
    client = std::make_shared<AuditingClient>(client, std::make_shared<AuditLog>(options.audit_dir, secrets), backend,
                                              shown_url);
  return client;
}

}  // namespace

Expected<ClientStack> make_chat_client(const std::string& backend, const std::string& model,
                                       const std::string& base_url, const std::string& command,
                                       const ClientOptions& options) {
  if (options.concurrency < 1) return Error{fmt::format("concurrency must be at least 1, got {}", options.concurrency)};
  auto env = options.env ? options.env : process_env;

  ClientStack stack;
  stack.backend = backend;
  stack.model = model;
  std::optional<std::string> key;
  std::shared_ptr<ChatClient> client;

  if (backend == "openai" || backend == "anthropic") {
    Provider p =
        backend == "openai"
            ? Provider{"https://api.openai.com/v1", "api.openai.com", "OPENAI_API_KEY",
                       "export your OpenAI API key, or pass --base-url to use a local OpenAI-compatible server"}
            : Provider{"https://api.anthropic.com", "api.anthropic.com", "ANTHROPIC_API_KEY",
                       "export your Anthropic API key, or pass --base-url to use a compatible server"};
    if (model.empty()) return Error{fmt::format("the {} backend needs a model: pass --model", backend)};
    stack.base_url = base_url.empty() ? p.default_base : base_url;
    if (!stack.base_url.starts_with("http://") && !stack.base_url.starts_with("https://"))
      return Error{fmt::format("base URL '{}' must start with http:// or https://", stack.base_url)};
    key = env(p.key_env);
    bool hosted = url_host(stack.base_url) == p.official_host;
    if (options.dry_run) {
      client = dry_run_client(options, fmt::format("{} at {}", backend, stack.base_url));
    } else {
      if (hosted && !key) return Error{fmt::format("{} is not set: {}", p.key_env, p.hint)};
      auto made = provider_client(backend, key, hosted, options, stack);
      if (!made) return made.error();
      client = *made;
    }
  } else if (backend == "command") {
    if (command.empty()) return Error{"the command backend needs a program to run: pass --command"};
    stack.base_url = command;
    client = options.dry_run ? dry_run_client(options, fmt::format("the command '{}'", command))
                             : std::make_shared<CommandClient>(
                                   CommandOptions{command, options.command_timeout, options.concurrency, {}});
    stack.unknown_cost = [](const std::string&) -> std::string { return "the command backend reports no prices"; };
  } else {
    return Error{fmt::format("unknown LLM backend '{}': expected openai, anthropic or command", backend)};
  }
  stack.client = layered(std::move(client), backend, key, options, stack);
  return stack;
}

std::optional<std::string> unknown_cost_reason(const ClientStack& stack, const std::vector<std::string>& models) {
  if (!stack.unknown_cost) return std::nullopt;  // a dry run: nothing is spent
  for (const auto& m : models)
    if (std::string why = stack.unknown_cost(m); !why.empty()) return why;
  return std::nullopt;
}

}  // namespace stark::llm
