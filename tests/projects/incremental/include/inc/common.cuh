// Shared by both units of the incremental test project.
#pragma once

#define TILE 128

struct Pair {
  float a;
  float b;
};

__device__ inline float twice(float x) { return 2.0f * x; }

__device__ inline float square(float x) { return x * x; }

__device__ inline float unused_helper(float x) { return x + 1.0f; }

template <typename T>
__device__ T scaled(T x, T by) {
  return x * by;
}
