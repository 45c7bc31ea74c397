// Included first by every parse STARK makes (the scan, the variant check, the
// kernel analysis), never by a build: it gives clang what nvcc's headers give
// host code and clang's CUDA headers do not, so code nvcc compiles parses.
//
// nvcc's math headers declare min and max for integers and floating point,
// and umin/umax, llmin/llmax, ullmin/ullmax, as __host__ __device__
// functions; clang's declare them __device__ only, so a host function
// calling max(a, b) on floats or umin(a, b) is an error under clang and fine
// under nvcc. Clang overloads on __host__/__device__, so host-only
// overloads here leave device code on clang's own.
#ifndef STARK_NVCC_COMPAT_H
#define STARK_NVCC_COMPAT_H

#if defined(__clang__) && defined(__CUDA__) && !defined(__CUDA_ARCH__)

#define STARK_COMPAT_MINMAX(A, B, R)                                                               \
  static inline __host__ R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? a : b; } \
  static inline __host__ R max(A a, B b) { return static_cast<R>(a) > static_cast<R>(b) ? a : b; }

STARK_COMPAT_MINMAX(int, int, int)
STARK_COMPAT_MINMAX(unsigned int, unsigned int, unsigned int)
STARK_COMPAT_MINMAX(int, unsigned int, unsigned int)
STARK_COMPAT_MINMAX(unsigned int, int, unsigned int)
STARK_COMPAT_MINMAX(long, long, long)
STARK_COMPAT_MINMAX(unsigned long, unsigned long, unsigned long)
STARK_COMPAT_MINMAX(long, unsigned long, unsigned long)
STARK_COMPAT_MINMAX(unsigned long, long, unsigned long)
STARK_COMPAT_MINMAX(long long, long long, long long)
STARK_COMPAT_MINMAX(unsigned long long, unsigned long long, unsigned long long)
STARK_COMPAT_MINMAX(long long, unsigned long long, unsigned long long)
STARK_COMPAT_MINMAX(unsigned long long, long long, unsigned long long)
STARK_COMPAT_MINMAX(float, float, float)
STARK_COMPAT_MINMAX(double, double, double)
STARK_COMPAT_MINMAX(float, double, double)
STARK_COMPAT_MINMAX(double, float, double)

#undef STARK_COMPAT_MINMAX

// The named integer forms, host and device under nvcc, device only under clang.
#define STARK_COMPAT_NAMED(T, LO, HI)                             \
  static inline __host__ T LO(T a, T b) { return a < b ? a : b; } \
  static inline __host__ T HI(T a, T b) { return a > b ? a : b; }

STARK_COMPAT_NAMED(unsigned int, umin, umax)
STARK_COMPAT_NAMED(long long, llmin, llmax)
STARK_COMPAT_NAMED(unsigned long long, ullmin, ullmax)

#undef STARK_COMPAT_NAMED

#endif

#endif  // STARK_NVCC_COMPAT_H
