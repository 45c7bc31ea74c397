// What the stark command prints for people: errors, warnings, diagnostics.
// Color only on a terminal and never when NO_COLOR is set.
#ifndef STARK_CLI_CONSOLE_H
#define STARK_CLI_CONSOLE_H

#include <string_view>

#include "core/diagnostic.h"

namespace stark::cli {

/// "stark: error: <message>" on stderr.
void print_error(std::string_view message);
/// "stark: warning: <message>" on stderr.
void print_warning(std::string_view message);
/// "stark: <message>" on stderr (progress and notes).
void print_note(std::string_view message);
/// "file:line:col: error: message" on stderr.
void print_diagnostic(const Diagnostic& d);

/// True when stderr is a terminal and NO_COLOR is unset.
bool use_color();

}  // namespace stark::cli

#endif  // STARK_CLI_CONSOLE_H
