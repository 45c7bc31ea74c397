// stark/stark.h: marks CUDA kernels for STARK (https://github.com/stark-cuda/stark).
//
//   #include <stark/stark.h>
//   STARK_OPTIMIZE("budget=20", "rtol=1e-4") __global__ void saxpy(...) { ... }
//
// Only clang (what `stark scan` parses with) sees the mark: there the macro
// expands to [[clang::annotate("stark::optimize", ...)]]; for every other
// compiler it expands to nothing. GCC warns "scoped attribute directive
// ignored" for clang::annotate when nvcc hands it device code (-rdc=true,
// -dc), which breaks -Werror builds, so the macro is never shown to it.
// No compiler flag is needed with any host compiler or nvcc mode.
// The raw spelling [[stark::optimize("key=value", ...)]] works too, but nvcc
// warns about it (warning 2803) unless that warning is silenced.
//
// Keys: budget (int), rtol, atol (float), skip (true/false), seed (int), and,
// for kernels no test launches: args ("n=1048576, a=2.5"), buffers
// ("x[n], y[n]"), grid, block, shmem (launch expressions).
#ifndef STARK_STARK_H
#define STARK_STARK_H

// The leading "" concatenates with the first option (or stands alone when
// there is none), so STARK_OPTIMIZE() needs no __VA_OPT__ and works in C++11.
#if defined(__clang__)
#define STARK_OPTIMIZE(...) [[clang::annotate("stark::optimize", "" __VA_ARGS__)]]
#else
#define STARK_OPTIMIZE(...)
#endif

#endif  // STARK_STARK_H
