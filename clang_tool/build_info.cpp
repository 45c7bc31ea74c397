#include "clang_tool/build_info.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>

#include "clang_tool/nvcc_args.h"
#include "core/file_io.h"
#include "core/paths.h"
#include "core/process.h"
#include "core/text.h"

namespace stark {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* kClient = "client-stark";

fs::path api_dir(const fs::path& build_dir) { return build_dir / ".cmake" / "api" / "v1"; }

/// One value of CMakeCache.txt ("KEY:TYPE=value"), or empty.
std::string cache_value(const fs::path& build_dir, std::string_view key) {
  std::ifstream in(build_dir / "CMakeCache.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (!starts_with(line, key) || line.size() <= key.size() || line[key.size()] != ':') continue;
    auto eq = line.find('=');
    if (eq != std::string::npos) return line.substr(eq + 1);
  }
  return {};
}

Expected<json> read_reply_object(const fs::path& reply_dir, const json& ref) {
  if (!ref.is_object() || !ref.contains("jsonFile"))
    return Error{"the CMake File API reply has no codemodel (CMake too old? STARK needs CMake 3.14+)"};
  return read_json_file(reply_dir / ref["jsonFile"].get<std::string>());
}

/// The compile command CMake would run for one source of a compile group.
std::vector<std::string> command_from_group(const json& group, const std::string& compiler, const fs::path& file) {
  std::vector<std::string> args = {compiler.empty() ? std::string("nvcc") : compiler};
  for (const auto& frag : group.value("compileCommandFragments", json::array()))
    for (auto& word : shell_split(frag.value("fragment", ""))) args.push_back(std::move(word));
  for (const auto& d : group.value("defines", json::array())) args.push_back("-D" + d.value("define", ""));
  for (const auto& inc : group.value("includes", json::array())) {
    args.push_back(inc.value("isSystem", false) ? "-isystem" : "-I");
    args.push_back(inc.value("path", ""));
  }
  bool has_std = std::any_of(args.begin(), args.end(),
                             [](const std::string& a) { return starts_with(a, "-std") || starts_with(a, "--std"); });
  if (!has_std && group.contains("languageStandard"))
    args.push_back("-std=c++" + group["languageStandard"].value("standard", "17"));
  args.insert(args.end(), {"-x", "cu", "-c", file.string()});
  return args;
}

}  // namespace

bool is_cuda_unit(const CompileCommand& c) {
  fs::path f(c.file);
  if (f.extension() == ".cu") return true;
  for (size_t i = 0; i + 1 < c.arguments.size(); ++i)
    if (c.arguments[i] == "-x" && (c.arguments[i + 1] == "cu" || c.arguments[i + 1] == "cuda")) return true;
  return !c.arguments.empty() && fs::path(c.arguments[0]).filename() == "nvcc";
}

Expected<std::vector<CompileCommand>> read_compile_commands(const fs::path& file) {
  auto j = read_json_file(file);
  if (!j) return j.error();
  if (!j->is_array())
    return Error{fmt::format("'{}' is not a compile database (expected a JSON array)", file.string())};
  std::vector<CompileCommand> out;
  try {  // a database `stark apply` reads may come with a result: any shape at all
    for (const auto& e : *j) {
      if (!e.is_object() || !e.contains("file") || !e.contains("directory")) continue;
      CompileCommand c;
      c.directory = e["directory"].get<std::string>();
      fs::path f = e["file"].get<std::string>();
      if (f.is_relative()) f = fs::path(c.directory) / f;
      c.file = f.lexically_normal().string();
      if (e.contains("arguments")) c.arguments = e["arguments"].get<std::vector<std::string>>();
      else c.arguments = shell_split(e.value("command", ""));
      if (c.arguments.empty()) continue;
      c.archs = archs_of(c.arguments);
      out.push_back(std::move(c));
    }
  } catch (const nlohmann::json::exception& e) {
    return Error{fmt::format("'{}' is not a valid compile database: {}", file.string(), e.what())};
  }
  return out;
}

Expected<void> write_file_api_query(const fs::path& build_dir) {
  fs::path query = api_dir(build_dir) / "query" / kClient;
  for (const char* kind : {"codemodel-v2", "toolchains-v1"}) {
    if (fs::exists(query / kind)) continue;
    if (auto ok = write_file_atomic(query / kind, ""); !ok) return ok;
  }
  return {};
}

Expected<BuildInfo> read_file_api_reply(const fs::path& build_dir, const std::string& config) {
  fs::path reply_dir = api_dir(build_dir) / "reply";
  std::error_code ec;
  std::vector<fs::path> indexes;
  for (const auto& e : fs::directory_iterator(reply_dir, ec))
    if (starts_with(e.path().filename().string(), "index-") && e.path().extension() == ".json")
      indexes.push_back(e.path());
  if (indexes.empty()) return Error{"no CMake File API reply"};
  std::sort(indexes.begin(), indexes.end());  // names sort by time: the newest is last

  auto index = read_json_file(indexes.back());
  if (!index) return index.error();
  const json client = index->value("reply", json::object()).value(kClient, json::object());
  if (!client.contains("codemodel-v2")) return Error{"the CMake File API reply does not answer STARK's query"};

  auto codemodel = read_reply_object(reply_dir, client["codemodel-v2"]);
  if (!codemodel) return codemodel.error();
  std::string compiler;
  if (client.contains("toolchains-v1")) {
    if (auto tc = read_reply_object(reply_dir, client["toolchains-v1"]))
      for (const auto& t : tc->value("toolchains", json::array()))
        if (t.value("language", "") == "CUDA") compiler = t.value("compiler", json::object()).value("path", "");
  }
  if (compiler.empty()) compiler = cache_value(build_dir, "CMAKE_CUDA_COMPILER");

  BuildInfo info;
  info.build_dir = build_dir;
  info.from_file_api = true;
  info.cmake_source_dir = codemodel->value("paths", json::object()).value("source", "");
  auto configs = codemodel->value("configurations", json::array());
  if (configs.empty()) return Error{"the CMake File API codemodel lists no configuration"};
  const json* chosen = &configs[0];
  for (const auto& c : configs) {
    info.configurations.push_back(c.value("name", ""));
    if (!config.empty() && c.value("name", "") == config) chosen = &c;
  }
  if (!config.empty() && chosen->value("name", "") != config) return info;  // the caller names what exists
  info.configuration = chosen->value("name", "");
  for (const auto& tref : chosen->value("targets", json::array())) {
    auto target = read_reply_object(reply_dir, tref);
    if (!target) return target.error();
    std::string name = target->value("name", "");
    info.targets.push_back(name);
    auto groups = target->value("compileGroups", json::array());
    for (const auto& src : target->value("sources", json::array())) {
      if (!src.contains("compileGroupIndex")) continue;
      const json& group = groups.at(src["compileGroupIndex"].get<size_t>());
      if (group.value("language", "") != "CUDA") continue;
      fs::path file = src.value("path", "");
      if (file.is_relative()) file = info.cmake_source_dir / file;
      CompileCommand c;
      c.directory = build_dir.string();
      c.file = file.lexically_normal().string();
      c.arguments = command_from_group(group, compiler, c.file);
      c.target = name;
      c.archs = archs_of(c.arguments);
      info.units.push_back(std::move(c));
    }
  }
  return info;
}

namespace {

constexpr std::string_view kOriginalsSuffix = "_stark_originals";

/// In variants mode, CMake compiles target T's optimized sources from a tree
/// of copies and keeps the originals in T_stark_originals (STARKVariants.cmake).
/// The copies go; the originals are T's units again, so kernel ids and
/// flags are those of the files people edit.
void scan_originals_not_tree_copies(BuildInfo& info) {
  std::map<std::string, std::vector<std::string>> originals;  // T -> "/<path from the source dir>"
  for (auto& u : info.units)
    if (u.target.size() > kOriginalsSuffix.size() && u.target.ends_with(kOriginalsSuffix)) {
      u.target.resize(u.target.size() - kOriginalsSuffix.size());
      originals[u.target].push_back("/" + fs::path(u.file).lexically_relative(info.cmake_source_dir).string());
    }
  if (originals.empty()) return;
  std::erase_if(info.units, [&](const CompileCommand& u) {
    auto it = originals.find(u.target);
    if (it == originals.end()) return false;
    for (const auto& tail : it->second)
      if (u.file.size() > tail.size() && u.file.ends_with(tail) &&
          !fs::path(u.file).lexically_relative(info.cmake_source_dir).string().starts_with(tail.substr(1)))
        return true;  // the tree's copy, not the original itself
    return false;
  });
}

}  // namespace

namespace {

/// The CMake File API's reply for the build, asking CMake to write it (once,
/// re-running it in the tree) when the tree was configured before the query.
Expected<BuildInfo> file_api_info(const fs::path& build_dir, const std::string& config) {
  if (auto ok = write_file_api_query(build_dir); !ok) return ok.error();
  auto reply = read_file_api_reply(build_dir, config);
  if (!reply) {
    // A build tree configured before our query existed: re-run CMake once
    // so it answers (the same as `cmake <build_dir>` by hand).
    std::string cmake = cache_value(build_dir, "CMAKE_COMMAND");
    auto run =
        run_process({cmake.empty() ? std::string("cmake") : cmake, build_dir.string()}, ProcessOptions::in(build_dir));
    if (!run || !run->status.success())
      return Error{fmt::format("re-running CMake in '{}' to get its File API reply failed{}", build_dir.string(),
                               run ? ":\n" + run->output : ": " + run.error().message)};
    reply = read_file_api_reply(build_dir, config);
    if (!reply)
      return Error{fmt::format("CMake wrote no File API reply in '{}': {}", build_dir.string(), reply.error().message)};
  }
  if (!config.empty() && reply->configuration != config)
    return Error{fmt::format("the build in '{}' has no configuration '{}' (it has {})", build_dir.string(), config,
                             join(reply->configurations, ", "))};
  return reply;
}

/// Takes compile_commands.json's exact command lines: over the File API's
/// units of the same files, or as the units when there is no File API.
Expected<void> merge_compile_commands(BuildInfo& info, const fs::path& ccdb_path) {
  auto ccdb = read_compile_commands(ccdb_path);
  if (!ccdb) return ccdb.error();
  if (!info.from_file_api) {
    for (auto& c : *ccdb)
      if (is_cuda_unit(c)) info.units.push_back(std::move(c));
    return {};
  }
  std::map<std::string, const CompileCommand*> by_file;
  for (const auto& c : *ccdb) by_file.emplace(c.file, &c);
  for (auto& u : info.units)
    if (auto it = by_file.find(u.file); it != by_file.end()) {
      u.arguments = it->second->arguments;
      u.directory = it->second->directory;
      u.archs = it->second->archs;
    }
  return {};
}

/// One parse per distinct command: a file in two targets with the same flags is one unit.
void drop_repeated_units(BuildInfo& info) {
  std::vector<CompileCommand> unique;
  for (auto& u : info.units) {
    auto same = std::find_if(unique.begin(), unique.end(),
                             [&](const CompileCommand& v) { return v.file == u.file && v.arguments == u.arguments; });
    if (same == unique.end()) unique.push_back(std::move(u));
  }
  info.units = std::move(unique);
}

}  // namespace

Expected<BuildInfo> load_build_info(const fs::path& build_dir_in, const std::string& target,
                                    const std::string& config) {
  fs::path build_dir = absolute_normal(build_dir_in);
  std::error_code ec;
  if (!fs::is_directory(build_dir, ec))
    return Error{fmt::format("build directory '{}' does not exist", build_dir_in.string())};

  fs::path ccdb_path = build_dir / "compile_commands.json";
  bool has_ccdb = fs::exists(ccdb_path, ec);
  BuildInfo info;
  info.build_dir = build_dir;
  if (fs::exists(build_dir / "CMakeCache.txt", ec)) {
    auto reply = file_api_info(build_dir, config);
    if (!reply) return reply.error();
    info = std::move(*reply);
  } else if (!has_ccdb) {
    return Error{
        fmt::format("'{}' has no compile_commands.json and is not a CMake build tree; configure it with CMake "
                    "(-DCMAKE_EXPORT_COMPILE_COMMANDS=ON) or generate a compile database (e.g. with bear)",
                    build_dir.string())};
  }

  scan_originals_not_tree_copies(info);
  if (!target.empty()) {
    if (!info.from_file_api)
      return Error{
          fmt::format("--target needs a CMake build tree; '{}' only has compile_commands.json", build_dir.string())};
    if (std::find(info.targets.begin(), info.targets.end(), target) == info.targets.end())
      return Error{
          fmt::format("no target '{}' in '{}' (targets: {})", target, build_dir.string(), join(info.targets, ", "))};
    std::erase_if(info.units, [&](const CompileCommand& c) { return c.target != target; });
  }

  // compile_commands.json holds the exact command lines: prefer them, except
  // in a multi-config build, where it mixes the configurations' commands.
  if (!config.empty() && !info.from_file_api)
    return Error{
        fmt::format("--config needs a CMake build tree; '{}' only has compile_commands.json", build_dir.string())};
  if (has_ccdb && info.configurations.size() <= 1)
    if (auto ok = merge_compile_commands(info, ccdb_path); !ok) return ok.error();
  drop_repeated_units(info);
  return info;
}

}  // namespace stark
