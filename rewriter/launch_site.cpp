#include "rewriter/launch_site.h"

#include <fmt/format.h>

#include <cctype>
#include <set>

#include "core/launch_expr.h"
#include "core/text.h"
#include "rewriter/cpp_expr.h"
#include "rewriter/source_scan.h"

namespace stark::rewriter {

namespace {

bool integral_type(std::string type) {
  for (const char* q : {"const ", "volatile "})
    while (starts_with(type, q)) type = type.substr(std::string_view(q).size());
  static const std::set<std::string> kIntegral = {
      "int",         "unsigned int",   "unsigned", "long",        "unsigned long", "long long", "unsigned long long",
      "short",       "unsigned short", "char",     "signed char", "unsigned char", "bool",      "size_t",
      "std::size_t", "int64_t",        "uint64_t", "int32_t",     "uint32_t",      "ptrdiff_t", "std::ptrdiff_t"};
  return kIntegral.count(std::string(trim(type))) > 0;
}

// Text that would run twice once substituted: increments and assignments.
bool has_side_effects(std::string_view text) {
  std::string m = code_mask(text);
  if (m.find("++") != std::string::npos || m.find("--") != std::string::npos) return true;
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i] != '=') continue;
    char before = i > 0 ? m[i - 1] : ' ';
    char after = i + 1 < m.size() ? m[i + 1] : ' ';
    if (after == '=') {
      ++i;
      continue;
    }
    if (before == '=' || before == '!' || ((before == '<' || before == '>') && !(i > 1 && m[i - 2] == before)))
      continue;
    return true;
  }
  return false;
}

/// Whether the manifest's text of argument `index` is what the call in the
/// file passes. That text is spliced into host code, so it must be the
/// user's own: the chevron call's argument itself, or, for the runtime API,
/// an address taken ("&n") before the call.
bool arg_in_file(std::string_view content, const Launch& site, size_t index) {
  const std::string want(trim(site.args[index]));
  if (want.empty()) return false;
  if (site.kind == LaunchKind::Api)
    return content.substr(0, static_cast<size_t>(site.config_range.begin)).find("&" + want) != std::string_view::npos;
  size_t at = static_cast<size_t>(site.config_range.end);
  while (at < content.size() && std::isspace(static_cast<unsigned char>(content[at]))) ++at;
  if (at >= content.size() || content[at] != '(') return false;
  for (size_t i = 0, begin = at + 1;; ++i) {
    auto sep = next_separator(content, begin);
    if (!sep) return false;
    if (i == index) return trim(content.substr(begin, *sep - begin)) == want;
    if (content[*sep] == ')') return false;
    begin = *sep + 1;
  }
}

/// `grid`, `cfg.grid`, `launch::grid`: names a dim3 object, whose fields
/// can be read directly.
bool is_identifier_path(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != ':') return false;
  return true;
}

/// The arguments of `dim3(x, y)` or `dim3{x}` as written; nullopt for any
/// other text.
std::optional<std::vector<std::string_view>> dim3_arguments(std::string_view text) {
  if (!starts_with(text, "dim3")) return std::nullopt;
  std::string_view rest = trim(text.substr(4));
  if (rest.size() < 2 || !((rest.front() == '(' && rest.back() == ')') || (rest.front() == '{' && rest.back() == '}')))
    return std::nullopt;
  if (rest.front() == '(' && !is_primary_text(rest)) return std::nullopt;  // dim3(a) + (b)
  auto parts = split(rest.substr(1, rest.size() - 2), ',');
  if (parts.empty() || parts.size() > 3) return std::nullopt;
  return parts;
}

/// Text that can stand for a parameter type in a cast: nothing that ends a
/// statement, opens a block, a string, a comment or a directive.
bool type_text(std::string_view type) {
  if (type.empty() || type.find("//") != std::string_view::npos || type.find("/*") != std::string_view::npos)
    return false;
  for (char c : type)
    if (std::iscntrl(static_cast<unsigned char>(c)) || std::string_view(";{}\"'#\\").find(c) != std::string_view::npos)
      return false;
  return true;
}

/// Resolves the names of an override at one site.
class SiteNames {
 public:
  SiteNames(const Kernel& kernel, const Launch& site, std::string_view content)
      : kernel_(kernel), site_(site), content_(content) {}

  Expected<CppText> operator()(std::string_view name) const {
    auto dot = name.find('.');
    std::string head(name.substr(0, dot));
    if (head == "grid" || head == "block") {
      const auto& original = head == "grid" ? site_.grid : site_.block;
      std::string field(dot == std::string_view::npos ? "" : name.substr(dot + 1));
      if (field != "x" && field != "y" && field != "z")
        return Error{fmt::format("'{}' is not allowed (use {}.x, {}.y or {}.z)", name, head, head, head)};
      if (!original)
        return Error{fmt::format("'{}' reads the original {}, which this launch does not spell out", name, head)};
      if (!(head == "grid" ? site_.grid_range
                           : site_.block_range))  // text checked against the file only with its place
        return Error{
            fmt::format("'{}' reads the original {}, whose place in the file the scan did not record", name, head)};
      if (has_side_effects(*original))
        return Error{fmt::format("'{}' reads the original {} '{}', which has side effects", name, head, *original)};
      // Read as a person would: an integer (a literal, or what the scan
      // typed as one) is x with y = z = 1; a dim3 variable has fields.
      // Anything else may be either, which dim3(...) reads alike.
      std::string_view text = trim(*original);
      DimType type = head == "grid" ? site_.grid_type : site_.block_type;
      bool literal = !text.empty() && text.size() < 10 &&
                     text.find_first_not_of("0123456789") == std::string_view::npos && text[0] != '0';
      if (literal || type == DimType::Integer)
        return field == "x" ? CppText{std::string(text), is_primary_text(text)} : CppText{"1", true};
      if (type == DimType::Dim3 && is_identifier_path(text))
        return CppText{fmt::format("static_cast<int>({}.{})", text, field), true};
      if (type == DimType::Dim3Args)
        if (auto args = dim3_arguments(text)) {
          size_t i = field == "x" ? 0 : field == "y" ? 1 : 2;
          if (i >= args->size()) return CppText{"1", true};
          std::string_view a = trim((*args)[i]);
          return CppText{std::string(a), is_primary_text(a)};
        }
      return CppText{fmt::format("static_cast<int>(dim3({}).{})", text, field), true};
    }
    if (name == "shmem") {
      if (site_.shmem && !site_.shmem_range)
        return Error{"'shmem' reads the original size, whose place in the file the scan did not record"};
      if (site_.shmem && has_side_effects(*site_.shmem))
        return Error{fmt::format("'shmem' reads the original '{}', which has side effects", *site_.shmem)};
      return CppText{site_.shmem ? std::string(trim(*site_.shmem)) : "0", false};
    }
    size_t index = kernel_.params.size();
    for (size_t i = 0; i < kernel_.params.size(); ++i)
      if (kernel_.params[i].name == head) index = i;
    if (index == kernel_.params.size())
      return Error{fmt::format("'{}' is not a parameter of the kernel, grid.x..block.z or shmem", name)};
    if (site_.args.size() != kernel_.params.size())
      return Error{fmt::format("the override reads '{}', but the scan could not see this launch's arguments", name)};
    const Param& p = kernel_.params[index];
    const std::string arg(trim(site_.args[index]));
    if (has_side_effects(arg))
      return Error{
          fmt::format("the override reads '{}', whose argument '{}' has side effects (it would run twice)", head, arg)};
    if (!arg_in_file(content_, site_, index))
      return Error{
          fmt::format("the override reads '{}', but the manifest's argument text is not the call's; scan again", head)};
    if (dot == std::string_view::npos) {
      if (p.kind != ParamKind::Scalar || !scalar_is_integral(index))
        return Error{fmt::format("the override reads '{}', which is not an integer parameter ({})", name, p.type)};
      return CppText{arg, false};
    }
    if (p.kind != ParamKind::Record)
      return Error{fmt::format("the override reads '{}', but '{}' is not a struct passed by value", name, head)};
    std::string base = is_primary_text(arg) ? arg : "(" + arg + ")";
    return CppText{base + std::string(name.substr(dot)), true};
  }

 private:
  bool scalar_is_integral(size_t index) const {
    if (!kernel_.is_template || kernel_.instantiations.empty()) return integral_type(kernel_.params[index].type);
    for (const auto& inst : kernel_.instantiations)
      if (index >= inst.params.size() || !integral_type(inst.params[index].type)) return false;
    return true;
  }

  const Kernel& kernel_;
  const Launch& site_;
  std::string_view content_;
};

Expected<std::string> render_dims(const std::vector<std::string>& dims, const SiteNames& names, const char* what) {
  std::vector<std::string> parts;
  for (const auto& d : dims) {
    auto e = LaunchExpr::parse(d);
    if (!e) return Error{fmt::format("launch {}: {}", what, e.error().message)};
    auto r = render_cpp(*e, names);
    if (!r) return Error{fmt::format("launch {} '{}': {}", what, d, r.error().message)};
    parts.push_back(*r);
  }
  if (parts.size() == 1) return parts[0];
  if (parts.size() == 3) return fmt::format("dim3({})", join(parts, ", "));
  return Error{fmt::format("launch {} must be one expression or three", what)};
}

/// Every range of the site inside the file, the parts inside the configuration.
Expected<void> check_site_ranges(const Launch& site, size_t size) {
  const ByteRange& config = site.config_range;
  if (auto ok = check_range("config_range", config.begin, config.end, size); !ok) return ok;
  for (auto [field, range] :
       {std::pair{"grid_range", &site.grid_range}, std::pair{"block_range", &site.block_range},
        std::pair{"shmem_range", &site.shmem_range}, std::pair{"stream_range", &site.stream_range}}) {
    if (!*range) continue;
    if (auto ok = check_range(field, (*range)->begin, (*range)->end, size); !ok) return ok;
    if ((*range)->begin < config.begin || (*range)->end > config.end)
      return Error{fmt::format("the manifest's {} [{}, {}) is not inside config_range [{}, {}); scan again", field,
                               (*range)->begin, (*range)->end, config.begin, config.end)};
  }
  return {};
}

bool matches(std::string_view content, const std::optional<ByteRange>& range, const std::optional<std::string>& text) {
  if (!range) return true;
  if (range->begin < 0 || range->end < range->begin || range->end > static_cast<int64_t>(content.size())) return false;
  return text &&
         content.substr(static_cast<size_t>(range->begin), static_cast<size_t>(range->end - range->begin)) == *text;
}

/// The launch's shared-memory size as C++ at the site; where it may pass
/// 48 KB, wrapped in the cudaFuncSetAttribute call that opts the kernel in.
Expected<std::string> shared_memory_bytes(const Kernel& kernel, const Launch& site, const std::string& shmem,
                                          const SiteNames& names, std::string_view content) {
  auto e = LaunchExpr::parse(shmem);
  if (!e) return Error{fmt::format("launch shmem: {}", e.error().message)};
  auto s = render_cpp(*e, names);
  if (!s) return Error{fmt::format("launch shmem '{}': {}", shmem, s.error().message)};
  std::string bytes = *s;
  // Opt in to more than 48 KB unless the size is a constant within it.
  auto constant = e->evaluate([](std::string_view) -> std::optional<int64_t> { return std::nullopt; });
  if (constant && *constant <= kDefaultSharedMemoryLimit) return bytes;
  std::optional<Span> callee;
  if (site.kind == LaunchKind::Chevron) {
    callee = chevron_callee(content, static_cast<size_t>(site.config_range.begin));
  } else if (site.grid_range) {
    auto head = call_head_before(content, static_cast<size_t>(site.grid_range->begin));
    if (head && (head->function == "cudaLaunchKernel" || head->function == "cudaLaunchCooperativeKernel"))
      callee = head->first_argument;
  }
  if (!callee)
    return Error{
        fmt::format("its shared memory ({}) may exceed 48 KB, and the kernel expression of the launch "
                    "could not be found to insert cudaFuncSetAttribute",
                    shmem)};
  std::string kernel_expr(content.substr(callee->begin, callee->end - callee->begin));
  if (site.kind == LaunchKind::Chevron && !kernel.id.empty() && kernel.id.back() == ')') {
    // Overloaded: name the one launched (a template's arguments already do).
    if (kernel.is_template)
      return Error{
          "its shared memory may exceed 48 KB, and cudaFuncSetAttribute cannot name one overload of a "
          "kernel template"};
    std::vector<std::string> types;
    for (const auto& p : kernel.params) {
      if (!type_text(p.type))
        return Error{fmt::format("the manifest's type of parameter '{}' is not a C++ type", p.name)};
      types.push_back(p.type);
    }
    kernel_expr = fmt::format("static_cast<void (*)({})>({})", join(types, ", "), kernel_expr);
  }
  std::string operand = is_primary_text(bytes) ? bytes : "(" + bytes + ")";
  return fmt::format(
      "(cudaFuncSetAttribute({}, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>({})), {})", kernel_expr,
      bytes, operand);
}

/// Where the shared-memory size goes: over the site's own argument, after
/// the block of a <<<grid, block>>>, or after cudaLaunchKernel's arguments.
Expected<TextEdit> shared_memory_edit(const Launch& site, const std::string& bytes, std::string_view content,
                                      const std::string& where) {
  if (site.shmem_range) return TextEdit{site.shmem_range->begin, site.shmem_range->end, bytes, where};
  if (site.kind == LaunchKind::Chevron && site.block_range && !site.stream_range)
    return TextEdit{site.block_range->end, site.block_range->end, ", " + bytes, where};
  if (site.kind == LaunchKind::Api && site.block_range) {
    // cudaLaunchKernel(kernel, grid, block, args): append ", shmem" after args.
    auto comma = next_separator(content, static_cast<size_t>(site.block_range->end));
    auto close = comma && content[*comma] == ',' ? next_separator(content, *comma + 1) : std::nullopt;
    if (!close || content[*close] != ')') return Error{"no place for a shared-memory argument was found in the call"};
    return TextEdit{static_cast<int64_t>(*close), static_cast<int64_t>(*close), ", " + bytes, where};
  }
  return Error{"no place for a shared-memory argument was found in the launch"};
}

}  // namespace

std::string describe_site(const Launch& site) {
  if (site.caller.empty()) return fmt::format("{}:{}", site.file, site.line);
  return fmt::format("{}:{} (in {})", site.file, site.line, site.caller);
}

Expected<std::vector<TextEdit>> launch_site_edits(const Kernel& kernel, const Launch& site,
                                                  const LaunchOverride& launch, std::string_view content) {
  std::vector<TextEdit> edits;
  if (launch.empty()) return edits;
  auto refuse = [&](const std::string& why) {
    return Error{fmt::format("cannot rewrite the launch at {}: {}", describe_site(site), why)};
  };
  if (site.kind == LaunchKind::Api && !site.grid_range && !site.block_range)
    return refuse(
        "its launch shape is not written as arguments of the call (cudaLaunchKernelEx takes it from a "
        "config struct); write the grid and block there by hand or launch with <<<>>>");
  if (site.config_range.end <= site.config_range.begin)
    return refuse("it is written inside a macro, so its configuration has no place in the file to edit");
  if (auto ok = check_site_ranges(site, content.size()); !ok) return refuse(ok.error().message);
  if (!matches(content, site.grid_range, site.grid) || !matches(content, site.block_range, site.block) ||
      !matches(content, site.shmem_range, site.shmem) || !matches(content, site.stream_range, site.stream))
    return refuse("the file's text at the recorded ranges is not what the scan saw; scan again");

  SiteNames names(kernel, site, content);
  const std::string where = fmt::format("launch at {}", describe_site(site));
  auto replace = [&](const std::optional<ByteRange>& range, std::string text) {
    edits.push_back({range->begin, range->end, std::move(text), where});
  };
  if (!launch.grid.empty()) {
    if (!site.grid_range) return refuse("its grid argument is not spelled in the file");
    auto g = render_dims(launch.grid, names, "grid");
    if (!g) return refuse(g.error().message);
    replace(site.grid_range, *g);
  }
  if (!launch.block.empty()) {
    if (!site.block_range) return refuse("its block argument is not spelled in the file");
    auto b = render_dims(launch.block, names, "block");
    if (!b) return refuse(b.error().message);
    replace(site.block_range, *b);
  }
  if (launch.shmem) {
    auto bytes = shared_memory_bytes(kernel, site, *launch.shmem, names, content);
    if (!bytes) return refuse(bytes.error().message);
    auto edit = shared_memory_edit(site, *bytes, content, where);
    if (!edit) return refuse(edit.error().message);
    edits.push_back(std::move(*edit));
  }
  return edits;
}

}  // namespace stark::rewriter
