// The "key=value" options of [[stark::optimize(...)]] / STARK_OPTIMIZE(...).
#ifndef STARK_CORE_KERNEL_OPTIONS_H
#define STARK_CORE_KERNEL_OPTIONS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"

namespace stark {

/// Per-kernel settings from the annotation; unset fields take run defaults.
/// The search's hyperparameters and the roles' temperatures (docs/design.md,
/// "The method"), each as given (nullopt: not given): an annotation's for its
/// kernel, or the command line's, which win over the annotation's.
struct SearchSettings {
  std::optional<double> epsilon;
  std::optional<int64_t> n_root;
  std::optional<int64_t> n_child;
  std::optional<int64_t> top_r;
  std::optional<double> plan_temperature;
  std::optional<double> code_temperature;
  std::optional<double> debug_temperature;

  bool empty() const { return *this == SearchSettings{}; }
  /// This one's values, and `fallback`'s where this one has none.
  SearchSettings over(const SearchSettings& fallback) const;
  bool operator==(const SearchSettings&) const = default;
};

struct KernelOptions {
  std::optional<int64_t> budget;
  std::optional<double> rtol;
  std::optional<double> atol;
  std::optional<bool> skip;
  std::optional<int64_t> seed;
  // Inputs for kernels no test launches (see ScalarArg / BufferSpec).
  std::optional<std::string> args;     // "n=1048576, a=2.5"
  std::optional<std::string> buffers;  // "x[n], y[n]"
  std::optional<std::string> grid;     // launch expressions over args
  std::optional<std::string> block;
  std::optional<std::string> shmem;
  SearchSettings search;  // in the manifest beside "options", under "search" (an extension)

  bool operator==(const KernelOptions&) const = default;
};

/// Applies one "key=value" item; the error says what is wrong with it.
/// Keys may not repeat; unknown keys and malformed values are errors.
Expected<void> apply_option(KernelOptions& options, std::string_view item);

/// One "name=value" of the args key; value kept as written (int or float).
struct ScalarArg {
  std::string name;
  std::string value;
};
Expected<std::vector<ScalarArg>> parse_scalar_args(std::string_view text);

/// One "name[count]" of the buffers key; count is a launch expression.
struct BufferSpec {
  std::string name;
  std::string count;
};
Expected<std::vector<BufferSpec>> parse_buffer_specs(std::string_view text);

/// Values are checked as apply_option checks them: a bad one throws.
void to_json(nlohmann::json& j, const SearchSettings& s);
void from_json(const nlohmann::json& j, SearchSettings& s);
/// Without `search`, which the manifest keeps apart (its "options" are a contract).
void to_json(nlohmann::json& j, const KernelOptions& o);
void from_json(const nlohmann::json& j, KernelOptions& o);

}  // namespace stark

#endif  // STARK_CORE_KERNEL_OPTIONS_H
