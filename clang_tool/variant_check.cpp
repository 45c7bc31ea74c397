#include "clang_tool/variant_check.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/Preprocessor.h>
#include <fmt/format.h>

#include <set>

#include "clang_tool/patched_unit.h"
#include "clang_tool/variant_decls.h"
#include "clang_tool/variant_text.h"
#include "core/launch_override_check.h"
#include "core/paths.h"

namespace stark {

namespace fs = std::filesystem;

namespace {

/// The file's text right after the kernel's range, to the end of that line:
/// what a comment left open at the variant's end would swallow.
std::string_view rest_of_line(const std::string& text, int64_t from) {
  std::string_view rest = std::string_view(text).substr(static_cast<size_t>(from));
  size_t newline = rest.find('\n');
  return newline == std::string_view::npos ? rest : rest.substr(0, newline + 1);
}

}  // namespace

ClangVariantValidator::ClangVariantValidator(ClangSetup setup, fs::path source_root)
    : setup_(std::move(setup)), root_(absolute_normal(source_root)) {}

Expected<void> ClangVariantValidator::validate(const Kernel& kernel, const Variant& variant) {
  if (!kernel.compile) return Error{fmt::format("kernel '{}' has no compile command in the manifest", kernel.id)};
  if (auto ok = check_launch_override(kernel, variant.launch); !ok) return ok;
  auto patch = patch_kernel_file(kernel, variant.source, root_);
  if (!patch) return patch.error();
  // The text rules come before any parse: a directive is refused before
  // anything reads the file it names.
  if (auto ok = check_variant_text(variant.source, rest_of_line(patch->text, patch->end)); !ok) return ok;

  // One host-side parse, like the scan's, is enough: with no directive and no
  // __CUDA_ARCH__ in the variant, nvcc's device pass reads the same variant
  // tokens and no other file. What project macros expand to differently on
  // the device can only be device code, which cannot reach the host.
  VariantScope scope;
  scope.patch = std::move(*patch);
  auto errors = parse_patched(kernel, scope.patch, setup_, [&](clang::CompilerInstance& ci) {
    ci.getPreprocessor().addPPCallbacks(make_variant_pragma_check(ci.getSourceManager(), scope));
    return make_variant_decl_check(scope, kernel);
  });

  // What the checks found comes first: it can be the reason the rest fails to parse.
  std::vector<std::string> lines = scope.problems;
  // The first error on the line that says so: a console that shows one line
  // shows the reason.
  for (size_t i = 0; i < errors.size() && i < 10; ++i)
    lines.push_back(i == 0 ? "the variant does not parse: " + scope.patch.describe(errors[i])
                           : scope.patch.describe(errors[i]));
  if (!lines.empty()) return Error{fmt::format("{}", fmt::join(lines, "\n"))};
  if (!scope.file_parsed)
    return Error{
        fmt::format("the kernel's compile command ({}) does not read {}: the sources moved since the scan; "
                    "scan again",
                    kernel.compile->file, scope.patch.file.string())};
  if (!scope.kernel_found) return Error{fmt::format("the variant does not define the kernel '{}'", kernel.name)};
  std::set<std::string> known;
  for (const auto& inst : kernel.instantiations) known.insert(inst.mangled);
  for (const auto& symbol : scope.kernel_symbols)
    if (!known.count(symbol))
      return Error{fmt::format(
          "the variant changes the kernel's signature: its symbol would be '{}', not one of the original's ({}); "
          "keep every parameter type as it is (adding __restrict__ is fine, adding const to a pointee is not)",
          symbol, fmt::join(known, ", "))};
  if (scope.kernel_symbols.empty() && !kernel.instantiations.empty())
    return Error{fmt::format("the variant of '{}' is never instantiated in {}", kernel.name,
                             fs::path(kernel.compile->file).filename().string())};
  return {};
}

}  // namespace stark
