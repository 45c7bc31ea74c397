// Real clang parses of real projects: tests/projects/edge (configured by
// CMake through the ctest fixture "edge") and tests/projects/bad.
#include "clang_tool/scan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "clang_tool/build_info.h"
#include "clang_tool/toolchain.h"
#include "core/file_io.h"
#include "core/hash.h"
#include "tests/support/nvcc_symbols.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const fs::path kSource = STARK_SOURCE_DIR;
const fs::path kEdgeBuild = fs::path(STARK_BINARY_DIR) / "tests/projects/edge-build";

const Kernel& kernel(const Manifest& m, const std::string& id) {
  const Kernel* k = m.find_kernel(id);
  if (!k) {
    std::string ids;
    for (const auto& x : m.kernels) ids += " " + x.id;
    ADD_FAILURE() << "no kernel " << id << "; have:" << ids;
    static Kernel none;
    return none;
  }
  return *k;
}

std::string text_at(const Manifest& m, const std::string& file, ByteRange r) {
  auto text = read_file(fs::path(m.source_root) / file);
  EXPECT_TRUE(text);
  return text->substr(r.begin, r.end - r.begin);
}

class EdgeProject : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ScanOptions options;
    options.build_dir = kEdgeBuild;
    auto out = scan_build(options);
    ASSERT_TRUE(out) << out.error().message;
    manifest_ = new Manifest(out->manifest);
  }
  static void TearDownTestSuite() { delete manifest_; }
  static Manifest* manifest_;
};
Manifest* EdgeProject::manifest_ = nullptr;

TEST_F(EdgeProject, FindsExactlyTheAnnotatedKernels) {
  const Manifest& m = *manifest_;
  EXPECT_TRUE(m.diagnostics.empty()) << m.diagnostics[0].format();
  EXPECT_EQ(m.source_root, (kSource / "tests/projects/edge").string());
  EXPECT_EQ(m.build_dir, kEdgeBuild.string());
  std::vector<std::string> ids;
  for (const auto& k : m.kernels) ids.push_back(k.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"include/edge/scale.cuh:edge::detail::scale", "src/apis.cu:axpy_c",
                                           "src/apis.cu:api::negate", "src/stats.cu:edge::row_mean",
                                           "src/stats.cu:edge::clamp(int, float *)",
                                           "src/stats.cu:edge::clamp(int, double *)"}));
  for (const auto& [file, entry] : m.files) {
    auto h = file_hash(fs::path(m.source_root) / file);
    ASSERT_TRUE(h);
    EXPECT_EQ(entry.hash, *h) << file;
  }
  EXPECT_EQ(m.files.size(), 4u);  // other.cu holds no kernel and no launch site
}

TEST_F(EdgeProject, TemplateInHeaderWithInstantiationsFromTwoUnits) {
  const Manifest& m = *manifest_;
  const Kernel& k = kernel(m, "include/edge/scale.cuh:edge::detail::scale");
  EXPECT_TRUE(k.is_template);
  EXPECT_EQ(k.name, "scale");
  EXPECT_EQ(k.line, 8);
  EXPECT_EQ(k.column, 1);
  std::string decl = text_at(m, k.file, k.range);
  EXPECT_EQ(decl.rfind("template <typename T, int kUnroll>\nSTARK_OPTIMIZE(\"budget=8\", \"rtol=1e-5\")", 0), 0u);
  EXPECT_EQ(decl.back(), '}');
  EXPECT_EQ(text_at(m, k.file, k.body).front(), '{');
  EXPECT_EQ(k.body.end, k.range.end);
  EXPECT_EQ(k.options.budget, 8);
  EXPECT_DOUBLE_EQ(*k.options.rtol, 1e-5);
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[2].type, "const T *__restrict");
  EXPECT_TRUE(k.params[2].is_restrict);
  EXPECT_TRUE(k.params[2].is_const);
  EXPECT_EQ(k.params[1].size, 0);  // dependent

  ASSERT_EQ(k.instantiations.size(), 2u);
  EXPECT_EQ(k.instantiations[0].mangled, "_ZN4edge6detail5scaleIfLi4EEEviT_PKS2_PS2_");
  EXPECT_EQ(k.instantiations[0].template_args, "float, 4");
  EXPECT_EQ(k.instantiations[1].mangled, "_ZN4edge6detail5scaleIdLi4EEEviT_PKS2_PS2_");
  EXPECT_EQ(k.instantiations[1].params[1].type, "double");
  EXPECT_EQ(k.instantiations[1].params[1].size, 8);

  ASSERT_TRUE(k.compile);
  EXPECT_EQ(fs::path(k.compile->file).filename(), "scale.cu");
  EXPECT_EQ(k.compile->target, "edge");
  EXPECT_EQ(k.compile->archs, (std::vector<std::string>{"80", "90"}));

  ASSERT_EQ(k.launches.size(), 3u);  // header site (float and double), scale.cu
  const Launch& header = k.launches[0];
  EXPECT_EQ(header.file, "include/edge/scale.cuh");
  EXPECT_EQ(header.line, 20);
  EXPECT_EQ(header.caller, "edge::scale_default");
  EXPECT_EQ(header.grid, "(n + 255) / 256");
  EXPECT_EQ(header.stream, "s");
  EXPECT_EQ(text_at(m, header.file, header.config_range), "<<<(n + 255) / 256, 256, 0, s>>>");
  EXPECT_EQ(text_at(m, header.file, *header.shmem_range), "0");
  EXPECT_EQ(k.launches[1].config_range, header.config_range);
  EXPECT_NE(k.launches[1].instantiation, header.instantiation);
  const Launch& direct = k.launches[2];
  EXPECT_EQ(direct.file, "src/scale.cu");
  EXPECT_EQ(direct.grid, "dim3((n + 511) / 512)");
  EXPECT_FALSE(direct.shmem);
  EXPECT_FALSE(direct.stream);
  EXPECT_EQ(direct.args, (std::vector<std::string>{"n", "3.0f", "x", "y"}));
  EXPECT_EQ(direct.instantiation, k.instantiations[0].mangled);
}

TEST_F(EdgeProject, StructByValueAndSeveralLaunchSites) {
  const Manifest& m = *manifest_;
  const Kernel& k = kernel(m, "src/stats.cu:edge::row_mean");
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].kind, ParamKind::Record);
  EXPECT_EQ(k.params[0].type, "edge::Shape");
  EXPECT_EQ(k.params[0].size, 12);
  EXPECT_EQ(k.params[0].align, 4);
  ASSERT_EQ(k.params[0].fields.size(), 3u);
  EXPECT_EQ(k.params[0].fields[1].name, "cols");
  EXPECT_EQ(k.params[0].fields[1].offset, 4);
  EXPECT_EQ(k.params[0].fields[2].type, "float");
  EXPECT_EQ(k.params[1].pointee, "float");
  EXPECT_EQ(k.options.atol, 1e-3);
  EXPECT_EQ(text_at(m, k.file, k.range).rfind("[[stark::optimize(\"budget=4\", \"atol=1e-3\")]] __global__", 0), 0u);
  EXPECT_EQ(k.instantiations.at(0).mangled, "_ZN4edge8row_meanENS_5ShapeEPKfPf");
  ASSERT_EQ(k.launches.size(), 2u);
  EXPECT_EQ(k.launches[0].caller, "edge::means");
  EXPECT_EQ(k.launches[0].stream, "stream");
  EXPECT_EQ(k.launches[1].caller, "edge::means_again");
  EXPECT_EQ(k.launches[1].grid, "s.rows / 64 + 1");
  EXPECT_EQ(k.launches[1].args, (std::vector<std::string>{"s", "in", "out"}));
}

TEST_F(EdgeProject, OverloadsGetTypedIds) {
  const Manifest& m = *manifest_;
  EXPECT_EQ(kernel(m, "src/stats.cu:edge::clamp(int, float *)").instantiations.at(0).mangled, "_ZN4edge5clampEiPf");
  EXPECT_EQ(kernel(m, "src/stats.cu:edge::clamp(int, double *)").instantiations.at(0).mangled, "_ZN4edge5clampEiPd");
}

TEST_F(EdgeProject, RuntimeApiLaunches) {
  const Manifest& m = *manifest_;
  const Kernel& axpy = kernel(m, "src/apis.cu:axpy_c");
  EXPECT_EQ(axpy.instantiations.at(0).mangled, "axpy_c");  // extern "C"
  ASSERT_EQ(axpy.launches.size(), 1u);
  const Launch& l = axpy.launches[0];
  EXPECT_EQ(l.kind, LaunchKind::Api);
  EXPECT_EQ(l.args, (std::vector<std::string>{"n", "a", "x", "y"}));
  EXPECT_EQ(l.grid, "dim3((n + 255) / 256)");
  EXPECT_EQ(l.shmem, "0");
  EXPECT_EQ(text_at(m, l.file, l.config_range), "dim3((n + 255) / 256), dim3(256), args, 0, s");

  const Kernel& negate = kernel(m, "src/apis.cu:api::negate");
  EXPECT_EQ(negate.options.seed, 7);  // from the annotated prototype
  EXPECT_EQ(negate.options.skip, false);
  EXPECT_EQ(text_at(m, negate.file, negate.range).rfind("__global__ void api::negate(int n, float* x) {", 0), 0u);
  ASSERT_EQ(negate.launches.size(), 2u);
  EXPECT_FALSE(negate.launches[0].shmem);  // defaulted arguments
  EXPECT_EQ(negate.launches[1].caller, "launch_negate_ex");
  EXPECT_FALSE(negate.launches[1].grid);  // the shape lives in the cudaLaunchConfig_t
  EXPECT_EQ(negate.launches[1].args, (std::vector<std::string>{"n", "x"}));
}

TEST_F(EdgeProject, ManifestMatchesSchemaFields) {
  nlohmann::json j = *manifest_;
  EXPECT_EQ(j["schema"], "stark.manifest/1");
  EXPECT_EQ(j.get<Manifest>(), *manifest_);
}

TEST_F(EdgeProject, MangledNamesEqualNvccSymbols) {
  auto build = load_build_info(kEdgeBuild, "");
  ASSERT_TRUE(build);
  std::set<std::string> symbols;
  for (const auto& unit : build->units) symbols.merge(testing::nvcc_kernel_symbols(unit));
  ASSERT_TRUE(symbols.count("_ZN4edge4fillEifPf")) << "the non-annotated kernel should be in the cubin";
  size_t checked = 0;
  for (const auto& k : manifest_->kernels)
    for (const auto& inst : k.instantiations) {
      EXPECT_TRUE(symbols.count(inst.mangled)) << k.id << ": " << inst.mangled << " is not a symbol nvcc produced";
      ++checked;
    }
  EXPECT_EQ(checked, 7u);
  for (const auto& k : manifest_->kernels) EXPECT_EQ(k.name.find("fill"), std::string::npos);
}

TEST_F(EdgeProject, TargetFilter) {
  ScanOptions options;
  options.build_dir = kEdgeBuild;
  options.target = "other";
  auto out = scan_build(options);
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->manifest.kernels.size(), 1u);
  const Kernel& k = out->manifest.kernels[0];
  EXPECT_EQ(k.id, "include/edge/scale.cuh:edge::detail::scale");
  ASSERT_EQ(k.instantiations.size(), 1u);
  EXPECT_EQ(k.instantiations[0].template_args, "double, 4");
  EXPECT_EQ(k.compile->target, "other");
  EXPECT_EQ(out->timings.size(), 1u);

  options.target = "nope";
  auto bad = scan_build(options);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("no target 'nope'"), std::string::npos);
  EXPECT_NE(bad.error().message.find("edge, other"), std::string::npos);
}

// --- the bad project ---------------------------------------------------------

fs::path write_bad_ccdb(const fs::path& build) {
  nlohmann::json db = nlohmann::json::array();
  for (const char* f : {"good.cu", "not_kernel.cu", "bad_option.cu", "bad_names.cu", "declared_only.cu",
                        "late_annotation.cu", "broken.cu"}) {
    fs::path file = kSource / "tests/projects/bad/src" / f;
    db.push_back(
        {{"directory", build.string()},
         {"file", file.string()},
         {"arguments", {STARK_NVCC_PATH, "-I" + (kSource / "include").string(), "-x", "cu", "-c", file.string()}}});
  }
  EXPECT_TRUE(write_json_file(build / "compile_commands.json", db));
  return build;
}

TEST(BadProject, LocatedErrorsAndTheRestStillScanned) {
  ScanOptions options;
  TempDir build;
  options.build_dir = write_bad_ccdb(build.path());
  options.source_root = kSource / "tests/projects/bad";
  auto out = scan_build(options);
  ASSERT_TRUE(out) << out.error().message;
  const Manifest& m = out->manifest;
  ASSERT_EQ(m.kernels.size(), 1u);
  EXPECT_EQ(m.kernels[0].id, "src/good.cu:still_found");
  EXPECT_EQ(m.kernels[0].launches.size(), 2u);  // good.cu's and declared_only.cu's
  EXPECT_TRUE(m.has_errors());

  std::vector<std::string> lines;
  for (const auto& d : m.diagnostics) lines.push_back(d.format());
  auto expect_line = [&](const std::string& want) {
    EXPECT_TRUE(std::find(lines.begin(), lines.end(), want) != lines.end()) << "missing: " << want << "\nhave:\n"
                                                                            << ::testing::PrintToString(lines);
  };
  expect_line(
      "src/not_kernel.cu:3:3: error: [[stark::optimize]] marks only __global__ kernels; 'host_function' is "
      "not a __global__ kernel");
  expect_line(
      "src/not_kernel.cu:5:1: error: [[stark::optimize]] marks only __global__ kernels; 'device_helper' is "
      "not a __global__ kernel");
  expect_line("src/not_kernel.cu:7:25: error: [[stark::optimize]] marks only __global__ kernels; a lambda is not one");
  expect_line(
      "src/bad_option.cu:3:19: error: invalid [[stark::optimize]] option: unknown option 'budgett' (known: "
      "budget, rtol, atol, skip, seed, args, buffers, grid, block, shmem, epsilon, n_root, n_child, top_r, "
      "plan_temperature, code_temperature, debug_temperature)");
  expect_line(
      "src/bad_option.cu:5:16: error: invalid [[stark::optimize]] option: 'budget' expects an integer, got "
      "'banana'");
  // Values the kernel cannot mean, and an annotation given twice.
  expect_line(
      "src/bad_names.cu:3:1: error: invalid [[stark::optimize]] option: 'args': 'm' is not a parameter of the "
      "kernel (its parameters: n, x)");
  expect_line(
      "src/bad_names.cu:5:19: error: invalid [[stark::optimize]] option: 'budget' must be from 1 to 100000, got "
      "4294967296");
  expect_line(
      "src/bad_names.cu:7:35: error: [[stark::optimize]] is given twice on this declaration; give every option "
      "in one");
  expect_line(
      "src/bad_names.cu:9:19: error: invalid [[stark::optimize]] option: 'grid' has at most three parts (x, y, "
      "z), got 4");
  expect_line(
      "src/bad_names.cu:11:3: error: invalid [[stark::optimize]] option: 'buffers': 'count' is not a parameter "
      "of the kernel (its parameters: n, x)");
  expect_line(
      "src/bad_names.cu:13:19: error: invalid [[stark::optimize]] option: 'block': block.x must be from 1 to "
      "1024, got 2048");
  // Marked after the definition: clang drops the attribute; STARK says so.
  for (const char* at : {"src/late_annotation.cu:8:1", "src/late_annotation.cu:11:3"})
    expect_line(std::string(at) +
                ": error: [[stark::optimize]] after the kernel's definition is dropped by the "
                "compiler; put it on the definition or on a declaration before it");
  for (const auto& l : lines) EXPECT_EQ(l.find("late_annotation.cu:14"), std::string::npos) << "not ours: " << l;
  // Marked where it is declared, defined in no scanned unit.
  expect_line(
      "src/declared_only.cu:3:1: warning: kernel 'defined_elsewhere' is marked [[stark::optimize]] here, but "
      "no scanned translation unit defines it (is its .cu file compiled by this build, or in a target --target "
      "left out?)");
  for (const auto& l : lines) EXPECT_EQ(l.find("'still_found' is marked"), std::string::npos) << l;
  bool grid_error = false, parse_error = false;
  for (const auto& d : m.diagnostics) {
    grid_error |=
        d.file == "src/bad_option.cu" && d.line == 7 && d.column == 32 && d.message.find("'grid'") != std::string::npos;
    // A kernel clang's errors touch is named in an error of its own; the
    // errors themselves stay, as warnings.
    parse_error |=
        d.file == "src/broken.cu" && d.line == 3 && d.column == 1 && d.level == Severity::Error &&
        d.message.rfind("kernel 'broken' cannot be read: clang reports an error in it: broken.cu:4:", 0) == 0;
  }
  EXPECT_TRUE(grid_error) << ::testing::PrintToString(lines);
  EXPECT_TRUE(parse_error) << ::testing::PrintToString(lines);
}

// --- the resource directory ------------------------------------------------

TEST(ResourceDir, ParseUsesOurCudaWrappersAndNeverFallsBackSilently) {
  auto setup = locate_clang_setup();
  ASSERT_TRUE(setup) << setup.error().message;
  TempDir tmp;
  const fs::path& copy = tmp.path();
  fs::copy(setup->resource_dir / "include", copy / "include", fs::copy_options::recursive);

  fs::path good = kSource / "tests/projects/bad/src/good.cu";
  CompileCommand c{copy.string(),
                   good.string(),
                   {STARK_NVCC_PATH, "-I" + (kSource / "include").string(), "-c", good.string()},
                   "",
                   {"90"}};
  ScanOptions options;
  auto ours = scan_units({c}, ClangSetup{copy, setup->stub_dir}, good.parent_path(), options);
  EXPECT_EQ(ours.cuda_wrappers.at(0), (copy / "include" / "cuda_wrappers").string());
  EXPECT_FALSE(ours.manifest.has_errors());
  EXPECT_EQ(ours.manifest.kernels.size(), 1u);

  fs::remove_all(copy / "include" / "cuda_wrappers");
  auto broken = scan_units({c}, ClangSetup{copy, setup->stub_dir}, good.parent_path(), options);
  ASSERT_TRUE(broken.manifest.has_errors());
  bool named = false;
  for (const auto& d : broken.manifest.diagnostics)
    named |= d.message.find("CUDA wrapper headers") != std::string::npos;
  EXPECT_TRUE(named) << broken.manifest.diagnostics.at(0).format();
}

}  // namespace
}  // namespace stark
