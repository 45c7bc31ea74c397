// The small integer expression language of launch overrides and annotation
// keys (docs/CONTRACTS.md): names, integer literals, + - * / %, parentheses,
// min, max, ceil_div. The evaluator computes launch shapes from captured
// values with it; the rewriter and the validators check names with it.
#ifndef STARK_CORE_LAUNCH_EXPR_H
#define STARK_CORE_LAUNCH_EXPR_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark {

/// A parsed launch expression; cheap to copy (shares its tree).
class LaunchExpr {
 public:
  /// Looks up a name ("n", "p.rows", "grid.x", "shmem"); nullopt = unknown.
  using Lookup = std::function<std::optional<int64_t>(std::string_view)>;

  static Expected<LaunchExpr> parse(std::string_view text);

  /// Every name the expression reads, dotted names whole ("p.n").
  std::set<std::string> names() const;

  /// Integer value; errors on unknown names, division by zero, overflow.
  Expected<int64_t> evaluate(const Lookup& lookup) const;

  const std::string& text() const { return text_; }

  /// The parsed tree, for consumers that print the expression in another
  /// language (the rewriter renders it as C++ at each launch site).
  struct Node {
    enum class Kind { Literal, Name, Negate, Binary, Call } kind = Kind::Literal;
    int64_t value = 0;
    std::string name;                               // Name: the dotted name; Call: the function (min, max, ceil_div)
    char op = 0;                                    // Binary: + - * / %
    std::vector<std::shared_ptr<const Node>> kids;  // Negate: 1; Binary, Call: 2
  };

  /// The root of the tree; null only for a default-constructed expression.
  const Node* root() const { return root_.get(); }

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
};

}  // namespace stark

#endif  // STARK_CORE_LAUNCH_EXPR_H
