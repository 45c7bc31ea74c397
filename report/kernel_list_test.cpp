#include "report/kernel_list.h"

#include <gtest/gtest.h>

namespace stark::report {
namespace {

Kernel kernel(std::string id, std::vector<std::string> template_args, std::vector<int> lines) {
  Kernel k;
  k.id = std::move(id);
  k.is_template = !template_args.empty();
  for (auto& a : template_args) k.instantiations.push_back({"_Z" + a, a, {}});
  if (template_args.empty()) k.instantiations.push_back({"_Zplain", "", {}});
  for (int l : lines) {
    Launch launch;
    launch.file = "src/ops.cu";
    launch.line = l;
    k.launches.push_back(launch);
  }
  return k;
}

TEST(KernelList, OneAlignedRowPerKernel) {
  Manifest m;
  m.kernels.push_back(kernel("src/ops.cu:ops::scale", {}, {40}));
  m.kernels.push_back(kernel("include/act.cuh:ops::relu", {"float", "double"}, {12, 30}));
  EXPECT_EQ(kernel_list(m),
            "KERNEL                     INSTANTIATIONS     LAUNCH SITES\n"
            "src/ops.cu:ops::scale      -                  src/ops.cu:40\n"
            "include/act.cuh:ops::relu  <float>, <double>  src/ops.cu:12, src/ops.cu:30\n"
            "\n"
            "2 kernels, 3 instantiations, 3 launch sites\n");
}

TEST(KernelList, LongCellsSayHowManyMore) {
  Manifest m;
  std::vector<std::string> types;
  for (int i = 0; i < 20; ++i) types.push_back("float, " + std::to_string(32 * (i + 1)));
  std::vector<int> lines;
  for (int i = 1; i <= 30; ++i) lines.push_back(i * 10);
  m.kernels.push_back(kernel("src/ops.cu:ops::reduce", types, lines));
  std::string text = kernel_list(m);
  EXPECT_NE(text.find("<float, 32>, <float, 64> +18 more"), std::string::npos) << text;
  EXPECT_NE(text.find("src/ops.cu:10, src/ops.cu:20 +28 more"), std::string::npos) << text;
  EXPECT_NE(text.find("1 kernel, 20 instantiations, 30 launch sites"), std::string::npos) << text;
}

TEST(KernelList, ControlCharactersInNamesNeverReachTheTerminal) {
  Manifest m;
  m.kernels.push_back(kernel("src/\x1b]0;owned\x07.cu:k", {}, {}));
  std::string text = kernel_list(m);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_NE(text.find("src/?]0;owned?.cu:k"), std::string::npos) << text;
}

}  // namespace
}  // namespace stark::report
