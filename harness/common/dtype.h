// Element types of kernel buffers and scalars, as far as the harness needs
// them: how to compare two results (dtype-aware tolerances), which data may
// be fuzzed (floating point only), and how to read and write one element.
#ifndef STARK_HARNESS_COMMON_DTYPE_H
#define STARK_HARNESS_COMMON_DTYPE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stark::harness {

/// The scalar kind of one lane of an element.
enum class ScalarKind { F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Bool, Bytes };

/// An element type: `lanes` values of one scalar kind (float4 = 4 x F32).
/// Bytes: an unknown type (a struct); compared bit for bit, never fuzzed.
struct DType {
  ScalarKind kind = ScalarKind::Bytes;
  int lanes = 1;

  bool is_float() const;
  bool is_integer() const;  // signed, unsigned or bool
  int scalar_size() const;  // bytes of one lane; 1 for Bytes
  int size() const { return scalar_size() * lanes; }
  std::string name() const;  // "f32", "f16x2", "i32", "bytes"
  bool operator==(const DType&) const = default;
};

/// Classifies a C++ type as printed by clang ("float", "const __half",
/// "unsigned int", "float4", "std::int64_t", "__nv_bfloat16"...). Unknown
/// types give Bytes. Qualifiers and "struct " are ignored.
DType parse_dtype(std::string_view type);

/// Default comparison tolerances for a kind (see docs/capture-store.md):
/// an element passes when |v - r| <= atol + rtol * max(|r|, rms(reference)).
struct Tolerance {
  double rtol = 0;
  double atol = 0;
  bool operator==(const Tolerance&) const = default;
};
Tolerance default_tolerance(ScalarKind kind);

/// Reads lane `i` of a buffer of `kind` as double (integers exactly up to 2^53).
double load_lane(const void* data, ScalarKind kind, size_t i);
/// Writes lane `i` (rounding to nearest even for F16/BF16).
void store_lane(void* data, ScalarKind kind, size_t i, double value);

float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bf16_to_float(uint16_t b);
uint16_t float_to_bf16(float f);

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMMON_DTYPE_H
