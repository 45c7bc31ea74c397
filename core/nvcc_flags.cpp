#include "core/nvcc_flags.h"

#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string_view>

#include "core/nvcc_options.h"
#include "core/text.h"

namespace stark {

namespace {

/// What an nvcc option's value must be for the option to pass.
enum class Value { Macro, Path, Word, Digits, Bool, Language, HostList, PtxasList, CudafeList };

const std::map<std::string, Value, std::less<>>& value_options() {
  static const std::map<std::string, Value, std::less<>> options = {{"-D", Value::Macro},
                                                                    {"--define-macro", Value::Macro},
                                                                    {"-U", Value::Macro},
                                                                    {"--undefine-macro", Value::Macro},
                                                                    {"-I", Value::Path},
                                                                    {"--include-path", Value::Path},
                                                                    {"-isystem", Value::Path},
                                                                    {"--system-include", Value::Path},
                                                                    {"-include", Value::Path},
                                                                    {"--pre-include", Value::Path},
                                                                    {"-iquote", Value::Path},
                                                                    {"-std", Value::Word},
                                                                    {"--std", Value::Word},
                                                                    {"-x", Value::Language},
                                                                    {"--x", Value::Language},
                                                                    {"-maxrregcount", Value::Digits},
                                                                    {"--maxrregcount", Value::Digits},
                                                                    {"-t", Value::Digits},
                                                                    {"--threads", Value::Digits},
                                                                    {"-split-compile", Value::Digits},
                                                                    {"--split-compile", Value::Digits},
                                                                    {"-default-stream", Value::Word},
                                                                    {"--default-stream", Value::Word},
                                                                    {"-ftz", Value::Bool},
                                                                    {"--ftz", Value::Bool},
                                                                    {"-prec-div", Value::Bool},
                                                                    {"--prec-div", Value::Bool},
                                                                    {"-prec-sqrt", Value::Bool},
                                                                    {"--prec-sqrt", Value::Bool},
                                                                    {"-fmad", Value::Bool},
                                                                    {"--fmad", Value::Bool},
                                                                    {"-rdc", Value::Bool},
                                                                    {"--relocatable-device-code", Value::Bool},
                                                                    {"-static-global-template-stub", Value::Bool},
                                                                    {"--static-global-template-stub", Value::Bool},
                                                                    {"-diag-suppress", Value::Word},
                                                                    {"--diag-suppress", Value::Word},
                                                                    {"-diag-error", Value::Word},
                                                                    {"--diag-error", Value::Word},
                                                                    {"-diag-warn", Value::Word},
                                                                    {"--diag-warn", Value::Word},
                                                                    {"-Werror", Value::Word},
                                                                    {"--Werror", Value::Word},
                                                                    {"-Xcompiler", Value::HostList},
                                                                    {"--compiler-options", Value::HostList},
                                                                    {"-Xptxas", Value::PtxasList},
                                                                    {"--ptxas-options", Value::PtxasList},
                                                                    {"-Xcudafe", Value::CudafeList}};
  return options;
}

// nvcc options without a value that pass as they are.
const std::set<std::string, std::less<>> kFlags = {"-G",
                                                   "--device-debug",
                                                   "-g",
                                                   "--debug",
                                                   "-lineinfo",
                                                   "--generate-line-info",
                                                   "-use_fast_math",
                                                   "--use_fast_math",
                                                   "-expt-relaxed-constexpr",
                                                   "--expt-relaxed-constexpr",
                                                   "-expt-extended-lambda",
                                                   "--expt-extended-lambda",
                                                   "-extended-lambda",
                                                   "--extended-lambda",
                                                   "-w",
                                                   "--disable-warnings",
                                                   "-restrict",
                                                   "--restrict",
                                                   "-m64",
                                                   "-allow-unsupported-compiler",
                                                   "--allow-unsupported-compiler",
                                                   "-forward-unknown-to-host-compiler",
                                                   "--forward-unknown-to-host-compiler",
                                                   "-src-in-ptx",
                                                   "--source-in-ptx"};

// Options that name a program or a file to read or write: left out, with their value.
const std::set<std::string, std::less<>> kDroppedWithValue = {
    "-ccbin",      "--compiler-bindir", "--options-file", "-optf",    "--keep-dir",       "-keep-dir", "-time",
    "--time",      "-run-args",         "--run-args",     "-Xfatbin", "--fatbin-options", "-Xnvvm",    "--nvvm-options",
    "-Xcudafe-all"};

// What only linking reads: left out without a word, as what STARK sets
// itself (nvcc_output_option, nvcc_output_flag) is.
const std::set<std::string, std::less<>> kLinkWithValue = {
    "-L",       "--library-path",   "-l",          "--library",        "-cudart",
    "--cudart", "-cudadevrt",       "--cudadevrt", "-Xlinker",         "--linker-options",
    "-Xnvlink", "--nvlink-options", "-Xarchive",   "--archive-options"};

// std::regex recurses per character: hostile text is bounded before it is matched.
constexpr size_t kMaxFlagLength = 2048;

bool matches(const std::string& s, const std::regex& re) {
  return s.size() <= kMaxFlagLength && std::regex_match(s, re);
}

/// Host compiler flags that change how code compiles, never what runs or
/// what is written: -D -U -I -isystem -iquote -std -O -g -W -w, a list of
/// -f and -m flags, -pthread, -pedantic.
bool host_flag_allowed(const std::string& f) {
  static const std::regex kSimple(
      R"(-(D|U)[A-Za-z_]\w*(\(.*\))?(=.*)?|-std=[a-z0-9+]+|-O[0-3sgz]?|-Ofast|-g[a-z0-9-]*|-w|-pthread|-pedantic(-errors)?|-ansi)"
      R"(|-W(no-)?(error=)?[A-Za-z0-9_+=-]+|-m[a-z0-9][a-z0-9=_.-]*)");
  static const std::regex kF(
      R"(-f(no-[a-z0-9-]+(=[a-z0-9_,.-]+)?|PIC|pic|PIE|pie|openmp|openmp-simd|exceptions|rtti|permissive|signed-char|unsigned-char)"
      R"(|strict-aliasing|fast-math|function-sections|data-sections|omit-frame-pointer|unroll-loops|wrapv|rounding-math)"
      R"(|trapping-math|math-errno|ext-numeric-literals|coroutines|concepts|visibility-inlines-hidden|stack-protector(-all|-strong)?)"
      R"(|visibility=[a-z]+|diagnostics-color(=[a-z]+)?|max-errors=[0-9]+|template-depth=[0-9]+|constexpr-[a-z-]+=[0-9]+)"
      R"(|cf-protection(=[a-z]+)?|message-length=[0-9]+|abi-version=[0-9]+|sanitize=[a-z,-]+))");
  for (const char* pass_on : {"-Wl", "-Wa", "-Wp"})  // hand options to the linker, assembler, preprocessor
    if (f == pass_on || starts_with(f, std::string(pass_on) + ",")) return false;
  return matches(f, kSimple) || matches(f, kF);
}

// Host flags whose value may be the next item: -isystem /x.
const std::set<std::string, std::less<>> kHostPathOptions = {"-I",         "-isystem", "-iquote",
                                                             "-idirafter", "-include", "-imacros"};

/// One -Xcompiler list, filtered: path values mapped, the rest checked.
std::vector<std::string> host_list(const std::string& value, const PathMap& map_path,
                                   std::vector<std::string>& dropped) {
  std::vector<std::string> items, kept;
  for (auto part : split(value, ',')) items.emplace_back(part);
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string& item = items[i];
    std::string option, path;
    if (kHostPathOptions.count(item) && i + 1 < items.size() && !items[i + 1].empty() && items[i + 1][0] != '-') {
      option = item;
      path = items[++i];
    } else {
      for (const char* o : {"-isystem", "-iquote", "-idirafter", "-I"})
        if (option.empty() && item.size() > std::string_view(o).size() && starts_with(item, o) &&
            item[std::string_view(o).size()] != '-') {
          option = o;
          path = item.substr(std::string_view(o).size());
        }
    }
    if (!option.empty()) {
      std::string mapped = map_path(path);
      if (mapped.find(',') != std::string::npos) {
        dropped.push_back("-Xcompiler=" + item);
        continue;
      }
      kept.push_back(option);
      kept.push_back(mapped);
      continue;
    }
    if (host_flag_allowed(item)) kept.push_back(item);
    else dropped.push_back("-Xcompiler=" + item);
  }
  return kept;
}

std::vector<std::string> tool_list(const std::string& value, const std::regex& allowed, const std::string& option,
                                   std::vector<std::string>& dropped) {
  std::vector<std::string> kept;
  for (auto part : split(value, ',')) {
    std::string item(part);
    if (matches(item, allowed)) kept.push_back(item);
    else dropped.push_back(option + "=" + item);
  }
  return kept;
}

/// The option with its value joined, or nothing when the value does not pass.
std::optional<std::string> with_value(const std::string& option, Value kind, const std::string& value,
                                      const PathMap& map_path, std::vector<std::string>& dropped) {
  static const std::regex kMacro(R"([A-Za-z_]\w*(\(.*\))?(=.*)?)"), kWord(R"([A-Za-z0-9+_.][A-Za-z0-9+_,.-]*)"),
      kDigits(R"([0-9]+)"), kBool(R"(true|false)");
  static const std::regex kPtxas(
      R"(-{1,2}(v|verbose|O[0-3]|warn-[a-z-]+|allow-expensive-optimizations(=(true|false))?|dlcm=[a-z]+|dscm=[a-z]+)"
      R"(|def-load-cache=[a-z]+|def-store-cache=[a-z]+|maxrregcount=[0-9]+))");
  static const std::regex kCudafe(R"(--(diag_suppress|diag_warning|diag_error)=[A-Za-z0-9_]+|--display_error_number)");
  auto joined = [&](const std::vector<std::string>& items) -> std::optional<std::string> {
    if (items.empty()) return std::nullopt;
    return option + "=" + join(items, ",");
  };
  switch (kind) {
    case Value::Macro:
      if (!matches(value, kMacro)) break;
      return (option == "-D" || option == "-U") ? option + value : option + "=" + value;
    case Value::Path: {
      std::string mapped = map_path(value);
      if (value.empty() || mapped.find(',') != std::string::npos) break;
      return option == "-I" ? "-I" + mapped : option + "=" + mapped;
    }
    case Value::Word:
      if (matches(value, kWord)) return option + "=" + value;
      break;
    case Value::Digits:
      if (matches(value, kDigits)) return option + "=" + value;
      break;
    case Value::Bool:
      if (matches(value, kBool)) return option + "=" + value;
      break;
    case Value::Language:
      if (value == "cu") return option + "=" + value;
      break;
    case Value::HostList: return joined(host_list(value, map_path, dropped));
    case Value::PtxasList: return joined(tool_list(value, kPtxas, option, dropped));
    case Value::CudafeList: return joined(tool_list(value, kCudafe, option, dropped));
  }
  dropped.push_back(option + "=" + value);
  return std::nullopt;
}

}  // namespace

NvccFlags allowed_nvcc_flags(const std::vector<std::string>& args, const PathMap& map_path) {
  NvccFlags out;
  const auto& options = value_options();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    // Split "-opt=value" and the joined short forms "-Ipath", "-DNAME".
    std::string option = a, value;
    bool has_value = false;
    if (auto eq = a.find('=');
        a.size() > 1 && a[0] == '-' && eq != std::string::npos && nvcc_takes_value(a.substr(0, eq))) {
      option = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    } else if (!nvcc_takes_value(a) && !kFlags.count(a)) {
      for (const char* p : {"-I", "-D", "-U", "-L", "-l"})
        if (!has_value && a.size() > 2 && starts_with(a, p)) {
          option = p;
          value = a.substr(2);
          has_value = true;
        }
    }
    if (nvcc_takes_value(option) && !has_value) {
      auto it = options.find(option);
      bool list = it != options.end() &&
                  (it->second == Value::HostList || it->second == Value::PtxasList || it->second == Value::CudafeList);
      // A missing value, or an option where the value should be: never consume it.
      if (i + 1 >= args.size() || (!list && starts_with(args[i + 1], "-"))) {
        out.dropped.push_back(a);
        continue;
      }
      value = args[++i];
      has_value = true;
    }
    if (nvcc_output_option(option) || kLinkWithValue.count(option) || nvcc_output_flag(a)) continue;
    if (kDroppedWithValue.count(option)) {
      out.dropped.push_back(option + "=" + value);
      continue;
    }
    if (auto it = options.find(option); it != options.end()) {
      if (auto kept = with_value(option, it->second, value, map_path, out.dropped)) out.kept.push_back(*kept);
      continue;
    }
    if (has_value) {  // an option with a value this allowlist does not name (-Xnvvm, -imacros...)
      out.dropped.push_back(option + "=" + value);
      continue;
    }
    if (kFlags.count(a) || host_flag_allowed(a)) out.kept.push_back(a);
    else out.dropped.push_back(a);
  }
  return out;
}

std::string options_file_at(const std::vector<std::string>& args, size_t& i) {
  const std::string& a = args[i];
  if ((a == "--options-file" || a == "-optf") && i + 1 < args.size()) return args[++i];
  if (starts_with(a, "--options-file=")) return a.substr(15);
  if (starts_with(a, "-optf=")) return a.substr(6);
  if (a.size() > 1 && a[0] == '@') return a.substr(1);
  return {};
}

bool valid_sm(const std::string& sm) {
  static const std::regex kSm(R"([1-9][0-9]{1,2}[af]?)");
  return matches(sm, kSm);
}

}  // namespace stark
