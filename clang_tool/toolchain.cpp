#include "clang_tool/toolchain.h"

#include <clang/Basic/Version.h>
#include <fmt/format.h>

#include <cstdlib>
#include <vector>

#include "core/paths.h"

namespace stark {

namespace fs = std::filesystem;

namespace {

bool is_resource_dir(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "include" / "cuda_wrappers" / "new", ec) &&
         fs::exists(dir / "include" / "__clang_cuda_runtime_wrapper.h", ec);
}

bool is_stub_dir(const fs::path& dir) {
  std::error_code ec;
  return fs::exists(dir / "texture_fetch_functions.h", ec) && fs::exists(dir / kNvccCompatHeader, ec);
}

/// The first candidate that passes the check; the error lists all tried.
Expected<fs::path> first_valid(const char* env, const std::vector<fs::path>& candidates, bool (*valid)(const fs::path&),
                               const char* what) {
  if (const char* v = std::getenv(env); v && *v) {
    if (valid(v)) return absolute_normal(v);
    return Error{fmt::format("{}='{}' is not a {}", env, v, what)};
  }
  std::vector<std::string> tried;
  for (const auto& c : candidates) {
    if (c.empty()) continue;
    if (valid(c)) return absolute_normal(c);
    tried.push_back(c.string());
  }
  return Error{fmt::format("no {} found (tried {}); set {}", what, fmt::join(tried, ", "), env)};
}

}  // namespace

Expected<ClangSetup> locate_clang_setup() {
  fs::path prefix = executable_path().parent_path().parent_path();
  auto resource =
      first_valid("STARK_CLANG_RESOURCE_DIR", {prefix / "lib" / "stark" / "clang", STARK_CLANG_RESOURCE_DIR},
                  is_resource_dir, "clang resource directory with CUDA wrapper headers");
  if (!resource) return resource.error();
  auto stubs = first_valid("STARK_STUB_DIR", {prefix / "share" / "stark" / "clang-stubs", STARK_SOURCE_STUB_DIR},
                           is_stub_dir, "STARK stub header directory");
  if (!stubs) return stubs.error();
  return ClangSetup{*resource, *stubs};
}

std::string clang_version() { return CLANG_VERSION_STRING; }

}  // namespace stark
