// What tests ask of a command line or a list of names: whether it holds an
// argument, or one argument right after another ("-x", "cuda").
#ifndef STARK_TESTS_SUPPORT_ARGV_H
#define STARK_TESTS_SUPPORT_ARGV_H

#include <algorithm>
#include <string>
#include <vector>

namespace stark::testing {

inline bool has(const std::vector<std::string>& argv, const std::string& arg) {
  return std::find(argv.begin(), argv.end(), arg) != argv.end();
}

inline bool has_pair(const std::vector<std::string>& argv, const std::string& first, const std::string& second) {
  for (size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == first && argv[i + 1] == second) return true;
  return false;
}

}  // namespace stark::testing

#endif  // STARK_TESTS_SUPPORT_ARGV_H
