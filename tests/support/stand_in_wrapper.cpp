#include "tests/support/stand_in_wrapper.h"

#include <sys/stat.h>

#include <stdexcept>

#include "core/file_io.h"
#include "core/text.h"

namespace stark::testing {

StandInWrapper::StandInWrapper(const std::string& name, const std::string& before_exec)
    : dir_("stand-in-" + name), tool_(dir_ / name) {
  set_before_exec(before_exec);
}

void StandInWrapper::set_before_exec(const std::string& before_exec) {
  std::string script = "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + (dir() / "args").string() +
                       "'\n"
                       "log=\n"
                       "while [ $# -gt 0 ] && [ \"$1\" != /bin/sh ]; do\n"
                       "  [ \"$1\" = --log-file ] && log=$2\n"
                       "  shift\n"
                       "done\n" +
                       before_exec + "\nexec \"$@\"\n";
  if (!write_file_atomic(tool_, script) || chmod(tool_.c_str(), 0755) != 0)
    throw std::runtime_error("cannot write the stand-in " + tool_.string());
}

std::vector<std::string> StandInWrapper::args() const {
  std::vector<std::string> out;
  auto text = read_file(dir() / "args");
  if (!text) return out;
  for (auto a : split(*text, '\n')) out.emplace_back(a);
  return out;
}

}  // namespace stark::testing
