#include "core/nvcc_flags.h"

#include <gtest/gtest.h>

#include "core/text.h"

namespace stark {
namespace {

NvccFlags filter(const std::string& command) {
  return allowed_nvcc_flags(shell_split(command), [](const std::string& p) { return "/mapped" + p; });
}

// What CMake writes for a CUDA unit passes whole; outputs and archs are left
// out without a word (the compile check sets its own).
TEST(NvccFlags, ACMakeCommandKeepsWhatChangesTheCompile) {
  auto f = filter(
      "-forward-unknown-to-host-compiler -DFOO=1 -D BAR -I/p/src/inc -isystem /p/ext -O3 -DNDEBUG -std=c++17 "
      "--generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC -Xcompiler -isystem,/p/x,-Wall "
      "--expt-relaxed-constexpr -x cu -MD -MT a.o -MF a.o.d -c -o a.o -Werror all-warnings -Xptxas=-v "
      "-Xcudafe --diag_suppress=177 -lineinfo -rdc=true");
  EXPECT_EQ(f.kept, (std::vector<std::string>{"-forward-unknown-to-host-compiler", "-DFOO=1", "-DBAR",
                                              "-I/mapped/p/src/inc", "-isystem=/mapped/p/ext", "-O3", "-DNDEBUG",
                                              "-std=c++17", "-Xcompiler=-fPIC", "-Xcompiler=-isystem,/mapped/p/x,-Wall",
                                              "--expt-relaxed-constexpr", "-x=cu", "-Werror=all-warnings", "-Xptxas=-v",
                                              "-Xcudafe=--diag_suppress=177", "-lineinfo", "-rdc=true"}));
  EXPECT_TRUE(f.dropped.empty()) << join(f.dropped, " ");
}

// nvcc options that take a value but are not on the allowlist leave with
// their value: the value is never read as an option or a source of its own
// (-imacros pulls a file into every unit; -idirafter adds a folder).
TEST(NvccFlags, AnUnlistedOptionWithAValueLeavesWithIt) {
  auto f = filter("-imacros /home/u/secret.h -idirafter /outside -O2");
  EXPECT_EQ(f.kept, std::vector<std::string>{"-O2"});
  EXPECT_EQ(f.dropped, (std::vector<std::string>{"-imacros=/home/u/secret.h", "-idirafter=/outside"}));
}

// Each of these runs a program or writes a file the command names.
TEST(NvccFlags, NothingThatRunsOrWritesPasses) {
  auto f = filter(
      "-ccbin /tmp/evil --compiler-bindir=/tmp/evil -Xcompiler=-wrapper,/tmp/evil -Xcompiler -B/tmp/evil "
      "-Xcompiler -B,/tmp/evil --options-file /tmp/evil.rsp -optf=/tmp/e.rsp -Xcompiler=-fplugin=/tmp/evil.so "
      "-Xcompiler=-specs=/tmp/evil.specs -Xcompiler=-Wl,-plugin -Xcompiler=-Wp,-MD,/home/u/.bashrc "
      "-Xcompiler=-save-temps -Xcompiler=-fdump-tree-all -Xcompiler=-fopt-info=/home/u/.bashrc -Xcompiler=@/tmp/rsp "
      "-Xcompiler -o,/home/u/x -time /home/u/.profile --keep-dir /tmp/k -Xnvvm -x -Xptxas=--output-file=/tmp/o "
      "-D -ccbin=/tmp/evil -I -ccbin -include -Xcompiler -isystem,-B/tmp -x c++ -Dbad-name @/tmp/rsp");
  EXPECT_EQ(f.kept, std::vector<std::string>{}) << join(f.kept, " ");
  std::string dropped = join(f.dropped, " ");
  for (const char* d :
       {"-ccbin=/tmp/evil", "--compiler-bindir=/tmp/evil", "-Xcompiler=-wrapper", "-Xcompiler=-B/tmp/evil",
        "--options-file=/tmp/evil.rsp", "-Xcompiler=-fplugin=/tmp/evil.so", "-Xcompiler=-Wl", "-Xcompiler=-Wp",
        "-time=/home/u/.profile", "-Xptxas=--output-file=/tmp/o", "-x=c++"})
    EXPECT_NE(dropped.find(d), std::string::npos) << d << " in " << dropped;
}

TEST(NvccFlags, ArchsAreNumbers) {
  for (const char* sm : {"80", "90", "100a", "120f"}) EXPECT_TRUE(valid_sm(sm)) << sm;
  for (const char* sm : {"", "9", "90 -ccbin=/x", "80;rm", "0x50", "1000"}) EXPECT_FALSE(valid_sm(sm)) << sm;
}

}  // namespace
}  // namespace stark
