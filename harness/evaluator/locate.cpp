#include "harness/evaluator/locate.h"

#include <string>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "core/paths.h"

namespace stark::harness {

namespace fs = std::filesystem;

namespace {

Expected<fs::path> find(const char* env, const std::string& name, const char* what) {
  if (const char* e = std::getenv(env); e && *e) {
    if (fs::exists(e)) return fs::path(e);
    return Error{fmt::format("{} names {}, which does not exist", env, e)};
  }
  fs::path dir = executable_path().parent_path();
  std::vector<fs::path> candidates = {dir / name, dir / ".." / "libexec" / "stark" / name,
                                      dir / ".." / "lib" / "stark" / name, dir / ".." / "harness" / name,
                                      dir / "harness" / name};
  for (const auto& c : candidates)
    if (fs::exists(c)) return c.lexically_normal();
  return Error{fmt::format("cannot find {} ({}) next to {}: install STARK completely or set {}", what, name,
                           executable_path().string(), env)};
}

}  // namespace

Expected<fs::path> find_worker() { return find("STARK_WORKER", "stark-worker", "the GPU worker"); }
Expected<fs::path> find_capture_library() {
  return find("STARK_CAPTURE_LIBRARY", "libstark_capture.so", "the capture library");
}

}  // namespace stark::harness
