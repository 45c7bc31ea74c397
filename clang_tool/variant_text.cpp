#include "clang_tool/variant_text.h"

#include <clang/Basic/LangOptions.h>
#include <clang/Lex/Lexer.h>
#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

namespace stark {

namespace {

namespace tok = clang::tok;

/// One token as clang's raw lexer sees it: the preprocessor's own idea of
/// lines, comments, literals and line splices, with no macro expanded.
struct Lexed {
  tok::TokenKind kind;
  bool line_start;
  size_t begin, end;  // byte offsets in the lexed text
  std::string_view text;
};

/// The tokens of `text` (comments too, when asked).
std::vector<Lexed> lex(const std::string& text, bool comments) {
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = 1;
  lang.CUDA = 1;
  lang.Digraphs = 1;  // `%:` is a `#` to every compiler
  lang.LineComment = 1;
  const char* begin = text.c_str();  // the lexer needs the NUL after the end
  clang::Lexer lexer(clang::SourceLocation(), lang, begin, begin, begin + text.size());
  lexer.SetCommentRetentionState(comments);
  std::vector<Lexed> out;
  for (clang::Token t;;) {
    lexer.LexFromRawLexer(t);
    if (t.is(tok::eof)) break;
    size_t end = static_cast<size_t>(lexer.getBufferLocation() - begin);
    size_t start = end - t.getLength();
    out.push_back({t.getKind(), t.isAtStartOfLine(), start, end, std::string_view(text).substr(start, t.getLength())});
  }
  return out;
}

bool is_word(const Lexed& t, std::string_view word) { return t.kind == tok::raw_identifier && t.text == word; }

/// What an unroll count may be made of: an integral constant expression's
/// tokens, nothing that declares, captures or runs anything.
bool count_token(tok::TokenKind k) {
  switch (k) {
    case tok::numeric_constant:
    case tok::raw_identifier:
    case tok::l_paren:
    case tok::r_paren:
    case tok::plus:
    case tok::minus:
    case tok::star:
    case tok::slash:
    case tok::percent:
    case tok::less:
    case tok::greater:
    case tok::lessequal:
    case tok::greaterequal:
    case tok::lessless:
    case tok::greatergreater:
    case tok::coloncolon:
    case tok::period:
    case tok::amp:
    case tok::pipe:
    case tok::caret:
    case tok::tilde:
    case tok::exclaim:
    case tok::ampamp:
    case tok::pipepipe:
    case tok::equalequal:
    case tok::exclaimequal:
    case tok::question:
    case tok::colon:
    case tok::comma: return true;
    default: return false;
  }
}

/// `pragma unroll [count]` or `pragma nounroll`: a directive's tokens after its `#`.
bool loop_pragma(std::span<const Lexed> d) {
  if (d.size() < 2 || !is_word(d[0], "pragma")) return false;
  if (is_word(d[1], "nounroll")) return d.size() == 2;
  return is_word(d[1], "unroll") &&
         std::all_of(d.begin() + 2, d.end(), [](const Lexed& t) { return count_token(t.kind); });
}

/// `_Pragma ( "unroll ..." )` from tokens[i] on: true when it is a loop pragma.
bool loop_pragma_operator(const std::vector<Lexed>& t, size_t i) {
  if (i + 3 >= t.size() || t[i + 1].kind != tok::l_paren || t[i + 2].kind != tok::string_literal ||
      t[i + 3].kind != tok::r_paren)
    return false;
  std::string_view literal = t[i + 2].text;  // plain "...": a prefix makes another kind of literal
  if (literal.size() < 2 || literal.find('\\') != std::string_view::npos) return false;
  std::string directive = "pragma " + std::string(literal.substr(1, literal.size() - 2));
  return loop_pragma(lex(directive, false));
}

/// The directive starting at tokens[i] (a `#`): its tokens up to the next
/// line, comments left out.
std::vector<Lexed> directive_at(const std::vector<Lexed>& t, size_t i) {
  std::vector<Lexed> out;
  for (size_t j = i + 1; j < t.size() && !t[j].line_start; ++j)
    if (t[j].kind != tok::comment) out.push_back(t[j]);
  return out;
}

/// Which tokens start a line for the preprocessor: the first on a line, or
/// (to be safe with any compiler) the first after a comment that spans a
/// line break.
std::vector<bool> line_starts(const std::vector<Lexed>& t) {
  std::vector<bool> out(t.size());
  bool fresh = true;
  for (size_t i = 0; i < t.size(); ++i) {
    fresh = fresh || t[i].line_start;
    if (t[i].kind == tok::comment) {
      fresh = fresh || t[i].text.find_first_of("\r\n") != std::string_view::npos;
      continue;
    }
    out[i] = fresh;
    fresh = false;
  }
  return out;
}

class TextCheck {
 public:
  TextCheck(std::string_view source, std::string_view following)
      : source_(source), text_(std::string(source) + std::string(following)) {}

  std::vector<std::string> run() {
    if (source_.find('\0') != std::string_view::npos) problems_.push_back("the variant contains a NUL character");
    for (const char* trigraph : {"?\?=", "?\?/"})
      if (size_t at = source_.find(trigraph); at != std::string_view::npos)
        add(at, fmt::format("the trigraph '{}' is not allowed (some compilers read it as '{}')", trigraph,
                            trigraph[2] == '=' ? "#" : "\\"));
    if (!problems_.empty()) return problems_;
    tokens_ = lex(text_, true);
    check_tokens();
    check_end();
    return problems_;
  }

 private:
  void add(size_t offset, const std::string& message) {
    long line = 1 + std::count(source_.begin(), source_.begin() + static_cast<long>(offset), '\n');
    problems_.push_back(fmt::format("variant line {}: {}", line, message));
  }

  void check_tokens() {
    const auto& t = tokens_;
    auto starts = line_starts(t);
    for (size_t i = 0; i < t.size() && t[i].begin < source_.size(); ++i) {
      const Lexed& x = t[i];
      if (x.kind == tok::hash && starts[i]) {
        auto d = directive_at(t, i);
        size_t end = d.empty() ? x.end : d.back().end;
        if (!loop_pragma(d))
          add(x.begin, fmt::format("the preprocessor directive '{}' is not allowed: a variant is the kernel and its "
                                   "__device__ helpers only (of directives, only #pragma unroll and #pragma nounroll)",
                                   shorten(std::string_view(text_).substr(x.begin, end - x.begin))));
      } else if (x.kind == tok::raw_identifier) {
        check_word(t, i, starts[i]);
      }
    }
  }

  void check_word(const std::vector<Lexed>& t, size_t i, bool line_start) {
    const Lexed& x = t[i];
    if (x.text.starts_with("__CUDA_ARCH"))
      add(x.begin, fmt::format("'{}' is not allowed: a variant must be the same code for the host and the device "
                               "pass (nvcc compiles it for every arch the build targets)",
                               x.text));
    else if ((x.text == "_Pragma" && !loop_pragma_operator(t, i)) || x.text == "__pragma")
      add(x.begin,
          fmt::format("'{}' is not allowed except as _Pragma(\"unroll ...\") or _Pragma(\"nounroll\")", x.text));
    else if (line_start && (x.text == "import" || x.text == "module" || x.text == "export"))
      add(x.begin, fmt::format("a line starting with '{}' is a C++20 module directive: not allowed", x.text));
  }

  /// Nothing of the variant may run on into the file after it: a `//`
  /// comment (or one continued by a line splice), an unclosed `/*` or
  /// string would swallow the code that follows the kernel.
  void check_end() {
    size_t covered = 0;
    for (const Lexed& x : tokens_) {
      if (x.begin >= source_.size()) break;
      covered = x.end;
      if (x.end > source_.size())
        return add(x.begin, fmt::format("its last {} runs on into the code after the kernel: end the variant with a "
                                        "complete line",
                                        x.kind == tok::comment ? "comment" : "token"));
    }
    // What no token covers at the end is an unclosed /* (the raw lexer drops it) or a line splice.
    if (source_.find_first_not_of(" \t\r\n\f\v", covered) != std::string_view::npos)
      add(covered, "it ends in an unclosed comment or a line splice: end the variant with a complete line");
  }

  static std::string shorten(std::string_view s) {
    std::string one_line(s.substr(0, s.find('\n')));
    return one_line.size() > 60 ? one_line.substr(0, 57) + "..." : one_line;
  }

  std::string_view source_;
  std::string text_;           // the source and the file's text after it
  std::vector<Lexed> tokens_;  // of text_, comments included
  std::vector<std::string> problems_;
};

}  // namespace

Expected<void> check_variant_text(std::string_view source, std::string_view following) {
  auto problems = TextCheck(source, following).run();
  if (problems.empty()) return {};
  return Error{fmt::format("{}", fmt::join(problems, "\n"))};
}

bool starts_with_loop_pragma(std::string_view text) {
  std::string copy(text);  // the tokens point into it
  auto t = lex(copy, true);
  if (t.empty()) return false;
  if (t[0].kind == tok::hash) return loop_pragma(directive_at(t, 0));
  return is_word(t[0], "_Pragma") && loop_pragma_operator(t, 0);
}

}  // namespace stark
