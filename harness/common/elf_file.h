// A minimal reader of 64-bit little-endian ELF files: the symbols and
// sections of cubins (kernels, their parameter layout, device globals) and of
// host objects (to find host code smuggled into a variant).
#ifndef STARK_HARNESS_COMMON_ELF_FILE_H
#define STARK_HARNESS_COMMON_ELF_FILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark::harness {

struct ElfSymbol {
  std::string name;
  uint8_t type = 0;     // STT_*: 0 notype, 1 object, 2 func, 3 section, 4 file
  uint8_t binding = 0;  // STB_*: 0 local, 1 global, 2 weak
  uint8_t other = 0;    // st_other (cubins: 0x10 marks a kernel entry)
  uint16_t section = 0;
  uint64_t size = 0;
  std::string section_name;  // empty for undefined / special sections
};

struct ElfSection {
  std::string name;
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// A parsed ELF image; keeps its bytes.
class ElfFile {
 public:
  /// Errors name what is wrong ("not an ELF file", "truncated section table").
  static Expected<ElfFile> parse(std::string bytes);

  const std::vector<ElfSymbol>& symbols() const { return symbols_; }
  const std::vector<ElfSection>& sections() const { return sections_; }
  const ElfSection* section(std::string_view name) const;
  /// The bytes of a section (empty for NOBITS).
  std::string_view contents(const ElfSection& s) const;
  uint16_t machine() const { return machine_; }

 private:
  std::string bytes_;
  std::vector<ElfSection> sections_;
  std::vector<ElfSymbol> symbols_;
  uint16_t machine_ = 0;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMMON_ELF_FILE_H
