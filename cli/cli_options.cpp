#include "cli/cli_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace stark::cli {

CLI::Validator absolute_path() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value.empty()) return {};
        std::error_code ec;
        auto abs = std::filesystem::absolute(value, ec);
        if (ec) return fmt::format("cannot make '{}' absolute: {}", value, ec.message());
        value = abs.lexically_normal().string();
        if (value.size() > 1 && value.back() == '/') value.pop_back();
        return {};
      },
      "", "PATH");
}

CLI::Validator whole_number(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& value) -> std::string {
        long long n = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec != std::errc() || end != value.data() + value.size() || n < lo || n > hi)
          return fmt::format("'{}' is not a whole number from {} to {}", value, lo, hi);
        return {};
      },
      "", "WHOLE_NUMBER");
}

namespace {

/// Levenshtein distance; names are short.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::string with_suggestion(std::string message, const std::string& nearest) {
  if (!nearest.empty()) message += fmt::format("; did you mean '{}'?", nearest);
  return message;
}

}  // namespace

std::string nearest_name(std::string_view word, const std::vector<std::string>& names) {
  std::string best;
  size_t best_distance = 3;
  for (const auto& name : names) {
    size_t d = edit_distance(word, name);
    if (word.size() >= 3 && name.size() > word.size() && name.compare(0, word.size(), word) == 0) d = 1;
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  return best;
}

std::string unknown_argument_message(const CLI::App& app, int argc, const char* const* argv) {
  // Walk down the subcommands the words name; a word where a subcommand is
  // required and none matches is the unknown command.
  const CLI::App* level = &app;
  std::string path = "stark";
  auto all = [](const CLI::App*) { return true; };
  std::vector<std::string> names = option_names(*level);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() >= 2 && arg[0] == '-') {
      std::string name = arg.substr(0, arg.find('='));
      if (name.size() > 2 && name[1] != '-') name = name.substr(0, 2);  // -j4
      if (std::find(names.begin(), names.end(), name) == names.end())
        return with_suggestion(fmt::format("unknown option '{}' for '{}'", name, path), nearest_name(name, names));
      // The option's value may itself start with '-' (--srun-arg --exclusive).
      const CLI::Option* o = level->get_option_no_throw(name);
      if (o && o->get_type_size() != 0 && name.size() == arg.size()) ++i;
      continue;
    }
    auto subs = level->get_subcommands(all);
    if (subs.empty()) continue;  // a positional value
    const CLI::App* next = nullptr;
    std::vector<std::string> commands;
    for (const CLI::App* s : subs) {
      commands.push_back(s->get_name());
      if (s->check_name(arg)) next = s;
    }
    if (!next)
      return with_suggestion(fmt::format("unknown command '{}' for '{}'", arg, path), nearest_name(arg, commands)) +
             fmt::format(" (commands: {})", fmt::join(commands, ", "));
    level = next;
    path += " " + next->get_name();
    names = option_names(*level);
  }
  return {};
}

}  // namespace stark::cli
