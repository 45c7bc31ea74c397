#include "pipeline/kernel_brief.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/file_io.h"
#include "core/hash.h"

namespace stark {

std::string launch_site_line(const Kernel& kernel, const Launch& l) {
  std::string where = fmt::format("{}:{}{}", l.file, l.line, l.caller.empty() ? "" : " in " + l.caller + "()");
  std::string args = fmt::format("{}", fmt::join(l.args, ", "));
  if (l.kind == LaunchKind::Api)
    return fmt::format("{}: runtime-API launch of {} with grid {}, block {}{} and arguments ({})", where, kernel.name,
                       l.grid.value_or("(set in a launch config)"), l.block.value_or("(set in a launch config)"),
                       l.shmem ? ", shared memory " + *l.shmem : "", args);
  std::string config = l.grid.value_or("?") + ", " + l.block.value_or("?");
  if (l.shmem) config += ", " + *l.shmem;
  if (l.stream) config += ", " + *l.stream;
  return fmt::format("{}: {}<<<{}>>>({})", where, kernel.name, config, args);
}

Expected<std::string> kernel_source(const Manifest& manifest, const Kernel& kernel) {
  auto path = std::filesystem::path(manifest.source_root) / kernel.file;
  auto text = read_file(path);
  if (!text) return text.error();
  auto it = manifest.files.find(kernel.file);
  if (it != manifest.files.end() && it->second.hash != content_hash(*text))
    return Error{fmt::format("{} changed since it was scanned; scan again", kernel.file)};
  if (kernel.range.end > static_cast<int64_t>(text->size()))
    return Error{fmt::format("{} is shorter than the scan recorded; scan again", kernel.file)};
  return text->substr(kernel.range.begin, kernel.range.end - kernel.range.begin);
}

Expected<KernelBrief> make_brief(const Manifest& manifest, const Kernel& kernel, CapturedInputs inputs,
                                 std::optional<GpuInfo> gpu) {
  auto source = kernel_source(manifest, kernel);
  if (!source) return source.error();
  KernelBrief b;
  b.kernel = &kernel;
  b.source = std::move(*source);
  for (const auto& l : kernel.launches) {
    std::string line = launch_site_line(kernel, l);
    if (std::find(b.launch_sites.begin(), b.launch_sites.end(), line) == b.launch_sites.end())
      b.launch_sites.push_back(std::move(line));
  }
  b.inputs = std::move(inputs.lines);
  b.scalars = std::move(inputs.scalars);
  b.gpu = std::move(gpu);
  b.rtol = kernel.options.rtol;
  b.atol = kernel.options.atol;
  return b;
}

}  // namespace stark
