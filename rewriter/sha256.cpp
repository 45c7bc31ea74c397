#include "rewriter/sha256.h"

#include <openssl/evp.h>

#include <fmt/format.h>

namespace stark::rewriter {

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  // A one-shot digest of memory cannot fail short of allocation failure.
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr) != 1) return "";
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

}  // namespace stark::rewriter
