// Launch-site edits on the real manifest of tests/projects/edge.
#include "rewriter/launch_site.h"

#include <gtest/gtest.h>

#include "rewriter/test_fixture.h"
#include "rewriter/text_edit.h"

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
  ASSERT_EQ(k.launches.size(), 3u);  // the header site once per instantiation, and scale.cu's
  LaunchOverride o{{"ceil_div(n, 1024)"}, {"1024"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[0], o),
            "  detail::scale<T, 4><<<((n + 1023) / 1024), 1024, 0, s>>>(n, alpha, x, y);");
  EXPECT_EQ(edited_line(m, k, k.launches[2], o),
            "  edge::detail::scale<float, 4><<<((n + 1023) / 1024), 1024>>>(n, 3.0f, x, y);");
  // The original launch's shape is reachable as grid.x / block.x.
  LaunchOverride half{{"grid.x / 2", "1", "1"}, {"block.x * 2"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[2], half),
            "  edge::detail::scale<float, 4><<<dim3(static_cast<int>(dim3(dim3((n + 511) / 512)).x) / 2, 1, 1), "
            "static_cast<int>(dim3(dim3(512)).x) * 2>>>(n, 3.0f, x, y);");
  // A literal block reads as itself, as a person would write it.
  LaunchOverride same_threads{{"ceil_div(grid.x * block.x, 512)"}, {"128"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[0], same_threads),
            "  detail::scale<T, 4><<<((static_cast<int>(dim3((n + 255) / 256).x) * 256 + 511) / 512), 128, 0, "
            "s>>>(n, alpha, x, y);");
}

TEST(LaunchSite, StructFieldsAndEverySite) {
  Manifest m = edge_manifest();
  const Kernel& k = kernel(m, "src/stats.cu:edge::row_mean");
  ASSERT_EQ(k.launches.size(), 2u);
  LaunchOverride o{{"ceil_div(s.rows, 64)"}, {"64"}, std::nullopt};
  EXPECT_EQ(edited_line(m, k, k.launches[0], o),
            "  row_mean<<<((s.rows + 63) / 64), 64, 0, stream>>>(s, in, out);");
  EXPECT_EQ(edited_line(m, k, k.launches[1], o), "  row_mean<<<((s.rows + 63) / 64), 64>>>(s, in, out);");
}

TEST(LaunchSite, SharedMemoryAbove48KbOptsInBeforeTheLaunch) {
  Manifest m = edge_manifest();
  const Kernel& clamp = kernel(m, "src/stats.cu:edge::clamp(int, float *)");
  // A constant within 48 KB: just the argument, added after the block.
  EXPECT_EQ(edited_line(m, clamp, clamp.launches[0], {{}, {}, "4096"}), "  clamp<<<(n + 255) / 256, 256, 4096>>>(n, xf);");
  // Above it: cudaFuncSetAttribute on the overload this site launches.
  EXPECT_EQ(edited_line(m, clamp, clamp.launches[0], {{}, {}, "65536"}),
            "  clamp<<<(n + 255) / 256, 256, (cudaFuncSetAttribute(static_cast<void (*)(int, float *)>(clamp), "
            "cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(65536)), 65536)>>>(n, xf);");
  // Runtime API: the call's own kernel argument, the size depends on n.
  const Kernel& axpy = kernel(m, "src/apis.cu:axpy_c");
  EXPECT_EQ(edited_line(m, axpy, axpy.launches[0], {{"ceil_div(n, 512)"}, {"512"}, "n * 4"}),
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
  EXPECT_NE(refusal(clamp, site, {{"ceil_div(m, 2)"}, {}, std::nullopt}, m).message.find(
                "'m' is not a parameter of the kernel"),
            std::string::npos);
  EXPECT_NE(refusal(clamp, site, {{"x"}, {}, std::nullopt}, m).message.find("not an integer parameter (float *)"),
            std::string::npos);
  Launch macro = site;
  macro.config_range = {};
  EXPECT_NE(refusal(clamp, macro, {{"n"}, {}, std::nullopt}, m).message.find("inside a macro"), std::string::npos);
  Launch unseen = site;
  unseen.args.clear();
  EXPECT_NE(refusal(clamp, unseen, {{"ceil_div(n, 64)"}, {}, std::nullopt}, m).message.find(
                "could not see this launch's arguments"),
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
