#include "pipeline/input_summary.h"

#include <fmt/format.h>

#include <cstring>
#include <optional>

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

std::vector<std::string> describe_inputs(const std::filesystem::path& store_dir, const Kernel& kernel, size_t max_lines) {
  std::vector<std::string> out;
  auto index = read_store_index(store_dir);
  if (!index) return out;
  for (const harness::Capture* c : index->for_kernel(kernel.id)) {
    if (out.size() >= max_lines) break;
    const Instantiation* inst = nullptr;
    for (const auto& i : kernel.instantiations)
      if (i.mangled == c->mangled) inst = &i;
    std::vector<std::string> scalars, buffers;
    for (size_t a = 0; a < c->args.size(); ++a) {
      const auto& arg = c->args[a];
      std::string type = inst && a < inst->params.size() ? inst->params[a].type : "";
      if (arg.kind == harness::CapturedArg::Kind::Scalar) scalars.push_back(arg.name + "=" + scalar_text(arg.bytes, type));
      else if (arg.kind == harness::CapturedArg::Kind::Record) scalars.push_back(fmt::format("{}=<struct, {} bytes>", arg.name, arg.bytes.size()));
      else if (!arg.buffer) buffers.push_back(arg.name + " null");
      else {
        const auto& b = c->buffers.at(static_cast<size_t>(*arg.buffer));
        buffers.push_back(fmt::format("{} {} {}", arg.name, bytes_text(b.size), b.dtype));
      }
    }
    const auto& l = c->launch;
    out.push_back(fmt::format("{}grid ({},{},{}) block ({},{},{}){}: {}; {}", inst && !inst->template_args.empty() ? "<" + inst->template_args + "> " : "",
                              l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
                              l.shmem ? fmt::format(" shmem {}", l.shmem) : "", fmt::join(scalars, ", "),
                              fmt::join(buffers, ", ")));
  }
  return out;
}

}  // namespace stark
