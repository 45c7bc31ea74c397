#include "report/html_code.h"
#include "core/text.h"

#include <cctype>
#include <set>

namespace stark::report {

namespace {

const std::set<std::string_view>& keywords() {
  static const std::set<std::string_view> k = {"__global__",
                                               "__device__",
                                               "__host__",
                                               "__shared__",
                                               "__constant__",
                                               "__restrict__",
                                               "__forceinline__",
                                               "__launch_bounds__",
                                               "__syncthreads",
                                               "__syncwarp",
                                               "if",
                                               "else",
                                               "for",
                                               "while",
                                               "do",
                                               "return",
                                               "break",
                                               "continue",
                                               "switch",
                                               "case",
                                               "default",
                                               "template",
                                               "typename",
                                               "static",
                                               "const",
                                               "constexpr",
                                               "inline",
                                               "namespace",
                                               "using",
                                               "struct",
                                               "class",
                                               "extern",
                                               "sizeof",
                                               "auto",
                                               "volatile",
                                               "unsigned",
                                               "signed",
                                               "#pragma",
                                               "true",
                                               "false",
                                               "nullptr"};
  return k;
}

const std::set<std::string_view>& types() {
  static const std::set<std::string_view> t = {"void",          "int",      "float",   "double",   "char",    "bool",
                                               "long",          "short",    "size_t",  "float2",   "float4",  "int2",
                                               "int4",          "uint",     "dim3",    "half",     "__half",  "__half2",
                                               "__nv_bfloat16", "uint32_t", "int64_t", "uint64_t", "int32_t", "T"};
  return t;
}

std::string span(const char* cls, std::string_view text) {
  return std::string("<span class=\"tok-") + cls + "\">" + html_escape(text) + "</span>";
}

}  // namespace

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string highlight_cuda_line(std::string_view line, bool& in_comment) {
  std::string out;
  size_t i = 0;
  if (in_comment) {
    size_t end = line.find("*/");
    if (end == std::string_view::npos) return span("comment", line);
    in_comment = false;
    out += span("comment", line.substr(0, end + 2));
    i = end + 2;
  }
  size_t first = line.find_first_not_of(" \t");
  if (first != std::string_view::npos && line[first] == '#' && line.substr(first, 7) != "#pragma")
    return out + span("pre", line.substr(i));
  while (i < line.size()) {
    char c = line[i];
    if (line.substr(i, 2) == "//") {
      out += span("comment", line.substr(i));
      break;
    }
    if (line.substr(i, 2) == "/*") {
      size_t end = line.find("*/", i + 2);
      if (end == std::string_view::npos) {
        out += span("comment", line.substr(i));
        in_comment = true;
        break;
      }
      out += span("comment", line.substr(i, end + 2 - i));
      i = end + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < line.size() && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, line.size());
      out += span("str", line.substr(i, j - i));
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[i + 1])))) {
      size_t j = i;
      while (j < line.size() && (is_identifier_char(line[j]) || line[j] == '.')) ++j;
      out += span("num", line.substr(i, j - i));
      i = j;
      continue;
    }
    if (is_identifier_char(c) ||
        (c == '#' && i + 1 < line.size() && std::isalpha(static_cast<unsigned char>(line[i + 1])))) {
      size_t j = i + 1;
      while (j < line.size() && is_identifier_char(line[j])) ++j;
      std::string_view word = line.substr(i, j - i);
      if (keywords().count(word)) out += span("kw", word);
      else if (types().count(word)) out += span("type", word);
      else if (j < line.size() && line[j] == '(') out += span("fn", word);
      else out += html_escape(word);
      i = j;
      continue;
    }
    out += html_escape(line.substr(i, 1));
    ++i;
  }
  return out;
}

std::string diff_html(std::string_view diff) {
  std::string out = "<pre class=\"diff\">";
  bool in_comment = false;
  size_t at = 0;
  while (at < diff.size()) {
    size_t nl = diff.find('\n', at);
    std::string_view line = diff.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    at = nl == std::string_view::npos ? diff.size() : nl + 1;
    const char* cls = "ctx";
    if (line.starts_with("+++") || line.starts_with("---")) cls = "file";
    else if (line.starts_with("@@")) cls = "hunk";
    else if (line.starts_with("+")) cls = "add";
    else if (line.starts_with("-")) cls = "del";
    else if (line.starts_with("\\")) cls = "meta";
    out += std::string("<span class=\"dl ") + cls + "\">";
    if (std::string_view(cls) == "add" || std::string_view(cls) == "del" || std::string_view(cls) == "ctx") {
      out += "<span class=\"mark\">" + html_escape(line.substr(0, 1)) + "</span>";
      out += highlight_cuda_line(line.empty() ? line : line.substr(1), in_comment);
    } else {
      out += html_escape(line);
    }
    out += "</span>";  // each line is a block: no newline between them
  }
  return out + "</pre>";
}

}  // namespace stark::report
