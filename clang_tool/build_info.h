// Intake: which CUDA translation units a build compiles, and how.
// Reads the CMake File API (codemodel-v2, through STARK's own client query)
// and/or compile_commands.json. No clang headers here.
#ifndef STARK_CLANG_TOOL_BUILD_INFO_H
#define STARK_CLANG_TOOL_BUILD_INFO_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"

namespace stark {

/// The CUDA translation units of one build tree.
struct BuildInfo {
  std::filesystem::path build_dir;
  std::filesystem::path cmake_source_dir;   // empty unless the File API answered
  std::vector<CompileCommand> units;        // CUDA translation units only
  std::vector<std::string> targets;         // every target the File API listed
  std::string configuration;                // the configuration read ("" for single-config builds)
  std::vector<std::string> configurations;  // every configuration of the build
  bool from_file_api = false;
};

/// Loads the build's translation units, restricted to one CMake target when
/// target is not empty, with the flags of one configuration of a
/// multi-config build (config; empty = the first the build lists). Writes
/// STARK's File API query and re-runs CMake when a CMake build tree has no
/// reply for it yet.
Expected<BuildInfo> load_build_info(const std::filesystem::path& build_dir, const std::string& target,
                                    const std::string& config = "");

/// compile_commands.json entries (all languages), arguments split.
Expected<std::vector<CompileCommand>> read_compile_commands(const std::filesystem::path& file);

/// Writes build_dir/.cmake/api/v1/query/client-stark/{codemodel-v2,toolchains-v1}.
Expected<void> write_file_api_query(const std::filesystem::path& build_dir);

/// Reads the newest File API reply of STARK's client query; an Error when
/// there is none (the caller then re-runs CMake). When config names no
/// configuration of the build, no units and an empty `configuration`.
Expected<BuildInfo> read_file_api_reply(const std::filesystem::path& build_dir, const std::string& config = "");

/// True when the file is compiled as CUDA by this command.
bool is_cuda_unit(const CompileCommand& c);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_BUILD_INFO_H
