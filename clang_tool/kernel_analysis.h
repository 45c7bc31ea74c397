// The analysis API the built-in expert plans with (docs/builtin-expert.md).
// Clang parses a kernel's source
// (the original or a candidate) inside its translation unit and this reduces
// the AST to plain facts: how threads index, which guards and loops there
// are, what memory is read and written with which index, which atomics and
// math calls appear. Every fact carries its byte range in the kernel source,
// so strategies can rewrite exactly that text and keep the rest.
#ifndef STARK_CLANG_TOOL_KERNEL_ANALYSIS_H
#define STARK_CLANG_TOOL_KERNEL_ANALYSIS_H

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clang_tool/nvcc_args.h"
#include "core/expected.h"
#include "core/manifest.h"

namespace stark {

/// A piece of the kernel source: its text and [begin, end) in that source.
struct Snippet {
  std::string text;
  int64_t begin = 0;
  int64_t end = 0;
  bool valid() const { return end > begin; }
};

/// `int i = blockIdx.x * blockDim.x + threadIdx.x;` (any operand order), or
/// the same index starting a grid-stride loop
/// `for (size_t i = <index>; i < n; i += blockDim.x * gridDim.x) {...}`:
/// both give each thread the elements i of [0, n) it owns, so strategies
/// that rewrite the per-element work treat them alike.
struct ThreadIndex {
  std::string var;
  std::string type;  // the variable's declared type, qualifiers dropped ("int", "size_t")
  char axis = 'x';
  Snippet statement;         // the whole declaration statement; for a grid-stride loop, the whole loop
  bool grid_stride = false;  // the index starts a grid-stride loop (its Guard is the loop condition)
  Snippet loop_header;       // a grid-stride loop's "for (...)"
  bool loop_jumps = false;   // that loop's body has a continue or break (of its own or of a while/switch)
};

/// `if (i < n) {...}` or `if (i >= n) return;` on a thread index, or the
/// condition of a grid-stride loop (statement: the loop, then_body: its body).
struct Guard {
  std::string var;
  Snippet bound;  // n
  bool early_return = false;
  Snippet statement;  // the whole if statement
  Snippet then_body;  // for if (i < n) { ... }: the braces' contents
};

/// A binary accumulation `acc += e`, `acc *= e`, `acc = fmaxf(acc, e)`, `acc = max(acc, e)`,
/// `acc = e > acc ? e : acc` (and the other ?: spellings of a max or a min),
/// `if (e > acc) acc = e;` (the statement is then the whole if).
/// How a reduction combines: the running sum, product, maximum or minimum.
enum class ReduceOp { Sum, Product, Max, Min };

struct Reduction {
  std::string acc;
  ReduceOp op = ReduceOp::Sum;
  Snippet value;  // e
  Snippet statement;
  std::string acc_type;         // the accumulator's declared type, qualifiers dropped ("float", "T")
  Snippet acc_declaration;      // where the accumulator is declared
  bool starts_at_zero = false;  // its initialiser evaluates to zero (0, 0.0f, T(0), static_cast<float>(0)...)
  bool nan_wins = false;        // a max or min that a NaN e takes over for good (`if (e > acc || isnan(e))`)
  /// An argmax or argmin: the local that records where the extreme was
  /// found (`best_i` in `if (v > best) { best = v; best_i = i; }`), what it
  /// is set to, its type. Ties keep the first place; with nan_wins the
  /// first NaN is kept.
  std::string index_acc;
  Snippet index_value;
  std::string index_type;
};

struct Loop {
  std::string var;  // the variable the header declares, when it declares only that one
  /// The variable the increment steps, where the header declares it (beside others too: `i = ..., end = ...`).
  std::string stepped;
  std::string var_type;    // var's declared type, qualifiers dropped
  std::string compared;    // the variable the condition compares: c in `c < cols`
  Snippet header;          // "for (...)"
  Snippet init_value;      // 0 in `int c = 0`
  Snippet bound;           // cols in `c < cols`
  bool unit_step = false;  // steps up by one (++c, c++, c += 1)
  Snippet step;            // blockDim.x in `c += blockDim.x`
  /// Steps down by one (--c, c--, c -= 1) while `c >= floor` (`c > x` gives
  /// a floor of "(x) + 1").
  bool counts_down = false;
  Snippet floor;
  Snippet init_statement;             // `int c = 0`, `size_t i = row * cols, end = i + cols`: the header's first part
  std::optional<int64_t> trip_count;  // when init and bound are integer literals
  Snippet body;                       // the statement after the header (with braces, if any)
  int depth = 0;                      // 0: not inside another loop
  int parent = -1;                    // index of the enclosing loop
  bool hinted = false;                // a loop pragma (#pragma unroll, nounroll...) already applies to it
  std::vector<Reduction> reductions;
  bool writes_memory = false;
  bool jumps = false;                 // a break, continue, return or goto in its body (or in a loop inside it)
  bool exits = false;                 // the same without continue: a break, return or goto anywhere in its body
  std::vector<std::string> assigned;  // variables its body assigns or steps (x = ..., x += ..., ++x)
  std::vector<std::string> declared;  // variables its body declares
  std::vector<Snippet> declarations;  // the declaration statements directly in its body's braces, in order
  /// Local pointers the loop walks (`p += stride;` once per iteration, at
  /// statement level of its body, nowhere else written in the loop): at
  /// iteration i, p is its value before the loop plus (i - init) strides.
  struct PointerWalk {
    std::string var;
    std::string step;  // "1" for ++p
    Snippet statement;
  };
  std::vector<PointerWalk> pointer_walks;
  /// Welford's running mean and second moment, updated once per iteration
  /// (`d = v - mean; mean += d / n; m2 += d * (v - mean);`, clang_tool/welford.h).
  /// mean and m2 also show as sums in `reductions`, which the mean's reads
  /// keep from being split like plain sums.
  struct Welford {
    std::string mean, m2;
    std::string type;                 // mean's, qualifiers dropped
    Snippet count;                    // n: the loop's `i + 1`, or the counter's use
    std::string counter;              // a local counting the elements, or empty where n is `i + 1`
    std::vector<Snippet> statements;  // the statements that read or write mean, m2 and the counter
  };
  std::optional<Welford> welford;
};

struct AtomicCall {
  std::string function;  // atomicAdd, atomicMax...
  Snippet call;
  Snippet address;               // first argument
  Snippet value;                 // second argument
  std::string base;              // the pointer parameter the address is based on, if any
  Snippet index;                 // e in `&base[e]` or `base + e`; empty for any other address
  bool uniform_address = false;  // the same address for every thread (no thread index, no loaded value in it)
  Snippet statement;
  int loop = -1;  // innermost enclosing loop
};

/// One `p[index]` of a pointer parameter (accesses), or of a local pointer
/// variable such as `const float* in = x + row * cols` (local_accesses).
struct Access {
  std::string base;  // parameter or local variable name
  Snippet index;
  Snippet expr;  // p[index]
  bool write = false;
  int loop = -1;
  bool const_pointee = false;  // declared as a pointer to const
  std::string pointee;         // the element type, qualifiers dropped ("float", "T")
};

/// A call to a math function that has a fast intrinsic (expf -> __expf).
struct MathCall {
  std::string function;
  Snippet name;  // the function name token only
};

/// A variable the kernel body declares at its top level with an initialiser:
/// `size_t i = static_cast<size_t>(r) * cols + c;`.
struct LocalDeclaration {
  std::string name;
  std::string type;  // qualifiers dropped
  Snippet init;
};

struct KernelAnalysis {
  std::string name;
  std::vector<Param> params;
  std::vector<Snippet> param_names;  // each parameter's name, in params' order (invalid where unnamed)
  Snippet declaration;               // from the first token to just before the body
  Snippet body;                      // "{ ... }"
  Snippet global_attr;               // the "__global__" token
  std::vector<ThreadIndex> indices;  // a grid-stride loop's own loop is not in `loops`
  std::vector<Guard> guards;
  std::vector<Loop> loops;
  std::vector<AtomicCall> atomics;
  std::vector<Access> accesses;
  std::vector<Access> local_accesses;
  /// Stores into memory not written as `p[i]` of a named pointer (`*p = v`,
  /// `p->f = v`, `r = v` through a reference, `(p + k)[i] = v`): the targets,
  /// in source order. The accesses do not show these.
  std::vector<Snippet> indirect_writes;
  std::vector<MathCall> math;
  std::vector<Snippet> top_statements;               // the body's statements, in order
  std::vector<std::string> locals;                   // names declared at the body's top level
  std::vector<LocalDeclaration> local_declarations;  // those with an initialiser, in order
  /// Variables the body assigns or steps after their declaration (x = ...,
  /// x += ..., ++x; `s.f = ...` assigns s): parameters and locals alike.
  std::vector<std::string> assigned;
  std::vector<Snippet> kernel_returns;  // the kernel's own return statements (a lambda's not), without the `;`
  bool uses_shared_memory = false;
  bool uses_sync = false;      // __syncthreads and friends
  bool returns = false;        // a return statement anywhere in the body (a lambda's too)
  bool uses_warp_ops = false;  // __shfl*, __ballot*...
  bool has_launch_bounds = false;
  int64_t launch_bounds_threads = 0;  // __launch_bounds__'s maximum threads per block, when a constant
  bool is_template = false;

  const Param* param(std::string_view name) const;
  const ThreadIndex* index(char axis) const;
};

/// Analyses `source` as the text of kernel's range (the original, or a
/// candidate in its place), parsed within the kernel's translation unit.
Expected<KernelAnalysis> analyze_kernel(const Kernel& kernel, const std::string& source, const ClangSetup& setup,
                                        const std::filesystem::path& source_root);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_KERNEL_ANALYSIS_H
