#include "harness/compile/compile_service.h"

#include <string>
#include <optional>
#include <mutex>
#include <cstdint>
#include <chrono>
#include <algorithm>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"
#include "core/process.h"
#include "core/text.h"
#include "harness/compile/shadow_tree.h"

namespace stark::harness {

namespace fs = std::filesystem;

namespace {

const char* extension(CompileMode mode) {
  return mode == CompileMode::Object ? ".o" : mode == CompileMode::Ptx ? ".ptx" : ".cubin";
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

std::string unique_name() {
  static std::atomic<uint64_t> n{0};
  return fmt::format("{}-{}", getpid(), n++);
}

fs::path nvcc_of(const CompileCommand& cc, const CompileServiceOptions& o) {
  for (const auto& a : cc.arguments) {
    std::string base = fs::path(a).filename().string();
    if (base == "ccache" || base == "sccache") continue;
    if (base == "nvcc" && fs::path(a).has_parent_path()) return a;
    break;
  }
  return o.nvcc;
}

}  // namespace

CompileService::CompileService(CompileServiceOptions options)
    : options_(std::move(options)),
      slots_(options_.jobs > 0 ? options_.jobs : std::max(1u, std::thread::hardware_concurrency())) {}

Expected<std::string> CompileService::patched_file(const Kernel& kernel, const fs::path& source_root,
                                                   const std::optional<std::string>& source,
                                                   const std::optional<std::string>& expected_hash) {
  fs::path path = source_root / kernel.file;
  auto text = read_file(path);
  if (!text) return Error{fmt::format("cannot read {}, the file of kernel {}", path.string(), kernel.id)};
  if (expected_hash && !expected_hash->empty() && content_hash(*text) != *expected_hash)
    return Error{fmt::format("{} changed since `stark scan` wrote the manifest: scan again", kernel.file)};
  if (!source) return *text;
  if (kernel.range.begin < 0 || kernel.range.end < kernel.range.begin ||
      static_cast<size_t>(kernel.range.end) > text->size())
    return Error{fmt::format("the manifest range of kernel {} lies outside {}: scan again", kernel.id, kernel.file)};
  std::string out = text->substr(0, static_cast<size_t>(kernel.range.begin));
  out += *source;
  out += text->substr(static_cast<size_t>(kernel.range.end));
  return out;
}

Expected<std::string> CompileService::nvcc_version(const std::string& nvcc) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = versions_.find(nvcc); it != versions_.end()) return it->second;
  }
  auto r = run_process({nvcc, "--version"});
  if (!r || !r->status.success())
    return Error{fmt::format("cannot run nvcc ('{}'): install the CUDA toolkit or put nvcc on PATH", nvcc)};
  std::string v = content_hash(r->output);
  std::lock_guard lock(mutex_);
  versions_[nvcc] = v;
  return v;
}

Expected<std::string> CompileService::fingerprint(const Kernel& kernel, const fs::path& source_root,
                                                  const std::string& sm) {
  const CompileCommand& cc = *kernel.compile;
  std::string memo = cc.file + "\n" + join(cc.arguments, "\n") + "\n" + sm;
  {
    std::lock_guard lock(mutex_);
    if (auto it = fingerprints_.find(memo); it != fingerprints_.end()) return it->second;
  }
  fs::path tmp = options_.cache_dir / "tmp";
  std::error_code ec;
  fs::create_directories(tmp, ec);
  fs::path deps_file = tmp / ("deps-" + unique_name() + ".d");
  NvccCommandSpec spec;
  spec.sm = sm;
  spec.mode = CompileMode::Dependencies;
  spec.output = deps_file;
  spec.source_root = source_root;
  spec.nvcc = options_.nvcc;
  auto argv = nvcc_command(cc, spec);
  if (!argv) return argv.error();
  ProcessOptions run_options;
  run_options.cwd = cc.directory;
  run_options.timeout = options_.timeout;
  auto r = run_process(*argv, run_options);
  if (!r) return r.error();
  auto text = read_file(deps_file);
  fs::remove(deps_file, ec);
  if (!r->status.success() || !text)
    return Error{fmt::format("the original translation unit of kernel {} does not preprocess ({}):\n{}", kernel.id,
                             r->status.describe(), r->output)};
  std::string all;
  for (const auto& dep : parse_make_deps(*text)) {
    auto h = file_hash(absolute_normal(fs::path(cc.directory) / dep));
    all += dep + "=" + (h ? *h : "missing") + "\n";
  }
  std::string fp = content_hash(all);
  std::lock_guard lock(mutex_);
  fingerprints_[memo] = fp;
  return fp;
}

CompileStats CompileService::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

Expected<CompileResult> CompileService::compile(const CompileRequest& request) {
  const Kernel& kernel = *request.kernel;
  if (!kernel.compile)
    return Error{
        fmt::format("kernel {} has no compile command in the manifest: stark scan found no translation "
                    "unit that compiles it",
                    kernel.id)};
  if (request.sm.empty()) return Error{"internal: no GPU architecture to compile for"};
  auto content = patched_file(kernel, request.source_root, request.source, request.expected_file_hash);
  if (!content) return content.error();
  fs::path nvcc = nvcc_of(*kernel.compile, options_);
  auto version = nvcc_version(nvcc.string());
  if (!version) return version.error();
  auto fp = fingerprint(kernel, request.source_root, request.sm);
  if (!fp) return fp.error();
  // Relocatable device code is linked with the target's other objects: what
  // they hold is part of what the cubin is.
  std::optional<std::vector<fs::path>> link_objects;
  if (request.mode == CompileMode::Cubin && is_relocatable(*kernel.compile))
    link_objects = device_link_objects(*kernel.compile);
  std::string linked;
  for (const auto& object : link_objects.value_or(std::vector<fs::path>{})) {
    auto h = file_hash(object);
    linked += object.string() + "=" + (h ? *h : "missing") + "\n";
  }
  std::string key =
      content_hash(fmt::format("stark-compile/1\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}", *version, request.sm,
                               static_cast<int>(request.mode), join(kernel.compile->arguments, "\n"),
                               kernel.compile->directory, kernel.file, *fp, *content, linked))
          .substr(6);

  std::promise<Expected<CompileResult>> promise;
  std::shared_future<Expected<CompileResult>> future;
  bool owner = false;
  {
    std::lock_guard lock(mutex_);
    if (auto it = in_flight_.find(key); it != in_flight_.end()) {
      future = it->second;
    } else {
      future = promise.get_future().share();
      in_flight_[key] = future;
      owner = true;
    }
  }
  if (!owner) return future.get();
  Expected<CompileResult> result = run(request, key, *content, link_objects);
  promise.set_value(result);
  std::lock_guard lock(mutex_);
  in_flight_.erase(key);
  return result;
}

Expected<bool> CompileService::device_link(const CompileCommand& command, const std::string& sm, const fs::path& cubin,
                                           const std::vector<fs::path>& objects, const fs::path& output,
                                           CompileResult& result) {
  auto argv = device_link_command(nvcc_of(command, options_).string(), sm, cubin, objects, output);
  ProcessOptions run_options;
  run_options.cwd = command.directory;
  run_options.timeout = options_.timeout;
  auto start = std::chrono::steady_clock::now();
  auto r = run_process(argv, run_options);
  result.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r) return r.error();
  if (r->status.timed_out())
    return Error{fmt::format("the device link did not finish within {} s", options_.timeout.count())};
  if (!r->status.success())
    result.log += fmt::format(
        "the device link of this relocatable unit (-rdc) with the {} other object{} of its "
        "target failed ({}); build the target first, so its objects exist:\n{}",
        objects.size(), objects.size() == 1 ? "" : "s", r->status.describe(), r->output);
  return r->status.success();
}

std::optional<CompileResult> CompileService::cached(const fs::path& dir, const std::string& key, CompileMode mode) {
  std::error_code ec;
  CompileResult result;
  result.key = key;
  result.cached = true;
  if (fs::path output = dir / (key + extension(mode)); fs::exists(output, ec)) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.cached;
    }
    result.ok = true;
    result.output = output;
    if (auto log = read_file(dir / (key + ".log"))) result.log = *log;
    return result;
  }
  if (fs::path fail = dir / (key + ".fail"); fs::exists(fail, ec)) {
    if (auto log = read_file(fail)) result.log = *log;
    return result;
  }
  return std::nullopt;
}

Expected<ProcessResult> CompileService::run_nvcc(const CompileRequest& request, const ShadowTree& shadow,
                                                 const fs::path& output, const fs::path& deps, CompileResult& result) {
  const Kernel& kernel = *request.kernel;
  NvccCommandSpec spec;
  spec.sm = request.sm;
  spec.mode = request.mode;
  spec.output = output;
  spec.source_root = request.source_root;
  spec.shadow_root = shadow.root();
  spec.nvcc = options_.nvcc;
  spec.dependency_file = deps;
  auto argv = nvcc_command(*kernel.compile, spec);
  if (!argv) return argv.error();
  ProcessOptions run_options;
  run_options.cwd = kernel.compile->directory;
  run_options.timeout = options_.timeout;
  auto start = std::chrono::steady_clock::now();
  auto r = run_process(*argv, run_options);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    std::lock_guard lock(mutex_);
    ++stats_.runs[static_cast<int>(request.mode)];
    stats_.seconds[static_cast<int>(request.mode)] += result.seconds;
  }
  if (!r) return r.error();
  result.log = replace_all(r->output, shadow.root().string(), absolute_normal(request.source_root).string());
  if (r->status.timed_out())
    return Error{fmt::format("nvcc did not finish within {} s for kernel {}", options_.timeout.count(), kernel.id)};
  if (r->status.kind == ExitStatus::Kind::Signaled)
    return Error{fmt::format("nvcc was {} while compiling kernel {}", r->status.describe(), kernel.id)};
  return r;
}

namespace {

/// The patched file must really be what nvcc read: an error when the
/// dependency file nvcc wrote names another path for it.
Expected<void> read_the_patched_file(const CompileRequest& request, const ShadowTree& shadow, const fs::path& deps) {
  const Kernel& kernel = *request.kernel;
  auto dep_text = read_file(deps);
  if (!dep_text) return {};
  for (const auto& d : parse_make_deps(*dep_text))
    if (absolute_normal(fs::path(kernel.compile->directory) / d) == absolute_normal(shadow.patched_file())) return {};
  return Error{
      fmt::format("the compile of kernel {} did not read the patched {}: the translation unit reaches "
                  "that file by a path outside the source root {}",
                  kernel.id, kernel.file, request.source_root.string())};
}

}  // namespace

Expected<CompileResult> CompileService::run(const CompileRequest& request, const std::string& key,
                                            const std::string& content,
                                            const std::optional<std::vector<fs::path>>& link_objects) {
  const Kernel& kernel = *request.kernel;
  fs::path dir = options_.cache_dir / key.substr(0, 2);
  if (auto hit = cached(dir, key, request.mode)) return *hit;

  slots_.acquire();
  struct Release {
    std::counting_semaphore<1024>& s;
    ~Release() { s.release(); }
  } release{slots_};

  auto shadow = ShadowTree::create(options_.cache_dir / "tmp", request.source_root, kernel.file, content);
  if (!shadow) return shadow.error();
  fs::path tmp_out = shadow->root() / ("out" + std::string(extension(request.mode)));
  fs::path deps = shadow->root() / "out.d";
  CompileResult result;
  result.key = key;
  auto r = run_nvcc(request, *shadow, tmp_out, deps, result);
  if (!r) return r.error();

  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::path fail = dir / (key + ".fail");
  if (!r->status.success()) {
    if (result.log.empty()) result.log = "nvcc failed with " + r->status.describe();
    (void)write_file_atomic(fail, result.log);
    return result;
  }
  if (auto read = read_the_patched_file(request, *shadow, deps); !read) return read.error();
  if (link_objects) {
    auto linked =
        device_link(*kernel.compile, request.sm, tmp_out, *link_objects, shadow->root() / "linked.cubin", result);
    if (!linked) return linked.error();
    if (!*linked) {
      (void)write_file_atomic(fail, result.log);
      return result;
    }
    tmp_out = shadow->root() / "linked.cubin";
  }
  fs::path output = dir / (key + extension(request.mode));
  fs::path staged = dir / (key + ".tmp." + unique_name());
  fs::copy_file(tmp_out, staged, fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::rename(staged, output, ec);
  if (ec) return Error{fmt::format("cannot store the compiled kernel in {}: {}", dir.string(), ec.message())};
  (void)write_file_atomic(dir / (key + ".log"), result.log);
  result.ok = true;
  result.output = output;
  return result;
}

}  // namespace stark::harness
