#include "agents/llm_team.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agents/prompts.h"
#include "core/text.h"

namespace stark {

namespace {

std::string summary_of(const std::string& text) {
  if (std::string strategy = find_strategy(text); !strategy.empty()) return strategy;
  std::string first(trim(std::string_view(text).substr(0, text.find_first_of(".\n"))));
  return first.size() > 200 ? first.substr(0, 200) : first;
}

}  // namespace

LlmTeam::LlmTeam(llm::ChatClient& client, LlmTeamOptions options) : client_(client), options_(std::move(options)) {
  for (std::string* m : {&options_.plan_model, &options_.code_model, &options_.debug_model})
    if (m->empty()) *m = options_.model;
}

BackendInfo LlmTeam::info() const {
  if (options_.plan_model == options_.code_model && options_.code_model == options_.debug_model)
    return {options_.backend, options_.plan_model};
  return {options_.backend,
          fmt::format("plan {}, code {}, debug {}", options_.plan_model, options_.code_model, options_.debug_model)};
}

std::string LlmTeam::identity() const {
  return nlohmann::json{
      {"backend", options_.backend},
      {"endpoint", options_.endpoint},
      {"models", {{"plan", options_.plan_model}, {"code", options_.code_model}, {"debug", options_.debug_model}}},
      {"temperatures",
       {{"plan", options_.plan_temperature},
        {"code", options_.code_temperature},
        {"debug", options_.debug_temperature}}},
      {"max_tokens", options_.max_tokens},
      {"prompts", std::string(prompt_version())}}
      .dump();
}

LlmTeam::Answer LlmTeam::interpret(const llm::ChatReply& reply, const std::string& kernel, bool prose_ok) {
  auto parsed = parse_reply(reply.text, kernel, reply.truncated);
  if (parsed) return {std::move(*parsed), {}, std::nullopt};
  // What a model said without code: its STRATEGY line, else its first sentence.
  std::optional<std::string> prose;
  if (prose_ok && !reply.truncated && !reply.text.empty() && check_reply_size(reply.text))
    prose = summary_of(reply.text);
  return {parsed.error(), {}, prose};
}

LlmTeam::Answer LlmTeam::ask(const char* role, const Prompt& prompt, const std::string& model, double temperature,
                             const std::string& kernel, bool prose_ok, Deadline deadline) {
  llm::ChatRequest request;
  request.role_name = role;
  request.model = model;
  request.system = prompt.system;
  request.messages = {{"user", prompt.user}};
  request.temperature = temperature;
  request.max_tokens = options_.max_tokens;
  request.deadline = deadline;
  // Only a reply this role can use is worth keeping: a failed one is asked for again next run.
  request.usable = [&kernel, prose_ok](const llm::ChatReply& r) {
    Answer a = interpret(r, kernel, prose_ok);
    return a.value.ok() || a.prose.has_value();
  };
  auto reply = client_.complete(request);
  if (!reply) return {reply.error(), {}, std::nullopt};
  Answer answer = interpret(*reply, kernel, prose_ok);
  answer.usage = {{reply->prompt_tokens, reply->completion_tokens}, reply->cost_usd.value_or(0.0)};
  if (reply->temperature_dropped) answer.usage.temperature_dropped.push_back(role);
  if (!answer.value) answer.value = Error{fmt::format("{} reply: {}", role, answer.value.error().message)};
  return answer;
}

RoleReply<Plan> LlmTeam::plan(const PlanInput& in) {
  auto reply = ask("plan", plan_prompt(in), options_.plan_model, in.temperature.value_or(options_.plan_temperature),
                   in.brief->kernel->name,
                   /*prose_ok=*/true, in.deadline);
  if (!reply.value && reply.prose) {
    // A plan in words only: the search grounds it on the whole body.
    Plan p;
    p.strategy = *reply.prose;
    return {p, reply.usage};
  }
  if (!reply.value) return {reply.value.error(), reply.usage};
  Plan p;
  p.strategy = reply.value->strategy.empty() ? "unnamed transformation" : reply.value->strategy;
  p.grounded = reply.value->code;
  p.launch = reply.value->launch;
  return {p, reply.usage};
}

RoleReply<Variant> LlmTeam::code(const CodeInput& in) {
  auto reply = ask("code", code_prompt(in), options_.code_model, in.temperature.value_or(options_.code_temperature),
                   in.brief->kernel->name,
                   /*prose_ok=*/false, in.deadline);
  if (!reply.value) return {reply.value.error(), reply.usage};
  return {Variant{in.brief->kernel->id, reply.value->code, reply.value->launch}, reply.usage};
}

RoleReply<Variant> LlmTeam::debug(const DebugInput& in) {
  auto reply = ask("debug", debug_prompt(in), options_.debug_model, in.temperature.value_or(options_.debug_temperature),
                   in.brief->kernel->name,
                   /*prose_ok=*/false, in.deadline);
  if (!reply.value) return {reply.value.error(), reply.usage};
  LaunchOverride launch = reply.value->launch.empty() ? in.node->candidate().launch : reply.value->launch;
  return {Variant{in.brief->kernel->id, reply.value->code, launch}, reply.usage};
}

}  // namespace stark
