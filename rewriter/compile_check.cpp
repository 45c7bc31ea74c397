#include "rewriter/compile_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/paths.h"
#include "core/process.h"
#include "core/text.h"

namespace stark::rewriter {

namespace fs = std::filesystem;

fs::path unit_file(const CompileCommand& c) {
  fs::path dir = c.directory.empty() ? fs::current_path() : fs::path(c.directory);
  return absolute_normal(dir / c.file);
}

namespace {

void add_unique(std::vector<std::string>& to, const std::vector<std::string>& items) {
  for (const auto& i : items)
    if (std::find(to.begin(), to.end(), i) == to.end()) to.push_back(i);
}

bool header_like(const fs::path& p) {
  static const std::set<std::string> kHeaders = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc"};
  return kHeaders.count(p.extension().string()) > 0;
}

// Compiles one unit for one arch: the failure's log, or nullopt when it compiles.
std::optional<std::string> compile_unit(const CheckUnit& unit, const std::string& sm, const fs::path& output,
                                        const CheckSetup& setup) {
  auto command = setup.builder(unit.command, sm, output, setup.source_root, setup.tree);
  if (!command) return command.error().message;
  ProcessOptions options = ProcessOptions::in(setup.scratch);
  options.timeout = setup.timeout;
  auto run = run_process(command->argv, options);
  if (!run) return run.error().message;
  if (run->status.success()) return std::nullopt;
  if (run->status.timed_out())
    return fmt::format("{} did not finish within {:g} s and was stopped",
                       fs::path(command->argv[0]).filename().string(),
                       std::chrono::duration<double>(setup.timeout).count());
  std::string log = fmt::format("$ {}\n{}", join(command->argv, " "), run->output);
  if (run->status.kind != ExitStatus::Kind::Exited) log += fmt::format("({})\n", run->status.describe());
  if (!command->dropped.empty()) log += fmt::format("(left out of the check: {})\n", join(command->dropped, " "));
  return log;
}

}  // namespace

std::vector<CheckUnit> check_units(const ApplyPlan& plan, const Manifest& manifest,
                                   const std::vector<CompileCommand>& database, std::vector<std::string>& unchecked) {
  std::map<fs::path, CheckUnit> units;  // by absolute source file
  std::map<fs::path, const CompileCommand*> by_file;
  for (const auto& c : database) by_file.emplace(unit_file(c), &c);
  const fs::path root = absolute_normal(plan.source_root);
  auto add = [&](const fs::path& file, const std::string& kernel) {
    auto db = by_file.find(file);
    if (db == by_file.end()) return false;
    auto [unit, added] = units.emplace(file, CheckUnit{*db->second, {}, {}});
    add_unique(unit->second.archs, db->second->archs);
    add_unique(unit->second.kernels, {kernel});
    return true;
  };

  for (const auto& applied : plan.kernels) {
    const Kernel* k = manifest.find_kernel(applied.id);
    if (!k) continue;
    // The manifest's command only names the unit; nothing else of it is used.
    bool own =
        (k->compile && add(unit_file(*k->compile), applied.id)) || add(absolute_normal(root / k->file), applied.id);
    if (!own) unchecked.push_back(applied.id);
    for (const auto& site : k->launches) {
      fs::path file = absolute_normal(root / site.file);
      if (!header_like(file)) add(file, applied.id);
    }
  }
  std::vector<CheckUnit> out;
  for (auto& [file, unit] : units) out.push_back(std::move(unit));
  return out;
}

std::vector<CheckFailure> compile_check(const std::vector<CheckUnit>& units, const CheckSetup& setup) {
  struct Job {
    const CheckUnit* unit;
    std::string sm;
  };
  std::vector<Job> jobs;
  for (const auto& u : units)
    for (const auto& sm : u.archs) jobs.push_back({&u, sm});
  std::vector<CheckFailure> failures;
  std::mutex mu;
  std::atomic<size_t> next{0};
  size_t done = 0;
  auto work = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      const Job& job = jobs[i];
      fs::path file = unit_file(job.unit->command);
      std::string shown = display_path(file, setup.source_root);
      struct Report {  // on every way out of this compile
        ~Report() {
          std::lock_guard lock(mu);
          ++done;
          if (setup.progress) setup.progress(done, total, shown, sm);
        }
        std::mutex& mu;
        size_t& done;
        size_t total;
        const CheckSetup& setup;
        const std::string& shown;
        const std::string& sm;
      } report{mu, done, jobs.size(), setup, shown, job.sm};
      fs::path output = setup.scratch / fmt::format("unit{}-sm_{}.o", i, job.sm);
      auto log = compile_unit(*job.unit, job.sm, output, setup);
      if (!log) continue;
      std::lock_guard lock(mu);
      failures.push_back({shown, job.sm, *log, job.unit->kernels});
    }
  };
  std::vector<std::thread> threads;
  int n = std::clamp(setup.jobs, 1, std::max<int>(1, static_cast<int>(jobs.size())));
  for (int t = 0; t < n; ++t) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  std::sort(failures.begin(), failures.end(), [](const CheckFailure& a, const CheckFailure& b) {
    return std::tie(a.file, a.sm) < std::tie(b.file, b.sm);
  });
  return failures;
}

std::vector<fs::path> include_dirs_within(const CompileCommand& command, const fs::path& source_root) {
  std::vector<fs::path> out;
  fs::path dir = command.directory.empty() ? fs::current_path() : fs::path(command.directory);
  const fs::path root = absolute_normal(source_root);
  auto add = [&](const std::string& value) {
    fs::path p = absolute_normal(dir / value);
    if (is_within(p, root) && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  };
  const auto& a = command.arguments;
  for (size_t i = 0; i < a.size(); ++i) {
    for (const char* opt : {"-I", "-isystem", "-iquote", "--include-path", "--system-include"}) {
      std::string o = opt;
      if (a[i] == o && i + 1 < a.size()) {
        add(a[++i]);
        break;
      }
      if (starts_with(a[i], o + "=")) {
        add(a[i].substr(o.size() + 1));
        break;
      }
      if (o[1] != '-' && a[i].size() > o.size() && starts_with(a[i], o)) {  // -Ipath, -isystempath
        add(a[i].substr(o.size()));
        break;
      }
    }
  }
  return out;
}

}  // namespace stark::rewriter
