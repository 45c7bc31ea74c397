// Integer index expressions as polynomials over names, so a strategy can
// tell that `in[i - cols]` with `size_t i = static_cast<size_t>(r) * cols + c`
// reads the point one row above (r - 1, c) without caring how it is spelled.
#ifndef STARK_AGENTS_BUILTIN_POLYNOMIAL_H
#define STARK_AGENTS_BUILTIN_POLYNOMIAL_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stark::builtin {

/// A sum of integer multiples of products of names: {r*cols: 1, c: 1, 1: -1}.
struct Polynomial {
  using Monomial = std::vector<std::string>;  // names, sorted; empty: the constant term
  std::map<Monomial, int64_t> terms;          // never a zero coefficient

  static Polynomial constant(int64_t c);
  static Polynomial name(std::string n);
  Polynomial operator+(const Polynomial& o) const;
  Polynomial operator-(const Polynomial& o) const;
  Polynomial operator*(const Polynomial& o) const;
  /// The coefficient of a monomial (0 when absent).
  int64_t at(Monomial m) const;
  bool operator==(const Polynomial&) const = default;
};

/// Parses integer literals, names (`n`, `shape.cols`), + - * and
/// parentheses, `static_cast<T>(e)` and C casts `(T)e` to integer types.
/// Names in `known` stand for their polynomial (local variables). nullopt
/// for anything else: division, calls, subscripts, floating point.
std::optional<Polynomial> parse_polynomial(std::string_view text, const std::map<std::string, Polynomial>& known = {});

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_POLYNOMIAL_H
