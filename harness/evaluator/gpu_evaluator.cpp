#include "harness/evaluator/gpu_evaluator.h"

#include <vector>
#include <string>
#include <optional>
#include <mutex>
#include <memory>
#include <cstdint>
#include <chrono>
#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <map>
#include <set>

#include "core/file_io.h"
#include "core/launch_expr.h"
#include "core/text.h"
#include "harness/capture/annotation_inputs.h"
#include "harness/common/cubin_info.h"
#include "harness/compile/host_code_check.h"
#include "harness/evaluator/locate.h"
#include "harness/evaluator/profile_facts.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

namespace fs = std::filesystem;

namespace {

std::string demangle(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string out(d);
  std::free(d);
  return out;
}

std::string first_error(const std::string& log) {
  size_t p = log.find("error");
  if (p == std::string::npos) return std::string(trim(log.substr(0, std::min<size_t>(log.size(), 300))));
  size_t start = log.rfind('\n', p);
  start = start == std::string::npos ? 0 : start + 1;
  size_t end = log.find('\n', p);
  return log.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string clip(const std::string& s, size_t n = 400) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

// The text between the parentheses after "<name>(" following __global__.
std::optional<std::string> parameter_list(const std::string& text, const std::string& name) {
  size_t g = text.find("__global__");
  while (g != std::string::npos) {
    size_t n = text.find(name, g);
    if (n == std::string::npos) return std::nullopt;
    size_t open = text.find_first_not_of(" \t\r\n", n + name.size());
    if (open != std::string::npos && text[open] == '(') {
      int depth = 0;
      for (size_t i = open; i < text.size(); ++i) {
        if (text[i] == '(') ++depth;
        if (text[i] == ')' && --depth == 0) return text.substr(open + 1, i - open - 1);
      }
      return std::nullopt;
    }
    g = text.find("__global__", g + 1);
  }
  return std::nullopt;
}

std::map<std::string, bool> restrict_by_name(const std::string& list) {
  std::map<std::string, bool> out;
  for (std::string_view part : split(list, ',')) {
    std::string p(trim(part));
    size_t end = p.find_last_not_of(" \t\r\n");
    if (end == std::string::npos) continue;
    size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(p[begin - 1])) || p[begin - 1] == '_')) --begin;
    std::string param = p.substr(begin, end - begin + 1);
    out[param] = p.find("__restrict") != std::string::npos || p.find(" restrict ") != std::string::npos;
  }
  return out;
}

Check make_check(const std::string& name, std::optional<bool> ok, std::string detail) {
  return Check{name, ok, std::move(detail)};
}

}  // namespace

std::vector<std::string> restrict_added(const std::string& original, const std::string& variant, const std::string& name) {
  auto a = parameter_list(original, name), b = parameter_list(variant, name);
  if (!a || !b) return {};
  auto before = restrict_by_name(*a), after = restrict_by_name(*b);
  std::vector<std::string> out;
  for (const auto& [param, r] : after)
    if (r && !before[param]) out.push_back(param);
  return out;
}

GpuEvaluator::GpuEvaluator(Manifest manifest, GpuEvaluatorOptions options)
    : manifest_(std::move(manifest)),
      options_(std::move(options)),
      compiler_(CompileServiceOptions{options_.cache_dir, options_.compile_jobs, options_.nvcc, std::chrono::seconds(600)}) {
  ExecutorOptions eo;
  eo.kind = options_.executor;
  eo.worker = options_.worker;
  if (options_.executor == "local" && options_.workers == 0) eo.devices = options_.devices;
  eo.workers = options_.workers;
  eo.srun_args = options_.srun_args;
  eo.ship = options_.ship;
  auto executor = make_executor(eo);
  if (!executor) {
    setup_error_ = executor.error().message;
    return;
  }
  WorkerPoolOptions po;
  po.request_timeout = std::chrono::duration_cast<std::chrono::milliseconds>(options_.request_timeout);
  po.max_losses = options_.max_losses;
  pool_ = std::make_unique<WorkerPool>(std::move(*executor), po);
}

GpuEvaluator::~GpuEvaluator() = default;

std::optional<GpuInfo> GpuEvaluator::gpu() const {
  std::lock_guard lock(mutex_);
  if (!probed_) {
    probed_ = true;
    if (!pool_) {
      no_gpu_ = setup_error_;
    } else {
      auto p = pool_->probe();
      gpu_ = p.gpu;
      no_gpu_workers_ = p.no_gpu_workers;
      no_gpu_ = p.problem;
    }
  }
  return gpu_;
}

std::string GpuEvaluator::no_gpu_reason() const {
  std::lock_guard lock(mutex_);
  return no_gpu_;
}

int GpuEvaluator::worker_starts() const {
  if (!pool_) return 0;
  int n = 0;
  for (const auto& s : pool_->stats()) n += s.starts;
  return n;
}

Expected<std::vector<std::string>> GpuEvaluator::captures_for(const Kernel& kernel) {
  std::lock_guard lock(store_mutex_);
  std::vector<std::string> ids;
  std::set<std::string> known;
  for (const auto& i : kernel.instantiations) known.insert(i.mangled);
  auto store = CaptureStore::open(options_.store, has_annotation_inputs(kernel));
  bool annotated = false;  // the store already holds the annotation's inputs
  if (store) {
    auto index = store->read_index();
    if (!index) return index.error();
    for (const Capture* c : index->for_kernel(kernel.id))
      if (known.count(c->mangled)) {
        ids.push_back(c->id);
        annotated = annotated || c->origin == "annotation";
      }
  }
  if (annotated) return ids;
  if (!has_annotation_inputs(kernel)) {
    if (!ids.empty()) return ids;
    return Error{fmt::format("no inputs for kernel {}: no captured launch in {} and no args=/buffers= in its annotation. "
                             "Run `stark capture -p BUILD -- <tests that launch it>`, or annotate it with {}",
                             kernel.id, options_.store.string(), annotation_hint(kernel))};
  }
  // The annotation's sizes are judged (and timed) beside the captured ones:
  // one more size a candidate tuned to the captures must get right.
  if (!store) return store.error();
  auto c = capture_from_annotation(kernel, *store);
  if (!c) return c.error();
  std::string id = c->id;
  auto ok = store->update([&](CaptureIndex& index) -> Expected<void> {
    if (!index.find(id)) index.captures.push_back(*c);
    return {};
  });
  if (!ok) return ok.error();
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  return ids;
}

Evaluation GpuEvaluator::evaluate(const Kernel& kernel, const Variant& variant) {
  Evaluation e = evaluate_impl(kernel, variant);
  // Every guard appears in the verdict: the ones that did not run say so.
  static const char* all[] = {"compile", "signature", check::kBaselineReplay, check::kLaunch, check::kNoCrash,
                              check::kCorrectness, check::kInputsUnchanged, check::kGuards, check::kRepeat,
                              check::kOtherSizes, check::kFuzz, check::kTiming, check::kTimedOutputs,
                              check::kRecheck, "host_code", "archs", "memcheck", "racecheck"};
  for (const char* name : all) {
    bool present = std::any_of(e.checks.begin(), e.checks.end(), [&](const Check& c) { return c.name == name; });
    if (!present) {
      if (std::string(name) == "archs" && !(options_.check_all_archs && kernel.compile)) continue;
      if (std::string(name) == "host_code" && !options_.host_code_check) continue;
      if ((std::string(name) == "memcheck" || std::string(name) == "racecheck") &&
          options_.sanitize == GpuEvaluatorOptions::Sanitize::Never)
        continue;
      e.checks.push_back(make_check(name, std::nullopt,
                                    e.verdict == Verdict::Accepted ? "not run" : "not run: the evaluation stopped earlier"));
    }
  }
  return e;
}

Evaluation GpuEvaluator::evaluate_impl(const Kernel& kernel, const Variant& variant) {
  Evaluation e;
  e.kernel = kernel.id;
  std::vector<Check> checks;
  auto verdict_error = [&](const std::string& reason) {
    e.verdict = Verdict::Error;
    e.reason = reason;
    e.checks = checks;
    return e;
  };
  auto reject = [&](const std::string& name, const std::string& detail) {
    checks.push_back(make_check(name, false, detail));
    e.verdict = Verdict::Rejected;
    e.reason = fmt::format("{}: {}", name, clip(detail));
    e.checks = checks;
    return e;
  };
  if (!variant.kernel.empty() && variant.kernel != kernel.id)
    return verdict_error(fmt::format("the variant is for kernel {}, not {}", variant.kernel, kernel.id));

  // Launch override: the expression language of docs/CONTRACTS.md.
  std::set<std::string> names = {"grid.x", "grid.y", "grid.z", "block.x", "block.y", "block.z", "shmem"};
  std::set<std::string> records;
  for (const auto& p : kernel.params) {
    names.insert(p.name);
    if (p.kind == ParamKind::Record) records.insert(p.name);
  }
  std::vector<std::string> exprs = variant.launch.grid;
  exprs.insert(exprs.end(), variant.launch.block.begin(), variant.launch.block.end());
  if (variant.launch.shmem) exprs.push_back(*variant.launch.shmem);
  for (const auto& text : exprs) {
    auto ex = LaunchExpr::parse(text);
    if (!ex) return reject(check::kLaunch, fmt::format("'{}': {}", text, ex.error().message));
    for (const auto& n : ex->names())
      if (!names.count(n) && !records.count(n.substr(0, n.find('.'))))
        return reject(check::kLaunch, fmt::format("'{}' uses '{}', which is neither a parameter of {} nor grid.x..block.z "
                                                  "or shmem",
                                                  text, n, kernel.name));
  }

  auto g = gpu();
  std::string sm = g ? g->sm
                     : options_.sm ? *options_.sm
                     : kernel.compile && !kernel.compile->archs.empty() ? kernel.compile->archs.front()
                                                                          : "90";
  sm.erase(std::remove_if(sm.begin(), sm.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }), sm.end());
  auto expected_hash = [&]() -> std::optional<std::string> {
    auto it = manifest_.files.find(kernel.file);
    if (it == manifest_.files.end()) return std::nullopt;
    return it->second.hash;
  };
  auto request_for = [&](std::optional<std::string> source, CompileMode mode, const std::string& arch) {
    CompileRequest r;
    r.kernel = &kernel;
    r.source_root = manifest_.source_root;
    r.source = std::move(source);
    r.sm = arch;
    r.mode = mode;
    r.expected_file_hash = expected_hash();
    return r;
  };
  // Each phase's wall time goes into e.seconds as it ends.
  using Clock = std::chrono::steady_clock;
  auto phase_start = Clock::now();
  auto phase_end = [&](const char* phase) {
    auto now = Clock::now();
    e.seconds[phase] = std::chrono::duration<double>(now - phase_start).count();
    phase_start = now;
  };
  auto base_future = std::async(std::launch::async, [&] { return compiler_.compile(request_for(std::nullopt, CompileMode::Cubin, sm)); });
  auto var = compiler_.compile(request_for(variant.source, CompileMode::Cubin, sm));
  auto base = base_future.get();
  phase_end("compile");
  if (!base) return verdict_error(base.error().message);
  if (!base->ok)
    return verdict_error(fmt::format("the original kernel does not compile for sm_{}: {}", sm, first_error(base->log)));
  if (!var) return verdict_error(var.error().message);
  e.compile_log = var->log;
  if (!var->ok) {
    e.compile_ok = false;
    return reject("compile", first_error(var->log));
  }
  e.compile_ok = true;
  checks.push_back(make_check("compile", true, fmt::format("sm_{}{}", sm, var->cached ? " (cached)" : "")));

  // The final gates' compiles start now and run while the GPU judges the
  // candidate: they matter only if it passes, and then they no longer add
  // to its latency (a cold host-object compile costs a few seconds).
  using Compiled = Expected<CompileResult>;
  std::future<Compiled> obj_base_future, obj_var_future;
  std::vector<std::pair<std::string, std::future<Compiled>>> arch_futures;
  if (g && options_.host_code_check) {
    obj_base_future = std::async(std::launch::async,
                                 [&] { return compiler_.compile(request_for(std::nullopt, CompileMode::Object, sm)); });
    obj_var_future = std::async(std::launch::async,
                                [&] { return compiler_.compile(request_for(variant.source, CompileMode::Object, sm)); });
  }
  if (g && options_.check_all_archs && kernel.compile)
    for (const auto& arch : kernel.compile->archs)
      if (arch != sm)
        arch_futures.emplace_back(arch, std::async(std::launch::async, [&, arch] {
                                    return compiler_.compile(request_for(variant.source, CompileMode::Cubin, arch));
                                  }));

  // Same kernels, same parameter layout.
  auto base_bytes = read_file(base->output);
  auto var_bytes = read_file(var->output);
  if (!base_bytes || !var_bytes) return verdict_error("cannot read the compiled kernels back from the cache");
  auto base_info = read_cubin(*base_bytes);
  auto var_info = read_cubin(*var_bytes);
  if (!base_info) return verdict_error(base_info.error().message);
  if (!var_info) return verdict_error(var_info.error().message);
  // Instantiations made in other translation units than the kernel's compile
  // command cannot be judged with this cubin: they are left out, and said so.
  std::set<std::string> present;
  std::vector<std::string> elsewhere;
  for (const auto& inst : kernel.instantiations) {
    if (base_info->find_kernel(inst.mangled)) present.insert(inst.mangled);
    else elsewhere.push_back(demangle(inst.mangled));
  }
  if (present.empty())
    return verdict_error(fmt::format("the original's cubin has none of the instantiations of {}: the manifest is "
                                     "stale, scan again",
                                     kernel.id));
  for (const auto& inst : kernel.instantiations) {
    const CubinKernel* bk = base_info->find_kernel(inst.mangled);
    if (!bk) continue;
    const CubinKernel* vk = var_info->find_kernel(inst.mangled);
    if (!vk)
      return reject("signature", fmt::format("the variant does not define {} ({}): a changed name, parameter type or "
                                             "const renames the kernel; keep its signature",
                                             demangle(inst.mangled), inst.mangled));
    if (auto diff = compare_params(*bk, *vk); !diff.empty())
      return reject("signature", fmt::format("{}: {}", demangle(inst.mangled), diff));
  }
  e.baseline_profile.resources = cubin_resources(*base_info, present);
  e.variant_profile.resources = cubin_resources(*var_info, present);
  checks.push_back(make_check("signature", true,
                              elsewhere.empty() ? ""
                                                : fmt::format("not judged (instantiated in another translation unit "
                                                              "than {}): {}",
                                                              kernel.compile ? kernel.compile->file : "the compiled one",
                                                              join(elsewhere, ", "))));

  bool checking_workers = false;
  {
    std::lock_guard lock(mutex_);
    checking_workers = !g && no_gpu_workers_;
  }
  if (!g && !checking_workers) {
    e.verdict = Verdict::Error;
    e.reason = fmt::format("compiled for sm_{}; nothing was run or timed: {}", sm, no_gpu_reason());
    e.untimed = true;  // compiled and signature-checked: the search keeps it as an untimed node
    e.checks = checks;
    return e;
  }
  if (g) e.gpu = *g;

  auto ids = captures_for(kernel);
  if (!ids) return verdict_error(ids.error().message);
  // The store's index, read at most once for the checks below that look into
  // the captures (it does not change after captures_for).
  std::optional<CaptureIndex> index_read;
  bool index_tried = false;
  auto capture_index = [&]() -> const CaptureIndex* {
    if (!index_tried) {
      index_tried = true;
      if (auto store = CaptureStore::open(options_.store, false))
        if (auto read = store->read_index()) index_read = std::move(*read);
    }
    return index_read ? &*index_read : nullptr;
  };
  if (present.size() < kernel.instantiations.size()) {
    if (const CaptureIndex* index = capture_index()) {
      std::vector<std::string> kept;
      for (const auto& id : *ids)
        if (const Capture* c = index->find(id); c && present.count(c->mangled)) kept.push_back(id);
      if (kept.empty())
        return verdict_error(fmt::format("the captures of {} launch only instantiations made in other translation units "
                                         "than {}: none can be judged with its cubin",
                                         kernel.id, kernel.compile ? kernel.compile->file : "the compiled one"));
      *ids = kept;
    }
  }

  // __restrict__ added by the variant is an assumption about the callers.
  auto original_text = CompileService::patched_file(kernel, manifest_.source_root, std::nullopt, std::nullopt);
  std::vector<std::string> restricted;
  if (original_text && kernel.range.end <= static_cast<int64_t>(original_text->size()))
    restricted = restrict_added(original_text->substr(kernel.range.begin, kernel.range.end - kernel.range.begin),
                                variant.source, kernel.name);
  if (!restricted.empty()) {
    std::string aliased;
    if (const CaptureIndex* index = capture_index())
      for (const auto& id : *ids) {
        const Capture* c = index->find(id);
        if (!c) continue;
        for (size_t i = 0; i < c->args.size() && aliased.empty(); ++i)
          for (size_t j = 0; j < c->args.size() && aliased.empty(); ++j)
            if (i != j && c->args[i].buffer && c->args[i].buffer == c->args[j].buffer &&
                std::find(restricted.begin(), restricted.end(), c->args[i].name) != restricted.end())
              aliased = fmt::format("capture {} passes {} and {} into one allocation", c->id, c->args[i].name, c->args[j].name);
      }
    if (!aliased.empty())
      return reject("restrict_assumption",
                    fmt::format("the variant declares {} __restrict__, but {}", join(restricted, ", "), aliased));
    checks.push_back(make_check("restrict_assumption", true,
                                fmt::format("assumes {} never alias{} another argument: no captured launch aliased them",
                                            join(restricted, ", "), restricted.size() == 1 ? "es" : "")));
  }

  EvaluateRequest req;
  req.id = ++requests_;
  req.kernel = kernel.id;
  req.store = fs::absolute(options_.store).string();
  req.captures = *ids;
  for (const auto& inst : kernel.instantiations)
    if (present.count(inst.mangled))
      req.instantiations[inst.mangled] = param_specs(inst.params.empty() ? kernel.params : inst.params);
  req.baseline_cubin = base->output.string();
  req.variant_cubin = var->output.string();
  req.launch = variant.launch;
  req.rtol = kernel.options.rtol;
  req.atol = kernel.options.atol;
  req.fuzz_rounds = options_.fuzz_rounds;
  req.seed = options_.seed;
  req.timing = options_.timing;
  req.watchdog_seconds = options_.watchdog_seconds;
  {
    std::lock_guard lock(mutex_);
    req.other_sizes = !other_sizes_off_.count(kernel.id);
  }

  GpuJudgement judged = judge_on_workers(req);
  if (!judged.setup_error.empty()) return verdict_error(judged.setup_error);
  if (!judged.lost.empty()) return reject(check::kNoCrash, judged.lost);
  EvaluateReply& reply = judged.reply;
  phase_end("judge");
  if (reply.status == ReplyStatus::Error) return verdict_error(reply.detail);
  checks.insert(checks.end(), reply.checks.begin(), reply.checks.end());
  e.captures = reply.captures;
  add_measured_facts(e);
  e.checks = checks;
  for (const auto& c : checks)
    if (c.ok && !*c.ok) {
      e.verdict = Verdict::Rejected;
      e.reason = fmt::format("{}: {}", c.name, clip(c.detail));
      return e;
    }
  if (!reply.no_gpu && g) {
    // A verdict needs every check it rests on, present and passed: a reply
    // that lacks one is not taken as a pass, whatever else it says.
    if (std::string why = incomplete_reply(req, reply); !why.empty())
      return reject(check::kNoCrash, "the worker's reply cannot be a verdict: " + why);
  }
  if (reply.no_gpu || !g) {
    // A worker without a GPU checked what it could; nothing ran. Which
    // worker it was is left out: the verdict must not depend on it.
    e.verdict = Verdict::Error;
    e.reason = fmt::format("compiled for sm_{} and checked by a worker without a GPU on {} capture{}; nothing was run "
                           "or timed",
                           sm, ids->size(), ids->size() == 1 ? "" : "s");
    e.untimed = true;
    return e;
  }
  // The worker stops before timing when something failed; a reply without
  // failures but with untimed captures is not a verdict.
  double base_us = 0, var_us = 0;
  bool timed = !e.captures.empty();
  for (const auto& c : e.captures) {
    if (!c.baseline_us || !c.variant_us) timed = false;
    else {
      base_us += c.baseline_us->median;
      var_us += c.variant_us->median;
    }
  }
  if (timed) {
    e.baseline_us = base_us;
    e.variant_us = var_us;
    e.speedup = var_us > 0 ? base_us / var_us : 0;
  }

  // Final gates.
  if (options_.host_code_check) {
    auto obj_base = obj_base_future.get();
    auto obj_var = obj_var_future.get();
    if (!obj_base || !obj_var || !obj_base->ok || !obj_var->ok) {
      std::string why = !obj_base ? obj_base.error().message
                        : !obj_var ? obj_var.error().message
                        : !obj_base->ok ? first_error(obj_base->log)
                                        : first_error(obj_var->log);
      if (obj_var && !obj_var->ok) return reject("host_code", "the host side of the patched file does not compile: " + why);
      checks.push_back(make_check("host_code", std::nullopt, "not checked: " + why));
    } else {
      auto found = host_code_added(*read_file(obj_base->output), *read_file(obj_var->output), *var_info);
      if (!found) checks.push_back(make_check("host_code", std::nullopt, "not checked: " + found.error().message));
      else if (!found->empty()) return reject("host_code", "the variant adds host code: " + join(*found, "; "));
      else checks.push_back(make_check("host_code", true, "device code only"));
    }
  }
  if (options_.check_all_archs && kernel.compile) {
    std::vector<std::string> failed;
    for (auto& [arch, future] : arch_futures) {
      auto r = future.get();
      if (r && !r->ok) failed.push_back(fmt::format("sm_{}: {}", arch, first_error(r->log)));
    }
    if (!failed.empty()) return reject("archs", "the variant does not compile for every architecture the target builds: " +
                                                     join(failed, "; "));
    checks.push_back(make_check("archs", true, "compiles for sm_" + join(kernel.compile->archs, ", sm_")));
  }
  phase_end("gates");
  // compute-sanitizer gates a candidate that can be the result: the search
  // keeps the fastest, so one slower than a candidate that already passed
  // the sanitizers can never win, and instrumenting it would only cost time.
  std::optional<double> fastest_passed;
  {
    std::lock_guard lock(mutex_);
    if (auto it = fastest_sanitized_us_.find(kernel.id); it != fastest_sanitized_us_.end()) fastest_passed = it->second;
  }
  bool faster_than_original = e.speedup && *e.speedup > 1.0;
  bool could_win = !fastest_passed || !e.variant_us || *e.variant_us <= *fastest_passed;
  bool sanitize = options_.sanitize == GpuEvaluatorOptions::Sanitize::Always ||
                  (options_.sanitize == GpuEvaluatorOptions::Sanitize::Accepted && faster_than_original && could_win);
  if (sanitize) {
    std::vector<Check> results = run_sanitizers(req, *ids, capture_index());
    phase_end("sanitize");
    bool both_passed = true;  // ran and passed: a check that could not run proves nothing
    for (const Check& c : results) {
      checks.push_back(c);
      both_passed = both_passed && c.ok;
      if (c.ok && !*c.ok) {
        e.checks = checks;
        e.verdict = Verdict::Rejected;
        e.reason = fmt::format("{}: {}", c.name, clip(c.detail));
        return e;
      }
    }
    if (both_passed && e.variant_us) {
      std::lock_guard lock(mutex_);
      auto [it, fresh] = fastest_sanitized_us_.emplace(kernel.id, *e.variant_us);
      if (!fresh) it->second = std::min(it->second, *e.variant_us);
    }
  } else if (options_.sanitize != GpuEvaluatorOptions::Sanitize::Never) {
    std::string why = !faster_than_original
                          ? "not run: only candidates faster than the original are sanitized"
                          : fmt::format("not run: slower than {:.3g} us of a candidate that passed it, so it cannot be "
                                        "the result",
                                        *fastest_passed);
    checks.push_back(make_check("memcheck", std::nullopt, why));
    checks.push_back(make_check("racecheck", std::nullopt, why));
  }
  // ncu's facts for the original (its own evaluation, the search's root) and
  // for what could be the result; a slower candidate would only cost time.
  if (*base_bytes == *var_bytes || (faster_than_original && could_win)) add_ncu_facts(req, *ids, capture_index(), e);
  if (e.speedup && *e.speedup > options_.flag_speedup)
    checks.push_back(make_check("speedup_plausible", std::nullopt,
                                fmt::format("{:.1f}x is above {:.0f}x: flagged for a second look by a person", *e.speedup,
                                            options_.flag_speedup)));
  e.checks = checks;
  e.verdict = Verdict::Accepted;
  size_t fuzz_count = 0;
  for (const auto& c : checks)
    if (c.name == check::kFuzz && c.ok) fuzz_count = 1;
  e.reason = e.speedup ? fmt::format("correct on {} capture{}{}; {:.2f}x ({:.1f} us -> {:.1f} us)", ids->size(),
                                     ids->size() == 1 ? "" : "s", fuzz_count ? " and fuzzed inputs" : "", *e.speedup,
                                     *e.baseline_us, *e.variant_us)
                       : fmt::format("correct on {} capture{}; not timed", ids->size(), ids->size() == 1 ? "" : "s");
  return e;
}

}  // namespace stark::harness
