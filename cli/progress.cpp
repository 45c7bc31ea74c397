#include "cli/progress.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

#include "report/format.h"
#include "report/report_input.h"

namespace stark::cli {

namespace {

constexpr std::string_view kBold = "1", kGreen = "32", kRed = "31", kYellow = "33", kDim = "2";

/// Code points shown, not counting ANSI escape sequences.
size_t visible_width(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\033') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++n;
  }
  return n;
}

/// Plain text cut to at most `max` code points, "..." marking the cut.
std::string elide(std::string_view s, size_t max) {
  if (visible_width(s) <= max) return std::string(s);
  if (max <= 3) return std::string(std::min<size_t>(max, 3), '.');
  size_t keep = max - 3, n = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && n++ == keep) break;
  }
  return std::string(s.substr(0, i)) + "...";
}

std::string first_line(std::string_view s) { return std::string(s.substr(0, s.find('\n'))); }

/// "queued 3.1, load 0.2, correctness 0.9": where the judge's time went,
/// waiting for a worker and then the worker's phases, in the order they run.
std::string judge_parts(const std::map<std::string, double>& seconds) {
  std::string out;
  for (const char* part : {"queued", "load", "correctness", "other_sizes", "fuzz", "timing", "recheck"})
    if (auto it = seconds.find(fmt::format("judge.{}", part)); it != seconds.end() && it->second >= 0.05)
      out += fmt::format("{}{} {:.1f}", out.empty() ? "" : ", ", part, it->second);
  return out;
}

/// "compile 2.1 s, judge 4.0 s (queued 3.1, timing 0.6), sanitize 9.3 s", in the order they run.
std::string phase_times(const std::map<std::string, double>& seconds) {
  std::string out;
  for (const char* phase : {"compile", "judge", "gates", "sanitize"}) {
    auto it = seconds.find(phase);
    if (it == seconds.end()) continue;
    out += fmt::format("{}{} {:.1f} s", out.empty() ? "" : ", ", phase, it->second);
    if (std::string parts = judge_parts(seconds); phase == std::string_view("judge") && !parts.empty())
      out += " (" + parts + ")";
  }
  return out;
}

}  // namespace

std::string progress_time(double us) {
  auto sig3 = [](double v) {
    double a = v < 0 ? -v : v;
    return fmt::format("{:.{}f}", v, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
  };
  if (us >= 1e6) return sig3(us / 1e6) + " s";
  if (us >= 1e3) return sig3(us / 1e3) + " ms";
  return sig3(us) + " us";
}

ProgressStyle ProgressStyle::detect(int fd, Verbosity verbosity) {
  ProgressStyle s;
  s.verbosity = verbosity;
  const char* term = std::getenv("TERM");
  s.terminal = isatty(fd) && !(term && std::string_view(term) == "dumb");
  const char* no_color = std::getenv("NO_COLOR");
  s.color = s.terminal && (no_color == nullptr || *no_color == '\0');
  winsize ws{};
  if (s.terminal && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    s.width = ws.ws_col;
  } else if (const char* cols = std::getenv("COLUMNS"); cols && std::atoi(cols) > 0) {
    s.width = std::atoi(cols);
  }
  return s;
}

ProgressDisplay::ProgressDisplay(std::ostream& out, ProgressStyle style) : out_(out), style_(style) {}

ProgressDisplay::~ProgressDisplay() {
  std::lock_guard lock(mutex_);
  if (status_shown_) out_ << "\r\033[K" << std::flush;
}

std::string ProgressDisplay::paint(std::string_view code, std::string_view text) const {
  if (!style_.color) return std::string(text);
  return fmt::format("\033[{}m{}\033[0m", code, text);
}

void ProgressDisplay::print_line(std::string_view line) {
  if (status_shown_) out_ << "\r\033[K";
  out_ << line << "\n";
  status_shown_ = false;
}

void ProgressDisplay::show_status(std::string status) {
  if (style_.terminal) {
    out_ << "\r" << status << "\033[K" << std::flush;
    status_shown_ = true;
  } else {
    out_ << status << "\n" << std::flush;
  }
}

std::string ProgressDisplay::status_text(const SearchNode* last) const {
  std::string prefix = fmt::format("[{}/{}] {}", done_, total_, paint(kBold, name_));
  if (kernels_ > 1) prefix += fmt::format(" ({}/{})", kernel_index_, kernels_);
  if (best_us_ && baseline_us_ && *best_us_ < *baseline_us_)
    prefix += " best " + paint(kGreen, fmt::format("{:.2f}x", *baseline_us_ / *best_us_));
  else if (baseline_us_) prefix += " baseline " + progress_time(*baseline_us_);
  std::string tail;
  if (last) {
    tail = fmt::format(" | #{} {} {}", last->id, to_string(last->role), to_string(last->status));
    if (last->time_us) tail += " " + progress_time(*last->time_us);
    if (!last->strategy.empty()) tail += ": " + last->strategy;
  } else {
    tail = " | searching";
  }
  int room = style_.width - 1 - static_cast<int>(visible_width(prefix));  // never touch the last column
  if (!style_.terminal) return prefix + tail;                             // logs keep the whole line
  if (room < 4) return elide(prefix, std::max(style_.width - 1, 1));
  return prefix + elide(tail, static_cast<size_t>(room));
}

void ProgressDisplay::begin_run(int kernels, int total_attempts) {
  std::lock_guard lock(mutex_);
  kernels_ = kernels;
  total_ = total_attempts;
  done_ = 0;
  kernel_index_ = 0;
}

void ProgressDisplay::begin_kernel(const std::string& id, int budget, std::optional<double> baseline_us) {
  std::lock_guard lock(mutex_);
  name_ = report::short_name(id);
  ++kernel_index_;
  budget_ = budget;
  kernel_done_ = 0;
  baseline_us_ = baseline_us;
  best_us_.reset();
  if (style_.verbosity == Verbosity::Quiet) return;
  if (style_.verbosity == Verbosity::Verbose)
    print_line(fmt::format("{}: searching, budget {}{}", paint(kBold, id), budget,
                           baseline_us ? ", original " + progress_time(*baseline_us) : ""));
  if (style_.terminal) show_status(status_text(nullptr));
}

void ProgressDisplay::set_baseline(double baseline_us) {
  std::lock_guard lock(mutex_);
  baseline_us_ = baseline_us;
}

void ProgressDisplay::attempt(const SearchNode& e) {
  std::lock_guard lock(mutex_);
  ++done_;
  ++kernel_done_;
  if (done_ > total_) total_ = done_;  // more attempts than announced (debug retries): never show 31/30
  if (e.status == NodeStatus::Accepted && e.time_us && (!best_us_ || *e.time_us < *best_us_)) best_us_ = e.time_us;
  if (style_.verbosity == Verbosity::Quiet) return;
  if (style_.verbosity == Verbosity::Verbose) {
    std::string line = fmt::format("[{}/{}] {} #{} {} {}", done_, total_, name_, e.id, to_string(e.role),
                                   paint(e.status == NodeStatus::Accepted ? kGreen : kRed, to_string(e.status)));
    if (e.time_us) {
      line += " " + progress_time(*e.time_us);
      if (baseline_us_ && *e.time_us > 0) line += fmt::format(" ({:.2f}x)", *baseline_us_ / *e.time_us);
    }
    if (!e.strategy.empty()) line += ": " + e.strategy;
    if (!e.diagnostics.empty()) line += paint(kDim, " -- " + first_line(e.diagnostics));
    if (!e.seconds.empty()) line += paint(kDim, " [" + phase_times(e.seconds) + "]");
    print_line(line);
    if (style_.terminal) show_status(status_text(&e));
    return;
  }
  show_status(status_text(&e));
}

void ProgressDisplay::end_kernel(const KernelResult& k) {
  std::lock_guard lock(mutex_);
  total_ -= std::max(0, budget_ - kernel_done_);  // a search that stopped early frees its budget
  budget_ = kernel_done_;
  if (style_.verbosity == Verbosity::Quiet) return;
  std::string name = paint(kBold, report::short_name(k.id));
  std::string attempts = fmt::format("{} attempt{}", k.attempts, k.attempts == 1 ? "" : "s");
  std::string cached = k.cache == CacheState::Hit ? " (from cache)" : "";
  std::string line;
  switch (k.status) {
    case KernelStatus::Improved:
      line = fmt::format("{}: {} {}", name, paint(kGreen, "improved"),
                         paint(kGreen, k.speedup ? fmt::format("{:.2f}x", *k.speedup) : "?"));
      if (k.baseline_us && k.best_us)
        line += fmt::format(" ({} -> {})", progress_time(*k.baseline_us), progress_time(*k.best_us));
      line += " in " + attempts + cached;
      if (k.speedup && *k.speedup > report::kSecondLookSpeedup)
        line += paint(kYellow, " -- above 10x: take a second look");
      break;
    case KernelStatus::NoGain:
      line = fmt::format("{}: no gain{} in {}{}", name, k.speedup ? fmt::format(" (best {:.2f}x)", *k.speedup) : "",
                         attempts, cached);
      break;
    case KernelStatus::Failed:
      line = fmt::format("{}: {} after {}", name, paint(kRed, "failed"), attempts);
      if (std::string why = report::failure_reason(k); !why.empty()) line += ": " + why;
      break;
    case KernelStatus::Skipped: line = fmt::format("{}: skipped", name); break;
    case KernelStatus::Untimed: line = fmt::format("{}: untimed (no GPU to measure on)", name); break;
  }
  print_line(line);
}

void ProgressDisplay::message(std::string_view line) {
  std::lock_guard lock(mutex_);
  print_line(line);
}

void ProgressDisplay::end_run(const Result& r) {
  std::lock_guard lock(mutex_);
  if (status_shown_) {
    out_ << "\r\033[K";
    status_shown_ = false;
  }
  if (style_.verbosity == Verbosity::Quiet) {
    out_ << std::flush;
    return;
  }
  auto t = report::run_totals(r);
  std::string line = fmt::format("{} of {} kernel{} faster", t.improved, t.kernels, t.kernels == 1 ? "" : "s");
  if (t.geomean_speedup) line += fmt::format(" (geometric mean {:.2f}x)", *t.geomean_speedup);
  line += fmt::format(", {} attempt{}", t.attempts, t.attempts == 1 ? "" : "s");
  if (t.tokens > 0) line += fmt::format(", {} tokens", t.tokens);
  if (t.cost_usd) line += fmt::format(", ${:.2f}", *t.cost_usd);
  out_ << line << "\n" << std::flush;
}

}  // namespace stark::cli
