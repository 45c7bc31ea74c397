#include "agents/builtin/rewrite.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace stark::builtin {

std::string indentation_at(std::string_view source, int64_t offset) {
  size_t line = source.rfind('\n', offset > 0 ? static_cast<size_t>(offset - 1) : 0);
  line = line == std::string_view::npos ? 0 : line + 1;
  size_t end = line;
  while (end < source.size() && (source[end] == ' ' || source[end] == '\t')) ++end;
  return std::string(source.substr(line, end - line));
}

int64_t statement_end(std::string_view source, int64_t end) {
  size_t p = static_cast<size_t>(end);
  if (p > 0 && (source[p - 1] == ';' || source[p - 1] == '}')) return end;
  while (p < source.size() && std::isspace(static_cast<unsigned char>(source[p]))) ++p;
  if (p < source.size() && source[p] == ';') return static_cast<int64_t>(p + 1);
  return end;
}

std::string helper_name(std::string_view kernel, std::string_view what) {
  std::string k;
  for (char c : kernel) k += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return fmt::format("stark_{}_{}", k, what);
}

std::string element_type(const KernelAnalysis& a, std::string_view name) {
  const Param* p = a.param(name);
  if (!p || p->kind != ParamKind::Pointer) return "float";
  return p->pointee;
}

std::string indent_more(std::string_view text, std::string_view extra) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out += extra;
  }
  return out;
}

std::optional<int> known_scalar_size(std::string_view t) {
  static const std::vector<std::string_view> kFour = {"float",    "int",      "unsigned int", "int32_t",
                                                      "uint32_t", "unsigned", "signed"};
  if (std::find(kFour.begin(), kFour.end(), t) != kFour.end()) return 4;
  int bytes = scalar_size(t);
  return bytes == 4 ? std::nullopt : std::optional(bytes);
}

int scalar_size(std::string_view t) {
  if (t == "char" || t == "signed char" || t == "unsigned char" || t == "bool") return 1;
  if (t == "short" || t == "unsigned short" || t == "__half" || t == "half" || t == "__nv_bfloat16") return 2;
  if (t == "double" || t == "long" || t == "unsigned long" || t == "long long" || t == "unsigned long long" ||
      t == "size_t" || t == "int64_t" || t == "uint64_t")
    return 8;
  return 4;
}

TextEdit before_kernel(const KernelAnalysis& a, std::string text) {
  return {a.declaration.begin, a.declaration.begin, std::move(text) + "\n"};
}

}  // namespace stark::builtin
