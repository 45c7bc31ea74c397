#include "rewriter/cmake_fragment.h"

#include <fmt/format.h>

namespace stark::rewriter {

std::string cmake_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"' || c == '$') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

namespace {

Expected<std::string> list(const std::vector<std::string>& items) {
  std::string joined;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].find(';') != std::string::npos)
      return Error{fmt::format("'{}' contains ';', which a CMake list cannot hold", items[i])};
    if (i) joined += ';';
    joined += items[i];
  }
  return cmake_quote(joined);
}

}  // namespace

Expected<std::string> cmake_fragment(const Fragment& f) {
  std::string out =
      "# Written by `stark apply --mode variants`; read by stark_optimize_target() (STARKVariants.cmake).\n"
      "# Data only: which sources the variant tree rewrites, and the content hash of each\n"
      "# original when it was measured. An original whose SHA-256 differs now is stale:\n"
      "# its group of kernels is dropped and the original is built, with a warning.\n";
  auto set = [&](const std::string& name, const std::string& value) {
    out += fmt::format("set({} {})\n", name, value);
  };
  set("STARK_VARIANTS_VERSION", std::to_string(kFragmentVersion));
  set("STARK_VARIANTS_RESULT", cmake_quote(f.result_file.string()));
  set("STARK_VARIANTS_RESULT_SHA256", cmake_quote(f.result_sha256));
  set("STARK_VARIANTS_SOURCE_ROOT", cmake_quote(f.source_root.string()));
  set("STARK_VARIANTS_TREE", cmake_quote(f.tree.string()));
  std::vector<std::string> dirs;
  for (const auto& d : f.include_dirs) dirs.push_back(d.string());
  auto dir_list = list(dirs);
  if (!dir_list) return dir_list.error();
  set("STARK_VARIANTS_INCLUDE_DIRS", *dir_list);
  auto targets = list(f.targets);
  if (!targets) return targets.error();
  set("STARK_VARIANTS_TARGETS", *targets);

  std::vector<std::string> group_ids;
  for (size_t g = 0; g < f.groups.size(); ++g) group_ids.push_back(std::to_string(g));
  set("STARK_VARIANTS_GROUPS", *list(group_ids));
  for (size_t g = 0; g < f.groups.size(); ++g) {
    auto kernels = list(f.groups[g]);
    if (!kernels) return kernels.error();
    set(fmt::format("STARK_VARIANTS_GROUP_{}_KERNELS", g), *kernels);
  }
  std::vector<std::string> file_ids;
  for (size_t i = 0; i < f.files.size(); ++i) file_ids.push_back(std::to_string(i));
  set("STARK_VARIANTS_FILES", *list(file_ids));
  for (size_t i = 0; i < f.files.size(); ++i) {
    const auto& file = f.files[i];
    if (file.path.find(';') != std::string::npos || file.rewritten.string().find(';') != std::string::npos)
      return Error{fmt::format("'{}' contains ';', which a CMake list cannot hold", file.path)};
    set(fmt::format("STARK_VARIANTS_FILE_{}_PATH", i), cmake_quote(file.path));
    set(fmt::format("STARK_VARIANTS_FILE_{}_GROUP", i), std::to_string(file.group));
    set(fmt::format("STARK_VARIANTS_FILE_{}_SHA256", i), cmake_quote(file.original_sha256));
    set(fmt::format("STARK_VARIANTS_FILE_{}_HASH", i), cmake_quote(file.original_hash));
    set(fmt::format("STARK_VARIANTS_FILE_{}_REWRITTEN", i), cmake_quote(file.rewritten.string()));
  }
  return out;
}

}  // namespace stark::rewriter
