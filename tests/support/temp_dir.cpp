#include "tests/support/temp_dir.h"

#include <stdexcept>
#include <utility>

namespace stark::testing {

namespace {

ScratchDir create_or_throw(const std::string& what) {
  auto dir = ScratchDir::create(what);
  if (!dir) throw std::runtime_error("cannot create a temporary folder: " + dir.error().message);
  return std::move(*dir);
}

}  // namespace

TempDir::TempDir(const std::string& what) : dir_(create_or_throw(what)) {}

}  // namespace stark::testing
