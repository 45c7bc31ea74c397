// The compile service: turns a kernel (original or a candidate's source) into
// a cubin for one GPU architecture, on the CPU cores in parallel, cached by
// content hash. It uses the kernel's own nvcc command from the manifest
// (flags, defines, includes) with the changes nvcc_command.h describes, and
// compiles in a shadow tree holding the patched file (shadow_tree.h).
#ifndef STARK_HARNESS_COMPILE_COMPILE_SERVICE_H
#define STARK_HARNESS_COMPILE_COMPILE_SERVICE_H

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/nvcc_flags.h"
#include "core/process.h"
#include "harness/compile/nvcc_command.h"
#include "harness/compile/shadow_tree.h"

namespace stark::harness {

struct CompileServiceOptions {
  std::filesystem::path cache_dir;              // cubins, objects and logs, by key
  int jobs = 0;                                 // parallel nvcc processes; 0 = one per core
  std::string nvcc = "nvcc";                    // when the kernel's command names nvcc without a path
  std::chrono::seconds timeout = kNvccTimeout;  // per nvcc run
};

struct CompileRequest {
  const Kernel* kernel = nullptr;
  std::filesystem::path source_root;
  std::optional<std::string> source;  // replaces the kernel's range; nullopt = the original
  std::string sm;                     // "90"
  CompileMode mode = CompileMode::Cubin;
  std::optional<std::string> expected_file_hash;  // manifest "files" hash of the kernel's file
};

/// A finished compile. ok=false is the candidate's fault (its log says why).
struct CompileResult {
  bool ok = false;
  std::string log;               // nvcc's output, with shadow paths turned back into real ones
  std::filesystem::path output;  // the cubin or object (in the cache)
  std::string key;               // content hash of everything that went in
  bool cached = false;
  double seconds = 0;  // nvcc wall time (0 when cached)
};

/// What a service has compiled so far: nvcc runs and their wall time per
/// mode, and requests answered from the cache. For benchmarks and reports.
struct CompileStats {
  int runs[4] = {0, 0, 0, 0};        // indexed by CompileMode
  double seconds[4] = {0, 0, 0, 0};  // summed nvcc wall time
  int cached = 0;
};

class CompileService {
 public:
  explicit CompileService(CompileServiceOptions options);

  /// Thread-safe; identical requests in flight compile once. An Error means
  /// the request cannot be compiled at all (nvcc missing, -ewp, the kernel's
  /// file changed since the scan...), never that the candidate is wrong.
  Expected<CompileResult> compile(const CompileRequest& request);

  /// The kernel's file with its range replaced by `source`.
  static Expected<std::string> patched_file(const Kernel& kernel, const std::filesystem::path& source_root,
                                            const std::optional<std::string>& source,
                                            const std::optional<std::string>& expected_hash);

  const CompileServiceOptions& options() const { return options_; }

  CompileStats stats() const;

 private:
  Expected<std::string> fingerprint(const Kernel& kernel, const std::filesystem::path& source_root,
                                    const std::string& sm);
  Expected<std::string> nvcc_version(const std::string& nvcc);
  /// link_objects: set for relocatable code, which is then device-linked
  /// with them (the objects the key was made of).
  Expected<CompileResult> run(const CompileRequest& request, const std::string& key, const std::string& content,
                              const std::optional<std::vector<std::filesystem::path>>& link_objects);
  /// The stored result of an earlier compile with this key (a success or a
  /// failure), or nothing.
  std::optional<CompileResult> cached(const std::filesystem::path& dir, const std::string& key, CompileMode mode);
  /// nvcc on the shadow tree: its exit (a compile error is no Error), the
  /// log with the shadow's paths put back; an Error when it hung or died.
  Expected<ProcessResult> run_nvcc(const CompileRequest& request, const ShadowTree& shadow,
                                   const std::filesystem::path& output, const std::filesystem::path& deps,
                                   CompileResult& result);
  /// Links a relocatable cubin with the target's other objects into one a
  /// worker can load; false (with nvlink's words in result.log) when the
  /// link fails.
  Expected<bool> device_link(const CompileCommand& command, const std::string& sm, const std::filesystem::path& cubin,
                             const std::vector<std::filesystem::path>& objects, const std::filesystem::path& output,
                             CompileResult& result);

  CompileServiceOptions options_;
  std::counting_semaphore<1024> slots_;
  mutable std::mutex mutex_;
  CompileStats stats_;
  std::map<std::string, std::shared_future<Expected<CompileResult>>> in_flight_;
  std::map<std::string, std::string> fingerprints_;  // kernel file + args + sm -> hash of its dependencies
  std::map<std::string, std::string> versions_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMPILE_COMPILE_SERVICE_H
