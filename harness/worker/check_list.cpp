#include "harness/worker/check_list.h"

#include <fmt/format.h>

namespace stark::harness {

CheckList::CheckList() {
  for (CheckName n : {CheckName::BaselineReplay, CheckName::Launch, CheckName::NoCrash, CheckName::Correctness,
                      CheckName::InputsUnchanged, CheckName::Guards, CheckName::Repeat, CheckName::OtherSizes,
                      CheckName::Fuzz, CheckName::Timing, CheckName::TimedOutputs, CheckName::Recheck})
    order_.push_back(n);
}

void CheckList::fail(CheckName name, const std::string& why) {
  auto& s = state_[name];
  s.ok = false;
  if (s.details.size() < 3) s.details.push_back(why);
}

void CheckList::pass(CheckName name, const std::string& detail) {
  auto& s = state_[name];
  if (!s.ok) s.ok = true;
  if (*s.ok && !detail.empty()) s.details = {detail};
}

void CheckList::skip(CheckName name, const std::string& why) {
  auto& s = state_[name];
  if (!s.ok) s.details = {why};
}

bool CheckList::failed() const {
  for (const auto& [n, s] : state_)
    if (s.ok && !*s.ok) return true;
  return false;
}

std::vector<Check> CheckList::list() const {
  std::vector<Check> out;
  for (CheckName n : order_) {
    auto it = state_.find(n);
    Check c{n, std::nullopt, "not run: an earlier check failed"};
    if (it != state_.end()) {
      c.ok = it->second.ok;
      if (!it->second.details.empty()) {
        c.detail.clear();
        for (const auto& d : it->second.details) c.detail += (c.detail.empty() ? "" : "; ") + d;
      } else if (c.ok) {
        c.detail.clear();
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

void record(CheckList& checks, const Judgement& j, CheckName wrong_check, const std::string& capture) {
  for (const auto& w : j.wrong) checks.fail(wrong_check, fmt::format("capture {}: {}", capture, w));
  for (const auto& w : j.inputs) checks.fail(CheckName::InputsUnchanged, fmt::format("capture {}: {}", capture, w));
  for (const auto& w : j.guards) checks.fail(CheckName::Guards, fmt::format("capture {}: {}", capture, w));
}

}  // namespace stark::harness
