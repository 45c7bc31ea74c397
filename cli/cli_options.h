// What every subcommand's options share: paths made absolute once, numbers
// checked with a short message, and the nearest name for a typo.
#ifndef STARK_CLI_CLI_OPTIONS_H
#define STARK_CLI_CLI_OPTIONS_H

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace stark::cli {

/// Turns a path option into an absolute, normal path against the directory
/// stark started in, so that nothing later depends on the working directory.
CLI::Validator absolute_path();

/// A whole number from lo to hi; the error is one short line.
CLI::Validator whole_number(long long lo, long long hi);

/// The name among `names` nearest to `word` (at most two edits away, or
/// `word` a prefix of it), else "".
std::string nearest_name(std::string_view word, const std::vector<std::string>& names);

/// One line naming what the user typed wrong, with a did-you-mean, when the
/// command line holds an unknown subcommand or option; "" otherwise. Reads
/// what CLI11 left unparsed after a failed parse.
std::string unknown_argument_message(const CLI::App& app, int argc, const char* const* argv);

}  // namespace stark::cli

#endif  // STARK_CLI_CLI_OPTIONS_H
