#include "clang_tool/nvcc_args.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>

#include "core/file_io.h"
#include "core/nvcc_options.h"
#include "core/text.h"

namespace stark {

namespace fs = std::filesystem;

namespace {

// Preprocessor-relevant options kept as they are, value attached or next.
struct Kept {
  std::string_view nvcc;
  std::string_view clang;
};
constexpr Kept kKept[] = {{"-D", "-D"},
                          {"--define-macro", "-D"},
                          {"-U", "-U"},
                          {"--undefine-macro", "-U"},
                          {"-I", "-I"},
                          {"--include-path", "-I"},
                          {"-isystem", "-isystem"},
                          {"--system-include", "-isystem"},
                          {"-iquote", "-iquote"},
                          {"-idirafter", "-idirafter"},
                          {"-include", "-include"},
                          {"--pre-include", "-include"},
                          {"-imacros", "-imacros"}};

/// Collects clang arguments from nvcc arguments, expanding option files.
class Translator {
 public:
  Translator(const fs::path& directory, const fs::path& file) : directory_(directory), file_(file) {}

  void add(const std::vector<std::string>& args, size_t first, int depth = 0) {
    for (size_t i = first; i < args.size(); ++i) {
      std::string_view a = args[i];
      auto next = [&]() -> std::string { return i + 1 < args.size() ? args[++i] : std::string(); };

      if (a.empty()) continue;
      if (a[0] == '@' || a == "--options-file" || a == "-optf" || starts_with(a, "--options-file=")) {
        std::string path = a[0] == '@'                             ? std::string(a.substr(1))
                           : a.find('=') != std::string_view::npos ? std::string(a.substr(a.find('=') + 1))
                                                                   : next();
        expand_file(path, depth);
        continue;
      }
      if (a[0] != '-') continue;  // the source file, objects, or an option's value we already took

      std::string name(a.substr(0, a.find('=')));
      bool has_eq = a.find('=') != std::string_view::npos;
      std::string value = has_eq ? std::string(a.substr(a.find('=') + 1)) : std::string();

      if (keep(a, args, i)) continue;
      if (name == "-std" || name == "--std") {
        std_ = has_eq ? value : next();
        continue;
      }
      if (name == "-Xcompiler" || name == "--compiler-options") {
        std::string flags = has_eq ? value : next();  // split() returns views into it
        for (auto part : split(flags, ',')) host_flag(trim(part));
        continue;
      }
      if (!has_eq && nvcc_takes_value(name)) next();  // dropped with its value
    }
  }

  std::vector<std::string> result() { return out_; }
  std::string standard() const { return std_; }

 private:
  // Keeps -D/-U/-I/... with their value in any spelling nvcc accepts
  // ("-I dir", "-Idir", "--include-path=dir"); true when handled.
  bool keep(std::string_view a, const std::vector<std::string>& args, size_t& i) {
    for (const auto& k : kKept) {
      if (a == k.nvcc) {
        if (i + 1 < args.size()) push(k.clang, args[++i]);
        return true;
      }
      if (!starts_with(a, k.nvcc)) continue;
      std::string_view rest = a.substr(k.nvcc.size());
      if (starts_with(k.nvcc, "--")) {
        if (rest[0] != '=') continue;  // a longer option that merely shares the prefix
        rest.remove_prefix(1);
      } else if (k.nvcc.size() > 2 && rest[0] == '=') {
        rest.remove_prefix(1);  // nvcc's "-isystem=dir"
      }
      push(k.clang, std::string(rest));
      return true;
    }
    return false;
  }

  void push(std::string_view flag, const std::string& value) {
    if (flag == "-I" || flag == "-isystem" || flag == "-iquote" || flag == "-idirafter" || flag == "-include" ||
        flag == "-imacros") {
      fs::path p(value);
      if (p.is_relative()) p = directory_ / p;
      out_.push_back(std::string(flag));
      out_.push_back(p.lexically_normal().string());
    } else {
      out_.push_back(std::string(flag) + value);
    }
  }

  // Host compiler flags that change what the preprocessor sees.
  void host_flag(std::string_view f) {
    if (starts_with(f, "-D") || starts_with(f, "-U")) out_.push_back(std::string(f));
    else if (starts_with(f, "-I") && f.size() > 2) push("-I", std::string(f.substr(2)));
    else if (starts_with(f, "-std=")) std_ = std::string(f.substr(5));
    else if (f == "-fopenmp" || f == "-pthread") out_.push_back(std::string(f));
  }

  void expand_file(const std::string& path, int depth) {
    if (depth > 8) return;
    fs::path p(path);
    if (p.is_relative()) p = directory_ / p;
    auto text = read_file(p);
    if (!text) return;  // the build would fail the same way; clang will report missing headers
    add(shell_split(*text), 0, depth + 1);
  }

  fs::path directory_;
  fs::path file_;
  std::vector<std::string> out_;
  std::string std_;
};

}  // namespace

std::vector<std::string> archs_of(const std::vector<std::string>& args) {
  std::vector<std::string> archs;
  auto add = [&](std::string a) {
    if (std::find(archs.begin(), archs.end(), a) == archs.end()) archs.push_back(std::move(a));
  };
  static const std::regex sm_re(R"((?:sm|compute)_(\d+[af]?))");
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view a = args[i];
    std::string value;
    for (std::string_view opt : {"-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code", "--gpu-code"}) {
      if (a == opt && i + 1 < args.size()) value = args[i + 1];
      else if (starts_with(a, opt) && a.size() > opt.size() && a[opt.size()] == '=')
        value = std::string(a.substr(opt.size() + 1));
    }
    if (value.empty()) continue;
    // In "arch=compute_90,code=[compute_90,sm_90]" the machine code is what
    // runs; take sm_ names when present, else the virtual arch.
    std::vector<std::string> sms, computes;
    for (std::sregex_iterator it(value.begin(), value.end(), sm_re), end; it != end; ++it) {
      ((*it)[0].str().rfind("sm_", 0) == 0 ? sms : computes).push_back((*it)[1].str());
    }
    for (auto& s : sms.empty() ? computes : sms) add(s);
  }
  if (archs.empty()) archs.push_back("75");
  return archs;
}

fs::path cuda_path_of(const std::vector<std::string>& args) {
  if (!args.empty()) {
    fs::path nvcc(args[0]);
    if (nvcc.is_absolute() && nvcc.filename() == "nvcc" && nvcc.parent_path().filename() == "bin")
      return nvcc.parent_path().parent_path();
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) return v;
  return "/usr/local/cuda";
}

std::string clang_gpu_arch(const std::vector<std::string>& archs) {
  int best = 0;
  for (const auto& a : archs) {
    int n = std::atoi(a.c_str());
    best = std::max(best, std::min(n, 90));
  }
  if (best < 50) best = 75;
  return fmt::format("sm_{}", best);
}

std::vector<std::string> clang_arguments(const CompileCommand& c, const ClangSetup& setup) {
  fs::path cuda = cuda_path_of(c.arguments);
  std::vector<std::string> out = {
      "clang++", "-x", "cuda", "--cuda-host-only", "-fsyntax-only", "--cuda-path=" + cuda.string(),
      "--cuda-gpu-arch=" + clang_gpu_arch(c.archs.empty() ? archs_of(c.arguments) : c.archs),
      "-resource-dir=" + setup.resource_dir.string(), "-Wno-unknown-cuda-version", "-w",
      // Errors are collected as diagnostics: no error limit (reaching it
      // is fatal and would cost every kernel of the unit), and no
      // "N errors generated" line on stderr (caret diagnostics print it).
      "-ferror-limit=0", "-fno-caret-diagnostics",
      // before the unit's own forced includes, which may call min/max
      "-include", (setup.stub_dir / kNvccCompatHeader).string()};
  Translator t(c.directory, c.file);
  t.add(c.arguments, 1);
  auto kept = t.result();
  out.insert(out.end(), kept.begin(), kept.end());
  out.push_back("-std=" + (t.standard().empty() ? std::string("c++17") : t.standard()));
  out.push_back("-isystem");
  out.push_back((cuda / "include" / "cccl").string());
  out.push_back("-isystem");
  out.push_back(setup.stub_dir.string());
  out.push_back(c.file);
  return out;
}

}  // namespace stark
