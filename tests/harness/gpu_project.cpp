#include "gpu_project.h"

#include <vector>
#include <string>
#include <cstdint>
#include <chrono>
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/hash.h"
#include "harness/common/cuda_driver.h"
#include "harness/store/capture_store.h"
#include "harness/testing/test_project.h"
#include "harness/worker/fuzz.h"

namespace stark::harness::testing {

namespace fs = std::filesystem;

std::string no_gpu_reason() {
  auto cu = cuda_driver();
  if (!cu) return cu.error().message;
  int count = 0;
  (*cu)->cuDeviceGetCount(&count);
  return count > 0 ? "" : "no CUDA device";
}

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Param s(const std::string& name, const std::string& type, int size) { return scalar(name, type, size); }
Param p(const std::string& name, const std::string& pointee, bool c) { return pointer(name, pointee, c); }

template <typename T>
std::string bytes_of(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}
template <typename T>
std::string value_bytes(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof v);
}

std::vector<float> random_floats(size_t n, uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(2 * rng.uniform() - 1);
  return v;
}

Kernel make_kernel(const fs::path& root, const std::string& text, const std::string& name, const std::string& start,
                   const std::string& mangled, std::vector<Param> params) {
  Kernel k;
  k.name = name;
  k.qualified_name = name;
  k.file = "kernels.cu";
  k.id = "kernels.cu:" + name;
  k.range = kernel_range(text, start);
  k.body = {static_cast<int64_t>(text.find('{', static_cast<size_t>(k.range.begin))), k.range.end};
  k.params = params;
  k.instantiations = {{mangled, "", params}};
  CompileCommand cc;
  cc.directory = (root / "build").string();
  cc.file = (root / "kernels.cu").string();
  cc.arguments = {STARK_NVCC,
                  "-O3",
                  "-std=c++17",
                  "-I" + root.string(),
                  "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                  "-x",
                  "cu",
                  "-c",
                  cc.file,
                  "-o",
                  "kernels.o"};
  cc.archs = {"90"};
  k.compile = cc;
  return k;
}

struct Builder {
  CaptureStore& store;
  Capture c;
  Builder(CaptureStore& st, const std::string& id, const std::string& kernel, const std::string& mangled, Dim3 grid,
          Dim3 block)
      : store(st) {
    c.id = id;
    c.kernel = kernel;
    c.mangled = mangled;
    c.origin = "launch";
    c.command = "tests/harness/gpu_project.cpp";
    c.created = utc_now();
    c.launch.grid = grid;
    c.launch.block = block;
  }
  void scalar(const std::string& name, std::string bytes) {
    c.args.push_back({name, ParamKind::Scalar, std::move(bytes), std::nullopt, 0});
  }
  int buffer(const std::string& before, const std::string& after) {
    auto b = store.put_blob(before);
    auto a = store.put_blob(after);
    c.buffers.push_back({before.size(), "f32", "device", *b, *a});
    c.bytes += before.size() + after.size();
    return static_cast<int>(c.buffers.size() - 1);
  }
  void pointer(const std::string& name, int buffer, uint64_t offset = 0) {
    c.args.push_back({name, ParamKind::Pointer, "", buffer, offset});
  }
  void global(const std::string& name, const std::string& value) {
    auto h = store.put_blob(value);
    c.globals.push_back({name, value.size(), *h, *h});
  }
  void commit() {
    c.shape = content_hash(c.id);
    (void)store.update([&](CaptureIndex& index) -> Expected<void> {
      if (!index.find(c.id)) index.captures.push_back(c);
      return {};
    });
  }
};

void scale_capture(CaptureStore& st, const std::string& id, int n, float a, const std::vector<float>& x,
                   const std::vector<float>& y_before, bool aliased) {
  std::vector<float> y(n);
  for (int i = 0; i < n; ++i) y[i] = a * x[i];
  Builder b(st, id, "kernels.cu:scale", "_Z5scaleifPKfPf", {static_cast<uint32_t>((n + 2047) / 2048), 1, 1},
            {256, 1, 1});
  b.scalar("n", value_bytes(n));
  b.scalar("a", value_bytes(a));
  if (aliased) {
    int buf = b.buffer(bytes_of(x), bytes_of(y));
    b.pointer("x", buf);
    b.pointer("y", buf);
  } else {
    int bx = b.buffer(bytes_of(x), bytes_of(x));
    int by = b.buffer(bytes_of(y_before), bytes_of(y));
    b.pointer("x", bx);
    b.pointer("y", by);
  }
  b.commit();
}

}  // namespace

GpuProject GpuProject::create(const fs::path& work) {
  GpuProject g;
  g.work = work;
  g.root = work / "project";
  fs::create_directories(g.root / "build");
  for (const char* f : {"kernels.cu", "kernels.h"})
    fs::copy_file(fs::path(STARK_SOURCE_DIR) / "tests/harness/project" / f, g.root / f,
                  fs::copy_options::overwrite_existing);
  std::string text = read(g.root / "kernels.cu");
  g.manifest.source_root = g.root.string();
  g.manifest.build_dir = (g.root / "build").string();
  g.manifest.files["kernels.cu"] = {content_hash(text)};
  auto& ks = g.manifest.kernels;
  ks.push_back(make_kernel(g.root, text, "scale", "__global__ void scale", "_Z5scaleifPKfPf",
                           {s("n", "int", 4), s("a", "float", 4), p("x", "float", true), p("y", "float", false)}));
  ks.push_back(make_kernel(g.root, text, "saxpy", "__global__ void saxpy", "_Z5saxpyifPKfPf",
                           {s("n", "int", 4), s("a", "float", 4), p("x", "float", true), p("y", "float", false)}));
  ks.push_back(make_kernel(g.root, text, "matmul", "__global__ void matmul", "_Z6matmuliPKfS0_Pf",
                           {s("n", "int", 4), p("A", "float", true), p("B", "float", true), p("C", "float", false)}));
  ks.push_back(make_kernel(g.root, text, "block_sum", "__global__ void block_sum", "_Z9block_sumiPKfPf",
                           {s("n", "int", 4), p("x", "float", true), p("out", "float", false)}));
  ks.push_back(make_kernel(g.root, text, "add_bias", "__global__ void add_bias", "_Z8add_biasiPKfPf",
                           {s("n", "int", 4), p("x", "float", true), p("y", "float", false)}));
  Param span;
  span.name = "s";
  span.type = "Span";
  span.kind = ParamKind::Record;
  span.size = 16;
  span.align = 8;
  ks.push_back(make_kernel(g.root, text, "fill_span", "__global__ void fill_span", "_Z9fill_span4Spanf",
                           {span, s("v", "float", 4)}));
  Kernel neg = make_kernel(g.root, text, "negate", "template <typename T>\n__global__ void negate",
                           "_Z6negateIfEviPKT_PS0_", {s("n", "int", 4), p("x", "float", true), p("y", "float", false)});
  neg.is_template = true;
  neg.instantiations.push_back(
      {"_Z6negateIdEviPKT_PS0_", "double", {s("n", "int", 4), p("x", "double", true), p("y", "double", false)}});
  ks.push_back(neg);
  ks.push_back(make_kernel(g.root, text, "never_launched", "__global__ void never_launched", "_Z14never_launchediPf",
                           {s("n", "int", 4), p("y", "float", false)}));
  return g;
}

fs::path GpuProject::store(const std::string& name) const {
  fs::path dir = work / ("store-" + name);
  if (fs::exists(dir / "index.json")) return dir;
  auto st = CaptureStore::open(dir, true);
  const int n = 1 << 22;
  if (name == "second_call") {
    auto x = random_floats(n, 11);
    std::vector<float> answer(n);
    for (int i = 0; i < n; ++i) answer[i] = 2.5f * x[i];
    scale_capture(*st, "scale-second-call", n, 2.5f, x, answer, false);
    return dir;
  }
  // scale: a first call, a second call (y already holds the answer), in place.
  auto x = random_floats(n, 1);
  scale_capture(*st, "scale-first-call", n, 2.5f, x, random_floats(n, 2), false);
  std::vector<float> answer(n);
  for (int i = 0; i < n; ++i) answer[i] = 2.5f * x[i];
  scale_capture(*st, "scale-second-call", n, 2.5f, x, answer, false);
  scale_capture(*st, "scale-in-place", 1 << 20, 2.5f, random_floats(1 << 20, 3), {}, true);

  {  // matmul, n = 512: the reference in double precision.
    const int m = 512;
    auto A = random_floats(m * m, 4), B = random_floats(m * m, 5), C0 = random_floats(m * m, 6);
    std::vector<float> C(m * m);
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < m; ++c) {
        double acc = 0;
        for (int k = 0; k < m; ++k) acc += static_cast<double>(A[r * m + k]) * B[k * m + c];
        C[r * m + c] = static_cast<float>(acc);
      }
    Builder b(*st, "matmul-512", "kernels.cu:matmul", "_Z6matmuliPKfS0_Pf", {m / 16, m / 16, 1}, {16, 16, 1});
    b.scalar("n", value_bytes(m));
    b.pointer("A", b.buffer(bytes_of(A), bytes_of(A)));
    b.pointer("B", b.buffer(bytes_of(B), bytes_of(B)));
    b.pointer("C", b.buffer(bytes_of(C0), bytes_of(C)));
    b.commit();
  }
  {  // block_sum, 2^20 elements in blocks of 256.
    const int m = 1 << 20;
    auto x = random_floats(m, 7);
    std::vector<float> out(m / 256), out0 = random_floats(m / 256, 8);
    for (int blk = 0; blk < m / 256; ++blk) {
      double acc = 0;
      for (int t = 0; t < 256; ++t) acc += x[blk * 256 + t];
      out[blk] = static_cast<float>(acc);
    }
    Builder b(*st, "block-sum-1m", "kernels.cu:block_sum", "_Z9block_sumiPKfPf", {m / 256, 1, 1}, {256, 1, 1});
    b.scalar("n", value_bytes(m));
    b.pointer("x", b.buffer(bytes_of(x), bytes_of(x)));
    b.pointer("out", b.buffer(bytes_of(out0), bytes_of(out)));
    b.commit();
  }
  {  // add_bias, with the __constant__ bias recorded as a module variable.
    const int m = 1 << 20;
    const float bias[4] = {0.5f, -1.0f, 2.0f, 0.25f};
    auto x = random_floats(m, 9);
    std::vector<float> y(m);
    for (int i = 0; i < m; ++i) y[i] = x[i] + bias[i & 3];
    Builder b(*st, "add-bias-1m", "kernels.cu:add_bias", "_Z8add_biasiPKfPf", {m / 256, 1, 1}, {256, 1, 1});
    b.scalar("n", value_bytes(m));
    b.pointer("x", b.buffer(bytes_of(x), bytes_of(x)));
    b.pointer("y", b.buffer(bytes_of(random_floats(m, 10)), bytes_of(y)));
    b.global("c_bias", std::string(reinterpret_cast<const char*>(bias), sizeof bias));
    b.commit();
  }
  return dir;
}

GpuEvaluatorOptions GpuProject::options(const std::string& store_name) const {
  GpuEvaluatorOptions o;
  o.store = store(store_name);
  o.cache_dir = work / "cache";
  o.worker = {STARK_WORKER_PATH, "--device", "{device}"};
  o.nvcc = STARK_NVCC;
  o.timing.min_runs = 10;
  o.timing.max_runs = 60;
  o.timing.max_seconds = 0.5;
  o.watchdog_seconds = 3;
  o.sanitize = GpuEvaluatorOptions::Sanitize::Always;
  o.sanitizer_timeout = std::chrono::seconds(300);
  o.check_all_archs = false;
  return o;
}

}  // namespace stark::harness::testing
