#include "harness/evaluator/ncu.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "core/child_process.h"
#include "core/file_io.h"
#include "core/text.h"

namespace stark::harness {

namespace fs = std::filesystem;

namespace {

/// One CSV record: fields split on commas outside quotes, "" inside quotes
/// is a quote.
std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

/// "1,234.5" (ncu groups digits) -> 1234.5; nullopt when not a number.
std::optional<double> number(std::string text) {
  std::erase(text, ',');
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

std::string short_name(const std::string& metric) {
  for (const auto& m : kNcuMetrics)
    if (metric == m.metric) return m.name;
  return "";
}

/// The factor from `unit` to its base: times to nanoseconds ("usecond" is
/// 1000), SI-prefixed counts to counts ("Minst" is 1e6), anything else 1.
double to_base_units(std::string_view unit) {
  if (unit.ends_with("second") && unit.find('/') == std::string_view::npos) {
    std::string_view prefix = unit.substr(0, unit.size() - 6);
    if (prefix == "n") return 1;
    if (prefix == "u") return 1e3;
    if (prefix == "m") return 1e6;
    if (prefix.empty()) return 1e9;
  }
  if (unit.size() > 1 && std::islower(static_cast<unsigned char>(unit[1]))) {
    switch (unit[0]) {
      case 'K': return 1e3;
      case 'M': return 1e6;
      case 'G': return 1e9;
      case 'T': return 1e12;
      default: break;
    }
  }
  return 1;
}

}  // namespace

std::string find_ncu(const std::string& configured) {
  if (configured == "off") return "";
  if (!configured.empty()) return fs::exists(configured) ? configured : "";
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':'))
      if (!dir.empty() && access((fs::path(dir) / "ncu").c_str(), X_OK) == 0) return (fs::path(dir) / "ncu").string();
  }
  std::string cuda = std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "/usr/local/cuda";
  if (access((fs::path(cuda) / "bin/ncu").c_str(), X_OK) == 0) return (fs::path(cuda) / "bin/ncu").string();
  return "";
}

Expected<std::map<std::string, double>> parse_ncu_csv(std::string_view text) {
  std::vector<std::string> header;
  size_t id_col = 0, name_col = 0, unit_col = 0, value_col = 0;
  std::string first_id;
  std::map<std::string, double> out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '"') continue;  // ==PROF== lines, blank lines
    auto fields = csv_fields(line);
    if (header.empty()) {
      auto col = [&](const char* name) {
        return static_cast<size_t>(std::find(fields.begin(), fields.end(), name) - fields.begin());
      };
      id_col = col("ID");
      name_col = col("Metric Name");
      unit_col = col("Metric Unit");
      value_col = col("Metric Value");
      if (name_col < fields.size() && value_col < fields.size()) header = fields;
      continue;
    }
    if (fields.size() != header.size()) continue;
    if (id_col < fields.size()) {
      if (first_id.empty()) first_id = fields[id_col];
      if (fields[id_col] != first_id) break;  // only the first profiled launch
    }
    std::string name = short_name(fields[name_col]);
    auto value = number(fields[value_col]);
    double scale = unit_col < fields.size() ? to_base_units(fields[unit_col]) : 1;
    if (!name.empty() && value) out[name] = *value * scale;
  }
  if (header.empty()) return Error{"ncu printed no metrics table"};
  if (out.empty()) return Error{"ncu's table has none of the metrics asked for (no kernel was profiled?)"};
  return out;
}

Expected<std::map<std::string, double>> run_ncu(const std::string& ncu, const std::vector<std::string>& worker_argv,
                                                const nlohmann::json& request, const std::string& mangled,
                                                std::chrono::seconds timeout, const fs::path& tmp_dir,
                                                const std::map<std::string, std::string>& env) {
  if (ncu.empty()) return Error{"ncu not found"};
  static std::atomic<int> counter{0};
  std::error_code ec;
  fs::create_directories(tmp_dir, ec);
  fs::path log = tmp_dir / fmt::format("ncu-{}-{}.csv", getpid(), counter++);
  std::vector<std::string> metrics;
  for (const auto& m : kNcuMetrics) metrics.emplace_back(m.metric);
  std::vector<std::string> argv = {ncu,
                                   "--csv",
                                   "--clock-control",
                                   "none",
                                   "--metrics",
                                   join(metrics, ","),
                                   "--kernel-name-base",
                                   "mangled",
                                   "--kernel-name",
                                   mangled,
                                   "--launch-count",
                                   "1",
                                   "--log-file",
                                   log.string()};
  argv.insert(argv.end(), worker_argv.begin(), worker_argv.end());
  SpawnOptions options;
  options.env = env;
  auto child = ChildProcess::start(argv, options);
  if (!child) return Error{fmt::format("ncu could not start: {}", child.error().message)};
  (*child)->write_line(request.dump());
  (*child)->write_line(R"({"op":"shutdown"})");
  std::string line;
  auto got = (*child)->read_line(line, timeout);
  ExitStatus status = got == ChildProcess::ReadStatus::Timeout ? (*child)->kill() : (*child)->finish(timeout);
  auto text = read_file(log);
  fs::remove(log, ec);
  if (got == ChildProcess::ReadStatus::Timeout)
    return Error{fmt::format("ncu did not finish within {} s", timeout.count())};
  if (!text) return Error{fmt::format("ncu wrote no report ({})", status.describe())};
  auto metrics_read = parse_ncu_csv(*text);
  if (!metrics_read) {
    // ncu says why in its own lines (ERR_NVGPUCTRPERM, an unsupported GPU...).
    std::string why;
    std::istringstream lines(*text);
    for (std::string l; std::getline(lines, l) && why.empty();)
      if (l.find("==ERROR==") != std::string::npos) why = std::string(trim(l));
    return Error{why.empty() ? metrics_read.error().message : why};
  }
  return metrics_read;
}

}  // namespace stark::harness
