#include "core/launch_override_check.h"

#include <fmt/format.h>

#include <set>

#include "core/launch_expr.h"

namespace stark {

Expected<void> check_launch_override(const Kernel& kernel, const LaunchOverride& launch) {
  if (!launch.empty() && !kernel.fixed_launch.empty())
    return Error{
        fmt::format("the variant changes the launch configuration, but this kernel's launch cannot be "
                    "rewritten ({}); change only the kernel's body",
                    kernel.fixed_launch)};
  std::set<std::string> scalars, records;
  for (const auto& p : kernel.params) {
    if (p.kind == ParamKind::Scalar) scalars.insert(p.name);
    if (p.kind == ParamKind::Record) records.insert(p.name);
  }
  static const std::set<std::string> kOriginal = {"grid.x",  "grid.y",  "grid.z", "block.x",
                                                  "block.y", "block.z", "shmem"};
  auto check = [&](const char* what, const std::string& text) -> Expected<void> {
    auto e = LaunchExpr::parse(text);
    if (!e) return Error{fmt::format("launch {}: {}", what, e.error().message)};
    for (const auto& name : e->names()) {
      if (scalars.count(name) || kOriginal.count(name)) continue;
      auto dot = name.find('.');
      if (dot != std::string::npos && records.count(name.substr(0, dot))) continue;
      return Error{
          fmt::format("launch {} '{}' reads '{}': only the kernel's scalar parameters, fields of its struct parameters "
                      "(p.n), grid.x..block.z and shmem may appear",
                      what, text, name)};
    }
    return {};
  };
  for (const auto& [what, dims] : {std::pair{"grid", &launch.grid}, std::pair{"block", &launch.block}}) {
    if (!dims->empty() && dims->size() != 1 && dims->size() != 3)
      return Error{fmt::format("launch {} must be one expression or three", what)};
    for (const auto& d : *dims)
      if (auto ok = check(what, d); !ok) return ok;
  }
  if (launch.shmem)
    if (auto ok = check("shmem", *launch.shmem); !ok) return ok;
  return {};
}

}  // namespace stark
