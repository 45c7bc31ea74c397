#include "tests/support/incremental_project.h"

#include <gtest/gtest.h>

#include "core/file_io.h"

namespace stark::testing {

namespace fs = std::filesystem;

IncrementalProject::IncrementalProject(const fs::path& source_dir, fs::path scratch, std::string nvcc)
    : source_dir_(source_dir), root_(std::move(scratch)), nvcc_(std::move(nvcc)) {
  fs::remove_all(root_);
  fs::create_directories(root_);
  fs::copy(source_dir_ / "tests/projects/incremental", root_, fs::copy_options::recursive);
}

std::vector<CompileCommand> IncrementalProject::units() const {
  std::vector<CompileCommand> out;
  for (std::string f : {"src/ops.cu", "src/other.cu", "src/arch.cu"}) {
    std::string file = (root_ / f).string();
    std::vector<std::string> args{nvcc_, "-I" + (root_ / "include").string(),
                                  "-I" + (source_dir_ / "include").string()};
    if (f == "src/other.cu") args.insert(args.end(), other_flags.begin(), other_flags.end());
    args.insert(args.end(), {"-c", file});
    out.push_back({root_.string(), file, args, "incremental", {"90"}});
  }
  return out;
}

void IncrementalProject::edit(const std::string& file, const std::string& from, const std::string& to) const {
  auto text = read_file(root_ / file);
  ASSERT_TRUE(text) << text.error().message;
  auto at = text->find(from);
  ASSERT_NE(at, std::string::npos) << "not in " << file << ": " << from;
  ASSERT_EQ(text->find(from, at + 1), std::string::npos) << "not unique in " << file << ": " << from;
  text->replace(at, from.size(), to);
  ASSERT_TRUE(write_file_atomic(root_ / file, *text));
}

}  // namespace stark::testing
