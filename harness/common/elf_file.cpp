#include "harness/common/elf_file.h"

#include <vector>
#include <string>
#include <cstdint>
#include <cstring>

namespace stark::harness {

namespace {

template <typename T>
bool read_at(std::string_view b, uint64_t off, T& out) {
  if (off > b.size() || b.size() - off < sizeof(T)) return false;
  std::memcpy(&out, b.data() + off, sizeof(T));
  return true;
}

std::string string_at(std::string_view strtab, uint32_t off) {
  if (off >= strtab.size()) return {};
  auto end = strtab.find('\0', off);
  return std::string(strtab.substr(off, end == std::string_view::npos ? std::string_view::npos : end - off));
}

}  // namespace

Expected<ElfFile> ElfFile::parse(std::string bytes) {
  ElfFile f;
  f.bytes_ = std::move(bytes);
  std::string_view b = f.bytes_;
  if (b.size() < 64 || b.substr(0, 4) !=
                           "\x7f"
                           "ELF")
    return Error{"not an ELF file"};
  if (b[4] != 2 || b[5] != 1) return Error{"not a 64-bit little-endian ELF file"};
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  read_at(b, 18, f.machine_);
  read_at(b, 40, shoff);
  read_at(b, 58, shentsize);
  read_at(b, 60, shnum);
  read_at(b, 62, shstrndx);
  if (shentsize != 64 || shoff + uint64_t{shnum} * 64 > b.size()) return Error{"truncated ELF section table"};

  struct Raw {
    uint32_t name, type;
    uint64_t offset, size;
    uint32_t link;
  };
  std::vector<Raw> raw(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    uint64_t base = shoff + uint64_t{i} * 64;
    read_at(b, base + 0, raw[i].name);
    read_at(b, base + 4, raw[i].type);
    read_at(b, base + 24, raw[i].offset);
    read_at(b, base + 32, raw[i].size);
    read_at(b, base + 40, raw[i].link);
    if (raw[i].type != 8 /*NOBITS*/ && (raw[i].offset > b.size() || b.size() - raw[i].offset < raw[i].size))
      return Error{"truncated ELF section"};
  }
  std::string_view shstr;
  if (shstrndx < shnum) shstr = b.substr(raw[shstrndx].offset, raw[shstrndx].size);
  for (const auto& r : raw) f.sections_.push_back({string_at(shstr, r.name), r.type, r.offset, r.size});

  for (uint16_t i = 0; i < shnum; ++i) {
    if (raw[i].type != 2 /*SYMTAB*/ || raw[i].link >= shnum) continue;
    std::string_view strtab = b.substr(raw[raw[i].link].offset, raw[raw[i].link].size);
    for (uint64_t off = raw[i].offset; off + 24 <= raw[i].offset + raw[i].size; off += 24) {
      uint32_t name = 0;
      uint8_t info = 0, other = 0;
      uint16_t shndx = 0;
      uint64_t size = 0;
      read_at(b, off, name);
      read_at(b, off + 4, info);
      read_at(b, off + 5, other);
      read_at(b, off + 6, shndx);
      read_at(b, off + 16, size);
      ElfSymbol s;
      s.name = string_at(strtab, name);
      s.type = info & 0xf;
      s.binding = info >> 4;
      s.other = other;
      s.section = shndx;
      s.size = size;
      if (shndx > 0 && shndx < shnum) s.section_name = f.sections_[shndx].name;
      f.symbols_.push_back(std::move(s));
    }
  }
  return f;
}

const ElfSection* ElfFile::section(std::string_view name) const {
  for (const auto& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

std::string_view ElfFile::contents(const ElfSection& s) const {
  if (s.type == 8) return {};
  return std::string_view(bytes_).substr(s.offset, s.size);
}

}  // namespace stark::harness
