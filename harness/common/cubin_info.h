// What the harness reads from a compiled cubin: which kernels it defines,
// their parameter layout (to prove a variant kept the kernel's name and
// signature) and resource use (registers, stack, static shared memory: the
// profile facts ptxas -v would print), and the module-scope __device__/__constant__ variables (which a
// capture records and a replay restores, since a kernel may read them).
#ifndef STARK_HARNESS_COMMON_CUBIN_INFO_H
#define STARK_HARNESS_COMMON_CUBIN_INFO_H

#include <cstdint>
#include <string>
#include <vector>

#include "core/expected.h"

namespace stark::harness {

struct CubinParam {
  int ordinal = 0;
  int offset = 0;  // bytes into the parameter buffer
  int size = 0;
  bool operator==(const CubinParam&) const = default;
};

struct CubinKernel {
  std::string name;                // mangled
  std::vector<CubinParam> params;  // by ordinal
  int param_bytes = -1;            // EIATTR_CBANK_PARAM_SIZE, -1 when absent
  int registers = -1;              // EIATTR_REGCOUNT, -1 when absent
  int stack_bytes = -1;            // EIATTR_FRAME_SIZE: spills and local arrays, -1 when absent
  int shared_bytes = 0;            // the kernel's .nv.shared section, less the block the system reserves
};

struct CubinGlobal {
  std::string name;  // as cuModuleGetGlobal wants it (mangled when namespaced)
  uint64_t size = 0;
  bool constant = false;  // __constant__
};

struct CubinInfo {
  std::vector<CubinKernel> kernels;
  std::vector<CubinGlobal> globals;
  const CubinKernel* find_kernel(const std::string& name) const;
};

/// Parses a cubin (an ELF file from nvcc -cubin).
Expected<CubinInfo> read_cubin(const std::string& bytes);

/// "" when `variant` declares the same parameters as `baseline`; else what differs.
std::string compare_params(const CubinKernel& baseline, const CubinKernel& variant);

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMMON_CUBIN_INFO_H
