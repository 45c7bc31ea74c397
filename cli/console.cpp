#include "cli/console.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace stark::cli {

namespace {

const char* color_of(Severity s) {
  switch (s) {
    case Severity::Error: return "\033[1;31m";
    case Severity::Warning: return "\033[1;35m";
    case Severity::Note: return "\033[1;36m";
  }
  return "";
}

void print_tagged(Severity s, std::string_view message) {
  if (use_color()) fmt::print(stderr, "\033[1mstark:\033[0m {}{}:\033[0m {}\n", color_of(s), to_string(s), message);
  else fmt::print(stderr, "stark: {}: {}\n", to_string(s), message);
}

}  // namespace

bool use_color() {
  static const bool color = [] {
    const char* no = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    return (no == nullptr || *no == '\0') && isatty(STDERR_FILENO) && !(term && std::string_view(term) == "dumb");
  }();
  return color;
}

void print_error(std::string_view message) { print_tagged(Severity::Error, message); }
void print_warning(std::string_view message) { print_tagged(Severity::Warning, message); }

void print_note(std::string_view message) { fmt::print(stderr, "stark: {}\n", message); }

void print_diagnostic(const Diagnostic& d) {
  if (d.file.empty()) {  // about the build, not a place in a file: stark's own line
    print_tagged(d.level, d.message);
    return;
  }
  if (!use_color()) {
    fmt::print(stderr, "{}\n", d.format());
    return;
  }
  Diagnostic rest = d;
  std::string text = d.format();
  std::string tag = std::string(to_string(d.level)) + ":";
  auto at = text.find(tag);
  if (at == std::string::npos) {
    fmt::print(stderr, "{}\n", text);
    return;
  }
  fmt::print(stderr, "\033[1m{}\033[0m{}{}\033[0m\033[1m{}\033[0m\n", text.substr(0, at), color_of(d.level), tag,
             text.substr(at + tag.size()));
}

}  // namespace stark::cli
