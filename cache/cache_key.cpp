#include "cache/cache_key.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "core/hash.h"
#include "core/json_optional.h"
#include "core/text.h"

namespace stark {

namespace fs = std::filesystem;

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

fs::path find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  for (std::string_view dir : split(path, ':')) {
    fs::path candidate = fs::path(std::string(dir)) / name;
    std::error_code ec;
    if (!dir.empty() && fs::is_regular_file(candidate, ec)) return candidate;
  }
  return {};
}

}  // namespace

nlohmann::json key_json(const CacheKeyInputs& in) {
  // nlohmann::json objects keep their keys sorted: the dump is canonical.
  return {{"schema", "stark.cache-key/1"},
          {"fingerprint", in.fingerprint},
          {"compile", in.compile},
          {"toolkit", in.toolkit},
          {"gpu", {{"name", in.gpu.name}, {"sm", in.gpu.sm}, {"driver", in.gpu.driver}, {"cuda", in.gpu.cuda}}},
          {"backend", {{"name", in.backend.name}, {"model", in.backend.model}, {"detail", in.backend_detail}}},
          {"budget", in.budget},
          {"seed", in.seed},
          {"parallel", in.parallel},
          {"search", in.search},
          {"rtol", or_null(in.rtol)},
          {"atol", or_null(in.atol)},
          {"input_shapes", in.input_shapes},
          {"launch_sites", in.launch_sites},
          {"stark_version", in.stark_version}};
}

std::string cache_key(const CacheKeyInputs& inputs) { return content_hash(key_json(inputs).dump()); }

std::vector<std::string> portable_command(const CompileCommand& command, const std::string& source_root,
                                          const std::string& build_dir) {
  // The build directory usually lies inside the source root: replace it first.
  auto portable = [&](const std::string& s) {
    return replace_all(replace_all(s, build_dir, "${BUILD}"), source_root, "${SOURCE}");
  };
  std::vector<std::string> out{"dir=" + portable(command.directory), "file=" + portable(command.file)};
  for (const auto& a : command.arguments) out.push_back(portable(a));
  return out;
}

std::string toolkit_identity(const CompileCommand& command) {
  if (command.arguments.empty()) return "unknown:";
  const std::string& argv0 = command.arguments[0];
  fs::path exe = argv0.find('/') == std::string::npos ? find_on_path(argv0) : fs::path(command.directory) / argv0;
  // One hash per executable and process: every kernel of a build shares it.
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  std::lock_guard lock(mutex);
  auto [it, fresh] = known.try_emplace(exe.string());
  if (fresh) {
    auto h = exe.empty() ? Expected<std::string>(Error{"not found"}) : file_hash(exe);
    it->second = h ? *h : "unknown:" + argv0;
  }
  return it->second;
}

std::string launch_site_key(const Launch& l) {
  return fmt::format("{} {} <<<{}, {}, {}, {}>>>({}) in {}", l.kind == LaunchKind::Api ? "api" : "chevron",
                     l.instantiation, l.grid.value_or(""), l.block.value_or(""), l.shmem.value_or(""),
                     l.stream.value_or(""), fmt::join(l.args, ", "), l.caller);
}

}  // namespace stark
