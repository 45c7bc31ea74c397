// stark report: render a result directory as Markdown, HTML, SARIF or JSON.
#include <fmt/format.h>

#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "core/file_io.h"
#include "report/changes.h"
#include "report/report.h"
#include "rewriter/apply_plan.h"

namespace stark::cli {

namespace {

/// The reports' diffs and SARIF fixes from the rewriter's plan, so they show
/// exactly what `stark apply --mode patch` writes (annotation, provenance
/// comment, every launch site). Without a manifest, the reports' own planner.
report::EditPlanner rewriter_planner(const std::string& result_dir) {
  auto result = load_result(result_dir);
  if (!result) return report::kernel_range_edits;
  auto manifest = rewriter::load_result_manifest(*result, result_dir);
  if (!manifest) return report::kernel_range_edits;
  return [result = std::move(*result), manifest = std::move(*manifest)](
             const Kernel& kernel, const KernelResult&,
             const std::filesystem::path& source_root) -> Expected<report::EditPlan> {
    Manifest m = manifest;
    m.source_root = source_root.string();  // the result's root, resolved as the reports resolve it
    rewriter::PlanOptions options;
    options.only = {kernel.id};
    auto plan = rewriter::plan_apply(result, m, options);
    if (!plan) return plan.error();
    for (const auto& r : plan->refused)
      if (r.kernel == kernel.id) return Error{r.message};
    report::EditPlan out;
    for (const auto& f : plan->files)
      for (auto& e : report::edits_between(f.path, f.original, f.updated)) out.edits.push_back(std::move(e));
    return out;
  };
}

class ReportCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub = app.add_subcommand("report",
                                   "Render the result of an optimize run for people (md, html) or tools "
                                   "(sarif, json)");
    sub->add_option("--result", result_dir_, "Result directory written by stark optimize --out")
        ->required()
        ->transform(absolute_path());
    sub->add_option("--format", format_,
                    "md: a pull-request comment; html: one self-contained page; sarif: code "
                    "scanning (SARIF 2.1.0); json: stark.report/1")
        ->check(CLI::IsMember({"md", "markdown", "html", "sarif", "json"}))
        ->default_val("md");
    sub->add_option("-o,--output", output_, "Write the report here instead of standard output")
        ->transform(absolute_path());
    sub->footer(
        "\nThe report reads only the result directory and the files it names (the manifest, for\n"
        "kernel locations, and the sources, for the winning diff). Relative paths in result.json\n"
        "are taken relative to the result directory.\n"
        "\nExamples:\n"
        "  stark report --result stark-out                       Markdown on standard output\n"
        "  stark report --result stark-out --format html -o report.html\n"
        "  stark report --result stark-out --format sarif -o stark.sarif\n");
    return sub;
  }

  int run() override {
    auto format = report::parse_format(format_);
    if (!format) {  // CLI11 already checked the name; this keeps the two lists honest
      print_error(fmt::format("unknown report format '{}'", format_));
      return kExitUsage;
    }
    auto in = report::load_report_input(result_dir_, rewriter_planner(result_dir_));
    if (!in) {
      print_error(in.error().message);
      return kExitFailed;
    }
    for (const auto& w : in->warnings) print_warning(w);
    for (const auto& k : in->kernels)
      if (!k.change_error.empty()) print_warning(fmt::format("no diff for '{}': {}", k.result.id, k.change_error));
    std::string text = report::render(*in, *format, {STARK_VERSION});
    if (output_.empty()) {
      fmt::print("{}", text);
      return kExitOk;
    }
    if (auto ok = write_file_atomic(output_, text); !ok) {
      print_error(ok.error().message);
      return kExitFailed;
    }
    return kExitOk;
  }

 private:
  std::string result_dir_, format_ = "md", output_;
};

}  // namespace

std::unique_ptr<Command> make_report_command() { return std::make_unique<ReportCommand>(); }

}  // namespace stark::cli
