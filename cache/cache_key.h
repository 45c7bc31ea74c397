// The key of the result cache: a hash of everything that can change
// what a search finds for a kernel. Two runs with equal keys would search the
// same kernel, compiled the same way, on the same GPU model and software,
// with the same team, budget, tolerances and inputs.
#ifndef STARK_CACHE_CACHE_KEY_H
#define STARK_CACHE_CACHE_KEY_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/gpu_info.h"
#include "core/manifest.h"
#include "core/result.h"

namespace stark {

/// What goes into a key. Paths are made relative to the source root and the
/// build directory, so CI runners that check out to different places share
/// entries.
struct CacheKeyInputs {
  std::string fingerprint;           // the kernel's meaning: manifest kernels[].fingerprint
  std::vector<std::string> compile;  // the defining unit's command ("dir=..." first), roots replaced
  std::string toolkit;               // identity of the compiler that builds candidates
  GpuInfo gpu;                       // name, sm, driver and CUDA version count; derived figures do not
  BackendInfo backend;               // who plays the roles, and which model
  std::string backend_detail;        // endpoint or command of the backend, when there is one
  std::string search;                // the team's roles and the search's rules (agents' search_identity)
  int budget = 0;
  uint64_t seed = 0;
  int parallel = 0;  // candidates in flight shape the tree
  std::optional<double> rtol, atol;
  std::vector<std::string> input_shapes;  // the captured inputs' shape keys, sorted
  std::vector<std::string> launch_sites;  // how the project launches it, as the roles are told (no line numbers)
  std::string stark_version;              // a newer STARK may find more
};

/// The inputs as canonical JSON (sorted keys): what is hashed, and what an
/// entry records so a person can see why two runs did not share it.
nlohmann::json key_json(const CacheKeyInputs& inputs);

/// "xxh64:..." of key_json(inputs).
std::string cache_key(const CacheKeyInputs& inputs);

/// The command line of a compile with the source root and build directory
/// written as ${SOURCE} and ${BUILD}; the working directory comes first.
std::vector<std::string> portable_command(const CompileCommand& command, const std::string& source_root,
                                          const std::string& build_dir);

/// What identifies the toolkit of a compile command: the content hash of its
/// compiler executable (argv[0], looked up on PATH when it has no slash);
/// "unknown:<argv0>" when it cannot be read.
std::string toolkit_identity(const CompileCommand& command);

/// A launch site for the key: kind, configuration and arguments as written,
/// and the calling function; no file position, so moving code does not count.
std::string launch_site_key(const Launch& launch);

}  // namespace stark

#endif  // STARK_CACHE_CACHE_KEY_H
