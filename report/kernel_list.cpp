#include "report/kernel_list.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace stark::report {

namespace {

/// Items joined by ", " up to `width` characters, then "+N more".
std::string joined(const std::vector<std::string>& items, size_t width) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    std::string next = (out.empty() ? "" : ", ") + items[i];
    std::string more = fmt::format(" +{} more", items.size() - i);
    if (!out.empty() && out.size() + next.size() + (i + 1 < items.size() ? more.size() : 0) > width) return out + more;
    out += next;
  }
  return out.empty() ? "-" : out;
}

/// Control characters from source text never reach the terminal.
std::string printable(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return s;
}

}  // namespace

std::string kernel_list(const Manifest& manifest) {
  using Row = std::array<std::string, 3>;
  std::vector<Row> rows = {{"KERNEL", "INSTANTIATIONS", "LAUNCH SITES"}};
  size_t instantiations = 0, launches = 0;
  for (const auto& k : manifest.kernels) {
    std::vector<std::string> args, sites;
    for (const auto& i : k.instantiations)
      if (!i.template_args.empty()) args.push_back("<" + i.template_args + ">");
    for (const auto& l : k.launches) sites.push_back(fmt::format("{}:{}", l.file, l.line));
    instantiations += k.instantiations.size();
    launches += k.launches.size();
    rows.push_back({printable(k.id), printable(k.is_template ? joined(args, 40) : "-"), printable(joined(sites, 50))});
  }
  std::array<size_t, 2> width{};
  for (const auto& r : rows)
    for (size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], r[c].size());
  std::string out;
  for (const auto& r : rows) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {}", r[0], width[0], r[1], width[1], r[2]);
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  out += fmt::format("\n{} kernel{}, {} instantiation{}, {} launch site{}\n", manifest.kernels.size(),
                     manifest.kernels.size() == 1 ? "" : "s", instantiations, instantiations == 1 ? "" : "s", launches,
                     launches == 1 ? "" : "s");
  return out;
}

}  // namespace stark::report
