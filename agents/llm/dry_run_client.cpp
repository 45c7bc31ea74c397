#include "agents/llm/dry_run_client.h"

#include <fmt/format.h>

namespace stark::llm {

DryRunClient::DryRunClient(std::ostream& out, std::string destination)
    : out_(out), destination_(std::move(destination)) {}

Expected<ChatReply> DryRunClient::complete(const ChatRequest& request) {
  if (auto ok = validate_request(request); !ok) return ok.error();
  std::string temperature = request.temperature ? fmt::format("{:g}", *request.temperature) : "default";
  std::string role = request.role_name.empty() ? "unnamed" : request.role_name;
  std::string body;
  if (!request.system.empty()) body += fmt::format("----- system -----\n{}\n", request.system);
  for (const auto& m : request.messages) body += fmt::format("----- {} -----\n{}\n", m.role, m.content);
  body += "===== end of request: not sent =====\n";
  {
    std::lock_guard lock(mutex_);
    ++count_;
    out_ << fmt::format("===== dry run: request {} ({} role) for {}, model '{}', temperature {}, max_tokens {} =====\n",
                        count_, role, destination_, request.model, temperature, request.max_tokens)
         << body;
    out_.flush();
  }
  return Error{kDryRunError};
}

}  // namespace stark::llm
