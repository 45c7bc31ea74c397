#include "harness/worker/launch_config.h"

#include <vector>
#include <string>
#include <optional>
#include <map>
#include <cstdint>
#include <fmt/format.h>

#include <cstring>

#include "core/launch_expr.h"

namespace stark::harness {

std::string LaunchDims::describe() const {
  return fmt::format("grid ({},{},{}) block ({},{},{}) shmem {}", grid[0], grid[1], grid[2], block[0], block[1],
                     block[2], shmem);
}

Expected<void> check_args(const Capture& capture, const std::vector<ParamSpec>& params) {
  if (capture.args.size() != params.size())
    return Error{fmt::format("capture {} has {} arguments but {} has {} parameters: capture again", capture.id,
                             capture.args.size(), capture.mangled, params.size())};
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& a = capture.args[i];
    const auto& p = params[i];
    bool pointer = p.kind == ParamKind::Pointer;
    if (pointer != (a.kind == ParamKind::Pointer))
      return Error{fmt::format("capture {}: argument {} ('{}') is a {} but the parameter is not: capture again",
                               capture.id, i + 1, p.name, to_string(a.kind))};
    if (!pointer && p.size > 0 && static_cast<int64_t>(a.bytes.size()) != p.size)
      return Error{fmt::format("capture {}: argument '{}' has {} bytes, the parameter {}: capture again", capture.id,
                               p.name, a.bytes.size(), p.size)};
  }
  return {};
}

std::optional<int64_t> integer_scalar(const CapturedArg& arg, const ParamSpec& param) {
  if (arg.kind != ParamKind::Scalar) return std::nullopt;
  DType t = param.dtype();
  if (!t.is_integer() || t.lanes != 1 || static_cast<int>(arg.bytes.size()) != t.size()) return std::nullopt;
  auto p = reinterpret_cast<const unsigned char*>(arg.bytes.data());
  switch (t.kind) {
    case ScalarKind::I8: return static_cast<int8_t>(p[0]);
    case ScalarKind::U8:
    case ScalarKind::Bool: return p[0];
    case ScalarKind::I16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case ScalarKind::U16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case ScalarKind::I32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ScalarKind::U32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case ScalarKind::I64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case ScalarKind::U64: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<int64_t>(v);
    }
    default: return std::nullopt;
  }
}

Expected<LaunchDims> launch_dims(const Capture& capture, const std::vector<ParamSpec>& params,
                                 const LaunchOverride& override) {
  LaunchDims d{capture.launch.grid, capture.launch.block, capture.launch.shmem, capture.launch.cooperative};
  if (override.empty()) return d;
  const LaunchDims original = d;
  auto lookup = [&](std::string_view name) -> std::optional<int64_t> {
    static const char* axes[] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      if (name == fmt::format("grid.{}", axes[a])) return original.grid[a];
      if (name == fmt::format("block.{}", axes[a])) return original.block[a];
    }
    if (name == "shmem") return original.shmem;
    for (size_t i = 0; i < params.size() && i < capture.args.size(); ++i) {
      if (params[i].name == name) return integer_scalar(capture.args[i], params[i]);
      // "p.rows": an integer field of a struct passed by value, from its bytes.
      if (params[i].kind != ParamKind::Record || name.substr(0, params[i].name.size() + 1) != params[i].name + ".")
        continue;
      std::string_view field = name.substr(params[i].name.size() + 1);
      for (const auto& f : params[i].fields) {
        if (f.name != field || f.offset + f.size > static_cast<int64_t>(capture.args[i].bytes.size())) continue;
        CapturedArg part;
        part.kind = ParamKind::Scalar;
        part.bytes = capture.args[i].bytes.substr(static_cast<size_t>(f.offset), static_cast<size_t>(f.size));
        ParamSpec as_scalar;
        as_scalar.kind = ParamKind::Scalar;
        as_scalar.type = f.type;
        as_scalar.size = f.size;
        return integer_scalar(part, as_scalar);
      }
    }
    return std::nullopt;
  };
  auto eval = [&](const std::string& text, const char* what) -> Expected<int64_t> {
    auto expr = LaunchExpr::parse(text);
    if (!expr) return Error{fmt::format("launch override {} '{}': {}", what, text, expr.error().message)};
    for (const auto& name : expr->names())
      if (!lookup(name))
        return Error{
            fmt::format("launch override {} '{}': '{}' is not an integer parameter of {} nor grid.x..block.z "
                        "or shmem{}",
                        what, text, name, capture.mangled,
                        name.find('.') != std::string::npos ? " (nor an integer field of a struct parameter)" : "")};
    auto v = expr->evaluate(lookup);
    if (!v) return Error{fmt::format("launch override {} '{}': {}", what, text, v.error().message)};
    return *v;
  };
  auto apply = [&](const std::vector<std::string>& exprs, Dim3& dim, const char* what) -> Expected<void> {
    if (exprs.empty()) return {};
    if (exprs.size() != 1 && exprs.size() != 3)
      return Error{fmt::format("launch override {} needs one expression or three", what)};
    Dim3 out{1, 1, 1};
    for (size_t i = 0; i < exprs.size(); ++i) {
      auto v = eval(exprs[i], what);
      if (!v) return v.error();
      if (*v < 1 || *v > 0xffffffffll)
        return Error{fmt::format("launch override {} '{}' gives {} for capture {}", what, exprs[i], *v, capture.id)};
      out[i] = static_cast<uint32_t>(*v);
    }
    dim = out;
    return {};
  };
  if (auto ok = apply(override.grid, d.grid, "grid"); !ok) return ok.error();
  if (auto ok = apply(override.block, d.block, "block"); !ok) return ok.error();
  if (override.shmem) {
    auto v = eval(*override.shmem, "shmem");
    if (!v) return v.error();
    if (*v < 0 || *v > 0xffffffffll)
      return Error{fmt::format("launch override shmem '{}' gives {} for capture {}", *override.shmem, *v, capture.id)};
    d.shmem = static_cast<uint32_t>(*v);
  }
  return d;
}

Expected<void> check_limits(const LaunchDims& d, const DeviceLimits& l) {
  int64_t threads = int64_t{d.block[0]} * d.block[1] * d.block[2];
  if (threads > l.max_threads_per_block)
    return Error{fmt::format("{}: a block of {} threads exceeds the device's {}", d.describe(), threads,
                             l.max_threads_per_block)};
  static const char* axes = "xyz";
  for (int a = 0; a < 3; ++a) {
    if (d.block[a] > l.max_block[a])
      return Error{
          fmt::format("{}: block.{} = {} exceeds the device's {}", d.describe(), axes[a], d.block[a], l.max_block[a])};
    if (d.grid[a] > l.max_grid[a])
      return Error{
          fmt::format("{}: grid.{} = {} exceeds the device's {}", d.describe(), axes[a], d.grid[a], l.max_grid[a])};
  }
  if (d.shmem > l.max_shmem_optin)
    return Error{fmt::format("{}: {} bytes of dynamic shared memory exceed the device's {}", d.describe(), d.shmem,
                             l.max_shmem_optin)};
  return {};
}

KernelArgs::KernelArgs(const Capture& capture, const std::vector<uint64_t>& addresses,
                       const std::map<size_t, std::string>& replaced) {
  storage_.resize(capture.args.size());
  for (size_t i = 0; i < capture.args.size(); ++i) {
    const auto& a = capture.args[i];
    if (a.kind == ParamKind::Pointer) {
      uint64_t v = a.buffer ? addresses.at(static_cast<size_t>(*a.buffer)) + a.offset : 0;
      storage_[i].assign(reinterpret_cast<const char*>(&v), sizeof v);
    } else if (auto it = replaced.find(i); it != replaced.end()) {
      storage_[i] = it->second;
    } else {
      storage_[i] = a.bytes;
    }
  }
  for (auto& s : storage_) pointers_.push_back(s.data());
}

}  // namespace stark::harness
