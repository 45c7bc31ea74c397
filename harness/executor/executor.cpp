#include "harness/executor/executor.h"

#include <fmt/format.h>

#include "harness/evaluator/locate.h"
#include "harness/executor/local_executor.h"
#include "harness/executor/slurm_executor.h"

namespace stark::harness {

std::vector<std::string> worker_command(const std::vector<std::string>& worker, int device) {
  std::vector<std::string> argv = worker;
  if (argv.empty()) {
    auto w = find_worker();
    argv = {w ? w->string() : "stark-worker", "--device", "{device}"};
  }
  for (auto& a : argv)
    for (size_t p; (p = a.find("{device}")) != std::string::npos;) a.replace(p, 8, std::to_string(device));
  return argv;
}

const char* to_string(ExecutorKind kind) { return kind == ExecutorKind::Slurm ? "slurm" : "local"; }

Expected<ExecutorKind> parse_executor_kind(std::string_view name) {
  for (ExecutorKind kind : {ExecutorKind::Local, ExecutorKind::Slurm})
    if (name == to_string(kind)) return kind;
  return Error{fmt::format("unknown executor '{}' (local, slurm)", name)};
}

Expected<std::unique_ptr<Executor>> make_executor(const ExecutorOptions& options) {
  if (options.workers < 0) return Error{fmt::format("--workers must be positive, not {}", options.workers)};
  if (options.kind == ExecutorKind::Local) return std::unique_ptr<Executor>(std::make_unique<LocalExecutor>(options));
  auto e = SlurmExecutor::create(options);
  if (!e) return e.error();
  return std::unique_ptr<Executor>(std::move(*e));
}

}  // namespace stark::harness
