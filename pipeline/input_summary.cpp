#include "pipeline/input_summary.h"

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <optional>
#include <type_traits>

#include "harness/store/capture_store.h"

namespace stark {

namespace {

std::string bytes_text(uint64_t n) {
  if (n >= (uint64_t{1} << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(n) / (1 << 30));
  if (n >= (uint64_t{1} << 20)) return fmt::format("{:.0f} MiB", static_cast<double>(n) / (1 << 20));
  if (n >= 1024) return fmt::format("{:.0f} KiB", static_cast<double>(n) / 1024);
  return fmt::format("{} B", n);
}

/// A scalar's value from its bytes and the parameter's type.
std::string scalar_text(const std::string& bytes, const std::string& type) {
  auto as = [&](auto v) {
    std::memcpy(&v, bytes.data(), std::min(bytes.size(), sizeof v));
    return fmt::format("{}", v);
  };
  if (type == "float" && bytes.size() == 4) return as(float{});
  if (type == "double" && bytes.size() == 8) return as(double{});
  if (bytes.size() == 8) return as(int64_t{});
  if (bytes.size() == 4) return as(int32_t{});
  if (bytes.size() == 2) return as(int16_t{});
  if (bytes.size() == 1) return as(int8_t{});
  return fmt::format("<{} bytes>", bytes.size());
}

/// The value of an integer scalar; nullopt for floating point, records and
/// odd sizes. Unsigned 64-bit values above INT64_MAX do not size anything.
std::optional<int64_t> integer_value(const std::string& bytes, const std::string& type) {
  if (type == "float" || type == "double" || type == "half" || type == "__half" || type == "bool") return std::nullopt;
  bool is_unsigned = type.find("unsigned") != std::string::npos || type == "size_t" || type == "std::size_t" ||
                     type.rfind("uint", 0) == 0;
  auto as = [&](auto v) -> std::optional<int64_t> {
    std::memcpy(&v, bytes.data(), sizeof v);
    if constexpr (std::is_unsigned_v<decltype(v)>)
      if (v > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(v);
  };
  switch (bytes.size()) {
    case 8: return is_unsigned ? as(uint64_t{}) : as(int64_t{});
    case 4: return is_unsigned ? as(uint32_t{}) : as(int32_t{});
    case 2: return is_unsigned ? as(uint16_t{}) : as(int16_t{});
    case 1: return is_unsigned ? as(uint8_t{}) : as(int8_t{});
    default: return std::nullopt;
  }
}

}  // namespace

namespace {

std::optional<harness::CaptureIndex> read_store_index(const std::filesystem::path& store_dir) {
  std::error_code ec;
  if (!std::filesystem::exists(store_dir, ec)) return std::nullopt;
  auto store = harness::CaptureStore::open(store_dir, /*create=*/false);
  if (!store) return std::nullopt;
  auto index = store->read_index();
  if (!index) return std::nullopt;
  return std::move(*index);
}

}  // namespace

std::vector<std::string> capture_shapes(const std::filesystem::path& store_dir, const Kernel& kernel) {
  std::vector<std::string> out;
  auto index = read_store_index(store_dir);
  if (!index) return out;
  for (const harness::Capture* c : index->for_kernel(kernel.id)) out.push_back(c->mangled + " " + c->shape);
  return out;
}

CapturedInputs describe_inputs(const std::filesystem::path& store_dir, const Kernel& kernel, size_t max_lines) {
  CapturedInputs out;
  auto index = read_store_index(store_dir);
  if (!index) return out;
  for (const harness::Capture* c : index->for_kernel(kernel.id)) {
    const Instantiation* inst = nullptr;
    for (const auto& i : kernel.instantiations)
      if (i.mangled == c->mangled) inst = &i;
    std::map<std::string, int64_t>& integers = out.scalars.emplace_back();
    std::vector<std::string> scalars, buffers;
    for (size_t a = 0; a < c->args.size(); ++a) {
      const auto& arg = c->args[a];
      const Param* param = inst && a < inst->params.size() ? &inst->params[a] : nullptr;
      std::string type = param ? param->type : "";
      if (arg.kind == ParamKind::Scalar) {
        if (auto v = integer_value(arg.bytes, type)) integers[arg.name] = *v;
        scalars.push_back(arg.name + "=" + scalar_text(arg.bytes, type));
      } else if (arg.kind == ParamKind::Record) {
        // A struct of sizes (shape.rows, shape.cols) reads field by field.
        std::vector<std::string> fields;
        for (const Field& f : param ? param->fields : std::vector<Field>{}) {
          if (f.offset < 0 || f.size <= 0 || static_cast<size_t>(f.offset + f.size) > arg.bytes.size()) continue;
          std::string bytes = arg.bytes.substr(static_cast<size_t>(f.offset), static_cast<size_t>(f.size));
          std::string key = arg.name + "." + f.name;
          if (auto v = integer_value(bytes, f.type)) integers[key] = *v;
          fields.push_back(key + "=" + scalar_text(bytes, f.type));
        }
        if (fields.empty()) scalars.push_back(fmt::format("{}=<struct, {} bytes>", arg.name, arg.bytes.size()));
        else scalars.insert(scalars.end(), fields.begin(), fields.end());
      } else if (!arg.buffer) buffers.push_back(arg.name + " null");
      else {
        const auto& b = c->buffers.at(static_cast<size_t>(*arg.buffer));
        buffers.push_back(fmt::format("{} {} {}", arg.name, bytes_text(b.size), b.dtype));
      }
    }
    if (out.lines.size() >= max_lines) continue;
    const auto& l = c->launch;
    out.lines.push_back(fmt::format("{}grid ({},{},{}) block ({},{},{}){}: {}; {}",
                                    inst && !inst->template_args.empty() ? "<" + inst->template_args + "> " : "",
                                    l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                                    l.shmem ? fmt::format(" shmem {}", l.shmem) : "", fmt::join(scalars, ", "),
                                    fmt::join(buffers, ", ")));
  }
  return out;
}

}  // namespace stark
