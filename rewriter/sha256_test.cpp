#include "rewriter/sha256.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/process.h"

namespace stark::rewriter {
namespace {

TEST(Sha256, NistVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, AgreesWithCMakeAtEveryPaddingLength) {
  // The configure step compares these digests with file(SHA256): they must match CMake's.
  auto dir = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / "sha256";
  std::filesystem::create_directories(dir);
  std::vector<std::string> args = {"cmake", "-E", "sha256sum"};
  std::vector<std::string> expected;
  for (size_t n : {0, 1, 55, 56, 63, 64, 65, 119, 120, 1000}) {
    std::string content;
    for (size_t i = 0; i < n; ++i) content += static_cast<char>('a' + (i * 7) % 26);
    auto path = dir / ("f" + std::to_string(n));
    ASSERT_TRUE(write_file_atomic(path, content));
    args.push_back(path.string());
    expected.push_back(sha256_hex(content) + "  " + path.string());
  }
  auto r = run_process(args);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status.code, 0) << r->output;
  for (const auto& line : expected) EXPECT_NE(r->output.find(line), std::string::npos) << line << "\n" << r->output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace stark::rewriter
