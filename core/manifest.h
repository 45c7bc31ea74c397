// The manifest (stark.manifest/1): every [[stark::optimize]] kernel of a build,
// exactly as the compiler sees it. Written by `stark scan`, read by every
// later stage. Schema: tests/schemas/manifest.schema.json; docs/CONTRACTS.md.
#ifndef STARK_CORE_MANIFEST_H
#define STARK_CORE_MANIFEST_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/diagnostic.h"
#include "core/expected.h"
#include "core/kernel_options.h"

namespace stark {

inline constexpr const char* kManifestSchema = "stark.manifest/1";

/// A half-open byte range [begin, end) of a source file.
struct ByteRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const ByteRange&) const = default;
};

enum class ParamKind { Scalar, Pointer, Record };

/// A scalar field of a by-value struct parameter: where its bytes are.
/// Nested structs are flattened into dotted names ("dims.rows").
struct Field {
  std::string name;
  std::string type;  // canonical scalar type: "int", "float"...
  int64_t offset = 0;
  int64_t size = 0;
  bool operator==(const Field&) const = default;
};

/// One kernel parameter with the layout the launch passes it in.
struct Param {
  std::string name;
  std::string type;  // as printed by clang, e.g. "const float *__restrict"
  ParamKind kind = ParamKind::Scalar;
  std::string pointee;       // pointers: the pointee type without qualifiers
  bool is_const = false;     // pointers: pointee is const
  bool is_restrict = false;  // pointers: top-level __restrict__
  int64_t size = 0;          // bytes; 0 while the type is dependent (template)
  int64_t align = 0;
  std::vector<Field> fields;  // records: the scalar fields (extension; for launch expressions like p.rows)
  bool operator==(const Param&) const = default;
};

/// One concrete kernel symbol in the device code.
struct Instantiation {
  std::string mangled;        // device-side name, as CUPTI and readelf report it
  std::string template_args;  // "float, 256"; empty for non-templates
  std::vector<Param> params;  // concrete types and sizes
  bool operator==(const Instantiation&) const = default;
};

/// How the translation unit defining a kernel is compiled (nvcc-style).
struct CompileCommand {
  std::string directory;
  std::string file;  // absolute
  std::vector<std::string> arguments;
  std::string target;              // CMake target, when known
  std::vector<std::string> archs;  // "90", "80"...
  bool operator==(const CompileCommand&) const = default;
};

enum class LaunchKind { Chevron, Api };

/// What a launch's grid or block expression is before it becomes a dim3:
/// an integer (`(n + 255) / 256`: x is its value, y and z are 1), a dim3
/// built in place from integers (`dim3(x, y)`: its arguments, then 1s), or
/// another dim3 (a variable, a call).
enum class DimType { Unknown, Integer, Dim3Args, Dim3 };

/// A local variable a launch passes as its grid or block (`dim3 grid(...);
/// k<<<grid, block>>>`), declared alone with an initializer free of side
/// effects: where it is declared and every place the function reads it, so
/// a rewrite that replaces every read can drop the declaration with them.
struct LaunchVariable {
  std::string name;
  ByteRange decl;               // the declaration statement, through its ';'
  std::vector<ByteRange> uses;  // each reference in the enclosing function
  bool operator==(const LaunchVariable&) const = default;
};

/// One place in host code that launches the kernel.
struct Launch {
  std::string file;  // relative to the source root
  int line = 0;
  LaunchKind kind = LaunchKind::Chevron;
  std::string instantiation;                              // mangled name launched
  std::optional<std::string> grid, block, shmem, stream;  // source text; nullopt = defaulted
  std::vector<std::string> args;                          // source text of each kernel argument
  ByteRange config_range;                                 // chevron: "<<<...>>>"; api: the grid..stream arguments
  // Extension of the DESIGN contract: where each configuration part is, so
  // the rewriter replaces parts exactly (absent = not written at the site).
  std::optional<ByteRange> grid_range, block_range, shmem_range, stream_range;
  DimType grid_type = DimType::Unknown, block_type = DimType::Unknown;  // extension
  std::optional<LaunchVariable> grid_var, block_var;                    // extension
  std::string caller;                                                   // qualified name of the enclosing function
  bool operator==(const Launch&) const = default;
};

/// One annotated kernel (a function or a function template).
struct Kernel {
  std::string id;  // "<file>:<qualified name>" (+ "(param types)" when overloaded)
  std::string name;
  std::string qualified_name;
  std::string file;  // relative to the source root
  int line = 0;
  int column = 0;
  ByteRange range;  // first token of the declaration .. after the closing brace
  ByteRange body;   // "{" .. after "}"
  bool is_template = false;
  std::vector<Param> params;
  std::vector<Instantiation> instantiations;
  KernelOptions options;
  std::optional<CompileCommand> compile;
  std::vector<Launch> launches;
  // Why no candidate may change this kernel's launch configuration: a launch
  // the patch could not rewrite (through a pointer, inside a macro, shaped by
  // a config struct) or none seen at all. Empty: every launch is rewritable.
  std::string fixed_launch;
  // The module variables (__device__, __constant__, __managed__) the kernel
  // can reach through its body and the functions it calls, as the cubin
  // names them; nullopt when the scan cannot be sure (then a capture records
  // every variable of the kernel's module).
  std::optional<std::vector<std::string>> module_variables;
  // Extension: xxh64 of what the kernel means to the compiler (its text and
  // everything it depends on, clang_tool/fingerprint.h); the result cache's
  // key. Absent in manifests not written by `stark scan`: no caching then.
  std::optional<std::string> fingerprint;
  bool operator==(const Kernel&) const = default;
};

struct FileEntry {
  std::string hash;  // "xxh64:..."
  bool operator==(const FileEntry&) const = default;
};

/// The whole manifest.
struct Manifest {
  std::string source_root;
  std::string build_dir;
  std::map<std::string, FileEntry> files;  // relative path -> content hash
  std::vector<Kernel> kernels;
  std::vector<Diagnostic> diagnostics;

  const Kernel* find_kernel(std::string_view id) const;
  bool has_errors() const;
  bool operator==(const Manifest&) const = default;
};

const char* to_string(ParamKind k);
/// The kind a JSON string names; throws std::invalid_argument for any other name.
ParamKind param_kind_from_json(const nlohmann::json& j);
const char* to_string(LaunchKind k);

void to_json(nlohmann::json& j, const ByteRange& r);
void from_json(const nlohmann::json& j, ByteRange& r);
void to_json(nlohmann::json& j, const Param& p);
void from_json(const nlohmann::json& j, Param& p);
void to_json(nlohmann::json& j, const Instantiation& i);
void from_json(const nlohmann::json& j, Instantiation& i);
void to_json(nlohmann::json& j, const CompileCommand& c);
void from_json(const nlohmann::json& j, CompileCommand& c);
void to_json(nlohmann::json& j, const Launch& l);
void from_json(const nlohmann::json& j, Launch& l);
void to_json(nlohmann::json& j, const Kernel& k);
void from_json(const nlohmann::json& j, Kernel& k);
void to_json(nlohmann::json& j, const Manifest& m);
void from_json(const nlohmann::json& j, Manifest& m);

/// Reads and checks a manifest file (schema tag, required fields).
Expected<Manifest> load_manifest(const std::string& path);

}  // namespace stark

#endif  // STARK_CORE_MANIFEST_H
