// Launch-site edits on the real manifest of tests/projects/edge.
#include "rewriter/launch_site.h"

#include <gtest/gtest.h>

#include "rewriter/test_fixture.h"
#include "rewriter/text_edit.h"
#include "rewriter/unused_launch_variables.h"

namespace stark::rewriter {
namespace {

namespace fs = std::filesystem;
using testing::edge_manifest;
using testing::kernel;
using testing::read;

size_t line_start_of(const std::string& text, int line) {
  size_t at = 0;
  for (int l = 1; l < line && at != std::string::npos; ++l) at = text.find('\n', at) + 1;
  return at;
}

/// The text of `site`'s file after its edits, and the line the launch is on.
std::string edited_line(const Manifest& m, const Kernel& k, const Launch& site, const LaunchOverride& launch) {
  std::string content = read(fs::path(m.source_root) / site.file);
  auto edits = launch_site_edits(k, site, launch, content);
  EXPECT_TRUE(edits) << edits.error().message;
  if (!edits) return "";
  auto out = apply_edits(content, *edits);
  EXPECT_TRUE(out) << out.error().message;
  size_t begin = line_start_of(*out, site.line);
  return out->substr(begin, out->find('\n', begin) - begin);
}

TEST(LaunchSite, TemplateKernelInAHeaderAndItsOtherSite) {
  Manifest m = edge_manifest();
  const Kernel& k = kernel(m, "include/edge/scale.cuh:edge::detail::scale");
  ASSERT_EQ(k.launches.size(), 3u);                       // the header site once per instantiation, and scale.cu's
  EXPECT_EQ(k.launches[0].grid_type, DimType::Integer);   // (n + 255) / 256
  EXPECT_EQ(k.launches[2].grid_type, DimType::Dim3Args);  // dim3((n + 511) / 512)
  LaunchOverride o{{"ceil_div(n, 1024)"}, {"1024"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[0], o),
            "  detail::scale<T, 4><<<((n + 1023) / 1024), 1024, 0, s>>>(n, alpha, x, y);");
  EXPECT_EQ(edited_line(m, k, k.launches[2], o),
            "  edge::detail::scale<float, 4><<<((n + 1023) / 1024), 1024>>>(n, 3.0f, x, y);");
  // The original launch's shape is reachable as grid.x / block.x, read
  // from the site's own text: dim3(a) is a, 1, 1.
  LaunchOverride half{{"grid.x / 2", "1", "1"}, {"block.x * 2"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[2], half),
            "  edge::detail::scale<float, 4><<<dim3(((n + 511) / 512) / 2, 1, 1), 512 * 2>>>(n, 3.0f, x, y);");
  // An integer grid and a literal block read as themselves.
  LaunchOverride same_threads{{"ceil_div(grid.x * block.x, 512)"}, {"128"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[0], same_threads),
            "  detail::scale<T, 4><<<((((n + 255) / 256) * 256 + 511) / 512), 128, 0, s>>>(n, alpha, x, y);");
}

/// `function`'s text in `site`'s file after the override, the grid and
/// block variables it leaves unread deleted.
std::string edited_function(const Manifest& m, const Kernel& k, const Launch& site, const LaunchOverride& launch,
                            const std::string& function) {
  std::string content = read(fs::path(m.source_root) / site.file);
  auto edits = launch_site_edits(k, site, launch, content);
  EXPECT_TRUE(edits) << edits.error().message;
  if (!edits) return "";
  auto unused = unused_variable_deletions({&site}, launch, content, *edits);
  edits->insert(edits->end(), unused.begin(), unused.end());
  auto out = apply_edits(content, *edits);
  EXPECT_TRUE(out) << out.error().message;
  if (!out) return "";
  size_t begin = out->find(function);
  return out->substr(begin, out->find("\n}\n", begin) + 3 - begin);
}

TEST(LaunchSite, LaunchShapeVariablesAreReadAsTheyAreAndDroppedWhenNothingReadsThem) {
  Manifest m = edge_manifest();
  const Kernel& k = kernel(m, "src/stats.cu:edge::clamp(int, double *)");
  ASSERT_EQ(k.launches.size(), 2u);
  const Launch& site = k.launches[1];
  EXPECT_EQ(site.caller, "edge::clamp_rows");
  EXPECT_EQ(site.grid_type, DimType::Dim3);
  ASSERT_TRUE(site.grid_var && site.block_var);
  EXPECT_EQ(site.grid_var->uses.size(), 1u);
  EXPECT_EQ(site.block_var->uses.size(), 3u);  // twice in the grid's initializer
  EXPECT_EQ(k.launches[0].grid_type, DimType::Integer);
  EXPECT_FALSE(k.launches[0].grid_var);

  // Sized from the kernel's own parameter: neither variable is read any more.
  LaunchOverride own{{"ceil_div(n, 512)"}, {"128"}, std::nullopt};
  EXPECT_EQ(edited_function(m, k, site, own, "void clamp_rows"),
            "void clamp_rows(int rows, int cols, double* xd) {\n"
            "  const int n = rows * cols;\n"
            "  clamp<<<((n + 511) / 512), 128>>>(n, xd);\n"
            "}\n");
  // An integer grid is its own x.
  LaunchOverride same{{"ceil_div(grid.x * block.x, 512)"}, {"128"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[0], same),
            "  clamp<<<((((n + 255) / 256) * 256 + 511) / 512), 128>>>(n, xd);");
  // Reading the original shape keeps the variables, read by their fields.
  EXPECT_EQ(edited_function(m, k, site, same, "void clamp_rows"),
            "void clamp_rows(int rows, int cols, double* xd) {\n"
            "  const int n = rows * cols;\n"
            "  dim3 block(256);\n"
            "  dim3 grid((n + block.x - 1) / block.x);\n"
            "  clamp<<<((static_cast<int>(grid.x) * static_cast<int>(block.x) + 511) / 512), 128>>>(n, xd);\n"
            "}\n");
  // Only the block replaced: the grid's initializer still reads it.
  LaunchOverride block_only{{}, {"128"}, std::nullopt};
  EXPECT_NE(edited_function(m, k, site, block_only, "void clamp_rows").find("  dim3 block(256);\n"), std::string::npos);
}

TEST(LaunchSite, AForgedVariableRangeDeletesNothing) {
  Manifest m = edge_manifest();
  const Kernel& k = kernel(m, "src/stats.cu:edge::clamp(int, double *)");
  Launch site = k.launches[1];
  ASSERT_TRUE(site.grid_var);
  std::string content = read(fs::path(m.source_root) / site.file);
  LaunchOverride own{{"ceil_div(n, 512)"}, {"128"}, std::nullopt};
  auto edits = launch_site_edits(k, site, own, content);
  ASSERT_TRUE(edits);
  // The declaration range moved onto other code (the kernel's guard), a use
  // range onto another name, a range past the end: each deletes nothing.
  Launch forged = site;
  forged.grid_var->decl = {static_cast<int64_t>(content.find("if (i < n)")),
                           static_cast<int64_t>(content.find("if (i < n)") + 30)};
  forged.block_var.reset();
  EXPECT_TRUE(unused_variable_deletions({&forged}, own, content, *edits).empty());
  forged = site;
  forged.block_var.reset();
  forged.grid_var->uses = {{0, 4}};
  EXPECT_TRUE(unused_variable_deletions({&forged}, own, content, *edits).empty());
  forged = site;
  forged.block_var.reset();
  forged.grid_var->decl = {static_cast<int64_t>(content.size()), static_cast<int64_t>(content.size()) + 40};
  EXPECT_TRUE(unused_variable_deletions({&forged}, own, content, *edits).empty());
}

TEST(LaunchSite, StructFieldsAndEverySite) {
  Manifest m = edge_manifest();
  const Kernel& k = kernel(m, "src/stats.cu:edge::row_mean");
  ASSERT_EQ(k.launches.size(), 2u);
  LaunchOverride o{{"ceil_div(s.rows, 64)"}, {"64"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[0], o), "  row_mean<<<((s.rows + 63) / 64), 64, 0, stream>>>(s, in, out);");
  EXPECT_EQ(edited_line(m, k, k.launches[1], o), "  row_mean<<<((s.rows + 63) / 64), 64>>>(s, in, out);");
}

TEST(LaunchSite, SharedMemoryAbove48KbOptsInBeforeTheLaunch) {
  Manifest m = edge_manifest();
  const Kernel& clamp = kernel(m, "src/stats.cu:edge::clamp(int, float *)");
  // A constant within 48 KB: just the argument, added after the block.
  EXPECT_EQ(edited_line(m, clamp, clamp.launches[0], {{}, {}, "4096"}),
            "  clamp<<<(n + 255) / 256, 256, 4096>>>(n, xf);");
  // Above it: cudaFuncSetAttribute on the overload this site launches.
  EXPECT_EQ(edited_line(m, clamp, clamp.launches[0], {{}, {}, "65536"}),
            "  clamp<<<(n + 255) / 256, 256, (cudaFuncSetAttribute(static_cast<void (*)(int, float *)>(clamp), "
            "cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(65536)), 65536)>>>(n, xf);");
  // Runtime API: the call's own kernel argument, the size depends on n.
  const Kernel& axpy = kernel(m, "src/apis.cu:axpy_c");
  EXPECT_EQ(
      edited_line(m, axpy, axpy.launches[0], {{"ceil_div(n, 512)"}, {"512"}, "n * 4"}),
      "  return cudaLaunchKernel((const void*)axpy_c, ((n + 511) / 512), 512, args, (cudaFuncSetAttribute("
      "(const void*)axpy_c, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(n * 4)), (n * 4)), s);");
  // cudaLaunchKernel without a shared-memory argument: one is appended.
  const Kernel& negate = kernel(m, "src/apis.cu:api::negate");
  EXPECT_EQ(edited_line(m, negate, negate.launches[0], {{}, {}, "1024"}),
            "  return cudaLaunchKernel(api::negate, dim3((n + 127) / 128), dim3(128), args, 1024);");
}

Error refusal(const Kernel& k, const Launch& site, const LaunchOverride& o, const Manifest& m) {
  std::string content = read(fs::path(m.source_root) / site.file);
  auto edits = launch_site_edits(k, site, o, content);
  EXPECT_FALSE(edits) << "expected a refusal";
  return edits ? Error{} : edits.error();
}

TEST(LaunchSite, RefusalsNameTheSiteAndTheReason) {
  Manifest m = edge_manifest();
  const Kernel& negate = kernel(m, "src/apis.cu:api::negate");
  auto ex = refusal(negate, negate.launches[1], {{}, {"256"}, std::nullopt}, m);
  EXPECT_EQ(ex.message.rfind("cannot rewrite the launch at src/apis.cu:34 (in launch_negate_ex): its launch shape is "
                             "not written as arguments of the call (cudaLaunchKernelEx",
                             0),
            0u)
      << ex.message;

  const Kernel& clamp = kernel(m, "src/stats.cu:edge::clamp(int, float *)");
  Launch site = clamp.launches[0];
  EXPECT_NE(refusal(clamp, site, {{"ceil_div(m, 2)"}, {}, std::nullopt}, m)
                .message.find("'m' is not a parameter of the kernel"),
            std::string::npos);
  EXPECT_NE(refusal(clamp, site, {{"x"}, {}, std::nullopt}, m).message.find("not an integer parameter (float *)"),
            std::string::npos);
  Launch macro = site;
  macro.config_range = {};
  EXPECT_NE(refusal(clamp, macro, {{"n"}, {}, std::nullopt}, m).message.find("inside a macro"), std::string::npos);
  Launch unseen = site;
  unseen.args.clear();
  EXPECT_NE(refusal(clamp, unseen, {{"ceil_div(n, 64)"}, {}, std::nullopt}, m)
                .message.find("could not see this launch's arguments"),
            std::string::npos);
  // Without names the arguments are not needed.
  std::string content = read(fs::path(m.source_root) / site.file);
  EXPECT_TRUE(launch_site_edits(clamp, unseen, {{"grid.x * 2"}, {}, std::nullopt}, content));
  Launch twice = site;
  twice.args[0] = "n++";
  EXPECT_NE(refusal(clamp, twice, {{"ceil_div(n, 64)"}, {}, std::nullopt}, m).message.find("has side effects"),
            std::string::npos);
  Launch moved = site;
  moved.grid_range->begin += 1;
  EXPECT_NE(refusal(clamp, moved, {{"n"}, {}, std::nullopt}, m).message.find("not what the scan saw"),
            std::string::npos);
}

}  // namespace
}  // namespace stark::rewriter
