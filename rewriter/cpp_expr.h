// Printing a launch-override expression (core/launch_expr.h) as host C++ at
// one launch site. The user's translation unit gets no new include: min, max
// and ceil_div become plain integer arithmetic, e.g. ceil_div(n, 512) with
// n = `count * 2` is `(((count * 2) + 511) / 512)`.
#ifndef STARK_REWRITER_CPP_EXPR_H
#define STARK_REWRITER_CPP_EXPR_H

#include <functional>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "core/launch_expr.h"

namespace stark::rewriter {

/// C++ text of a name at a site; `primary` when it needs no parentheses
/// around it in any context (an identifier, a literal, a call...).
struct CppText {
  std::string text;
  bool primary = false;
};

/// What a name of the expression is at the site ("n" -> the argument text).
using NameToCpp = std::function<Expected<CppText>(std::string_view name)>;

/// The expression as C++ with every name replaced; errors from `name_to_cpp`
/// pass through. No outer parentheses unless needed by the top operator.
Expected<std::string> render_cpp(const LaunchExpr& expr, const NameToCpp& name_to_cpp);

/// True when `text` is one C++ primary expression as written: an identifier
/// (possibly qualified or with member access), a number literal, or text
/// wrapped in one pair of matching parentheses.
bool is_primary_text(std::string_view text);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_CPP_EXPR_H
