// The version `stark --version` prints and results record.
#ifndef STARK_CLI_VERSION_H
#define STARK_CLI_VERSION_H

namespace stark::cli {

/// "0.1.0 (clang 19.1.7, CUDA 13.0)" style string.
const char* stark_version_string();

}  // namespace stark::cli

#endif  // STARK_CLI_VERSION_H
