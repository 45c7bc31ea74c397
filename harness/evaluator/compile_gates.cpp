// The evaluator's gates that need only the compiler: the launch override,
// both compiles, the signature, and the final compile gates (host code,
// every target architecture) whose compiles start early.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/file_io.h"
#include "core/launch_override_check.h"
#include "core/text.h"
#include "harness/common/demangle.h"
#include "harness/compile/host_code_check.h"
#include "harness/evaluator/gpu_evaluator.h"
#include "harness/evaluator/profile_facts.h"

namespace stark::harness {

namespace {

// nvcc's first error line, or the start of its log when it names none.
std::string first_error(const std::string& log) {
  size_t p = log.find("error");
  if (p == std::string::npos) return std::string(trim(log.substr(0, std::min<size_t>(log.size(), 300))));
  size_t start = log.rfind('\n', p);
  start = start == std::string::npos ? 0 : start + 1;
  size_t end = log.find('\n', p);
  return log.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string why_not_compiled(const Expected<CompileResult>& r) { return r ? first_error(r->log) : r.error().message; }

}  // namespace

CompileRequest GpuEvaluator::compile_request(const EvaluationRun& run, std::optional<std::string> source,
                                             CompileMode mode, const std::string& arch) const {
  CompileRequest r;
  r.kernel = &run.kernel;
  r.source_root = manifest_.source_root;
  r.source = std::move(source);
  r.sm = arch;
  r.mode = mode;
  if (auto it = manifest_.files.find(run.kernel.file); it != manifest_.files.end())
    r.expected_file_hash = it->second.hash;
  return r;
}

void GpuEvaluator::check_launch(EvaluationRun& run) {
  if (!run.variant.kernel.empty() && run.variant.kernel != run.kernel.id)
    return run.error(fmt::format("the variant is for kernel {}, not {}", run.variant.kernel, run.kernel.id));
  if (auto ok = check_launch_override(run.kernel, run.variant.launch); !ok)
    run.reject(CheckName::Launch, ok.error().message);
}

void GpuEvaluator::compile(EvaluationRun& run) {
  run.gpu = gpu();
  const Kernel& kernel = run.kernel;
  std::string sm = run.gpu                                            ? run.gpu->sm
                   : options_.sm                                      ? *options_.sm
                   : kernel.compile && !kernel.compile->archs.empty() ? kernel.compile->archs.front()
                                                                      : "90";
  sm.erase(std::remove_if(sm.begin(), sm.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }),
           sm.end());
  run.sm = sm;
  auto original = std::async(std::launch::async, [&] {
    return compiler_.compile(compile_request(run, std::nullopt, CompileMode::Cubin, sm));
  });
  auto candidate = compiler_.compile(compile_request(run, run.variant.source, CompileMode::Cubin, sm));
  auto base = original.get();
  run.end_phase("compile");
  if (!base) return run.error(base.error().message);
  if (!base->ok)
    return run.error(fmt::format("the original kernel does not compile for sm_{}: {}", sm, first_error(base->log)));
  if (!candidate) return run.error(candidate.error().message);
  run.e.compile_log = candidate->log;
  if (!candidate->ok) return run.reject(CheckName::Compile, first_error(candidate->log));
  run.e.compile_ok = true;
  run.pass(CheckName::Compile, fmt::format("sm_{}{}", sm, candidate->cached ? " (cached)" : ""));
  run.original = std::move(*base);
  run.candidate = std::move(*candidate);
}

void GpuEvaluator::start_final_compiles(EvaluationRun& run) {
  // They matter only if the candidate passes, and then they no longer add to
  // its latency (a cold host-object compile costs a few seconds).
  if (!run.gpu) return;
  if (options_.host_code_check) {
    run.original_object = std::async(std::launch::async, [this, &run] {
      return compiler_.compile(compile_request(run, std::nullopt, CompileMode::Object, run.sm));
    });
    run.candidate_object = std::async(std::launch::async, [this, &run] {
      return compiler_.compile(compile_request(run, run.variant.source, CompileMode::Object, run.sm));
    });
  }
  if (options_.check_all_archs && run.kernel.compile)
    for (const auto& arch : run.kernel.compile->archs)
      if (arch != run.sm)
        run.other_archs.emplace_back(
            arch, std::async(std::launch::async, [this, &run, arch] {
              return compiler_.compile(compile_request(run, run.variant.source, CompileMode::Cubin, arch));
            }));
}

void GpuEvaluator::check_signature(EvaluationRun& run) {
  const Kernel& kernel = run.kernel;
  auto base_bytes = read_file(run.original.output);
  auto var_bytes = read_file(run.candidate.output);
  if (!base_bytes || !var_bytes) return run.error("cannot read the compiled kernels back from the cache");
  auto base_info = read_cubin(*base_bytes);
  auto var_info = read_cubin(*var_bytes);
  if (!base_info) return run.error(base_info.error().message);
  if (!var_info) return run.error(var_info.error().message);
  // Instantiations made in other translation units than the kernel's compile
  // command cannot be judged with this cubin: they are left out, and said so.
  std::vector<std::string> elsewhere;
  for (const auto& inst : kernel.instantiations) {
    if (base_info->find_kernel(inst.mangled)) run.judged_instantiations.insert(inst.mangled);
    else elsewhere.push_back(demangle(inst.mangled));
  }
  if (run.judged_instantiations.empty())
    return run.error(
        fmt::format("the original's cubin has none of the instantiations of {}: the manifest is stale, "
                    "scan again",
                    kernel.id));
  for (const auto& inst : kernel.instantiations) {
    const CubinKernel* bk = base_info->find_kernel(inst.mangled);
    if (!bk) continue;
    const CubinKernel* vk = var_info->find_kernel(inst.mangled);
    if (!vk)
      return run.reject(CheckName::Signature,
                        fmt::format("the variant does not define {} ({}): a changed name, parameter type or const "
                                    "renames the kernel; keep its signature",
                                    demangle(inst.mangled), inst.mangled));
    if (auto diff = compare_params(*bk, *vk); !diff.empty())
      return run.reject(CheckName::Signature, fmt::format("{}: {}", demangle(inst.mangled), diff));
  }
  run.e.baseline_profile.resources = cubin_resources(*base_info, run.judged_instantiations);
  run.e.variant_profile.resources = cubin_resources(*var_info, run.judged_instantiations);
  run.pass(CheckName::Signature,
           elsewhere.empty()
               ? ""
               : fmt::format("not judged (instantiated in another translation unit "
                             "than {}): {}",
                             kernel.compile ? kernel.compile->file : "the compiled one", join(elsewhere, ", ")));
  run.original_cubin = std::move(*base_bytes);
  run.candidate_cubin = std::move(*var_bytes);
  run.candidate_info = std::move(*var_info);
}

void GpuEvaluator::check_host_code(EvaluationRun& run) {
  if (!options_.host_code_check) return;
  auto obj_base = run.original_object.get();
  auto obj_var = run.candidate_object.get();
  if (obj_var && !obj_var->ok)
    return run.reject(CheckName::HostCode,
                      "the host side of the patched file does not compile: " + first_error(obj_var->log));
  if (!obj_base || !obj_var || !obj_base->ok)
    return run.not_run(CheckName::HostCode,
                       "not checked: " + (!obj_var ? obj_var.error().message : why_not_compiled(obj_base)));
  auto base_object = read_file(obj_base->output);
  auto var_object = read_file(obj_var->output);
  if (!base_object || !var_object)
    return run.not_run(CheckName::HostCode, "not checked: cannot read the compiled objects back from the cache");
  auto found = host_code_added(*base_object, *var_object, *run.candidate_info);
  if (!found) return run.not_run(CheckName::HostCode, "not checked: " + found.error().message);
  if (!found->empty()) return run.reject(CheckName::HostCode, "the variant adds host code: " + join(*found, "; "));
  run.pass(CheckName::HostCode, "device code only");
}

void GpuEvaluator::check_archs(EvaluationRun& run) {
  if (options_.check_all_archs && run.kernel.compile) {
    std::vector<std::string> failed;
    for (auto& [arch, pending] : run.other_archs) {
      auto r = pending.get();
      if (r && !r->ok) failed.push_back(fmt::format("sm_{}: {}", arch, first_error(r->log)));
    }
    if (!failed.empty())
      return run.reject(CheckName::Archs,
                        "the variant does not compile for every architecture the target builds: " + join(failed, "; "));
    run.pass(CheckName::Archs, "compiles for sm_" + join(run.kernel.compile->archs, ", sm_"));
  }
  run.end_phase("gates");
}

}  // namespace stark::harness
