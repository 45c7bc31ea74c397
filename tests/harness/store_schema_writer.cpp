// Writes a capture store with every kind of entry (a recorded launch with a
// pointer alias, a struct argument and a module variable; inputs from an
// annotation; a refusal; processes) and prints the path of its index, for
// check_store_schema.py.
#include <string>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "harness/capture/annotation_inputs.h"
#include "harness/store/capture_store.h"

using namespace stark;
using namespace stark::harness;

int main() {
  auto dir = std::filesystem::temp_directory_path() / ("stark_schema_store_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  auto store = CaptureStore::open(dir, true);
  if (!store) return 1;
  auto blob = store->put_blob(std::string(64, '\x01'));
  auto after = store->put_blob(std::string(64, '\x02'));
  Capture c;
  c.id = "c-1";
  c.kernel = "src/ops.cu:scale";
  c.mangled = "_Z5scaleifPKfPf";
  c.command = "tests";
  c.pid = 1;
  c.created = utc_now();
  c.launch.grid = {2, 1, 1};
  c.launch.block = {8, 1, 1};
  c.shape = "xxh64:0123456789abcdef";
  c.args = {{"n", ParamKind::Scalar, std::string("\x10\0\0\0", 4), std::nullopt, 0},
            {"p", ParamKind::Record, std::string(16, '\0'), std::nullopt, 0},
            {"x", ParamKind::Pointer, "", 0, 0},
            {"y", ParamKind::Pointer, "", 0, 32},
            {"z", ParamKind::Pointer, "", std::nullopt, 0}};
  c.buffers = {{64, "f32", "device", *blob, *after}};
  c.globals = {{"coeffs", 64, *blob, *blob}};
  c.bytes = 256;
  c.stored_bytes = 40;

  Kernel k;
  k.id = "src/ops.cu:saxpy";
  Param n{"n", "int", ParamKind::Scalar, "", false, false, 4, 4, {}};
  Param y{"y", "float *", ParamKind::Pointer, "float", false, false, 8, 8, {}};
  k.params = {n, y};
  k.instantiations = {{"_Z5saxpyiPf", "", k.params}};
  k.options.args = "n=100";
  k.options.buffers = "y[n]";
  k.options.grid = "1";
  k.options.block = "128";
  auto a = capture_from_annotation(k, *store);
  if (!a) {
    std::fprintf(stderr, "%s\n", a.error().message.c_str());
    return 1;
  }
  auto ok = store->update([&](CaptureIndex& index) -> Expected<void> {
    index.captures = {c, *a};
    index.add_refusal({"src/ops.cu:fill", "_Z4fill4Span", "parameter 's' (a struct) holds a GPU pointer", 1, "tests"});
    index.add_refusal({"*", "", "the program launches CUDA graphs", 1, "tests"});
    index.processes = {{1, "tests", utc_now(), "ok"},
                       {2, "ncu tests", utc_now(), "another CUDA tool holds the profiling interface"}};
    return {};
  });
  if (!ok) return 1;
  std::printf("%s\n", (dir / "index.json").c_str());
  return 0;
}
