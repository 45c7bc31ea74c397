// Fixture of the tests on tests/projects/styles (configured by the ctest
// fixture "styles"): nine computations, each written several ways.
#ifndef STARK_AGENTS_BUILTIN_STYLED_KERNELS_TEST_H
#define STARK_AGENTS_BUILTIN_STYLED_KERNELS_TEST_H

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "agents/builtin/scanned_kernels_test.h"
#include "agents/builtin/strategy.h"

namespace stark::testing {

struct StylesProject {
  static constexpr const char* kBuild = "styles-build";
  static constexpr const char* kTarget = "styles";
};

class StyledKernels : public ScannedKernels<StylesProject> {
 protected:
  /// Expects `family` among the options of every style of one computation,
  /// and its first option's variant to pass the clang variant check and
  /// compile with nvcc for sm_90: an offer that cannot be built is no offer.
  static void expect_family_for_every_style(const std::string& family, const std::string& file,
                                            const std::vector<std::string>& kernels) {
    BuiltinTeam team(manifest_->source_root, setup());
    ClangVariantValidator validator(setup(), manifest_->source_root);
    harness::CompileService compiler(
        {std::filesystem::temp_directory_path() / "stark_styles_test_cache", 0, STARK_NVCC_PATH});
    for (const auto& name : kernels) {
      const Kernel& k = kernel("src/" + file + ":styles::" + name);
      auto options = team.options(k, source(k), {}, kH200);
      ASSERT_TRUE(options) << k.id << ": " << options.error().message;
      auto first = std::find_if(options->begin(), options->end(), [&](const std::string& label) {
        auto parsed = builtin::parse_label(label);
        return parsed && parsed->first == family;
      });
      EXPECT_NE(first, options->end()) << name << " is not offered " << family << "; offered "
                                       << ::testing::PrintToString(*options);
      if (first == options->end()) continue;
      auto reply = code(team, k, *first);
      ASSERT_TRUE(reply.value) << name << " " << *first << ": " << reply.value.error().message;
      auto valid = validator.validate(k, *reply.value);
      EXPECT_TRUE(valid) << name << " " << *first << ": " << valid.error().message << "\n" << reply.value->source;
      auto built = compiler.compile(
          {&k, manifest_->source_root, reply.value->source, "90", harness::CompileMode::Cubin, std::nullopt});
      ASSERT_TRUE(built) << built.error().message;
      EXPECT_TRUE(built->ok) << name << " " << *first << ":\n" << built->log << "\n" << reply.value->source;
    }
  }
};

}  // namespace stark::testing

#endif  // STARK_AGENTS_BUILTIN_STYLED_KERNELS_TEST_H
