#include "harness/worker/other_size.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "core/text.h"

namespace stark::harness {

namespace {

/// An integer the launch passes: a scalar argument, or a field of a struct
/// argument, with where its bytes are.
struct IntegerSlot {
  size_t arg = 0;
  size_t offset = 0;  // into the argument's bytes
  int size = 0;
  bool is_signed = true;
  std::string name;  // "n", "shape.cols"
  int64_t value = 0;
};

std::optional<IntegerSlot> slot_of(const std::string& bytes, size_t offset, const std::string& type, size_t arg,
                                   std::string name) {
  DType t = parse_dtype(type);
  if (!t.is_integer() || t.kind == ScalarKind::Bool || t.lanes != 1) return std::nullopt;
  int size = t.size();
  if (size <= 0 || size > 8 || offset + static_cast<size_t>(size) > bytes.size()) return std::nullopt;
  bool is_signed =
      t.kind == ScalarKind::I8 || t.kind == ScalarKind::I16 || t.kind == ScalarKind::I32 || t.kind == ScalarKind::I64;
  uint64_t raw = 0;
  std::memcpy(&raw, bytes.data() + offset, static_cast<size_t>(size));
  int64_t value = static_cast<int64_t>(raw);
  if (is_signed && size < 8 && (raw >> (size * 8 - 1)) & 1)
    value = static_cast<int64_t>(raw | (~uint64_t{0} << (size * 8)));
  if (!is_signed && size == 8 && static_cast<int64_t>(raw) < 0) return std::nullopt;  // beyond any extent
  return IntegerSlot{arg, offset, size, is_signed, std::move(name), value};
}

std::vector<IntegerSlot> integer_slots(const Capture& c, const std::vector<ParamSpec>& params) {
  std::vector<IntegerSlot> out;
  for (size_t i = 0; i < c.args.size() && i < params.size(); ++i) {
    const CapturedArg& a = c.args[i];
    if (a.kind == ParamKind::Scalar) {
      if (auto s = slot_of(a.bytes, 0, params[i].type, i, params[i].name)) out.push_back(*s);
    } else if (a.kind == ParamKind::Record) {
      for (const Field& f : params[i].fields)
        if (f.offset >= 0)
          if (auto s = slot_of(a.bytes, static_cast<size_t>(f.offset), f.type, i, params[i].name + "." + f.name))
            out.push_back(*s);
    }
  }
  return out;
}

/// Element counts the pointer arguments see: from where each points to the
/// end of its buffer, in its own element type.
std::set<int64_t> extents(const Capture& c, const std::vector<ParamSpec>& params) {
  std::set<int64_t> out;
  for (size_t i = 0; i < c.args.size() && i < params.size(); ++i) {
    const CapturedArg& a = c.args[i];
    if (a.kind != ParamKind::Pointer || !a.buffer || *a.buffer < 0 ||
        static_cast<size_t>(*a.buffer) >= c.buffers.size())
      continue;
    uint64_t size = c.buffers[static_cast<size_t>(*a.buffer)].size;
    if (a.offset >= size) continue;
    int elem = std::max(1, params[i].dtype().size());
    out.insert(static_cast<int64_t>((size - a.offset) / static_cast<uint64_t>(elem)));
  }
  return out;
}

/// The integer values that make up some extent: E = v, v*w or v*w*u.
std::set<int64_t> size_values(const std::set<int64_t>& values, const std::set<int64_t>& extents) {
  std::set<int64_t> sizes;
  for (int64_t e : extents)
    for (int64_t v : values) {
      if (v == e) sizes.insert(v);
      if (e % v != 0) continue;
      int64_t rest = e / v;
      for (int64_t w : values) {
        if (w == rest) sizes.insert({v, w});
        if (rest % w != 0) continue;
        if (values.count(rest / w)) sizes.insert({v, w, rest / w});
      }
    }
  return sizes;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// grid' for one axis: the axis follows size v when grid = ceil(v / d) for a
/// divisor d a host program would use.
std::optional<uint32_t> follow(uint32_t grid, uint32_t block, int64_t v, int64_t smaller) {
  if (grid <= 1) return std::nullopt;
  std::vector<int64_t> divisors = {1};
  for (int64_t k = 1; k <= 64; k *= 2) divisors.push_back(int64_t{block} * k);
  for (int64_t p = 2; p <= 4096; p *= 2) divisors.push_back(p);
  for (int64_t d : divisors)
    if (ceil_div(v, d) == grid) return static_cast<uint32_t>(std::max<int64_t>(1, ceil_div(smaller, d)));
  return std::nullopt;
}

void write_value(std::string& bytes, const IntegerSlot& s, int64_t v) {
  uint64_t raw = static_cast<uint64_t>(v);
  std::memcpy(bytes.data() + s.offset, &raw, static_cast<size_t>(s.size));
}

}  // namespace

int64_t smaller_size_value(int64_t v) {
  if (v < 2) return v;
  int64_t pow2 = v & -v;  // the largest power of two dividing v
  int64_t quarter = 1;
  while (quarter * 2 <= v / 4) quarter *= 2;
  int64_t step = std::min({pow2, quarter, int64_t{4096}});
  int64_t smaller = (v / 4 * 3 + (v % 4) * 3 / 4) / step * step;
  return smaller >= 1 && smaller < v ? smaller : v;
}

Expected<OtherSize> other_size(const Capture& capture, const std::vector<ParamSpec>& params) {
  std::vector<IntegerSlot> slots = integer_slots(capture, params);
  std::set<int64_t> values;
  for (const auto& s : slots)
    if (s.value >= 2) values.insert(s.value);
  std::set<int64_t> sizes = size_values(values, extents(capture, params));
  if (sizes.empty())
    return Error{"no integer argument matches a buffer's extent, so no smaller problem can be derived"};

  OtherSize out;
  out.capture = capture;
  std::vector<std::string> changes;
  std::set<std::string> described;
  for (const auto& s : slots) {
    if (!sizes.count(s.value)) continue;
    int64_t smaller = smaller_size_value(s.value);
    if (smaller == s.value) continue;
    std::string& bytes = out.capture.args[s.arg].bytes;
    write_value(bytes, s, smaller);
    out.scalars[s.arg] = bytes;
    if (described.insert(s.name).second) changes.push_back(fmt::format("{} {} -> {}", s.name, s.value, smaller));
  }
  if (out.scalars.empty()) return Error{"the size arguments are too small to make smaller"};

  out.original_dims =
      LaunchDims{capture.launch.grid, capture.launch.block, capture.launch.shmem, capture.launch.cooperative};
  static const char* axes[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a)
    for (auto v = sizes.rbegin(); v != sizes.rend(); ++v)
      if (auto g = follow(capture.launch.grid[a], capture.launch.block[a], *v, smaller_size_value(*v))) {
        if (*g != capture.launch.grid[a])
          changes.push_back(fmt::format("grid.{} {} -> {}", axes[a], capture.launch.grid[a], *g));
        out.original_dims.grid[a] = *g;
        out.capture.launch.grid[a] = *g;
        break;
      }
  out.describe = join(changes, ", ");
  return out;
}

}  // namespace stark::harness
