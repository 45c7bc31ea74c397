#include "harness/capture/annotation_inputs.h"

#include <cstdlib>
#include <vector>
#include <string>
#include <optional>
#include <cstdint>
#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <map>

#include "core/hash.h"
#include "core/kernel_options.h"
#include "core/launch_expr.h"
#include "core/text.h"
#include "harness/common/dtype.h"
#include "harness/worker/fuzz.h"

namespace stark::harness {

bool has_annotation_inputs(const Kernel& kernel) { return kernel.options.args || kernel.options.buffers; }

std::string annotation_hint(const Kernel& kernel) {
  std::vector<std::string> scalars, buffers;
  for (const auto& p : kernel.params) {
    if (p.kind == ParamKind::Scalar) scalars.push_back(p.name + "=...");
    if (p.kind == ParamKind::Pointer) buffers.push_back(p.name + "[count]");
  }
  std::vector<std::string> keys;
  if (!scalars.empty()) keys.push_back("\"args=" + join(scalars, ", ") + "\"");
  if (!buffers.empty()) keys.push_back("\"buffers=" + join(buffers, ", ") + "\"");
  keys.push_back("\"grid=...\"");
  keys.push_back("\"block=...\"");
  return fmt::format("STARK_OPTIMIZE({})", join(keys, ", "));
}

namespace {

Expected<std::string> scalar_bytes(const Kernel& k, const Param& p, const std::string& value) {
  DType t = parse_dtype(p.type);
  if (t.lanes != 1 || t.kind == ScalarKind::Bytes || (p.size > 0 && t.size() != p.size))
    return Error{fmt::format("kernel {}: parameter '{}' has type '{}', which args= cannot set", k.id, p.name, p.type)};
  std::string out(static_cast<size_t>(t.size()), '\0');
  double v = 0;
  if (t.is_integer()) {
    int64_t i = 0;
    auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), i);
    if (ec != std::errc() || ptr != value.data() + value.size())
      return Error{fmt::format("kernel {}: args= gives '{}' for integer parameter '{}'", k.id, value, p.name)};
    if (t.scalar_size() == 8) {
      std::memcpy(out.data(), &i, 8);
      return out;
    }
    v = static_cast<double>(i);
  } else {
    v = std::strtod(value.c_str(), nullptr);
  }
  store_lane(out.data(), t.kind, 0, v);
  return out;
}

Expected<Dim3> dims(const Kernel& k, const std::string& key, const std::optional<std::string>& text,
                    const LaunchExpr::Lookup& lookup) {
  if (!text)
    return Error{fmt::format("kernel {}: the annotation gives args/buffers but no {}= (the launch {})", k.id, key,
                             key == "grid" ? "grid" : "block size")};
  auto parts = split(*text, ',');
  if (parts.size() != 1 && parts.size() != 3)
    return Error{fmt::format("kernel {}: {}= needs one expression or three", k.id, key)};
  Dim3 d{1, 1, 1};
  for (size_t i = 0; i < parts.size(); ++i) {
    auto e = LaunchExpr::parse(trim(parts[i]));
    if (!e) return Error{fmt::format("kernel {}: {}=: {}", k.id, key, e.error().message)};
    auto v = e->evaluate(lookup);
    if (!v) return Error{fmt::format("kernel {}: {}=: {}", k.id, key, v.error().message)};
    if (*v < 1 || *v > 0x7fffffff) return Error{fmt::format("kernel {}: {}= gives {}", k.id, key, *v)};
    d[i] = static_cast<uint32_t>(*v);
  }
  return d;
}

// args=: every scalar parameter's bytes into c.args (pointers as empty
// slots), integer values into `ints` for the expressions that follow.
Expected<void> scalar_args(const Kernel& k, const std::vector<Param>& params,
                           const std::map<std::string, std::string>& args, Capture& c,
                           std::map<std::string, int64_t>& ints) {
  for (const auto& p : params) {
    if (p.kind == ParamKind::Record)
      return Error{
          fmt::format("kernel {}: parameter '{}' is a struct passed by value, which annotation inputs cannot "
                      "describe: add a test that launches the kernel",
                      k.id, p.name)};
    if (p.kind == ParamKind::Pointer) {
      c.args.push_back({p.name, ParamKind::Pointer, "", std::nullopt, 0});
      continue;
    }
    auto it = args.find(p.name);
    if (it == args.end())
      return Error{
          fmt::format("kernel {}: args= gives no value for parameter '{}' (add {}=...)", k.id, p.name, p.name)};
    auto bytes = scalar_bytes(k, p, it->second);
    if (!bytes) return bytes.error();
    int64_t iv = 0;
    auto [ptr, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), iv);
    if (ec == std::errc() && ptr == it->second.data() + it->second.size()) ints[p.name] = iv;
    c.args.push_back({p.name, ParamKind::Scalar, *bytes, std::nullopt, 0});
  }
  for (const auto& [name, value] : args) {
    bool known = false;
    for (const auto& p : params) known |= p.name == name && p.kind == ParamKind::Scalar;
    if (!known) return Error{fmt::format("kernel {}: args= names '{}', which is not a scalar parameter", k.id, name)};
  }
  return {};
}

// buffers=: every pointer parameter's buffer, filled with seeded random
// data and put in the store.
Expected<void> buffer_args(const Kernel& k, const std::vector<Param>& params,
                           const std::map<std::string, std::string>& counts, const LaunchExpr::Lookup& lookup,
                           CaptureStore& store, Capture& c) {
  uint64_t seed = static_cast<uint64_t>(k.options.seed.value_or(1));
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (p.kind != ParamKind::Pointer) continue;
    auto it = counts.find(p.name);
    if (it == counts.end())
      return Error{fmt::format("kernel {}: buffers= gives no size for pointer parameter '{}' (add {}[count])", k.id,
                               p.name, p.name)};
    DType t = parse_dtype(p.pointee);
    if (t.kind == ScalarKind::Bytes)
      return Error{
          fmt::format("kernel {}: buffer '{}' has element type '{}', whose size STARK does not know: add a "
                      "test that launches the kernel",
                      k.id, p.name, p.pointee)};
    auto e = LaunchExpr::parse(it->second);
    if (!e) return Error{fmt::format("kernel {}: buffers=: {}", k.id, e.error().message)};
    auto n = e->evaluate(lookup);
    if (!n) return Error{fmt::format("kernel {}: buffers= size of '{}': {}", k.id, p.name, n.error().message)};
    if (*n < 1) return Error{fmt::format("kernel {}: buffers= gives {} elements for '{}'", k.id, *n, p.name)};
    uint64_t size = static_cast<uint64_t>(*n) * static_cast<uint64_t>(t.size());
    std::string data = random_data(size, t, seed * 1000003 + i);
    uint64_t stored = 0;
    auto hash = store.put_blob(data, &stored);
    if (!hash) return hash.error();
    c.args[i].buffer = static_cast<int>(c.buffers.size());
    c.buffers.push_back({size, t.name(), "device", *hash, std::nullopt});
    c.bytes += size;
    c.stored_bytes += stored;
  }
  for (const auto& [name, count] : counts) {
    bool known = false;
    for (const auto& p : params) known |= p.name == name && p.kind == ParamKind::Pointer;
    if (!known)
      return Error{fmt::format("kernel {}: buffers= names '{}', which is not a pointer parameter", k.id, name)};
  }
  return {};
}

// grid=, block= and shmem=.
Expected<LaunchShape> launch_of(const Kernel& k, const LaunchExpr::Lookup& lookup) {
  LaunchShape shape;
  auto grid = dims(k, "grid", k.options.grid, lookup);
  if (!grid) return grid.error();
  auto block = dims(k, "block", k.options.block, lookup);
  if (!block) return block.error();
  shape.grid = *grid;
  shape.block = *block;
  if (k.options.shmem) {
    auto e = LaunchExpr::parse(*k.options.shmem);
    if (!e) return Error{fmt::format("kernel {}: shmem=: {}", k.id, e.error().message)};
    auto v = e->evaluate(lookup);
    if (!v || *v < 0) return Error{fmt::format("kernel {}: shmem= does not evaluate to a size", k.id)};
    shape.shmem = static_cast<uint32_t>(*v);
  }
  return shape;
}

}  // namespace

Expected<Capture> capture_from_annotation(const Kernel& k, CaptureStore& store) {
  if (k.instantiations.empty()) return Error{fmt::format("kernel {} has no instantiation to launch", k.id)};
  const Instantiation& inst = k.instantiations.front();
  const std::vector<Param>& params = inst.params.empty() ? k.params : inst.params;

  std::map<std::string, std::string> args;
  if (k.options.args) {
    auto parsed = parse_scalar_args(*k.options.args);
    if (!parsed) return Error{fmt::format("kernel {}: {}", k.id, parsed.error().message)};
    for (auto& a : *parsed) args[a.name] = a.value;
  }
  std::map<std::string, std::string> counts;
  if (k.options.buffers) {
    auto parsed = parse_buffer_specs(*k.options.buffers);
    if (!parsed) return Error{fmt::format("kernel {}: {}", k.id, parsed.error().message)};
    for (auto& b : *parsed) counts[b.name] = b.count;
  }

  Capture c;
  c.kernel = k.id;
  c.mangled = inst.mangled;
  c.origin = "annotation";
  c.command = "annotation of " + k.id;
  c.created = utc_now();
  // Scalars first: buffer counts and the launch are expressions over them.
  std::map<std::string, int64_t> ints;
  if (auto ok = scalar_args(k, params, args, c, ints); !ok) return ok.error();
  LaunchExpr::Lookup lookup = [&](std::string_view name) -> std::optional<int64_t> {
    auto it = ints.find(std::string(name));
    if (it == ints.end()) return std::nullopt;
    return it->second;
  };
  if (auto ok = buffer_args(k, params, counts, lookup, store, c); !ok) return ok.error();
  auto launch = launch_of(k, lookup);
  if (!launch) return launch.error();
  c.launch = *launch;
  std::string shape_text =
      fmt::format("{}|{}|{}", k.options.args.value_or(""), k.options.buffers.value_or(""), k.options.grid.value_or(""));
  c.shape = content_hash(shape_text);
  c.id = "a-" + c.shape.substr(6, 12);
  return c;
}

}  // namespace stark::harness
