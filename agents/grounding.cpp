#include "agents/grounding.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "agents/grounded.h"
#include "core/cpp_tokens.h"

namespace stark {

namespace {

/// Text with its tokens.
struct Tokens {
  std::string_view text;
  std::vector<CppToken> tokens;
  explicit Tokens(std::string_view t) : text(t), tokens(cpp_tokens(t)) {}
  std::string_view at(size_t i) const { return token_text(text, tokens[i]); }
  size_t size() const { return tokens.size(); }
};

/// A few tokens from index `from`, for messages: "`for ( int i`".
std::string excerpt(const Tokens& t, size_t from, size_t count = 6) {
  std::string out;
  for (size_t i = from; i < std::min(t.size(), from + count); ++i)
    out += (out.empty() ? "" : " ") + std::string(t.at(i));
  if (from + count < t.size()) out += " ...";
  return out.empty() ? "(nothing)" : "`" + out + "`";
}

int line_of(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

/// The grounded text's pieces: outside[0], span 1, outside[1], ..., outside[n].
struct Pieces {
  std::vector<std::string_view> outside;
  std::vector<Span> spans;
};

Pieces pieces_of(std::string_view grounded, std::vector<Span> spans) {
  Pieces p;
  size_t at = 0;
  for (const Span& s : spans) {
    p.outside.push_back(grounded.substr(at, s.marker_begin - at));
    at = s.marker_end;
  }
  p.outside.push_back(grounded.substr(at));
  p.spans = std::move(spans);
  return p;
}

/// Span i covers source tokens [first, last).
struct TokenRange {
  size_t first = 0, last = 0;
};

/// The spans' places when the plan is the source outside its markers; else
/// an Error naming the first difference.
Expected<std::vector<TokenRange>> places_in_order(const Tokens& source, const Pieces& plan) {
  std::vector<TokenRange> ranges;
  size_t k = 0;
  auto follow = [&](std::string_view piece) -> Expected<void> {
    Tokens t(piece);
    for (size_t i = 0; i < t.size(); ++i, ++k) {
      if (k >= source.size()) return Error{fmt::format("the plan adds {} after the end of the kernel", excerpt(t, i))};
      if (t.at(i) != source.at(k))
        return Error{fmt::format("at line {} of the kernel the plan has {} where the kernel has {}",
                                 line_of(source.text, source.tokens[k].begin), excerpt(t, i), excerpt(source, k))};
    }
    return {};
  };
  for (size_t i = 0; i < plan.spans.size(); ++i) {
    if (auto ok = follow(plan.outside[i]); !ok) return ok.error();
    TokenRange r{k, 0};
    if (auto ok = follow(plan.spans[i].code); !ok) return ok.error();
    r.last = k;
    ranges.push_back(r);
  }
  if (auto ok = follow(plan.outside.back()); !ok) return ok.error();
  if (k < source.size())
    return Error{fmt::format("the plan leaves out the kernel's end from line {}: {}",
                             line_of(source.text, source.tokens[k].begin), excerpt(source, k))};
  return ranges;
}

/// Each span's code found once in the source, in order.
Expected<std::vector<TokenRange>> places_by_search(const Tokens& source, const Pieces& plan) {
  std::vector<TokenRange> ranges;
  size_t from = 0;
  for (const Span& s : plan.spans) {
    Tokens code(s.code);
    if (code.size() == 0) return Error{fmt::format("span {} marks no code, so it cannot be found in the kernel", s.id)};
    auto at = find_tokens(source.text, source.tokens, code.text, code.tokens, from);
    if (!at) return Error{fmt::format("span {}'s code {} is not in the kernel", s.id, excerpt(code, 0))};
    if (find_tokens(source.text, source.tokens, code.text, code.tokens, *at + 1))
      return Error{fmt::format("span {}'s code {} is in the kernel more than once", s.id, excerpt(code, 0))};
    ranges.push_back({*at, *at + code.size()});
    from = *at + code.size();
  }
  return ranges;
}

/// The source with the spans' markers around the given token ranges.
std::string place_markers(const Tokens& source, const std::vector<Span>& spans, const std::vector<TokenRange>& ranges) {
  std::string out;
  size_t at = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    const TokenRange& r = ranges[i];
    // An empty span (code to insert) sits right after the token before it.
    size_t begin = r.first < r.last ? source.tokens[r.first].begin : r.first > 0 ? source.tokens[r.first - 1].end : 0;
    size_t end = r.first < r.last ? source.tokens[r.last - 1].end : begin;
    out += source.text.substr(at, begin - at);
    out += fmt::format("/*STARK_SPAN {}: {}*/", spans[i].id, spans[i].instruction);
    out += source.text.substr(begin, end - begin);
    out += fmt::format("/*STARK_END {}*/", spans[i].id);
    at = end;
  }
  out += source.text.substr(at);
  return out;
}

}  // namespace

Expected<AnchoredPlan> anchor_plan(std::string_view source, std::string_view plan) {
  auto spans = parse_spans(plan);
  if (!spans) return spans.error();
  if (spans->empty()) return Error{"the plan marks no span"};
  Pieces pieces = pieces_of(plan, std::move(*spans));
  Tokens src(source);
  auto in_order = places_in_order(src, pieces);
  if (in_order) return AnchoredPlan{place_markers(src, pieces.spans, *in_order), Grounding::Spans};
  auto searched = places_by_search(src, pieces);
  if (searched) return AnchoredPlan{place_markers(src, pieces.spans, *searched), Grounding::Reanchored};
  return Error{
      fmt::format("outside its markers the plan is not the current kernel ({}), and its spans cannot be placed "
                  "in the kernel instead ({})",
                  in_order.error().message, searched.error().message)};
}

std::optional<std::string> outside_span_edit(std::string_view grounded, std::string_view code) {
  auto spans = parse_spans(grounded);
  if (!spans) return fmt::format("the plan's markers cannot be read: {}", spans.error().message);
  Pieces pieces = pieces_of(grounded, std::move(*spans));
  Tokens out(code);
  size_t from = 0;
  for (size_t i = 0; i < pieces.outside.size(); ++i) {
    Tokens kept(pieces.outside[i]);
    if (kept.size() == 0) continue;
    auto at = find_tokens(out.text, out.tokens, kept.text, kept.tokens, from);
    if (!at) {
      std::string where = pieces.spans.empty() ? "in the kernel"
                          : i == 0             ? fmt::format("before span {}", pieces.spans[0].id)
                          : i == pieces.spans.size()
                              ? fmt::format("after span {}", pieces.spans.back().id)
                              : fmt::format("between spans {} and {}", pieces.spans[i - 1].id, pieces.spans[i].id);
      return fmt::format("the code changed {} {} (line {} of the plan)", where, excerpt(kept, 0),
                         line_of(grounded, pieces.outside[i].data() - grounded.data() + kept.tokens[0].begin));
    }
    from = *at + kept.size();
  }
  bool last_kept = Tokens(pieces.outside.back()).size() > 0;
  if (last_kept && from < out.size()) return fmt::format("the code adds {} after the kernel", excerpt(out, from));
  return std::nullopt;
}

}  // namespace stark
