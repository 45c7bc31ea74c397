#include "harness/common/cubin_info.h"

#include <string>
#include <cstdint>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "harness/common/elf_file.h"

namespace stark::harness {

namespace {

constexpr uint8_t kFormatNone = 0x01, kFormatByte = 0x02, kFormatHalf = 0x03, kFormatSized = 0x04;
constexpr uint8_t kAttrKParamInfo = 0x17;
constexpr uint8_t kAttrCbankParamSize = 0x19;
// In the cubin-wide .nv.info: (symbol index, value) pairs.
constexpr uint8_t kAttrFrameSize = 0x11;
constexpr uint8_t kAttrRegCount = 0x2f;
// sm_90 and newer place the 1 KiB of shared memory the system reserves per
// block at the start of each kernel's .nv.shared section and reference it
// through this symbol; ptxas -v does not count it as the kernel's.
constexpr const char* kReservedSharedSymbol = ".nv.reservedSmem.offset0";
constexpr int kReservedSharedBytes = 1024;

struct PerFunction {
  std::map<uint32_t, int> registers, frame;  // by symbol index
};

// .nv.info: records like the per-kernel ones, whose payloads name a symbol.
PerFunction read_global_nv_info(std::string_view info) {
  PerFunction out;
  size_t p = 0;
  while (p + 4 <= info.size()) {
    uint8_t format = static_cast<uint8_t>(info[p]);
    uint8_t attr = static_cast<uint8_t>(info[p + 1]);
    if (format == kFormatNone) {
      p += 2;
      continue;
    }
    uint16_t value;
    std::memcpy(&value, info.data() + p + 2, 2);
    p += 4;
    if (format != kFormatSized) continue;
    if (p + value > info.size()) break;
    if (value == 8 && (attr == kAttrRegCount || attr == kAttrFrameSize)) {
      uint32_t symbol, v;
      std::memcpy(&symbol, info.data() + p, 4);
      std::memcpy(&v, info.data() + p + 4, 4);
      int clamped = static_cast<int>(std::min<uint32_t>(v, 1u << 30));
      (attr == kAttrRegCount ? out.registers : out.frame)[symbol] = clamped;
    }
    p += value;
  }
  return out;
}

// .nv.info.<kernel>: a sequence of (format, attribute, payload) records.
void read_nv_info(std::string_view info, CubinKernel& k) {
  size_t p = 0;
  while (p + 2 <= info.size()) {
    uint8_t format = static_cast<uint8_t>(info[p]);
    uint8_t attr = static_cast<uint8_t>(info[p + 1]);
    p += 2;
    if (format == kFormatNone) continue;
    if (format == kFormatByte) {
      p += 2;  // one byte value, padded
      continue;
    }
    if (p + 2 > info.size()) break;
    uint16_t value;
    std::memcpy(&value, info.data() + p, 2);
    p += 2;
    if (format == kFormatHalf) {
      if (attr == kAttrCbankParamSize) k.param_bytes = value;
      continue;
    }
    if (format != kFormatSized || p + value > info.size()) break;
    if (attr == kAttrKParamInfo && value >= 12) {
      uint16_t ordinal, offset;
      uint32_t flags;
      std::memcpy(&ordinal, info.data() + p + 4, 2);
      std::memcpy(&offset, info.data() + p + 6, 2);
      std::memcpy(&flags, info.data() + p + 8, 4);
      k.params.push_back({ordinal, offset, static_cast<int>((flags >> 18) & 0x3fff)});
    }
    p += value;
  }
  std::sort(k.params.begin(), k.params.end(), [](const auto& a, const auto& b) { return a.ordinal < b.ordinal; });
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

const CubinKernel* CubinInfo::find_kernel(const std::string& name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

Expected<CubinInfo> read_cubin(const std::string& bytes) {
  auto elf = ElfFile::parse(bytes);
  if (!elf) return Error{"cannot read the cubin: " + elf.error().message};
  if (elf->machine() != 190 /*EM_CUDA*/) return Error{"cannot read the cubin: not a CUDA ELF image"};
  CubinInfo info;
  PerFunction per_function;
  if (const ElfSection* global_info = elf->section(".nv.info"))
    per_function = read_global_nv_info(elf->contents(*global_info));
  bool reserved_shared = false;
  for (const auto& s : elf->symbols()) reserved_shared = reserved_shared || s.name == kReservedSharedSymbol;
  const auto& symbols = elf->symbols();
  for (uint32_t index = 0; index < symbols.size(); ++index) {
    const ElfSymbol& s = symbols[index];
    if (s.type == 2 /*FUNC*/ && s.binding != 0) {
      const ElfSection* nv_info = elf->section(".nv.info." + s.name);
      if (!nv_info) continue;
      CubinKernel k;
      k.name = s.name;
      read_nv_info(elf->contents(*nv_info), k);
      if (auto it = per_function.registers.find(index); it != per_function.registers.end()) k.registers = it->second;
      if (auto it = per_function.frame.find(index); it != per_function.frame.end()) k.stack_bytes = it->second;
      if (const ElfSection* shared = elf->section(".nv.shared." + s.name)) {
        int64_t bytes = static_cast<int64_t>(std::min<uint64_t>(shared->size, 1u << 30));
        if (reserved_shared) bytes = std::max<int64_t>(0, bytes - kReservedSharedBytes);
        k.shared_bytes = static_cast<int>(bytes);
      }
      info.kernels.push_back(std::move(k));
    } else if (s.type == 1 /*OBJECT*/ && s.size > 0) {
      bool global = starts_with(s.section_name, ".nv.global");
      bool constant = starts_with(s.section_name, ".nv.constant") && !starts_with(s.section_name, ".nv.constant0");
      if (global || constant) info.globals.push_back({s.name, s.size, constant});
    }
  }
  return info;
}

std::string compare_params(const CubinKernel& baseline, const CubinKernel& variant) {
  if (baseline.params.size() != variant.params.size())
    return fmt::format("{} parameters instead of {}", variant.params.size(), baseline.params.size());
  for (size_t i = 0; i < baseline.params.size(); ++i) {
    const auto& a = baseline.params[i];
    const auto& b = variant.params[i];
    if (a.size != b.size) return fmt::format("parameter {} is {} bytes instead of {}", i + 1, b.size, a.size);
    if (a.offset != b.offset)
      return fmt::format("parameter {} is at offset {} instead of {}", i + 1, b.offset, a.offset);
  }
  if (baseline.param_bytes >= 0 && variant.param_bytes >= 0 && baseline.param_bytes != variant.param_bytes)
    return fmt::format("{} bytes of parameters instead of {}", variant.param_bytes, baseline.param_bytes);
  return {};
}

}  // namespace stark::harness
