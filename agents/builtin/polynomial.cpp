#include "agents/builtin/polynomial.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

namespace stark::builtin {

Polynomial Polynomial::constant(int64_t c) {
  Polynomial p;
  if (c != 0) p.terms[{}] = c;
  return p;
}

Polynomial Polynomial::name(std::string n) {
  Polynomial p;
  p.terms[{std::move(n)}] = 1;
  return p;
}

Polynomial Polynomial::operator+(const Polynomial& o) const {
  Polynomial r = *this;
  for (const auto& [m, c] : o.terms)
    if ((r.terms[m] += c) == 0) r.terms.erase(m);
  return r;
}

Polynomial Polynomial::operator-(const Polynomial& o) const { return *this + o * constant(-1); }

Polynomial Polynomial::operator*(const Polynomial& o) const {
  Polynomial r;
  for (const auto& [a, x] : terms)
    for (const auto& [b, y] : o.terms) {
      Monomial m = a;
      m.insert(m.end(), b.begin(), b.end());
      std::sort(m.begin(), m.end());
      if ((r.terms[m] += x * y) == 0) r.terms.erase(m);
    }
  return r;
}

int64_t Polynomial::at(Monomial m) const {
  std::sort(m.begin(), m.end());
  auto it = terms.find(m);
  return it == terms.end() ? 0 : it->second;
}

namespace {

/// Integer types a cast may name: casts to them keep an index's value.
bool integer_type(std::string t) {
  static const std::set<std::string> kTypes = {"int",           "unsigned",  "unsigned int",       "long",
                                               "unsigned long", "long long", "unsigned long long", "size_t",
                                               "std::size_t",   "ptrdiff_t", "std::ptrdiff_t",     "int64_t",
                                               "uint64_t",      "int32_t",   "uint32_t",           "std::int64_t",
                                               "std::uint64_t", "long int",  "unsigned long int",  "long long int"};
  auto first = t.find_first_not_of(' ');
  auto last = t.find_last_not_of(' ');
  if (first == std::string::npos) return false;
  t = t.substr(first, last - first + 1);
  if (t.rfind("const ", 0) == 0) t = t.substr(6);
  return kTypes.count(t) > 0;
}

/// Recursive descent over: sum := product (('+'|'-') product)*;
/// product := unary ('*' unary)*; unary := '-' unary | '+' unary | atom.
class Parser {
 public:
  Parser(std::string_view text, const std::map<std::string, Polynomial>& known) : s_(text), known_(known) {}

  std::optional<Polynomial> parse() {
    auto p = sum();
    skip();
    if (!p || pos_ != s_.size()) return std::nullopt;
    return p;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  std::optional<Polynomial> sum() {
    auto left = product();
    while (left) {
      if (eat('+')) {
        auto right = product();
        if (!right) return std::nullopt;
        left = *left + *right;
      } else if (eat('-')) {
        auto right = product();
        if (!right) return std::nullopt;
        left = *left - *right;
      } else {
        break;
      }
    }
    return left;
  }

  std::optional<Polynomial> product() {
    auto left = unary();
    while (left && eat('*')) {
      auto right = unary();
      if (!right) return std::nullopt;
      left = *left * *right;
    }
    return left;
  }

  std::optional<Polynomial> unary() {
    if (eat('-')) {
      auto p = unary();
      return p ? std::optional(Polynomial::constant(-1) * *p) : std::nullopt;
    }
    if (eat('+')) return unary();
    return atom();
  }

  std::optional<Polynomial> atom() {
    skip();
    if (pos_ >= s_.size()) return std::nullopt;
    if (s_[pos_] == '(') {
      // A C cast "(size_t)e" or a parenthesised expression.
      size_t close = s_.find(')', pos_);
      if (close != std::string_view::npos && integer_type(std::string(s_.substr(pos_ + 1, close - pos_ - 1)))) {
        pos_ = close + 1;
        return unary();
      }
      ++pos_;
      auto p = sum();
      if (!p || !eat(')')) return std::nullopt;
      return p;
    }
    if (std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      size_t end = pos_;
      while (end < s_.size() && is_identifier_char(s_[end])) ++end;
      std::string_view lit = s_.substr(pos_, end - pos_);
      while (!lit.empty() && std::string_view("uUlL").find(lit.back()) != std::string_view::npos) lit.remove_suffix(1);
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(lit.data(), lit.data() + lit.size(), v);
      if (ec != std::errc() || ptr != lit.data() + lit.size()) return std::nullopt;  // hex, floats
      pos_ = end;
      return Polynomial::constant(v);
    }
    if (!is_identifier_char(s_[pos_])) return std::nullopt;
    size_t end = pos_;
    while (end < s_.size() && (is_identifier_char(s_[end]) || s_[end] == '.' ||
                               (s_[end] == ':' && end + 1 < s_.size() && s_[end + 1] == ':')))
      end += s_[end] == ':' ? 2 : 1;
    std::string word(s_.substr(pos_, end - pos_));
    pos_ = end;
    if (word == "static_cast") {
      if (!eat('<')) return std::nullopt;
      size_t close = s_.find('>', pos_);
      if (close == std::string_view::npos || !integer_type(std::string(s_.substr(pos_, close - pos_))))
        return std::nullopt;
      pos_ = close + 1;
      if (!eat('(')) return std::nullopt;
      auto p = sum();
      if (!p || !eat(')')) return std::nullopt;
      return p;
    }
    skip();
    if (pos_ < s_.size() && (s_[pos_] == '(' || s_[pos_] == '[')) return std::nullopt;  // a call or a subscript
    if (auto it = known_.find(word); it != known_.end()) return it->second;
    return Polynomial::name(std::move(word));
  }

  std::string_view s_;
  const std::map<std::string, Polynomial>& known_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<Polynomial> parse_polynomial(std::string_view text, const std::map<std::string, Polynomial>& known) {
  return Parser(text, known).parse();
}

}  // namespace stark::builtin
