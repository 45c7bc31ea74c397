#include "harness/store/capture_store.h"

#include <vector>
#include <string>
#include <cstdint>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>

#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark::harness {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

Capture sample_capture(const std::string& id, const std::string& shape, const std::string& before) {
  Capture c;
  c.id = id;
  c.kernel = "src/ops.cu:saxpy";
  c.mangled = "_Z5saxpyifPKfPf";
  c.command = "test_ops";
  c.pid = 42;
  c.created = utc_now();
  c.launch.grid = {4, 1, 1};
  c.launch.block = {256, 1, 1};
  c.shape = shape;
  c.args = {{"n", ParamKind::Scalar, std::string("\x00\x04\x00\x00", 4), std::nullopt, 0},
            {"a", ParamKind::Scalar, std::string("\x00\x00\x00\x40", 4), std::nullopt, 0},
            {"x", ParamKind::Pointer, "", 0, 0},
            {"y", ParamKind::Pointer, "", 1, 16}};
  c.buffers = {{4096, "f32", "device", before, before}, {4112, "f32", "device", before, std::nullopt}};
  c.globals = {{"coeffs", 64, before, before}};
  c.bytes = 8208;
  return c;
}

TEST(CaptureStore, BlobsRoundTripCompressedAndVerified) {
  TempDir tmp;
  auto dir = tmp / "blobs";
  auto store = CaptureStore::open(dir, true);
  ASSERT_TRUE(store) << store.error().message;
  std::string data(1 << 20, '\0');
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i % 7);
  uint64_t stored = 0;
  auto hash = store->put_blob(data, &stored);
  ASSERT_TRUE(hash) << hash.error().message;
  EXPECT_EQ(hash->rfind("xxh64:", 0), 0u);
  EXPECT_GT(stored, 0u);
  EXPECT_LT(stored, data.size() / 10);  // repetitive data compresses
  uint64_t again = 1;
  ASSERT_TRUE(store->put_blob(data, &again));
  EXPECT_EQ(again, 0u);  // content-addressed: stored once
  auto back = store->get_blob(*hash);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, data);

  // A damaged blob is detected, never returned.
  std::string hex = hash->substr(6);
  fs::path file = dir / "blobs" / hex.substr(0, 2) / (hex + ".zst");
  auto other = store->put_blob("other content");
  ASSERT_TRUE(other);
  std::string ohex = other->substr(6);
  fs::copy_file(dir / "blobs" / ohex.substr(0, 2) / (ohex + ".zst"), file, fs::copy_options::overwrite_existing);
  auto bad = store->get_blob(*hash);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("damaged"), std::string::npos);
  EXPECT_FALSE(store->get_blob("xxh64:0000000000000000"));
}

TEST(CaptureStore, IndexRoundTripAndRefusalCounting) {
  TempDir tmp;
  auto dir = tmp / "index";
  auto store = CaptureStore::open(dir, true);
  ASSERT_TRUE(store);
  auto blob = store->put_blob("abc");
  ASSERT_TRUE(blob);
  Capture c = sample_capture("c1", "s1", *blob);
  ASSERT_TRUE(store->update([&](CaptureIndex& index) -> Expected<void> {
    index.captures.push_back(c);
    index.add_refusal({"k", "_Z1kv", "pointer in struct", 1, "t1"});
    index.add_refusal({"k", "_Z1kv", "pointer in struct", 1, "t2"});
    index.processes.push_back({42, "test_ops", utc_now(), "ok", 0.5, 0.25});
    return {};
  }));
  auto index = store->read_index();
  ASSERT_TRUE(index) << index.error().message;
  ASSERT_EQ(index->captures.size(), 1u);
  EXPECT_EQ(index->captures[0], c);
  ASSERT_EQ(index->refusals.size(), 1u);
  EXPECT_EQ(index->refusals[0].count, 2);
  EXPECT_EQ(index->refusals[0].command, "t1");
  EXPECT_EQ(index->for_kernel("src/ops.cu:saxpy").size(), 1u);
  ASSERT_EQ(index->processes.size(), 1u);
  EXPECT_EQ(index->processes[0].record_seconds, 0.5);
  EXPECT_EQ(index->processes[0].exit_wait_seconds, 0.25);

  // A failing update writes nothing.
  auto failed = store->update([](CaptureIndex& i) -> Expected<void> {
    i.captures.clear();
    return Error{"nope"};
  });
  EXPECT_FALSE(failed);
  EXPECT_EQ(store->read_index()->captures.size(), 1u);
}

TEST(CaptureStore, ForeignIndexIsRejected) {
  TempDir tmp;
  auto dir = tmp / "foreign";
  auto store = CaptureStore::open(dir, true);
  ASSERT_TRUE(store);
  ASSERT_TRUE(write_json_file(dir / "index.json", {{"schema", "other/1"}}));
  auto index = store->read_index();
  ASSERT_FALSE(index);
  EXPECT_NE(index.error().message.find("not a STARK capture index"), std::string::npos);
  EXPECT_FALSE(CaptureStore::open(tmp / "missing", false));
}

TEST(Admission, DistinctShapesFirstThenCaps) {
  CaptureIndex index;
  StoreLimits limits;
  limits.max_per_kernel = 2;
  EXPECT_EQ(admit(index, limits, "k", "s1", 100).decision, Admission::Decision::Record);
  index.captures.push_back(sample_capture("c1", "s1", "h"));
  index.captures.back().kernel = "k";
  auto same = admit(index, limits, "k", "s1", 100);
  EXPECT_EQ(same.decision, Admission::Decision::Skip);
  EXPECT_EQ(admit(index, limits, "k", "s2", 100).decision, Admission::Decision::Record);
  EXPECT_EQ(admit(index, limits, "other", "s1", 100).decision, Admission::Decision::Record);
  index.captures.push_back(sample_capture("c2", "s2", "h"));
  index.captures.back().kernel = "k";
  auto full = admit(index, limits, "k", "s3", 100);
  EXPECT_EQ(full.decision, Admission::Decision::Skip);
  EXPECT_NE(full.reason.find("2 captures"), std::string::npos);

  limits.max_capture_bytes = 1000;
  auto big = admit(index, limits, "other", "s9", 5000);
  EXPECT_EQ(big.decision, Admission::Decision::Refuse);
  EXPECT_NE(big.reason.find("4.9 KiB"), std::string::npos);
  EXPECT_NE(big.reason.find("--max-capture-bytes"), std::string::npos);

  limits.max_capture_bytes = 1 << 30;
  limits.max_store_bytes = 10;
  index.captures[0].stored_bytes = 20;
  auto store_full = admit(index, limits, "other", "s9", 100);
  EXPECT_EQ(store_full.decision, Admission::Decision::Refuse);
  EXPECT_NE(store_full.reason.find("store is full"), std::string::npos);
}

// ctest -j: many processes append to one store at once; no update is lost.
TEST(CaptureStore, ConcurrentWritersLoseNothing) {
  TempDir tmp;
  auto dir = tmp / "concurrent";
  ASSERT_TRUE(CaptureStore::open(dir, true));
  constexpr int kProcesses = 6, kEach = 15;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto store = CaptureStore::open(dir, false);
      if (!store) _exit(2);
      for (int i = 0; i < kEach; ++i) {
        std::string payload = "process " + std::to_string(p) + " item " + std::to_string(i);
        auto blob = store->put_blob(payload);
        auto shared = store->put_blob("the same bytes in every process");
        if (!blob || !shared) _exit(3);
        auto ok = store->update([&](CaptureIndex& index) -> Expected<void> {
          index.captures.push_back(sample_capture("p" + std::to_string(p) + "i" + std::to_string(i), payload, *blob));
          return {};
        });
        if (!ok) _exit(4);
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto store = CaptureStore::open(dir, false);
  auto index = store->read_index();
  ASSERT_TRUE(index) << index.error().message;
  EXPECT_EQ(index->captures.size(), static_cast<size_t>(kProcesses * kEach));
  for (const auto& c : index->captures) EXPECT_TRUE(store->get_blob(c.buffers[0].before)) << c.id;
  // No temporary files left behind.
  for (const auto& e : fs::recursive_directory_iterator(dir))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(Hex, RoundTrip) {
  std::string bytes("\x00\x01\xfe\xff", 4);
  EXPECT_EQ(to_hex(bytes), "0001feff");
  EXPECT_EQ(from_hex("0001FEff"), bytes);
  EXPECT_FALSE(from_hex("abc"));
  EXPECT_FALSE(from_hex("zz"));
}

}  // namespace
}  // namespace stark::harness
