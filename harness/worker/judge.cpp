#include "harness/worker/judge.h"

#include <vector>
#include <string>
#include <optional>
#include <cstdint>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "harness/worker/compare.h"

namespace stark::harness {

Judgement judge(const std::vector<BufferInfo>& info, const std::vector<std::string>& before, const Memory& reference,
                const Memory& got, std::optional<uint8_t> poison) {
  Judgement j;
  for (size_t b = 0; b < info.size(); ++b) {
    const BufferInfo& bi = info[b];
    const std::string& ref = reference.buffers[b];
    const std::string& out = got.buffers[b];
    bool changed_by_original = ref != before[b];
    if (changed_by_original) {
      auto c = compare_buffer(ref, out, bi.dtype, bi.tolerance, poison);
      j.max_abs_err = std::max(j.max_abs_err, c.max_abs_err);
      j.max_rel_err = std::max(j.max_rel_err, c.max_rel_err);
      if (!c.ok) j.wrong.push_back(c.describe(bi.name));
    } else if (out != before[b]) {
      bool within = bi.writable && compare_buffer(ref, out, bi.dtype, bi.tolerance).ok;
      if (!within)
        j.inputs.push_back(fmt::format("{}: the original leaves it unchanged, the candidate changed {} bytes", bi.name,
                                       count_changed_bytes(before[b], out)));
    }
    if (b < got.guard_damage.size() && !got.guard_damage[b].empty())
      j.guards.push_back(fmt::format("{}: {} written", bi.name, got.guard_damage[b]));
  }
  for (size_t g = 0; g < reference.globals.size() && g < got.globals.size(); ++g) {
    if (!reference.globals[g] || !got.globals[g]) continue;
    if (*reference.globals[g] != *got.globals[g])
      j.wrong.push_back(fmt::format("module variable #{} differs from the original's", g + 1));
  }
  return j;
}

bool unread(const std::vector<BufferInfo>& info, int b, const Memory& normal, const Memory& poisoned, uint8_t poison) {
  for (size_t i = 0; i < info.size(); ++i) {
    const std::string& n = normal.buffers[i];
    const std::string& p = poisoned.buffers[i];
    if (static_cast<int>(i) != b) {
      if (n != p && !compare_buffer(n, p, info[i].dtype, info[i].tolerance).ok) return false;
      continue;
    }
    // Lanes still holding the poison were not written; the rest must equal the normal result.
    const int lane = info[i].dtype.scalar_size();
    std::string expected = p;
    const size_t lanes = p.size() / lane;
    bool any_written = false;
    for (size_t l = 0; l < lanes; ++l) {
      bool is_poison = true;
      for (int k = 0; k < lane; ++k) is_poison &= static_cast<uint8_t>(p[l * lane + k]) == poison;
      if (!is_poison) {
        std::memcpy(expected.data() + l * lane, n.data() + l * lane, lane);
        any_written = true;
      }
    }
    if (any_written && !compare_buffer(expected, p, info[i].dtype, info[i].tolerance).ok) return false;
  }
  for (size_t g = 0; g < normal.globals.size() && g < poisoned.globals.size(); ++g)
    if (normal.globals[g] != poisoned.globals[g]) return false;
  return true;
}

}  // namespace stark::harness
