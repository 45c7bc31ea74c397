#include "harness/worker/traffic.h"

#include <gtest/gtest.h>

namespace stark::harness {
namespace {

CapturedArg pointer(int buffer, uint64_t offset = 0) {
  CapturedArg a;
  a.kind = ParamKind::Pointer;
  a.buffer = buffer;
  a.offset = offset;
  return a;
}

/// y = a * x: x (4 KiB) read, y (4 KiB) only written.
Capture axpy_like() {
  Capture c;
  c.args = {CapturedArg{}, pointer(0), pointer(1)};
  c.buffers.resize(2);
  c.buffers[0].size = 4096;
  c.buffers[1].size = 4096;
  return c;
}

TEST(Traffic, ReadsWholeInputsAndWritesTheChangedSpan) {
  Capture c = axpy_like();
  std::string x(4096, 'x'), y(4096, '\xff');
  std::string y_after = y;
  for (size_t i = 0; i < 4096; ++i) y_after[i] = 'y';
  // y is never read (the poisoning found it so): x in, y out.
  EXPECT_EQ(compulsory_bytes(c, {1}, {x, y}, {x, y_after}), 4096u + 4096u);
  // In place (y read too): y moves both ways.
  EXPECT_EQ(compulsory_bytes(c, {}, {x, y}, {x, y_after}), 4096u + 4096u + 4096u);
}

TEST(Traffic, OnlyTheChangedSpanAndTheBytesFromThePointerOn) {
  Capture c = axpy_like();
  c.args[1] = pointer(0, 1024);  // x starts 1 KiB into its allocation
  std::string x(4096, 'x'), y(4096, '\0');
  std::string y_after = y;
  y_after[100] = 'a';
  y_after[199] = 'b';
  EXPECT_EQ(compulsory_bytes(c, {1}, {x, y}, {x, y_after}), (4096u - 1024u) + 100u);
  // A launch that changes nothing it does not read moves its inputs only.
  EXPECT_EQ(compulsory_bytes(c, {1}, {x, y}, {x, y}), 4096u - 1024u);
}

TEST(Traffic, MalformedCapturesCountNothingOutOfRange) {
  Capture c = axpy_like();
  c.args.push_back(pointer(7));      // names a buffer that is not there
  c.args[1] = pointer(0, 1u << 20);  // points past its buffer's end
  std::string x(4096, 'x'), y(4096, '\0');
  EXPECT_EQ(compulsory_bytes(c, {1}, {x, y}, {x}), 0u);  // no after image for y: nothing known written
}

}  // namespace
}  // namespace stark::harness
