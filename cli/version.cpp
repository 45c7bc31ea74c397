#include "cli/version.h"

#include <string>

#include "clang_tool/toolchain.h"

namespace stark::cli {

const char* stark_version_string() {
  static const std::string version = std::string(STARK_VERSION) + " (clang " + clang_version() + ")";
  return version.c_str();
}

}  // namespace stark::cli
