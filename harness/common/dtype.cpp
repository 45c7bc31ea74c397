#include "harness/common/dtype.h"

#include <optional>
#include <cstdint>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

namespace stark::harness {

namespace {

std::string normalise(std::string_view type) {
  std::string s(type);
  for (const char* drop : {"const ", "volatile ", "struct ", "std::", "::", " const", " volatile", "__restrict__",
                           "__restrict", "class "}) {
    for (size_t p; (p = s.find(drop)) != std::string::npos;) s.erase(p, std::strlen(drop));
  }
  std::string out;
  for (char c : s) {
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

struct Named {
  const char* name;
  ScalarKind kind;
  int lanes;
};

constexpr Named kTypes[] = {
    {"float", ScalarKind::F32, 1},
    {"double", ScalarKind::F64, 1},
    {"__half", ScalarKind::F16, 1},
    {"half", ScalarKind::F16, 1},
    {"__nv_half", ScalarKind::F16, 1},
    {"__half2", ScalarKind::F16, 2},
    {"half2", ScalarKind::F16, 2},
    {"__nv_bfloat16", ScalarKind::BF16, 1},
    {"nv_bfloat16", ScalarKind::BF16, 1},
    {"__bfloat16", ScalarKind::BF16, 1},
    {"__nv_bfloat162", ScalarKind::BF16, 2},
    {"nv_bfloat162", ScalarKind::BF16, 2},
    {"bool", ScalarKind::Bool, 1},
    {"char", ScalarKind::I8, 1},
    {"signed char", ScalarKind::I8, 1},
    {"unsigned char", ScalarKind::U8, 1},
    {"int8_t", ScalarKind::I8, 1},
    {"uint8_t", ScalarKind::U8, 1},
    {"short", ScalarKind::I16, 1},
    {"short int", ScalarKind::I16, 1},
    {"signed short", ScalarKind::I16, 1},
    {"unsigned short", ScalarKind::U16, 1},
    {"unsigned short int", ScalarKind::U16, 1},
    {"int16_t", ScalarKind::I16, 1},
    {"uint16_t", ScalarKind::U16, 1},
    {"int", ScalarKind::I32, 1},
    {"signed", ScalarKind::I32, 1},
    {"signed int", ScalarKind::I32, 1},
    {"unsigned", ScalarKind::U32, 1},
    {"unsigned int", ScalarKind::U32, 1},
    {"int32_t", ScalarKind::I32, 1},
    {"uint32_t", ScalarKind::U32, 1},
    {"long", ScalarKind::I64, 1},
    {"long int", ScalarKind::I64, 1},
    {"unsigned long", ScalarKind::U64, 1},
    {"unsigned long int", ScalarKind::U64, 1},
    {"long long", ScalarKind::I64, 1},
    {"long long int", ScalarKind::I64, 1},
    {"unsigned long long", ScalarKind::U64, 1},
    {"unsigned long long int", ScalarKind::U64, 1},
    {"int64_t", ScalarKind::I64, 1},
    {"uint64_t", ScalarKind::U64, 1},
    {"size_t", ScalarKind::U64, 1},
    {"ptrdiff_t", ScalarKind::I64, 1},
    {"cuComplex", ScalarKind::F32, 2},
    {"cuFloatComplex", ScalarKind::F32, 2},
    {"cuDoubleComplex", ScalarKind::F64, 2},
};

// CUDA vector types: float2, int4, uchar4, double2, longlong2...
std::optional<DType> vector_type(const std::string& s) {
  static const std::pair<const char*, ScalarKind> bases[] = {
      {"float", ScalarKind::F32}, {"double", ScalarKind::F64},   {"int", ScalarKind::I32},
      {"uint", ScalarKind::U32},  {"char", ScalarKind::I8},      {"uchar", ScalarKind::U8},
      {"short", ScalarKind::I16}, {"ushort", ScalarKind::U16},   {"long", ScalarKind::I64},
      {"ulong", ScalarKind::U64}, {"longlong", ScalarKind::I64}, {"ulonglong", ScalarKind::U64}};
  if (s.size() < 2) return std::nullopt;
  char last = s.back();
  if (last < '1' || last > '4') return std::nullopt;
  std::string base = s.substr(0, s.size() - 1);
  for (const auto& [name, kind] : bases)
    if (base == name) return DType{kind, last - '0'};
  return std::nullopt;
}

}  // namespace

bool DType::is_float() const {
  return kind == ScalarKind::F16 || kind == ScalarKind::BF16 || kind == ScalarKind::F32 || kind == ScalarKind::F64;
}

bool DType::is_integer() const { return !is_float() && kind != ScalarKind::Bytes; }

int DType::scalar_size() const {
  switch (kind) {
    case ScalarKind::F16:
    case ScalarKind::BF16:
    case ScalarKind::I16:
    case ScalarKind::U16: return 2;
    case ScalarKind::F32:
    case ScalarKind::I32:
    case ScalarKind::U32: return 4;
    case ScalarKind::F64:
    case ScalarKind::I64:
    case ScalarKind::U64: return 8;
    case ScalarKind::I8:
    case ScalarKind::U8:
    case ScalarKind::Bool:
    case ScalarKind::Bytes: return 1;
  }
  return 1;
}

std::string DType::name() const {
  static const char* names[] = {"f16", "bf16", "f32", "f64", "i8",  "i16",  "i32",
                                "i64", "u8",   "u16", "u32", "u64", "bool", "bytes"};
  std::string n = names[static_cast<int>(kind)];
  if (lanes > 1) n += "x" + std::to_string(lanes);
  return n;
}

DType parse_dtype(std::string_view type) {
  std::string s = normalise(type);
  for (const auto& t : kTypes)
    if (s == t.name) return DType{t.kind, t.lanes};
  if (auto v = vector_type(s)) return *v;
  return DType{};
}

Tolerance default_tolerance(ScalarKind kind) {
  switch (kind) {
    case ScalarKind::F64: return {1e-9, 1e-12};
    case ScalarKind::F32: return {1e-4, 1e-6};
    case ScalarKind::F16: return {1e-2, 1e-3};
    case ScalarKind::BF16: return {2e-2, 1e-2};
    default: return {0, 0};
  }
}

float half_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        man <<= 1;
      } while (!(man & 0x400));
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (man & 0x3ff) << 13;
    }
  } else if (exp == 0x1f) {
    bits = sign | 0x7f800000u | man << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | man << 13;
  }
  return std::bit_cast<float>(bits);
}

uint16_t float_to_half(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t man = x & 0x7fffff;
  if (exp == 0xff) return sign | 0x7c00 | (man ? 0x200 : 0);  // inf / nan
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;  // overflow to inf
  if (e <= 0) {                         // subnormal or zero
    if (e < -10) return sign;
    man |= 0x800000;
    int shift = 14 - e;
    uint32_t half_man = man >> shift;
    uint32_t rest = man & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half_man & 1))) ++half_man;
    return sign | static_cast<uint16_t>(half_man);
  }
  uint32_t half = static_cast<uint32_t>(e) << 10 | man >> 13;
  uint32_t rest = man & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent: still right
  return sign | static_cast<uint16_t>(half);
}

float bf16_to_float(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

uint16_t float_to_bf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7f800000) == 0x7f800000 && (x & 0x7fffff)) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet nan
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

double load_lane(const void* data, ScalarKind kind, size_t i) {
  auto p = static_cast<const unsigned char*>(data);
  auto get = [&](auto t) {
    decltype(t) v;
    std::memcpy(&v, p + i * sizeof v, sizeof v);
    return v;
  };
  switch (kind) {
    case ScalarKind::F16: return half_to_float(get(uint16_t{}));
    case ScalarKind::BF16: return bf16_to_float(get(uint16_t{}));
    case ScalarKind::F32: return get(float{});
    case ScalarKind::F64: return get(double{});
    case ScalarKind::I8: return get(int8_t{});
    case ScalarKind::I16: return get(int16_t{});
    case ScalarKind::I32: return get(int32_t{});
    case ScalarKind::I64: return static_cast<double>(get(int64_t{}));
    case ScalarKind::U8:
    case ScalarKind::Bool:
    case ScalarKind::Bytes: return get(uint8_t{});
    case ScalarKind::U16: return get(uint16_t{});
    case ScalarKind::U32: return get(uint32_t{});
    case ScalarKind::U64: return static_cast<double>(get(uint64_t{}));
  }
  return 0;
}

void store_lane(void* data, ScalarKind kind, size_t i, double value) {
  auto p = static_cast<unsigned char*>(data);
  auto put = [&](auto v) { std::memcpy(p + i * sizeof v, &v, sizeof v); };
  switch (kind) {
    case ScalarKind::F16: put(float_to_half(static_cast<float>(value))); break;
    case ScalarKind::BF16: put(float_to_bf16(static_cast<float>(value))); break;
    case ScalarKind::F32: put(static_cast<float>(value)); break;
    case ScalarKind::F64: put(value); break;
    case ScalarKind::I8: put(static_cast<int8_t>(value)); break;
    case ScalarKind::I16: put(static_cast<int16_t>(value)); break;
    case ScalarKind::I32: put(static_cast<int32_t>(value)); break;
    case ScalarKind::I64: put(static_cast<int64_t>(value)); break;
    case ScalarKind::U8:
    case ScalarKind::Bool:
    case ScalarKind::Bytes: put(static_cast<uint8_t>(value)); break;
    case ScalarKind::U16: put(static_cast<uint16_t>(value)); break;
    case ScalarKind::U32: put(static_cast<uint32_t>(value)); break;
    case ScalarKind::U64: put(static_cast<uint64_t>(value)); break;
  }
}

}  // namespace stark::harness
