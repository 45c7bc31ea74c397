#include "harness/compile/nvcc_command.h"

#include <vector>
#include <string>
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/file_io.h"
#include "core/nvcc_flags.h"
#include "core/nvcc_options.h"
#include "core/paths.h"
#include "core/text.h"

namespace stark::harness {

namespace fs = std::filesystem;

namespace {

// Dropped together with their value, beside what STARK sets itself
// (nvcc_output_option): where nvcc keeps its intermediate files, its timing log.
const std::set<std::string> kDropWithValue = {"--keep-dir", "-keep-dir", "-time", "--time"};
// Dropped alone, beside what STARK chooses itself (nvcc_output_flag): other
// products and modes of nvcc.
const std::set<std::string> kDrop = {"--generate-dependencies",
                                     "--generate-nonsystem-dependencies",
                                     "-E",
                                     "--preprocess",
                                     "-dryrun",
                                     "--dryrun",
                                     "-keep",
                                     "--keep",
                                     "-save-temps",
                                     "--save-temps",
                                     "-dlink",
                                     "--device-link",
                                     "-lib",
                                     "--lib",
                                     "-v",
                                     "--verbose"};
// Path-valued options whose path may lie in the source root.
const std::set<std::string> kPathOptions = {"-I",       "--include-path", "-isystem", "--system-include",
                                            "-include", "--pre-include",  "-iquote"};

bool is_rdc(const std::string& opt, const std::string& value) {
  if (opt == "-dc" || opt == "--device-c") return true;
  if (opt == "-rdc" || opt == "--relocatable-device-code") return value == "true" || value == "1";
  return false;
}

/// The value of `-o`/`--output-file` in a command, empty when none.
std::string output_of(const std::vector<std::string>& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-o" || args[i] == "--output-file") && i + 1 < args.size()) return args[i + 1];
    if (starts_with(args[i], "--output-file=")) return args[i].substr(14);
  }
  return "";
}

std::string basename(const std::string& s) { return fs::path(s).filename().string(); }

/// The compiler a command runs (past ccache or sccache) and its arguments
/// with response files (--options-file F, -optf F, @F) expanded in place.
struct CompilerArguments {
  std::string compiler;
  std::vector<std::string> arguments;
};

Expected<CompilerArguments> compiler_arguments(const CompileCommand& command, const fs::path& dir) {
  size_t first = 0;
  while (first < command.arguments.size() &&
         (basename(command.arguments[first]) == "ccache" || basename(command.arguments[first]) == "sccache"))
    ++first;
  if (first >= command.arguments.size()) return Error{"the kernel's compile command names no compiler"};
  CompilerArguments out{command.arguments[first], {}};
  if (basename(out.compiler) != "nvcc")
    return Error{
        fmt::format("the kernel's translation unit is compiled by '{}', not nvcc; STARK compiles "
                    "candidates with nvcc only",
                    out.compiler)};
  for (size_t i = first + 1; i < command.arguments.size(); ++i) {
    std::string rsp = options_file_at(command.arguments, i);
    if (rsp.empty()) {
      out.arguments.push_back(command.arguments[i]);
      continue;
    }
    auto text = read_file(dir / rsp);
    if (!text)
      return Error{fmt::format("cannot read the options file {} of the compile command", (dir / rsp).string())};
    for (auto& part : shell_split(*text)) out.arguments.push_back(part);
  }
  return out;
}

/// One argument read as an option: "-opt=value" and "-Ipath" forms split,
/// else the option with its value in the next argument when it takes one.
struct Option {
  std::string opt;
  std::string value;
  bool joined = false;    // the value was part of the argument
  bool separate = false;  // the value is the next argument
};

Option read_option(const std::vector<std::string>& in, size_t i) {
  const std::string& a = in[i];
  Option o{a, "", false, false};
  auto eq = a.find('=');
  if (a.size() > 1 && a[0] == '-' && eq != std::string::npos) {
    o = Option{a.substr(0, eq), a.substr(eq + 1), true, false};
  } else {
    for (const char* p : {"-I", "-D", "-U", "-L", "-l"})
      if (a.size() > 2 && starts_with(a, p) && a[2] != '-') {
        o = Option{p, a.substr(2), true, false};
        break;
      }
  }
  o.separate = !o.joined && nvcc_takes_value(o.opt) && i + 1 < in.size();
  if (o.separate) o.value = in[i + 1];
  return o;
}

/// What the candidate's compile adds after the kept arguments: the
/// architecture, what to produce, the dependency file and the output.
void append_outputs(const NvccCommandSpec& spec, std::vector<std::string>& out) {
  out.push_back("-arch=sm_" + spec.sm);
  switch (spec.mode) {
    case CompileMode::Cubin: out.push_back("-cubin"); break;
    case CompileMode::Object: out.push_back("-c"); break;
    case CompileMode::Dependencies: out.push_back("-M"); break;
    case CompileMode::Ptx: out.push_back("-ptx"); break;
  }
  if (spec.mode != CompileMode::Dependencies && !spec.dependency_file.empty()) {
    out.push_back("-MD");
    out.push_back("-MF");
    out.push_back(spec.dependency_file.string());
  }
  if (!spec.output.empty()) {
    out.push_back("-o");
    out.push_back(spec.output.string());
  }
}

}  // namespace

Expected<std::vector<std::string>> nvcc_command(const CompileCommand& command, const NvccCommandSpec& spec) {
  if (command.arguments.empty()) return Error{"the kernel's compile command is empty"};
  fs::path dir = command.directory.empty() ? fs::current_path() : fs::path(command.directory);
  fs::path file = absolute_normal(dir / command.file);
  auto map_path = [&](const std::string& p) -> std::string {
    fs::path abs = absolute_normal(dir / p);
    if (!spec.shadow_root.empty() && is_within(abs, absolute_normal(spec.source_root)))
      return (spec.shadow_root / fs::relative(abs, absolute_normal(spec.source_root))).lexically_normal().string();
    return abs.string();
  };
  auto args = compiler_arguments(command, dir);
  if (!args) return args.error();
  const std::string& compiler = args->compiler;
  const std::vector<std::string>& in = args->arguments;

  std::vector<std::string> out = {fs::path(compiler).has_parent_path() || spec.nvcc.empty() ? compiler : spec.nvcc};
  bool saw_file = false;
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string& a = in[i];
    Option o = read_option(in, i);
    if (o.opt == "-ewp" || o.opt == "--extensible-whole-program")
      return Error{
          "the kernel is compiled with -ewp (extensible whole program), which STARK cannot link for "
          "measuring; build this target with -rdc=true or without either"};
    if (o.opt == "-dc" || o.opt == "--device-c") {  // compile + relocatable: the mode is ours to choose
      out.push_back("-rdc=true");
      continue;
    }
    if (o.opt == "-dw" || o.opt == "--device-w") continue;  // compile, whole program: the default
    if (nvcc_output_flag(a) || kDrop.count(a)) continue;
    if (nvcc_output_option(o.opt) || kDropWithValue.count(o.opt)) {
      if (o.separate) ++i;
      continue;
    }
    if (kPathOptions.count(o.opt)) {
      std::string mapped = map_path(o.value);
      if (o.joined && o.opt == "-I") out.push_back("-I" + mapped);
      else if (o.joined) out.push_back(o.opt + "=" + mapped);
      else {
        out.push_back(o.opt);
        out.push_back(mapped);
        ++i;
      }
      continue;
    }
    if (o.separate) {  // an option with a separate value we keep as it is (-rdc true among them)
      out.push_back(a);
      out.push_back(in[++i]);
      continue;
    }
    if (!a.empty() && a[0] != '-' && absolute_normal(dir / a) == file) {
      saw_file = true;
      continue;  // added last
    }
    out.push_back(a);
  }
  if (!saw_file) return Error{fmt::format("the compile command does not name its source file {}", file.string())};
  append_outputs(spec, out);
  out.push_back(map_path(file.string()));
  return out;
}

bool is_relocatable(const CompileCommand& command) {
  const auto& args = command.arguments;
  bool rdc = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto eq = a.find('=');
    std::string opt = eq == std::string::npos ? a : a.substr(0, eq);
    std::string value = eq == std::string::npos ? (i + 1 < args.size() ? args[i + 1] : "") : a.substr(eq + 1);
    if (opt == "-rdc" || opt == "--relocatable-device-code") rdc = is_rdc(opt, value);  // the last one counts
    if (opt == "-dc" || opt == "--device-c") rdc = true;
  }
  return rdc;
}

std::vector<fs::path> device_link_objects(const CompileCommand& command) {
  std::string out = output_of(command.arguments);
  if (out.empty()) return {};
  fs::path own = absolute_normal(fs::path(command.directory) / out);
  // The target's object folder: the innermost "<name>.dir" below CMakeFiles.
  fs::path folder;
  for (fs::path p = own.parent_path(); p.has_relative_path() && p != p.parent_path(); p = p.parent_path())
    if (p.extension() == ".dir" && p.parent_path().filename() == "CMakeFiles") {
      folder = p;
      break;
    }
  if (folder.empty()) return {};
  std::vector<fs::path> objects;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    fs::path p = it->path();
    if (p.extension() != ".o" && p.extension() != ".obj") continue;
    if (absolute_normal(p) == own || starts_with(p.filename().string(), "cmake_device_link")) continue;
    objects.push_back(absolute_normal(p));
  }
  std::sort(objects.begin(), objects.end());
  return objects;
}

std::vector<std::string> device_link_command(const std::string& nvcc, const std::string& sm, const fs::path& cubin,
                                             const std::vector<fs::path>& objects, const fs::path& output) {
  std::vector<std::string> argv = {nvcc, "-dlink", "-cubin", "-arch=sm_" + sm, cubin.string()};
  for (const auto& o : objects) argv.push_back(o.string());
  argv.push_back("-o");
  argv.push_back(output.string());
  return argv;
}

std::vector<std::string> parse_make_deps(const std::string& text) {
  std::vector<std::string> deps;
  std::string cur;
  bool after_colon = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
      c = ' ';
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == ' ') {
      cur += ' ';
      ++i;
      continue;
    }
    if (!after_colon) {
      if (c == ':' && (i + 1 >= text.size() || text[i + 1] == ' ' || text[i + 1] == '\n' || text[i + 1] == '\\'))
        after_colon = true;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (!cur.empty()) deps.push_back(cur);
      cur.clear();
      if (c == '\n' && (i + 1 < text.size() && text[i + 1] != ' ')) after_colon = false;  // next rule
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) deps.push_back(cur);
  std::sort(deps.begin(), deps.end());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  return deps;
}

}  // namespace stark::harness
