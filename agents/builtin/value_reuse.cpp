#include "agents/builtin/value_reuse.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace stark::builtin {

namespace {

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Math calls worth computing once; all pure.
bool costly(const std::string& name) {
  static const std::set<std::string> names = {"expf",   "exp",    "__expf", "exp2f",  "exp2", "expm1f", "logf",
                                              "log",    "__logf", "log2f",  "log1pf", "sinf", "cosf",   "__sinf",
                                              "__cosf", "tanhf",  "tanh",   "powf",   "pow",  "__powf", "sqrtf",
                                              "sqrt",   "rsqrtf", "erff",   "erf",    "cbrtf"};
  return names.count(name) > 0;
}

/// Calls that read their arguments and write nothing.
bool pure(const std::string& name) {
  static const std::set<std::string> names = {"fmaxf", "fminf", "fabsf", "fmax", "fmin", "fabs", "max", "min", "abs"};
  return costly(name) || names.count(name) > 0;
}

/// The identifier that ends just before `at`, skipping spaces; its start in *begin.
std::string name_before(const std::string& text, size_t at, size_t* begin) {
  size_t end = at;
  while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  size_t start = end;
  while (start > 0 && is_word(text[start - 1])) --start;
  if (begin) *begin = start;
  return text.substr(start, end - start);
}

/// The '(' that encloses `at` without a match before it; npos at the top.
size_t unmatched_open(const std::string& text, size_t at) {
  int depth = 0;
  for (size_t i = at; i-- > 0;) {
    if (text[i] == ')') ++depth;
    if (text[i] == '(' && depth-- == 0) return i;
  }
  return std::string::npos;
}

/// The ')' that closes the '(' at `open`; npos when it never closes.
size_t matching_close(const std::string& text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i;
  }
  return std::string::npos;
}

/// A costly call in a pass: [begin, end) of its text.
struct Call {
  size_t begin = 0;
  size_t end = 0;
  bool operator<(const Call& o) const { return begin < o.begin; }
};

/// The innermost costly call whose arguments hold `at`; nullopt when there
/// is none, or it is qualified (std::exp, a.exp) and so not a plain call.
std::optional<Call> enclosing_costly_call(const std::string& text, size_t at) {
  for (size_t open = unmatched_open(text, at); open != std::string::npos; open = unmatched_open(text, open)) {
    size_t begin = 0;
    if (!costly(name_before(text, open, &begin))) continue;
    if (begin > 0 && (text[begin - 1] == ':' || text[begin - 1] == '.' || text[begin - 1] == '>')) return std::nullopt;
    size_t close = matching_close(text, open);
    if (close == std::string::npos) return std::nullopt;
    return Call{begin, close + 1};
  }
  return std::nullopt;
}

std::vector<size_t> occurrences(const std::string& text, const std::string& what) {
  std::vector<size_t> out;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    if ((at == 0 || !is_word(text[at - 1])) &&
        (at + what.size() >= text.size() || !is_word(text[at + what.size()]) || !is_word(what.back())))
      out.push_back(at);
  return out;
}

std::string without_spaces(std::string_view text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

/// The identifiers a call's text reads, without the names it calls and
/// without number suffixes (the f of 1.0f).
std::set<std::string> identifiers_read(const std::string& text) {
  std::set<std::string> out;
  for (size_t i = 0; i < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      while (i < text.size() && (is_word(text[i]) || text[i] == '.')) ++i;
      continue;
    }
    if (!is_word(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && is_word(text[i])) ++i;
    size_t next = text.find_first_not_of(" \t\n", i);
    bool called = next != std::string::npos && text[next] == '(';
    bool member = start > 0 && text[start - 1] == '.';
    if (!called && !member) out.insert(text.substr(start, i - start));
  }
  return out;
}

/// Each pass's costly calls on the element; nullopt when a pass also reads
/// the element outside such a call.
std::optional<std::set<Call>> calls_on(const std::string& pass, const std::string& element) {
  std::set<Call> calls;
  for (size_t at : occurrences(pass, element)) {
    auto call = enclosing_costly_call(pass, at);
    if (!call) return std::nullopt;
    calls.insert(*call);
  }
  return calls;
}

}  // namespace

bool may_write(const std::string& text, const std::string& identifier) {
  for (size_t at : occurrences(text, identifier)) {
    size_t after = at + identifier.size();
    // Members and subscripts of it: a.x = ..., a[i] += ...
    while (after < text.size()) {
      size_t next = text.find_first_not_of(" \t\n", after);
      if (next == std::string::npos) break;
      if (text[next] == '.' || (text.compare(next, 2, "->") == 0)) {
        after = next + (text[next] == '.' ? 1 : 2);
        while (after < text.size() && (is_word(text[after]) || std::isspace(static_cast<unsigned char>(text[after]))))
          ++after;
      } else if (text[next] == '[') {
        size_t close = text.find(']', next);
        if (close == std::string::npos) return true;
        after = close + 1;
      } else {
        after = next;
        break;
      }
    }
    std::string_view rest = std::string_view(text).substr(std::min(after, text.size()));
    if (rest.starts_with("++") || rest.starts_with("--")) return true;
    for (std::string_view op : {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
      if (rest.starts_with(op) && !(op == "=" && rest.starts_with("=="))) return true;
    size_t before = at;
    while (before > 0 && std::isspace(static_cast<unsigned char>(text[before - 1]))) --before;
    std::string_view head = std::string_view(text).substr(0, before);
    if (head.ends_with("++") || head.ends_with("--")) return true;
    if (head.ends_with("&") && !head.ends_with("&&")) return true;
    // Passed whole to a call that may take it by reference.
    bool bare_argument =
        (head.ends_with("(") || head.ends_with(",")) && (rest.starts_with(")") || rest.starts_with(","));
    if (bare_argument) {
      size_t open = head.ends_with("(") ? before - 1 : unmatched_open(text, before);
      if (open == std::string::npos || !pure(name_before(text, open, nullptr))) return true;
    }
  }
  return false;
}

std::optional<std::vector<std::string>> reuse_costly_call(const std::vector<std::string>& passes,
                                                          const std::string& element,
                                                          const UnchangedBetween& unchanged) {
  // The first pass with a costly call on the element stores it; passes
  // before it may read the raw element.
  size_t first = 0;
  std::optional<Call> stored;
  for (; first < passes.size(); ++first) {
    auto calls = calls_on(passes[first], element);
    if (!calls || calls->empty()) continue;  // the raw element or none: a pass before the storing one
    if (calls->size() != 1) return std::nullopt;
    stored = *calls->begin();
    break;
  }
  if (!stored) return std::nullopt;
  const std::string& text = passes[first];
  std::string call = text.substr(stored->begin, stored->end - stored->begin);
  const std::string key = without_spaces(call);

  std::vector<std::set<Call>> reused(passes.size());
  size_t last = first;
  for (size_t i = first + 1; i < passes.size(); ++i) {
    auto calls = calls_on(passes[i], element);
    if (!calls) return std::nullopt;  // reads the raw element after it was overwritten
    for (const Call& c : *calls)
      if (without_spaces(std::string_view(passes[i]).substr(c.begin, c.end - c.begin)) != key) return std::nullopt;
    if (!calls->empty()) last = i;
    reused[i] = std::move(*calls);
  }
  if (last == first) return std::nullopt;
  std::set<std::string> element_names = identifiers_read(element);
  for (const std::string& id : identifiers_read(call))
    if (!element_names.count(id) && !unchanged(id, first, last)) return std::nullopt;

  std::vector<std::string> out = passes;
  out[first] = text.substr(0, stored->begin) + "(" + element + " = " + call + ")" + text.substr(stored->end);
  for (size_t i = first + 1; i <= last; ++i)
    for (auto c = reused[i].rbegin(); c != reused[i].rend(); ++c) out[i].replace(c->begin, c->end - c->begin, element);
  return out;
}

}  // namespace stark::builtin
