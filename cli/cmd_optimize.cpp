// stark optimize: scan, capture, search and prove faster kernels; write the
// result directory that `stark apply` and `stark report` read.
#include <fmt/format.h>
#include <unistd.h>

#include <functional>
#include <iostream>

#include "agents/builtin/builtin_team.h"
#include "agents/llm/make_client.h"
#include "agents/llm_team.h"
#include "cache/result_cache.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "cli/manifest_input.h"
#include "cli/progress.h"
#include "core/file_io.h"
#include "core/folder_lock.h"
#include "harness/capture/capture_runner.h"
#include "harness/evaluator/gpu_evaluator.h"
#include "pipeline/input_summary.h"
#include "pipeline/optimize.h"

namespace stark::cli {

namespace {

namespace fs = std::filesystem;

class OptimizeCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub =
        app.add_subcommand("optimize", "Search faster variants of the marked kernels and prove them on the GPU");
    add_input_options(sub);
    add_role_options(sub);
    add_search_options(sub);
    add_run_options(sub);
    add_cache_and_limit_options(sub);
    auto* quiet = sub->add_flag("-q,--quiet", quiet_, "Only warnings and errors");
    sub->add_flag("-v,--verbose", verbose_, "A line per attempt with its diagnostics")->excludes(quiet);
    sub->add_option("test_command", test_command_, "Command whose CUDA launches are captured (after --), e.g. ctest");
    sub->footer(
        "\nSteps: scan the build; run TEST_COMMAND with the capture library to record the kernels'\n"
        "real inputs; for each kernel run the STARK tree search (plan, code, debug roles) with every\n"
        "candidate checked against the original on those inputs and timed on the GPU; write\n"
        "OUT/result.json, OUT/manifest.json, OUT/state/ (resumable searches) and OUT/audit/ (every\n"
        "LLM request and reply, without keys). Without a GPU, candidates are still written and\n"
        "compiled (at most 4 per kernel unless --budget is given), and every kernel ends 'untimed'.\n"
        "\nA kernel searched before with the same key (its code and dependencies, flags, GPU, backend,\n"
        "budget, inputs) is not searched again: the cached winner is re-verified with one evaluation\n"
        "and reused ('cache: hit'). See stark cache --help.\n"
        "\nLLM replies are kept in BUILD_DIR/.stark/llm-cache (the reply and a hash of the request, never\n"
        "a key), so a re-run with the same prompts sends nothing; a reply the roles could not use is\n"
        "not kept. --force sends every request again and replaces the stored replies; --no-cache\n"
        "neither reads nor writes them.\n"
        "\nBackends: builtin (offline expert, no network), openai (OPENAI_API_KEY; any OpenAI-compatible\n"
        "--base-url), anthropic (ANTHROPIC_API_KEY), command (--command PROGRAM).\n"
        "\nThe search: --epsilon, --n-root, --n-child and --top-r are the paper's hyperparameters (defaults\n"
        "are its values); --parallel 1 runs its loop one expansion at a time. A kernel's annotation may\n"
        "set them and the role temperatures for itself ([[stark::optimize(\"epsilon=0.2, top_r=5,\n"
        "plan_temperature=1.0\")]]); an option given here wins. A saved search resumes only\n"
        "under the same backend, models, temperatures, prompts and hyperparameters (each kind of run keeps\n"
        "its own state in OUT/state/).\n"
        "\nExamples:\n"
        "  stark optimize -p build -- ctest --test-dir build\n"
        "  stark optimize -p build --backend anthropic --model claude-sonnet-4-5 --max-cost 5 -- ctest --test-dir "
        "build\n"
        "  stark optimize -p build --backend openai --base-url http://localhost:8000/v1 --model qwen --dry-run\n"
        "  sbatch --gres=gpu:4 --ntasks=4 --wrap 'stark optimize -p build --executor slurm -- ctest --test-dir "
        "build'\n");
    return sub;
  }

  /// What to optimize: the build, its target and configuration, a manifest, kernels.
  void add_input_options(CLI::App* sub) {
    sub->add_option("-p,--build-dir", build_dir_, "Build tree of the project")->required()->transform(absolute_path());
    sub->add_option("--target", target_, "Only this CMake target's kernels");
    sub->add_option("--config", config_, "Configuration of a multi-config build whose flags to use (Release, ...)");
    sub->add_option("--manifest", manifest_, "Use this manifest instead of scanning")->transform(absolute_path());
    sub->add_option("--kernel", kernels_, "Only this kernel id (repeat the option for several; see stark scan --list)")
        ->allow_extra_args(false);
  }

  /// Who plays the roles: the backend, its models, temperatures and endpoint.
  void add_role_options(CLI::App* sub) {
    sub->add_option("--backend", backend_, "Who plays the plan/code/debug roles")
        ->check(CLI::IsMember({"builtin", "openai", "anthropic", "command"}))
        ->capture_default_str();
    sub->add_option("--model", model_, "Model name for openai/anthropic (every role's, unless the role names its own)");
    sub->add_option("--plan-model", plan_model_, "Model of the plan role (default: --model)");
    sub->add_option("--code-model", code_model_, "Model of the code role (default: --model)");
    sub->add_option("--debug-model", debug_model_, "Model of the debug role (default: --model)");
    given_.plan_t = sub->add_option("--plan-temperature", plan_temperature_, "Temperature of the plan role")
                        ->check(CLI::Range(0.0, 2.0))
                        ->capture_default_str();
    given_.code_t = sub->add_option("--code-temperature", code_temperature_, "Temperature of the code role")
                        ->check(CLI::Range(0.0, 2.0))
                        ->capture_default_str();
    given_.debug_t = sub->add_option("--debug-temperature", debug_temperature_, "Temperature of the debug role")
                         ->check(CLI::Range(0.0, 2.0))
                         ->capture_default_str();
    sub->add_option("--base-url", base_url_, "API endpoint (vLLM, llama.cpp, Ollama: http://host:port/v1)");
    sub->add_option("--command", command_, "For --backend command: a program that reads a request on stdin");
  }

  /// The tree search: budget, seed, parallelism and the paper's hyperparameters.
  void add_search_options(CLI::App* sub) {
    sub->add_option("--budget", budget_, "Attempts per kernel (default: the annotation's, else 30)")
        ->check(whole_number(1, 100000));
    sub->add_option("--seed", seed_, "Seed of the search")->capture_default_str();
    sub->add_option("--parallel", parallel_, "Candidates in flight at once (1: the paper's sequential loop)")
        ->check(whole_number(1, 64))
        ->capture_default_str();
    given_.epsilon =
        sub->add_option("--epsilon", rules_.epsilon, "Chance of exploring a random leaf instead of the fastest node")
            ->check(CLI::Range(0.0, 1.0))
            ->capture_default_str();
    given_.n_root = sub->add_option("--n-root", rules_.n_root, "Children the original may have at most")
                        ->check(whole_number(1, 1000))
                        ->capture_default_str();
    given_.n_child =
        sub->add_option("--n-child", rules_.n_child, "A node whose children all failed is dropped past this many")
            ->check(whole_number(0, 1000))
            ->capture_default_str();
    given_.top_r = sub->add_option("--top-r", rules_.top_r, "Fastest nodes the plan role is shown")
                       ->check(whole_number(0, 100))
                       ->capture_default_str();
  }

  /// Where results go and where GPU workers run.
  void add_run_options(CLI::App* sub) {
    sub->add_option("--out", out_, "Result directory (default: BUILD_DIR/stark/<target or all>)")
        ->transform(absolute_path());
    sub->add_option("--ncu", ncu_,
                    "Nsight Compute for the profile facts every role sees (default: from PATH or the CUDA toolkit; "
                    "off: none)");
    sub->add_option("--executor", executor_,
                    "Where GPU workers run: local (one per GPU here), slurm (srun --gres=gpu:1)")
        ->check(CLI::IsMember({"local", "slurm"}))
        ->capture_default_str();
    sub->add_option("--workers", workers_, "GPU workers (default: one per local GPU / per GPU of the SLURM allocation)")
        ->check(whole_number(1, 4096));
    sub->add_option("--srun-arg", srun_args_,
                    "Added to every srun of --executor slurm (repeatable), e.g. --partition=gpu");
  }

  /// The caches, a dry run, and the cost and time limits.
  void add_cache_and_limit_options(CLI::App* sub) {
    sub->add_flag("--force", force_,
                  "Search every kernel afresh: ignore the result cache, saved search states and stored LLM replies "
                  "(every request is sent; the caches are refreshed)");
    sub->add_option("--cache-dir", cache_dir_, "Result cache (default: $STARK_CACHE_DIR, else BUILD_DIR/.stark/cache)")
        ->transform(absolute_path());
    sub->add_flag("--no-cache", no_cache_, "Neither reuse nor store results or LLM replies (see stark cache --help)");
    sub->add_flag("--dry-run", dry_run_,
                  "Print each role's prompt for every kernel (plan, code, debug) as an LLM backend would get it; send "
                  "nothing, evaluate nothing");
    sub->add_option(
           "--max-cost", max_cost_,
           "Stop searching once the LLM calls cost this many USD (the models' prices must be known: see --price)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--price", price_,
                    "USD per million input and output tokens, for models or endpoints whose prices STARK does not know")
        ->expected(2)
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--llm-timeout", llm_timeout_, "Seconds one role's call may take, retries included")
        ->check(CLI::PositiveNumber);
    sub->add_option("--time-limit", time_limit_,
                    "Wall-clock seconds per kernel (a call still running then is cut short)")
        ->check(CLI::PositiveNumber);
  }

  int run() override {
    Verbosity verbosity = quiet_ ? Verbosity::Quiet : verbose_ ? Verbosity::Verbose : Verbosity::Normal;
    ProgressDisplay progress(std::cerr, ProgressStyle::detect(STDERR_FILENO, verbosity));
    auto note = [&](const std::string& m) {
      if (!quiet_) progress.message("stark: " + m);
    };

    // Usage errors first: nothing is scanned, probed or run for a command
    // line that cannot work.
    llm::ClientStack stack;
    if (auto ok = make_llm_stack(stack); !ok) {
      print_error(ok.error().message);
      return kExitUsage;
    }

    auto input = obtain_manifest(build_dir_, target_, config_, manifest_);
    if (!input) {
      print_error(input.error().message);
      return kExitFailed;
    }
    Manifest& manifest = input->manifest;
    const fs::path out = out_dir();
    // Taken once the build is known to exist (the lock creates the folder),
    // held to the end: a second run into this folder would spend the budget
    // again and overwrite this one's result.
    auto lock = FolderLock::acquire(out, "stark optimize");
    if (!lock) {
      print_error(lock.error().message);
      return kExitFailed;
    }
    fs::path manifest_path = out / "manifest.json";
    if (auto ok = write_json_file(manifest_path, nlohmann::json(manifest)); !ok) {
      print_error(ok.error().message);
      return kExitFailed;
    }
    if (manifest.kernels.empty()) {
      print_error("no [[stark::optimize]] kernel found" +
                  std::string(input->had_errors ? " (see the errors above)" : ""));
      return kExitFailed;
    }
    fs::path store = harness::default_store(manifest.build_dir);
    OptimizeOptions oo = optimize_options(out, manifest_path);
    if (dry_run_) return preview(manifest, stack, store, oo, note);
    return search(manifest, *input, stack, store, out, oo, progress, note);
  }

  /// The whole search, once the manifest is in hand.
  int search(const Manifest& manifest, const ManifestInput& input, const llm::ClientStack& stack, const fs::path& store,
             const fs::path& out, OptimizeOptions oo, ProgressDisplay& progress,
             const std::function<void(const std::string&)>& note) {
    harness::GpuEvaluatorOptions eo;
    eo.store = store;
    eo.cache_dir = harness::default_cache(manifest.build_dir);
    eo.seed = seed_;
    eo.executor = *harness::parse_executor_kind(executor_);
    eo.ncu = ncu_;
    eo.workers = workers_;
    eo.srun_args = srun_args_;
    if (workers_ == 0) eo.devices.clear();  // one worker per visible GPU
    harness::GpuEvaluator evaluator(manifest, eo);
    bool gpu = evaluator.gpu().has_value();
    if (!gpu)
      progress.message(
          fmt::format("stark: warning: no GPU ({}): candidates are compiled and checked, nothing is "
                      "captured or timed; every kernel ends 'untimed'",
                      evaluator.no_gpu_reason()));
    if (gpu && !test_command_.empty()) capture(manifest, store, eo.cache_dir, progress, note);

    auto setup = locate_clang_setup();
    if (!setup) {
      print_error(setup.error().message);
      return kExitFailed;
    }
    ClangVariantValidator validator(*setup, manifest.source_root);
    std::unique_ptr<Team> team = backend_ == "builtin" ? make_builtin_team(manifest, *setup) : llm_team(stack);

    if (!gpu && !budget_) {
      oo.budget_cap = kUntimedBudget;
      note(
          fmt::format("no GPU: at most {} attempts per kernel, enough to check that candidates compile "
                      "(--budget N for more)",
                      kUntimedBudget));
    }
    ResultCache cache(resolve_cache_dir(cache_dir_, manifest.build_dir));
    if (!no_cache_) {
      oo.cache.cache = &cache;
      oo.cache.read = !force_;
      oo.cache.backend_detail = backend_ == "command" ? command_ : llm::redact_url(base_url_);
      oo.cache.stark_version = STARK_VERSION;
      oo.cache.input_shapes = [&](const Kernel& k) { return capture_shapes(store, k); };
    }
    int total = 0;
    for (const auto& k : manifest.kernels)
      if (kernels_.empty() || std::find(kernels_.begin(), kernels_.end(), k.id) != kernels_.end())
        total += kernel_budget(k, budget_, oo.budget_cap);
    progress.begin_run(static_cast<int>(kernels_.empty() ? manifest.kernels.size() : kernels_.size()), total);

    auto result = run_optimize(
        manifest, evaluator, validator, *team, [&](const Kernel& k) { return describe_inputs(store, k); }, oo,
        progress_hooks(progress, note));
    if (!result) {
      print_error(result.error().message);
      return kExitFailed;
    }
    progress.end_run(*result);
    trim_caches(cache.dir(), eo.cache_dir, note);
    note(fmt::format("results in {} (stark report --result {} --format md; stark apply --result {} --mode patch)",
                     out.string(), out.string(), out.string()));
    if (nothing_searched(*result)) {
      print_error("no kernel could be searched (each one's reason is above)");
      return kExitFailed;
    }
    return input.had_errors ? kExitFailed : kExitOk;
  }

  /// --dry-run: every role's prompt for each kernel, on stdout; nothing is
  /// captured, evaluated, saved or cached.
  int preview(const Manifest& manifest, const llm::ClientStack& stack, const fs::path& store, const OptimizeOptions& oo,
              const std::function<void(const std::string&)>& note) {
    auto team = llm_team(stack);
    OptimizeHooks hooks;
    hooks.message = note;
    auto previewed =
        preview_optimize(manifest, *team, [&](const Kernel& k) { return describe_inputs(store, k); }, oo, hooks);
    if (!previewed) {
      print_error(previewed.error().message);
      return kExitFailed;
    }
    note(fmt::format("dry run: the plan, code and debug prompts of {} kernel{} printed; nothing was sent or evaluated",
                     *previewed, *previewed == 1 ? "" : "s"));
    return kExitOk;
  }

  /// --out, else BUILD_DIR/stark/<target or all>.
  fs::path out_dir() const {
    return out_.empty() ? fs::path(build_dir_) / "stark" / (target_.empty() ? "all" : target_) : fs::path(out_);
  }

  /// The LLM client stack for a model backend (nothing for builtin); Errors
  /// for a command line that cannot work (no model, no key, no price for
  /// --max-cost, --dry-run without a model backend).
  Expected<void> make_llm_stack(llm::ClientStack& stack) {
    if (backend_ == "builtin") {
      if (dry_run_)
        return Error{
            "--dry-run prints the prompts a model backend would get, and the builtin backend sends none: "
            "pick --backend openai, anthropic or command"};
      return {};
    }
    llm::ClientOptions co;
    if (!no_cache_) co.cache_dir = fs::path(build_dir_) / ".stark" / "llm-cache";
    co.cache_read = !force_;
    co.audit_dir = out_dir() / "audit";
    co.dry_run = dry_run_;
    co.dry_run_out = &std::cout;
    co.concurrency = parallel_;
    if (price_.size() == 2) co.price = llm::TokenRates{price_[0], price_[1]};
    if (llm_timeout_) {
      auto limit = std::chrono::milliseconds(static_cast<int64_t>(*llm_timeout_ * 1000));
      co.retry.call_limit = limit;
      co.command_timeout = std::min(co.command_timeout, limit);
    }
    std::string model = model_.empty() ? plan_model_ : model_;
    auto made = llm::make_chat_client(backend_, model, base_url_, command_, co);
    if (!made) return made.error();
    stack = std::move(*made);
    if (max_cost_) {
      std::vector<std::string> models{stack.model};
      for (const auto& m : {plan_model_, code_model_, debug_model_})
        if (!m.empty()) models.push_back(m);
      if (auto why = llm::unknown_cost_reason(stack, models))
        return Error{
            fmt::format("--max-cost needs the price of every reply, and {}: pass --price IN OUT (USD per "
                        "million input and output tokens)",
                        *why)};
    }
    return {};
  }

  std::unique_ptr<Team> llm_team(const llm::ClientStack& stack) const {
    LlmTeamOptions to;
    to.backend = backend_;
    to.endpoint = backend_ == "command" ? command_ : llm::redact_url(stack.base_url);
    to.model = stack.model;
    to.plan_model = plan_model_;
    to.code_model = code_model_;
    to.debug_model = debug_model_;
    to.plan_temperature = plan_temperature_;
    to.code_temperature = code_temperature_;
    to.debug_temperature = debug_temperature_;
    return std::make_unique<LlmTeam>(*stack.client, to);
  }

  OptimizeOptions optimize_options(const fs::path& out, const fs::path& manifest_path) const {
    OptimizeOptions oo;
    oo.out_dir = out;
    oo.manifest_path = manifest_path.string();
    oo.kernels = kernels_;
    oo.budget = budget_;
    oo.seed = seed_;
    oo.parallel = parallel_;
    oo.rules = rules_;
    oo.given = given_settings();
    oo.max_cost_usd = max_cost_;
    oo.kernel_time_limit_s = time_limit_;
    oo.fresh = force_;
    return oo;
  }

  void capture(const Manifest& manifest, const fs::path& store, const fs::path& cache_dir, ProgressDisplay& progress,
               const std::function<void(const std::string&)>& note) {
    harness::CaptureOptions co;
    co.store = store;
    co.cache_dir = cache_dir;
    co.command = test_command_;
    harness::Printer printer{note, [&](const std::string& s) { progress.message("stark: warning: " + s); },
                             [&](const std::string& s) { progress.message("stark: error: " + s); }};
    note("capturing the kernels' inputs: " + join_command(test_command_));
    if (harness::run_capture(manifest, co, printer) != 0)
      progress.message(
          "stark: warning: the capture did not record every kernel; kernels without inputs use their "
          "annotation's args/buffers or fail with the reason");
  }

  static OptimizeHooks progress_hooks(ProgressDisplay& progress, const std::function<void(const std::string&)>& note) {
    OptimizeHooks hooks;
    hooks.begin_kernel = [&progress](const Kernel& k, int budget, std::optional<double> baseline) {
      progress.begin_kernel(k.id, budget, baseline);
    };
    hooks.attempt = [&progress](const Kernel&, const SearchNode& n) { progress.attempt(n); };
    hooks.end_kernel = [&progress](const KernelResult& k) { progress.end_kernel(k); };
    hooks.message = note;
    return hooks;
  }

 private:
  /// True when kernels were to be searched and not one got an attempt (no
  /// inputs, a source that no longer matches...): the run did nothing.
  static bool nothing_searched(const Result& r) {
    bool any = false;
    for (const auto& k : r.kernels) {
      if (k.status == KernelStatus::Skipped) continue;
      if (k.status != KernelStatus::Failed || k.attempts > 0) return false;
      any = true;
    }
    return any;
  }

  /// Keeps the result cache and the compile cache under the default cap,
  /// oldest files first, as ccache does after a build.
  void trim_caches(const fs::path& results, const fs::path& compiles,
                   const std::function<void(const std::string&)>& note) const {
    if (no_cache_) return;
    std::vector<fs::path> dirs{results};
    if (compiles != results) dirs.push_back(compiles);
    for (const fs::path& dir : dirs) {
      auto trimmed = ResultCache(dir).clean({std::nullopt, kDefaultCacheMaxBytes});
      if (trimmed && trimmed->removed + trimmed->compile_removed > 0)
        note(fmt::format("cache {} over {} GiB: removed its {} oldest files", dir.string(), kDefaultCacheMaxBytes >> 30,
                         trimmed->removed + trimmed->compile_removed));
    }
  }

  static std::string join_command(const std::vector<std::string>& argv) {
    return fmt::format("{}", fmt::join(argv, " "));
  }

  std::string build_dir_, target_, config_, manifest_, backend_ = "builtin", model_, base_url_, command_, out_;
  std::string plan_model_, code_model_, debug_model_;
  double plan_temperature_ = LlmTeamOptions{}.plan_temperature, code_temperature_ = LlmTeamOptions{}.code_temperature,
         debug_temperature_ = LlmTeamOptions{}.debug_temperature;
  SelectionRules rules_;
  /// The search settings' options, to tell given from defaulted: the given
  /// ones win over a kernel's annotation.
  struct {
    CLI::Option *plan_t = nullptr, *code_t = nullptr, *debug_t = nullptr, *epsilon = nullptr, *n_root = nullptr,
                *n_child = nullptr, *top_r = nullptr;
  } given_;
  SearchSettings given_settings() const {
    SearchSettings s;
    auto given = [](const CLI::Option* o) { return o && o->count() > 0; };
    if (given(given_.epsilon)) s.epsilon = rules_.epsilon;
    if (given(given_.n_root)) s.n_root = rules_.n_root;
    if (given(given_.n_child)) s.n_child = rules_.n_child;
    if (given(given_.top_r)) s.top_r = rules_.top_r;
    if (given(given_.plan_t)) s.plan_temperature = plan_temperature_;
    if (given(given_.code_t)) s.code_temperature = code_temperature_;
    if (given(given_.debug_t)) s.debug_temperature = debug_temperature_;
    return s;
  }
  std::vector<double> price_;
  std::optional<double> llm_timeout_;
  std::string executor_ = "local";  // checked against the kinds when parsed
  std::string ncu_;
  int workers_ = 0;
  std::vector<std::string> srun_args_;
  std::vector<std::string> kernels_, test_command_;
  std::optional<int> budget_;
  uint64_t seed_ = 0;
  int parallel_ = 4;
  std::optional<double> max_cost_, time_limit_;
  std::string cache_dir_;
  bool force_ = false, dry_run_ = false, quiet_ = false, verbose_ = false, no_cache_ = false;
};

}  // namespace

std::unique_ptr<Command> make_optimize_command() { return std::make_unique<OptimizeCommand>(); }

}  // namespace stark::cli
