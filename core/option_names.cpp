#include "core/option_names.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/launch_expr.h"
#include "core/text.h"

namespace stark {

namespace {

class NameChecker {
 public:
  explicit NameChecker(const std::vector<Param>& params) : params_(params) {
    for (const auto& p : params) names_.push_back(p.name);
  }

  const Param* find(std::string_view name) const {
    auto it = std::find_if(params_.begin(), params_.end(), [&](const Param& p) { return p.name == name; });
    return it == params_.end() ? nullptr : &*it;
  }

  std::string not_a_parameter(std::string_view key, std::string_view name) const {
    return fmt::format("'{}': '{}' is not a parameter of the kernel (its parameters: {})", key, name,
                       names_.empty() ? "none" : join(names_, ", "));
  }

  /// A name a launch expression reads: a scalar parameter or "p.field".
  void check_expression(std::string_view key, std::string_view text, std::vector<std::string>& out) const {
    for (std::string_view part : split(text, ',')) {
      auto e = LaunchExpr::parse(trim(part));
      if (!e) continue;  // apply_option reported it
      for (const std::string& name : e->names()) {
        auto dot = name.find('.');
        const Param* p = find(std::string_view(name).substr(0, dot));
        if (!p) {
          out.push_back(not_a_parameter(key, name.substr(0, dot)));
        } else if (dot == std::string::npos && p->kind != ParamKind::Scalar) {
          out.push_back(fmt::format("'{}': '{}' is a {}, not a number", key, name,
                                    p->kind == ParamKind::Pointer ? "pointer" : "struct (name one of its fields)"));
        } else if (dot != std::string::npos && p->kind == ParamKind::Record && !p->fields.empty() &&
                   std::none_of(p->fields.begin(), p->fields.end(),
                                [&](const Field& f) { return f.name == name.substr(dot + 1); })) {
          out.push_back(fmt::format("'{}': '{}' has no field '{}'", key, p->name, name.substr(dot + 1)));
        }
      }
    }
  }

 private:
  const std::vector<Param>& params_;
  std::vector<std::string> names_;
};

}  // namespace

std::vector<std::string> option_name_problems(const KernelOptions& options, const std::vector<Param>& params) {
  std::vector<std::string> out;
  NameChecker names(params);
  if (options.args)
    if (auto args = parse_scalar_args(*options.args))
      for (const auto& a : *args) {
        const Param* p = names.find(a.name);
        if (!p) out.push_back(names.not_a_parameter("args", a.name));
        else if (p->kind != ParamKind::Scalar)
          out.push_back(fmt::format(
              "'args': '{}' is a {}; {}", a.name, p->kind == ParamKind::Pointer ? "pointer" : "struct",
              p->kind == ParamKind::Pointer ? "give its size in 'buffers'" : "STARK cannot set a struct from 'args'"));
      }
  if (options.buffers)
    if (auto buffers = parse_buffer_specs(*options.buffers))
      for (const auto& b : *buffers) {
        const Param* p = names.find(b.name);
        if (!p) out.push_back(names.not_a_parameter("buffers", b.name));
        else if (p->kind != ParamKind::Pointer)
          out.push_back(fmt::format("'buffers': '{}' is not a pointer; give its value in 'args'", b.name));
        names.check_expression("buffers", b.count, out);
      }
  if (options.grid) names.check_expression("grid", *options.grid, out);
  if (options.block) names.check_expression("block", *options.block, out);
  if (options.shmem) names.check_expression("shmem", *options.shmem, out);
  return out;
}

}  // namespace stark
