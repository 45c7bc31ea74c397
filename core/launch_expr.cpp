#include "core/launch_expr.h"

#include <fmt/format.h>

#include <cctype>
#include <limits>

namespace stark {

namespace {

// Limits for text that may come from a model, a cache entry or a result:
// the parser and the evaluator recurse, so depth is bounded, and length
// bounds the work (an override is a line, never a page).
constexpr size_t kMaxLength = 4096;
constexpr int kMaxDepth = 256;

using NodePtr = std::shared_ptr<const LaunchExpr::Node>;
using Kind = LaunchExpr::Node::Kind;

/// Recursive-descent parser over the expression text.
class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Expected<NodePtr> parse_all() {
    if (s_.size() > kMaxLength)
      return Error{
          fmt::format("launch expression of {} characters is longer than the limit ({})", s_.size(), kMaxLength)};
    auto e = expr();
    if (!e) return e;
    skip_space();
    if (pos_ != s_.size()) return fail(fmt::format("unexpected '{}'", s_.substr(pos_, 1)));
    return e;
  }

 private:
  Error fail(std::string what) const {
    constexpr size_t kShown = 80;  // hostile text can be long: quote its start only
    std::string shown(s_.substr(0, kShown));
    if (s_.size() > kShown) shown += "...";
    return Error{fmt::format("in launch expression '{}' at column {}: {}", shown, pos_ + 1, what)};
  }
  Error too_deep() const { return fail(fmt::format("nested deeper than {} levels", kMaxDepth)); }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  /// Counts one level of nesting while alive: parentheses, calls and
  /// unary operators each take one.
  class Nesting {
   public:
    explicit Nesting(int& depth) : depth_(depth) { ++depth_; }
    ~Nesting() { --depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    int& depth_;
  };

  Expected<NodePtr> expr() {
    auto lhs = term();
    if (!lhs) return lhs;
    for (;;) {
      skip_space();
      if (pos_ >= s_.size() || (s_[pos_] != '+' && s_[pos_] != '-')) return lhs;
      char op = s_[pos_++];
      auto rhs = term();
      if (!rhs) return rhs;
      lhs = binary(op, *lhs, *rhs);
    }
  }

  Expected<NodePtr> term() {
    auto lhs = unary();
    if (!lhs) return lhs;
    for (;;) {
      skip_space();
      if (pos_ >= s_.size() || (s_[pos_] != '*' && s_[pos_] != '/' && s_[pos_] != '%')) return lhs;
      char op = s_[pos_++];
      auto rhs = unary();
      if (!rhs) return rhs;
      lhs = binary(op, *lhs, *rhs);
    }
  }

  Expected<NodePtr> unary() {
    skip_space();
    if (pos_ >= s_.size() || (s_[pos_] != '-' && s_[pos_] != '+')) return primary();
    char sign = s_[pos_++];
    Nesting level(depth_);
    if (depth_ > kMaxDepth) return too_deep();
    auto operand = unary();
    if (!operand || sign == '+') return operand;
    auto n = std::make_shared<LaunchExpr::Node>();
    n->kind = Kind::Negate;
    n->kids.push_back(*operand);
    return NodePtr(n);
  }

  Expected<NodePtr> primary() {
    skip_space();
    if (pos_ >= s_.size()) return fail("expression ends too early");
    if (eat('(')) {
      Nesting level(depth_);
      if (depth_ > kMaxDepth) return too_deep();
      auto inner = expr();
      if (!inner) return inner;
      if (!eat(')')) return fail("expected ')'");
      return inner;
    }
    char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) return literal();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name_or_call();
    return fail(fmt::format("unexpected '{}'", c));
  }

  Expected<NodePtr> literal() {
    size_t start = pos_;
    int base = 10;
    if (s_.substr(pos_, 2) == "0x" || s_.substr(pos_, 2) == "0X") {
      base = 16;
      pos_ += 2;
    }
    uint64_t v = 0;
    size_t digits = 0;
    while (pos_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[pos_]))) {
      char d = s_[pos_];
      int dv = std::isdigit(static_cast<unsigned char>(d)) ? d - '0' : (std::tolower(d) - 'a' + 10);
      if (dv >= base) break;
      if (v > static_cast<uint64_t>((std::numeric_limits<int64_t>::max() - dv) / base))
        return fail("integer literal too large");
      v = v * base + dv;
      ++pos_;
      ++digits;
    }
    if (digits == 0) return fail("malformed integer literal");
    while (pos_ < s_.size() && (s_[pos_] == 'u' || s_[pos_] == 'U' || s_[pos_] == 'l' || s_[pos_] == 'L')) ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == '.' || std::isalnum(static_cast<unsigned char>(s_[pos_]))))
      return fail(fmt::format("'{}' is not an integer literal", s_.substr(start, pos_ - start + 1)));
    auto n = std::make_shared<LaunchExpr::Node>();
    n->kind = Kind::Literal;
    n->value = static_cast<int64_t>(v);
    return NodePtr(n);
  }

  std::string identifier() {
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  Expected<NodePtr> name_or_call() {
    std::string id = identifier();
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '(') {
      if (id != "min" && id != "max" && id != "ceil_div")
        return fail(fmt::format("unknown function '{}' (allowed: min, max, ceil_div)", id));
      ++pos_;
      Nesting level(depth_);
      if (depth_ > kMaxDepth) return too_deep();
      auto n = std::make_shared<LaunchExpr::Node>();
      n->kind = Kind::Call;
      n->name = id;
      do {
        auto arg = expr();
        if (!arg) return arg;
        n->kids.push_back(*arg);
      } while (eat(','));
      if (!eat(')')) return fail("expected ')' or ','");
      if (n->kids.size() != 2) return fail(fmt::format("{}() takes 2 arguments", id));
      return NodePtr(n);
    }
    std::string dotted = id;
    while (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      std::string field = identifier();
      if (field.empty()) return fail("expected a field name after '.'");
      dotted += "." + field;
    }
    auto n = std::make_shared<LaunchExpr::Node>();
    n->kind = Kind::Name;
    n->name = dotted;
    return NodePtr(n);
  }

  static NodePtr binary(char op, NodePtr lhs, NodePtr rhs) {
    auto n = std::make_shared<LaunchExpr::Node>();
    n->kind = Kind::Binary;
    n->op = op;
    n->kids = {std::move(lhs), std::move(rhs)};
    return n;
  }

  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
};

void collect_names(const LaunchExpr::Node& n, std::set<std::string>& out) {
  if (n.kind == Kind::Name) out.insert(n.name);
  for (const auto& k : n.kids) collect_names(*k, out);
}

Error overflow() { return Error{"overflow in launch expression"}; }

/// x / y, x % y and ceil_div(x, y), with every case C++ leaves undefined (or
/// traps on: INT64_MIN / -1) as an error.
Expected<int64_t> divide(char op, int64_t x, int64_t y) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (op == 'c') {
    if (y <= 0) return Error{"ceil_div() by a non-positive value in launch expression"};
    if (x < 0) return x / y;  // rounds toward zero, which is up for negatives
    return x / y + (x % y != 0 ? 1 : 0);
  }
  if (y == 0) return Error{"division by zero in launch expression"};
  if (x == kMin && y == -1) {
    if (op == '%') return int64_t{0};
    return overflow();
  }
  return op == '/' ? x / y : x % y;
}

Expected<int64_t> eval(const LaunchExpr::Node& n, const LaunchExpr::Lookup& lookup) {
  switch (n.kind) {
    case Kind::Literal: return n.value;
    case Kind::Name: {
      auto v = lookup(n.name);
      if (!v) return Error{fmt::format("unknown name '{}' in launch expression", n.name)};
      return *v;
    }
    case Kind::Negate: {
      auto v = eval(*n.kids[0], lookup);
      if (!v) return v;
      int64_t r = 0;
      if (__builtin_sub_overflow(int64_t{0}, *v, &r)) return overflow();
      return r;
    }
    default: break;
  }
  if (n.kids.size() != 2) return Error{"malformed launch expression"};
  auto a = eval(*n.kids[0], lookup);
  if (!a) return a;
  auto b = eval(*n.kids[1], lookup);
  if (!b) return b;
  int64_t x = *a, y = *b, r = 0;
  if (n.kind == Kind::Call) {
    if (n.name == "min") return std::min(x, y);
    if (n.name == "max") return std::max(x, y);
    return divide('c', x, y);
  }
  switch (n.op) {
    case '+':
      if (__builtin_add_overflow(x, y, &r)) return overflow();
      return r;
    case '-':
      if (__builtin_sub_overflow(x, y, &r)) return overflow();
      return r;
    case '*':
      if (__builtin_mul_overflow(x, y, &r)) return overflow();
      return r;
    case '/':
    case '%': return divide(n.op, x, y);
  }
  return Error{"bad operator in launch expression"};
}

}  // namespace

Expected<LaunchExpr> LaunchExpr::parse(std::string_view text) {
  auto root = Parser(text).parse_all();
  if (!root) return root.error();
  LaunchExpr e;
  e.root_ = *root;
  e.text_ = std::string(text);
  return e;
}

std::set<std::string> LaunchExpr::names() const {
  std::set<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

Expected<int64_t> LaunchExpr::evaluate(const Lookup& lookup) const {
  if (!root_) return Error{"empty launch expression"};
  return eval(*root_, lookup);
}

}  // namespace stark
