#include "core/manifest.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

#include "core/enum_names.h"
#include "core/file_io.h"

namespace stark {

using nlohmann::json;

namespace {

constexpr std::pair<const char*, ParamKind> kParamKinds[] = {
    {"scalar", ParamKind::Scalar}, {"pointer", ParamKind::Pointer}, {"record", ParamKind::Record}};
constexpr std::pair<const char*, LaunchKind> kLaunchKinds[] = {{"chevron", LaunchKind::Chevron},
                                                               {"api", LaunchKind::Api}};
constexpr std::pair<const char*, DimType> kDimTypes[] = {
    {"integer", DimType::Integer}, {"dim3_args", DimType::Dim3Args}, {"dim3", DimType::Dim3}};

void put_dim_type(json& j, const char* key, DimType t) {
  for (const auto& [name, value] : kDimTypes)
    if (value == t) j[key] = name;
}

DimType read_dim_type(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return DimType::Unknown;
  return parse_enum(j[key], "grid or block type", kDimTypes);
}

void put_variable(json& j, const char* key, const std::optional<LaunchVariable>& v) {
  if (v) j[key] = {{"name", v->name}, {"decl", v->decl}, {"uses", v->uses}};
}

std::optional<LaunchVariable> read_variable(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  const json& v = j[key];
  return LaunchVariable{v.at("name").get<std::string>(), v.at("decl").get<ByteRange>(),
                        v.at("uses").get<std::vector<ByteRange>>()};
}

json optional_text(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }

std::optional<std::string> read_optional_text(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<std::string>();
}

void put_range(json& j, const char* key, const std::optional<ByteRange>& r) {
  if (r) j[key] = *r;
}

std::optional<ByteRange> read_range(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<ByteRange>();
}

}  // namespace

const char* to_string(ParamKind k) { return enum_name(k, kParamKinds); }
ParamKind param_kind_from_json(const json& j) { return parse_enum(j, "parameter kind", kParamKinds); }

const char* to_string(LaunchKind k) { return enum_name(k, kLaunchKinds); }

void to_json(json& j, const ByteRange& r) { j = {{"begin", r.begin}, {"end", r.end}}; }
void from_json(const json& j, ByteRange& r) {
  r.begin = j.at("begin").get<int64_t>();
  r.end = j.at("end").get<int64_t>();
}

void to_json(json& j, const Param& p) {
  j = {{"name", p.name}, {"type", p.type}, {"kind", to_string(p.kind)}};
  if (p.kind == ParamKind::Pointer) {
    j["pointee"] = p.pointee;
    j["const"] = p.is_const;
    j["restrict"] = p.is_restrict;
  }
  if (p.size > 0) j["size"] = p.size;
  if (p.align > 0) j["align"] = p.align;
  if (!p.fields.empty()) {
    json fields = json::array();
    for (const auto& f : p.fields)
      fields.push_back({{"name", f.name}, {"type", f.type}, {"offset", f.offset}, {"size", f.size}});
    j["fields"] = fields;
  }
}
void from_json(const json& j, Param& p) {
  p = {};
  p.name = j.at("name").get<std::string>();
  p.type = j.at("type").get<std::string>();
  p.kind = param_kind_from_json(j.at("kind"));
  p.pointee = j.value("pointee", "");
  p.is_const = j.value("const", false);
  p.is_restrict = j.value("restrict", false);
  p.size = j.value("size", int64_t{0});
  p.align = j.value("align", int64_t{0});
  for (const auto& f : j.value("fields", json::array()))
    p.fields.push_back({f.at("name").get<std::string>(), f.at("type").get<std::string>(), f.at("offset").get<int64_t>(),
                        f.at("size").get<int64_t>()});
}

void to_json(json& j, const Instantiation& i) {
  j = {{"mangled", i.mangled}, {"template_args", i.template_args}, {"params", i.params}};
}
void from_json(const json& j, Instantiation& i) {
  i.mangled = j.at("mangled").get<std::string>();
  i.template_args = j.value("template_args", "");
  i.params = j.value("params", std::vector<Param>{});
}

void to_json(json& j, const CompileCommand& c) {
  j = {{"directory", c.directory}, {"file", c.file}, {"arguments", c.arguments}};
  if (!c.target.empty()) j["target"] = c.target;
  j["archs"] = c.archs;
}
void from_json(const json& j, CompileCommand& c) {
  c.directory = j.at("directory").get<std::string>();
  c.file = j.at("file").get<std::string>();
  c.arguments = j.at("arguments").get<std::vector<std::string>>();
  c.target = j.value("target", "");
  c.archs = j.value("archs", std::vector<std::string>{});
}

void to_json(json& j, const Launch& l) {
  j = {{"file", l.file},
       {"line", l.line},
       {"kind", to_string(l.kind)},
       {"instantiation", l.instantiation},
       {"grid", optional_text(l.grid)},
       {"block", optional_text(l.block)},
       {"shmem", optional_text(l.shmem)},
       {"stream", optional_text(l.stream)},
       {"args", l.args},
       {"config_range", l.config_range}};
  put_range(j, "grid_range", l.grid_range);
  put_range(j, "block_range", l.block_range);
  put_range(j, "shmem_range", l.shmem_range);
  put_range(j, "stream_range", l.stream_range);
  put_dim_type(j, "grid_type", l.grid_type);
  put_dim_type(j, "block_type", l.block_type);
  put_variable(j, "grid_var", l.grid_var);
  put_variable(j, "block_var", l.block_var);
  j["caller"] = l.caller;
}
void from_json(const json& j, Launch& l) {
  l = {};
  l.file = j.at("file").get<std::string>();
  l.line = j.at("line").get<int>();
  l.kind = parse_enum(j.at("kind"), "launch kind", kLaunchKinds);
  l.instantiation = j.value("instantiation", "");
  l.grid = read_optional_text(j, "grid");
  l.block = read_optional_text(j, "block");
  l.shmem = read_optional_text(j, "shmem");
  l.stream = read_optional_text(j, "stream");
  l.args = j.value("args", std::vector<std::string>{});
  l.config_range = j.at("config_range").get<ByteRange>();
  l.grid_range = read_range(j, "grid_range");
  l.block_range = read_range(j, "block_range");
  l.shmem_range = read_range(j, "shmem_range");
  l.stream_range = read_range(j, "stream_range");
  l.grid_type = read_dim_type(j, "grid_type");
  l.block_type = read_dim_type(j, "block_type");
  l.grid_var = read_variable(j, "grid_var");
  l.block_var = read_variable(j, "block_var");
  l.caller = j.value("caller", "");
}

void to_json(json& j, const Kernel& k) {
  j = {{"id", k.id},
       {"name", k.name},
       {"qualified_name", k.qualified_name},
       {"file", k.file},
       {"line", k.line},
       {"column", k.column},
       {"range", k.range},
       {"body", k.body},
       {"template", k.is_template},
       {"params", k.params},
       {"instantiations", k.instantiations},
       {"options", k.options}};
  if (k.compile) j["compile"] = *k.compile;
  j["launches"] = k.launches;
  if (!k.fixed_launch.empty()) j["fixed_launch"] = k.fixed_launch;
  if (!k.options.search.empty()) j["search"] = k.options.search;
  if (k.module_variables) j["module_variables"] = *k.module_variables;
  if (k.fingerprint) j["fingerprint"] = *k.fingerprint;
}
void from_json(const json& j, Kernel& k) {
  k = {};
  k.id = j.at("id").get<std::string>();
  k.name = j.at("name").get<std::string>();
  k.qualified_name = j.at("qualified_name").get<std::string>();
  k.file = j.at("file").get<std::string>();
  k.line = j.at("line").get<int>();
  k.column = j.value("column", 0);
  k.range = j.at("range").get<ByteRange>();
  k.body = j.at("body").get<ByteRange>();
  k.is_template = j.at("template").get<bool>();
  k.params = j.at("params").get<std::vector<Param>>();
  k.instantiations = j.at("instantiations").get<std::vector<Instantiation>>();
  k.options = j.value("options", KernelOptions{});
  k.options.search = j.value("search", SearchSettings{});
  if (j.contains("compile") && !j["compile"].is_null()) k.compile = j["compile"].get<CompileCommand>();
  k.launches = j.value("launches", std::vector<Launch>{});
  k.fixed_launch = j.value("fixed_launch", std::string());
  if (j.contains("module_variables") && !j["module_variables"].is_null())
    k.module_variables = j["module_variables"].get<std::vector<std::string>>();
  if (j.contains("fingerprint") && !j["fingerprint"].is_null()) k.fingerprint = j["fingerprint"].get<std::string>();
}

void to_json(json& j, const Manifest& m) {
  json files = json::object();
  for (const auto& [path, entry] : m.files) files[path] = {{"hash", entry.hash}};
  j = {{"schema", kManifestSchema}, {"source_root", m.source_root}, {"build_dir", m.build_dir}, {"files", files},
       {"kernels", m.kernels},      {"diagnostics", m.diagnostics}};
}
void from_json(const json& j, Manifest& m) {
  m = {};
  m.source_root = j.at("source_root").get<std::string>();
  m.build_dir = j.value("build_dir", "");
  if (j.contains("files"))
    for (const auto& [path, entry] : j["files"].items()) m.files[path] = {entry.at("hash").get<std::string>()};
  m.kernels = j.at("kernels").get<std::vector<Kernel>>();
  m.diagnostics = j.value("diagnostics", std::vector<Diagnostic>{});
}

const Kernel* Manifest::find_kernel(std::string_view id) const {
  for (const auto& k : kernels)
    if (k.id == id) return &k;
  return nullptr;
}

bool Manifest::has_errors() const {
  for (const auto& d : diagnostics)
    if (d.level == Severity::Error) return true;
  return false;
}

Expected<Manifest> load_manifest(const std::string& path) {
  auto j = read_json_file(path);
  if (!j) return j.error();
  if (!j->is_object() || !j->contains("schema") ||
      (*j)["schema"] != kManifestSchema)  // any type: compared, never converted
    return Error{fmt::format("'{}' is not a STARK manifest (expected \"schema\": \"{}\")", path, kManifestSchema)};
  try {
    return j->get<Manifest>();
  } catch (const std::exception& e) {
    return Error{fmt::format("'{}' is not a valid manifest: {}", path, e.what())};
  }
}

}  // namespace stark
