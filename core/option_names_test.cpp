#include "core/option_names.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

Param param(std::string name, ParamKind kind) {
  Param p;
  p.name = std::move(name);
  p.kind = kind;
  return p;
}

std::vector<Param> saxpy_params() {
  Param shape = param("shape", ParamKind::Record);
  shape.fields = {{"rows", "int", 0, 4}, {"cols", "int", 4, 4}};
  return {param("n", ParamKind::Scalar), param("a", ParamKind::Scalar), param("x", ParamKind::Pointer),
          param("y", ParamKind::Pointer), shape};
}

std::vector<std::string> problems(std::initializer_list<const char*> items) {
  KernelOptions o;
  for (const char* item : items) EXPECT_TRUE(apply_option(o, item)) << item;
  return option_name_problems(o, saxpy_params());
}

TEST(OptionNames, NamesThatAreParametersOfTheRightKindPass) {
  EXPECT_EQ(problems({"args=n=4096, a=2", "buffers=x[n], y[shape.rows * shape.cols]", "grid=ceil_div(n, 256)",
                      "block=256", "shmem=n * 4"}),
            std::vector<std::string>{});
}

TEST(OptionNames, EachWrongNameIsOneMessage) {
  EXPECT_EQ(problems({"args=m=4"}), std::vector<std::string>{"'args': 'm' is not a parameter of the kernel (its "
                                                             "parameters: n, a, x, y, shape)"});
  EXPECT_EQ(problems({"args=x=4"}), std::vector<std::string>{"'args': 'x' is a pointer; give its size in 'buffers'"});
  EXPECT_EQ(problems({"buffers=n[4]"}),
            std::vector<std::string>{"'buffers': 'n' is not a pointer; give its value in 'args'"});
  EXPECT_EQ(problems({"buffers=z[n]"}),
            std::vector<std::string>{"'buffers': 'z' is not a parameter of the kernel (its parameters: n, a, x, y, "
                                     "shape)"});
  EXPECT_EQ(problems({"grid=ceil_div(count, 256)"}),
            std::vector<std::string>{"'grid': 'count' is not a parameter of the kernel (its parameters: n, a, x, y, "
                                     "shape)"});
  EXPECT_EQ(problems({"block=x"}), std::vector<std::string>{"'block': 'x' is a pointer, not a number"});
  EXPECT_EQ(problems({"shmem=shape.depth"}), std::vector<std::string>{"'shmem': 'shape' has no field 'depth'"});
}

}  // namespace
}  // namespace stark
