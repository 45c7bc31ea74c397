// The capture library outside a GPU process: it loads, exports only its
// entry point, and says in one line why it records nothing.
#include <cstdlib>
#include <string>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "core/file_io.h"
#include "harness/capture/capture_plan.h"
#include "harness/store/capture_store.h"
#include "tests/support/temp_dir.h"

namespace stark::harness {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

// Runs InitializeInjection in a child process (it keeps global state) and
// returns its exit status.
int initialize_in_child(const char* plan) {
  pid_t pid = fork();
  if (pid == 0) {
    if (plan) {
      setenv(kCapturePlanEnv, plan, 1);
    } else {
      unsetenv(kCapturePlanEnv);
    }
    void* lib = dlopen(STARK_CAPTURE_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!lib) _exit(10);
    auto init = reinterpret_cast<int (*)()>(dlsym(lib, "InitializeInjection"));
    if (!init) _exit(11);
    if (dlsym(lib, "_ZN5stark7harness12CaptureStore4openERKNSt10filesystem7__cxx114pathEb")) _exit(12);  // private
    _exit(init() == 1 ? 0 : 13);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Injection, LoadsAndExportsOnlyItsEntryPoint) { EXPECT_EQ(initialize_in_child(nullptr), 0); }

TEST(Injection, RecordsWhyItCouldNotSubscribe) {
  TempDir tmp;
  const fs::path& dir = tmp.path();
  CapturePlan plan;
  plan.store = (dir / "store").string();
  ASSERT_TRUE(write_json_file(dir / "plan.json", nlohmann::json(plan)));
  EXPECT_EQ(initialize_in_child((dir / "plan.json").c_str()), 0);
  auto store = CaptureStore::open(dir / "store", false);
  ASSERT_TRUE(store) << store.error().message;
  auto index = store->read_index();
  ASSERT_TRUE(index);
  ASSERT_EQ(index->processes.size(), 1u);
  // Without a GPU driver CUPTI cannot subscribe; with one, it can.
  if (index->processes[0].status != "ok") {
    EXPECT_NE(index->processes[0].status.find("nothing was recorded"), std::string::npos) << index->processes[0].status;
  }
}

}  // namespace
}  // namespace stark::harness
