#include "harness/capture/capture_runner.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <future>
#include <map>

#include "core/file_io.h"
#include "core/process.h"
#include "core/text.h"
#include "harness/capture/annotation_inputs.h"
#include "harness/capture/capture_plan.h"
#include "harness/common/cubin_info.h"
#include "harness/common/cuda_driver.h"
#include "harness/compile/compile_service.h"
#include "harness/evaluator/locate.h"

namespace stark::harness {

namespace fs = std::filesystem;

fs::path default_store(const std::string& build_dir) { return fs::path(build_dir) / ".stark" / "captures"; }
fs::path default_cache(const std::string& build_dir) { return fs::path(build_dir) / ".stark" / "cache"; }

Expected<uint64_t> parse_size(std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  std::string unit = end ? std::string(end) : "";
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();
  double scale = unit.empty()  ? 1
                 : unit == "K" ? 1024.0
                 : unit == "M" ? 1048576.0
                 : unit == "G" ? 1073741824.0
                 : unit == "T" ? 1099511627776.0
                               : -1;
  if (s.empty() || end == s.c_str() || scale < 0 || v < 0)
    return Error{fmt::format("'{}' is not a size (examples: 4G, 512M, 65536)", text)};
  return static_cast<uint64_t>(v * scale);
}

namespace {

// Module-scope variables of each kernel's translation unit, from its cubin.
std::map<std::string, std::vector<std::string>> module_variables(const Manifest& m, const CaptureOptions& o,
                                                                 const Printer& out) {
  CompileService compiler(CompileServiceOptions{o.cache_dir, 0, o.nvcc, kNvccTimeout});
  std::vector<std::pair<std::string, std::future<Expected<CompileResult>>>> jobs;
  for (const auto& k : m.kernels) {
    if (!k.compile || k.options.skip.value_or(false)) continue;
    CompileRequest r;
    r.kernel = &k;
    r.source_root = m.source_root;
    r.sm = k.compile->archs.empty() ? "90" : k.compile->archs.front();
    jobs.emplace_back(k.id, std::async(std::launch::async, [&compiler, r] { return compiler.compile(r); }));
  }
  std::map<std::string, std::vector<std::string>> globals;
  for (auto& [id, job] : jobs) {
    auto r = job.get();
    std::string why = !r ? r.error().message : !r->ok ? "it does not compile here" : "";
    if (why.empty()) {
      auto bytes = read_file(r->output);
      auto info = bytes ? read_cubin(*bytes) : Expected<CubinInfo>(Error{"unreadable cubin"});
      if (info) {
        for (const auto& g : info->globals) globals[id].push_back(g.name);
        continue;
      }
      why = info.error().message;
    }
    out.warning(
        fmt::format("kernel {}: its module variables (__device__, __constant__) are not recorded: {}", id, why));
  }
  return globals;
}

// What the capture library records: each kernel instantiation's
// parameters, the module variables to snapshot, launches refused outright.
CapturePlan make_plan(const Manifest& manifest, const CaptureOptions& o, const Printer& out,
                      const std::map<std::string, std::vector<std::string>>& globals) {
  CapturePlan plan;
  plan.store = fs::absolute(o.store).string();
  plan.limits = o.limits;
  plan.device_stage_bytes = o.device_stage;
  for (const auto& k : manifest.kernels) {
    if (k.options.skip.value_or(false)) continue;
    auto found = globals.find(k.id);
    for (const auto& inst : k.instantiations) {
      PlanInstantiation p;
      p.kernel = k.id;
      p.mangled = inst.mangled;
      p.params = param_specs(inst.params.empty() ? k.params : inst.params);
      std::string why_all;
      p.globals = recorded_globals(k.module_variables,
                                   found == globals.end() ? std::vector<std::string>{} : found->second, &why_all);
      if (!why_all.empty() && k.module_variables && &inst == &k.instantiations.front())
        out.note(fmt::format("kernel {}: recording every module variable of its unit: {}", k.id, why_all));
      p.refusal = static_refusal(p.params);
      plan.kernels.push_back(std::move(p));
    }
  }
  return plan;
}

// Where capturing cost time, from the processes the command started (for
// users and the overhead benchmark); processes that did not end well.
void report_processes(const CaptureIndex& index, size_t processes_before, double compile_seconds,
                      double command_seconds, const Printer& out) {
  std::map<std::string, int> bad_status;
  double held = 0, exit_wait = 0;
  int timed = 0;
  for (size_t i = processes_before; i < index.processes.size(); ++i) {
    const CaptureProcess& proc = index.processes[i];
    if (proc.status != "ok") ++bad_status[proc.status];
    if (proc.record_seconds) {
      held += *proc.record_seconds;
      exit_wait += proc.exit_wait_seconds.value_or(0);
      ++timed;
    }
  }
  for (const auto& [status, n] : bad_status)
    out.warning(fmt::format("{} process{}: {}", n, n == 1 ? "" : "es", status));
  out.note(
      fmt::format("timing: module variables found in {:.1f} s (nvcc on each kernel's unit); the command ran "
                  "{:.1f} s, capturing held {} process{} up {:.1f} s in all: {:.1f} s in launch callbacks (waits for "
                  "the launch's stream, copies into the device stage or to the host, waits for room in the "
                  "writers' queue), {:.1f} s waiting at exit for the writers (copies to the host, hashing, "
                  "compression, disk)",
                  compile_seconds, command_seconds, timed, timed == 1 ? "" : "es", held, held - exit_wait, exit_wait));
}

// What each kernel got: captures, refusals, or inputs from its annotation
// (added to the store). Counts the kernels with inputs; `failed` is set
// when an annotation's inputs could not be made.
int report_kernels(const Manifest& manifest, const CaptureIndex& index, CaptureStore& store, const Printer& out,
                   bool& failed) {
  int with_inputs = 0;
  for (const auto& k : manifest.kernels) {
    if (k.options.skip.value_or(false)) {
      out.note(fmt::format("{}: skipped (skip=true)", k.id));
      continue;
    }
    size_t launched = 0;
    uint64_t bytes = 0;
    for (const auto* c : index.for_kernel(k.id))
      if (c->origin == "launch") {
        ++launched;
        bytes += c->bytes;
      }
    for (const auto& r : index.refusals)
      if (r.kernel == k.id)
        out.warning(fmt::format("{}: {} launch{} not recorded: {}", k.id, r.count, r.count == 1 ? "" : "es", r.reason));
    if (launched) {
      ++with_inputs;
      out.note(fmt::format("{}: {} capture{} ({} of snapshots)", k.id, launched, launched == 1 ? "" : "s",
                           format_bytes(bytes)));
      continue;
    }
    if (!has_annotation_inputs(k)) {
      out.warning(
          fmt::format("{}: no launch captured and no inputs in its annotation; run tests that launch it, or "
                      "annotate it with {}",
                      k.id, annotation_hint(k)));
      continue;
    }
    auto c = capture_from_annotation(k, store);
    if (!c) {
      out.error(c.error().message);
      failed = true;
      continue;
    }
    (void)store.update([&](CaptureIndex& i) -> Expected<void> {
      if (!i.find(c->id)) i.captures.push_back(*c);
      return {};
    });
    ++with_inputs;
    out.note(fmt::format("{}: no test launched it; inputs from its annotation", k.id));
  }
  for (const auto& r : index.refusals)
    if (r.kernel == "*") out.warning(r.reason);
  return with_inputs;
}

// Why `stark capture` cannot start, or "".
std::string cannot_capture(const Manifest& manifest, const CaptureOptions& o) {
  if (o.command.empty())
    return "no command to run: give it after --, e.g. stark capture -p build -- ctest --test-dir build";
  if (auto cu = cuda_driver(); !cu) return fmt::format("no CUDA GPU to capture on: {}", cu.error().message);
  if (manifest.kernels.empty()) return "the manifest lists no [[stark::optimize]] kernel: nothing to capture";
  return "";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int run_capture(const Manifest& manifest, CaptureOptions o, const Printer& out) {
  if (o.store.empty()) o.store = default_store(manifest.build_dir);
  if (o.cache_dir.empty()) o.cache_dir = default_cache(manifest.build_dir);
  auto fail = [&](const std::string& message) {
    out.error(message);
    return 1;
  };
  if (std::string why = cannot_capture(manifest, o); !why.empty()) return fail(why);
  auto library = find_capture_library();
  if (!library) return fail(library.error().message);
  if (o.fresh) {
    std::error_code ec;
    fs::remove_all(o.store, ec);
  }
  auto store = CaptureStore::open(o.store, true);
  if (!store) return fail(store.error().message);

  auto compile_start = std::chrono::steady_clock::now();
  auto globals = module_variables(manifest, o, out);
  double compile_seconds = seconds_since(compile_start);
  fs::path plan_file = fs::absolute(o.store) / "plan.json";
  if (auto ok = write_json_file(plan_file, nlohmann::json(make_plan(manifest, o, out, globals))); !ok)
    return fail(ok.error().message);
  auto before = store->read_index();
  size_t processes_before = before ? before->processes.size() : 0;

  out.note(fmt::format("capturing {} kernel{} while running: {}", manifest.kernels.size(),
                       manifest.kernels.size() == 1 ? "" : "s", join(o.command, " ")));
  ProcessOptions run;
  run.output = ProcessOutput::Inherited;
  run.env = {{"CUDA_INJECTION64_PATH", library->string()},
             {kCapturePlanEnv, plan_file.string()},
             // Modules load at once, so the capture can read a kernel's module variables at its first launch.
             {"CUDA_MODULE_LOADING", "EAGER"}};
  auto command_start = std::chrono::steady_clock::now();
  auto result = run_process(o.command, run);
  double command_seconds = seconds_since(command_start);
  if (!result) return fail(result.error().message);

  auto index = store->read_index();
  if (!index) return fail(index.error().message);
  size_t loaded = index->processes.size() - std::min(index->processes.size(), processes_before);
  report_processes(*index, processes_before, compile_seconds, command_seconds, out);
  bool failed = false;
  int with_inputs = report_kernels(manifest, *index, *store, out, failed);
  if (!result->status.success())
    return fail(fmt::format("the command failed ({}); what was captured is kept in {}", result->status.describe(),
                            o.store.string()));
  if (loaded == 0)
    return fail(
        "no process of the command loaded the capture library: does the command run CUDA code on this "
        "machine's GPU?");
  if (with_inputs == 0) return fail("no kernel of the manifest got inputs");
  out.note(fmt::format("captures in {}", o.store.string()));
  return failed ? 1 : 0;
}

}  // namespace stark::harness
