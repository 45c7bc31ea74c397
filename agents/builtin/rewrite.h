// Text surgery on a kernel's source by the byte ranges the analysis found:
// what every strategy uses to change exactly the code it means to change.
#ifndef STARK_AGENTS_BUILTIN_REWRITE_H
#define STARK_AGENTS_BUILTIN_REWRITE_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "clang_tool/kernel_analysis.h"
#include "core/expected.h"
#include "core/text_edit.h"

namespace stark::builtin {

/// The whitespace that starts the line holding `offset`.
std::string indentation_at(std::string_view source, int64_t offset);

/// Offset just past the statement whose expression ends at `end` (past its
/// ';' when the snippet stops before it).
int64_t statement_end(std::string_view source, int64_t end);

/// A C identifier made from the kernel's name, for helper names that cannot
/// collide between two kernels of one file: "stark_<kernel>_<what>".
std::string helper_name(std::string_view kernel, std::string_view what);

/// The pointee type of a pointer parameter, without const ("float").
std::string element_type(const KernelAnalysis& a, std::string_view pointer_param);

/// Adds `extra` after every newline of text (its first line is placed by the caller).
std::string indent_more(std::string_view text, std::string_view extra);

/// Bytes of a scalar type by name (int, float, unsigned long long...); 4 when unknown.
int scalar_size(std::string_view type);

/// Bytes of an arithmetic type as clang prints it ("float", "unsigned int",
/// "size_t", "__half"); nullopt for anything else (a template parameter, a struct).
std::optional<int> known_scalar_size(std::string_view type);

/// Inserts text (with a trailing newline) before the kernel's declaration:
/// where static __device__ helpers go.
TextEdit before_kernel(const KernelAnalysis& a, std::string text);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_REWRITE_H
