// The checks of one evaluation in the order reports list them: each passes,
// fails (with up to three reasons) or did not run (with why), whatever order
// the evaluation reaches them in.
#ifndef STARK_HARNESS_WORKER_CHECK_LIST_H
#define STARK_HARNESS_WORKER_CHECK_LIST_H

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/evaluation.h"
#include "harness/worker/judge.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

/// The evaluation's checks by name, listed in report order.
class CheckList {
 public:
  CheckList();
  /// Fails the check; the first three reasons are kept.
  void fail(CheckName name, const std::string& why);
  /// Passes the check unless it already failed; `detail` replaces an earlier one.
  void pass(CheckName name, const std::string& detail = "");
  /// Marks the check as not run, unless it already passed or failed.
  void skip(CheckName name, const std::string& why);
  bool failed() const;
  /// Every check in report order; one never reached reads "not run: an earlier check failed".
  std::vector<Check> list() const;

 private:
  struct State {
    std::optional<bool> ok;
    std::vector<std::string> details;
  };
  std::vector<CheckName> order_;
  std::map<CheckName, State> state_;
};

/// A judgement's findings on one capture as failures of `wrong_check`, of
/// the inputs check and of the guard check.
void record(CheckList& checks, const Judgement& j, CheckName wrong_check, const std::string& capture);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_CHECK_LIST_H
