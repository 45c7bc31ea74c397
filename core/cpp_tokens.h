// C++ source text as tokens: what two spellings of the same code have in
// common once whitespace and comments are set aside. The search compares a
// plan or a model's code with the kernel it came from this way, so a
// reindented line is the same code and a changed operator is not.
#ifndef STARK_CORE_CPP_TOKENS_H
#define STARK_CORE_CPP_TOKENS_H

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace stark {

/// One token of C++ text: an identifier, a number (digit separators and
/// exponents included), a string or character literal (raw strings and
/// encoding prefixes included), or a punctuator (longest match, `<<<` and
/// `>>>` included). Byte offsets into the text it came from.
struct CppToken {
  size_t begin = 0;
  size_t end = 0;
};

/// The tokens of `text`, comments and whitespace left out. An unterminated
/// comment or literal ends at the end of the text.
std::vector<CppToken> cpp_tokens(std::string_view text);

/// A token's text.
inline std::string_view token_text(std::string_view text, const CppToken& t) {
  return text.substr(t.begin, t.end - t.begin);
}

/// How many identifier tokens (keywords included) of `text` are `name`:
/// comments and literals that spell it do not count.
size_t count_identifier(std::string_view text, std::string_view name);

/// Whether `text` has the identifier (or keyword) `name` as a token.
inline bool has_identifier(std::string_view text, std::string_view name) { return count_identifier(text, name) > 0; }

/// Where `needle` (tokens of needle_text) occurs in `haystack` (tokens of
/// text) at or after token index `from`: the index of its first token.
std::optional<size_t> find_tokens(std::string_view text, const std::vector<CppToken>& haystack,
                                  std::string_view needle_text, const std::vector<CppToken>& needle, size_t from);

}  // namespace stark

#endif  // STARK_CORE_CPP_TOKENS_H
