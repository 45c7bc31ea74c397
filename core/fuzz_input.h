// Test-only: deterministic hostile inputs for the tests that throw random and
// mutated text and JSON at STARK's parsers and loaders. A seed gives the same
// inputs on every machine (splitmix64 and plain modulo, no std::
// distributions), so a failure names the seed that reproduces it.
#ifndef STARK_CORE_FUZZ_INPUT_H
#define STARK_CORE_FUZZ_INPUT_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

namespace stark::testing {

/// A stream of pseudo-random choices and the mutations built on them.
class FuzzInput {
 public:
  explicit FuzzInput(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
  bool percent(int p) { return static_cast<int>(below(100)) < p; }

  /// A value from the edges of int64 and the small numbers around zero.
  int64_t extreme() {
    static const int64_t kValues[] = {std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max(),
                                      -1,
                                      0,
                                      1,
                                      2,
                                      255,
                                      256,
                                      1 << 20,
                                      int64_t{1} << 32,
                                      -(int64_t{1} << 40)};
    if (percent(30)) return static_cast<int64_t>(next());
    return kValues[below(std::size(kValues))];
  }

  /// Up to `max` tokens of `vocabulary`, concatenated.
  std::string tokens(const std::vector<std::string>& vocabulary, size_t max) {
    std::string out;
    for (size_t n = below(max + 1); n > 0; --n) out += vocabulary[below(vocabulary.size())];
    return out;
  }

  /// `s` with a few byte-level changes: flips, insertions, deletions,
  /// repeats and truncation.
  std::string mutate_text(std::string s) {
    static const char kBytes[] = "()[]{},.=-+*/%\"'\\:;<>_x0123456789 \n\t\xff";
    for (size_t n = 1 + below(4); n > 0; --n) {
      size_t at = below(s.size() + 1);
      switch (below(5)) {
        case 0:
          if (at < s.size()) s[at] = static_cast<char>(next());
          break;
        case 1: s.insert(at, 1, kBytes[below(sizeof(kBytes) - 1)]); break;
        case 2: s.erase(at, below(8)); break;
        case 3: s.insert(at, s.substr(at, below(16)) + s.substr(at, below(16))); break;
        default: s.resize(at); break;
      }
    }
    return s;
  }

  /// A JSON value of any type, including the awkward ones.
  nlohmann::json value() {
    switch (below(10)) {
      case 0: return nullptr;
      case 1: return extreme();
      case 2: return -1.5e308;
      case 3: return std::string(below(3) == 0 ? 100000 : below(20), 'x');
      case 4: return nlohmann::json::array({extreme(), "", nullptr});
      case 5: return nlohmann::json::object({{"begin", extreme()}, {"end", extreme()}});
      case 6: return percent(50);
      case 7: return "/etc/passwd";
      case 8: return "../../../../tmp/x";
      default: {
        nlohmann::json deep = 1;
        for (int i = 0; i < 2000; ++i) {
          nlohmann::json outer = nlohmann::json::array();
          outer.push_back(std::move(deep));
          deep = std::move(outer);
        }
        return deep;
      }
    }
  }

  /// `j` with a few nodes replaced, removed or added, at any depth.
  nlohmann::json mutate_json(nlohmann::json j) {
    for (size_t n = 1 + below(3); n > 0; --n) mutate_one(j);
    return j;
  }

 private:
  void mutate_one(nlohmann::json& j) {
    nlohmann::json* at = &j;
    // Walk down a random path, stopping anywhere.
    while ((at->is_object() || at->is_array()) && !at->empty() && !percent(25)) {
      auto it = at->begin();
      std::advance(it, static_cast<std::ptrdiff_t>(below(at->size())));
      at = &*it;
    }
    if (at->is_object() && !at->empty() && percent(40)) {
      auto it = at->begin();
      std::advance(it, static_cast<std::ptrdiff_t>(below(at->size())));
      std::string key = it.key();
      at->erase(key);
      return;
    }
    if (at->is_object() && percent(30)) {
      (*at)["x" + std::to_string(below(4))] = value();
      return;
    }
    *at = value();
  }

  uint64_t state_;
};

}  // namespace stark::testing

#endif  // STARK_CORE_FUZZ_INPUT_H
