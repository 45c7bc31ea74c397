#include "rewriter/cpp_expr.h"

#include <fmt/format.h>

#include <cctype>

#include "core/text.h"

namespace stark::rewriter {

namespace {

using Node = LaunchExpr::Node;
using Kind = Node::Kind;

// Binding strength of what a rendered piece is, loosest first.
enum Level { kAdditive = 1, kMultiplicative = 2, kUnary = 3, kPrimary = 4 };

struct Piece {
  std::string text;
  Level level = kPrimary;
};

std::string parens(const Piece& p, Level at_least) { return p.level >= at_least ? p.text : "(" + p.text + ")"; }

// Operands of the conditional operator and of '<': parenthesised unless
// primary, which is what a reader of the patch expects to see.
std::string operand(const Piece& p) { return parens(p, kPrimary); }

Expected<Piece> render(const Node& n, const NameToCpp& name_to_cpp) {
  switch (n.kind) {
    case Kind::Literal: return Piece{std::to_string(n.value), kPrimary};
    case Kind::Name: {
      auto t = name_to_cpp(n.name);
      if (!t) return t.error();
      bool primary = t->primary || is_primary_text(t->text);
      return Piece{primary ? t->text : "(" + t->text + ")", kPrimary};
    }
    case Kind::Negate: {
      auto x = render(*n.kids[0], name_to_cpp);
      if (!x) return x;
      std::string inner = parens(*x, kUnary);
      if (!inner.empty() && (inner[0] == '-' || inner[0] == '+')) inner = "(" + inner + ")";
      return Piece{"-" + inner, kUnary};
    }
    case Kind::Binary: {
      auto a = render(*n.kids[0], name_to_cpp);
      if (!a) return a;
      auto b = render(*n.kids[1], name_to_cpp);
      if (!b) return b;
      Level level = (n.op == '+' || n.op == '-') ? kAdditive : kMultiplicative;
      // Left-associative: the right operand must bind tighter than the operator.
      return Piece{fmt::format("{} {} {}", parens(*a, level), n.op, parens(*b, static_cast<Level>(level + 1))), level};
    }
    case Kind::Call: {
      auto a = render(*n.kids[0], name_to_cpp);
      if (!a) return a;
      auto b = render(*n.kids[1], name_to_cpp);
      if (!b) return b;
      if (n.name == "min") return Piece{fmt::format("({0} < {1} ? {0} : {1})", operand(*a), operand(*b)), kPrimary};
      if (n.name == "max") return Piece{fmt::format("({0} < {1} ? {1} : {0})", operand(*a), operand(*b)), kPrimary};
      // ceil_div(a, b) = (a + b - 1) / b, folded when b is a literal.
      const Node& divisor = *n.kids[1];
      if (divisor.kind == Kind::Literal && divisor.value == 1) return *a;
      if (divisor.kind == Kind::Literal && divisor.value > 1)
        return Piece{fmt::format("(({} + {}) / {})", parens(*a, kAdditive), divisor.value - 1, divisor.value),
                     kPrimary};
      return Piece{fmt::format("(({} + {} - 1) / {})", parens(*a, kAdditive), operand(*b), operand(*b)), kPrimary};
    }
  }
  return Error{"unknown node in launch expression"};
}

}  // namespace

bool is_primary_text(std::string_view text) {
  text = trim(text);
  if (text.empty()) return false;
  if (text.front() == '(' && text.back() == ')') {
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '(') ++depth;
      else if (text[i] == ')' && --depth == 0) return i + 1 == text.size();
    }
    return false;
  }
  if (std::isdigit(static_cast<unsigned char>(text.front()))) {
    for (char c : text)
      if (!is_identifier_char(c) && c != '.' && c != '\'') return false;
    return true;
  }
  // A postfix expression: identifier ( call | subscript )* joined by '.', '->', '::'.
  size_t i = 0;
  for (;;) {
    if (i >= text.size() || !(std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_')) return false;
    while (i < text.size() && is_identifier_char(text[i])) ++i;
    while (i < text.size() && (text[i] == '(' || text[i] == '[')) {
      char open = text[i], close = open == '(' ? ')' : ']';
      int depth = 0;
      size_t j = i;
      for (; j < text.size(); ++j) {
        if (text[j] == open) ++depth;
        else if (text[j] == close && --depth == 0) break;
      }
      if (j == text.size()) return false;
      i = j + 1;
    }
    if (i == text.size()) return true;
    if (text[i] == '.') ++i;
    else if (text.substr(i, 2) == "->" || text.substr(i, 2) == "::") i += 2;
    else return false;
  }
}

Expected<std::string> render_cpp(const LaunchExpr& expr, const NameToCpp& name_to_cpp) {
  if (!expr.root()) return Error{"empty launch expression"};
  auto p = render(*expr.root(), name_to_cpp);
  if (!p) return p.error();
  return p->text;
}

}  // namespace stark::rewriter
