#include "harness/compile/host_code_check.h"

#include <vector>
#include <string>
#include <fmt/format.h>

#include <set>

#include "harness/common/demangle.h"
#include "harness/common/elf_file.h"

namespace stark::harness {

namespace {

// GCC's clones of one function (foo.cold, foo.part.0, foo.isra.0...) count as foo.
std::string base_name(const std::string& name) {
  auto dot = name.find('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

bool generated(const std::string& n) {
  for (const char* p :
       {"__nv", "__cuda", "_ZL20__cudaFatCubinHandle", "_ZL15__fatDeviceText", "__fatbin", "fatbinData", "_GLOBAL__",
        "__sti__", "_ZL24__sti__", "_ZL26__cudaUnregisterBinaryUtil", "DW.ref.", "__device_stub"})
    if (n.rfind(p, 0) == 0) return true;
  // Kernel stubs and their static locals: _Z..__device_stub__..., _ZZ..__device_stub__...E8__handle
  return n.find("__device_stub__") != std::string::npos;
}

std::set<std::string> defined_host_symbols(const ElfFile& elf) {
  std::set<std::string> out;
  for (const auto& s : elf.symbols()) {
    if (s.section == 0 || s.name.empty()) continue;  // undefined
    if (s.type != 1 /*OBJECT*/ && s.type != 2 /*FUNC*/) continue;
    if (s.name[0] == '.') continue;
    if (generated(s.name)) continue;
    out.insert(base_name(s.name));
  }
  return out;
}

size_t init_entries(const ElfFile& elf) {
  size_t n = 0;
  for (const auto& s : elf.sections())
    if (s.name == ".init_array" || s.name.rfind(".init_array.", 0) == 0 || s.name == ".ctors") n += s.size / 8;
  return n;
}

// "_ZL7counter" (a static's host shadow) -> "counter"; other names unchanged.
std::string shadow_device_name(const std::string& host) {
  if (host.rfind("_ZL", 0) != 0) return host;
  size_t i = 3, len = 0;
  while (i < host.size() && std::isdigit(static_cast<unsigned char>(host[i]))) len = len * 10 + (host[i++] - '0');
  if (len == 0 || i + len != host.size()) return host;
  return host.substr(i);
}

}  // namespace

Expected<std::vector<std::string>> host_code_added(const std::string& original_object,
                                                   const std::string& patched_object, const CubinInfo& patched_cubin) {
  auto original = ElfFile::parse(original_object);
  if (!original) return Error{"cannot read the original host object: " + original.error().message};
  auto patched = ElfFile::parse(patched_object);
  if (!patched) return Error{"cannot read the patched host object: " + patched.error().message};

  std::set<std::string> device_names;
  for (const auto& g : patched_cubin.globals) device_names.insert(g.name);
  for (const auto& k : patched_cubin.kernels) device_names.insert(k.name);

  std::set<std::string> before = defined_host_symbols(*original);
  std::vector<std::string> findings;
  for (const auto& name : defined_host_symbols(*patched)) {
    if (before.count(name)) continue;
    if (device_names.count(name) || device_names.count(shadow_device_name(name))) continue;  // device code's
    bool is_function = false;
    for (const auto& s : patched->symbols())
      if (base_name(s.name) == name && s.type == 2) is_function = true;
    findings.push_back(fmt::format("host {} {} ({})", is_function ? "function" : "variable", demangle(name), name));
  }
  size_t init_before = init_entries(*original), init_after = init_entries(*patched);
  if (init_after > init_before)
    findings.push_back(fmt::format("{} more static initialiser{} (code that runs when the program starts)",
                                   init_after - init_before, init_after - init_before == 1 ? "" : "s"));
  return findings;
}

}  // namespace stark::harness
