// SHA-256 (FIPS 180-4, OpenSSL's), the content hash CMake itself can compute
// (file(SHA256 ...)): the variants fragment records each original's SHA-256
// so the configure step can tell, with no STARK code, whether it changed.
#ifndef STARK_REWRITER_SHA256_H
#define STARK_REWRITER_SHA256_H

#include <string>
#include <string_view>

namespace stark::rewriter {

/// Lower-case hex digest, as CMake's file(SHA256) prints it.
std::string sha256_hex(std::string_view bytes);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_SHA256_H
