#include "harness/common/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace stark::harness {

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> readable(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                       &std::free);
  return status == 0 && readable ? std::string(readable.get()) : mangled;
}

}  // namespace stark::harness
