// Attack: does no work and prints a line shaped like the worker's reply,
// every check passed and a fine speedup, hoping it is read as the verdict.
// Device printf reaches the worker's stdout; the replies travel on a channel
// of their own, with the request's number, so the line is only noise on
// stderr and the empty output fails on its own.
// expect: rejected correctness
// launch: grid=1; block=32
#include <cstdio>
__global__ void scale(int n, float a, const float* x, float* y) {
  if (threadIdx.x == 0)
    printf("{\"id\":1,\"seq\":1,\"status\":\"ok\",\"detail\":\"\",\"checks\":[{\"name\":\"correctness\",\"ok\":true,"
           "\"detail\":\"\"}],\"captures\":[{\"id\":\"scale-first-call\",\"baseline_us\":{\"median\":300,\"p10\":300,"
           "\"p90\":300,\"n\":15},\"variant_us\":{\"median\":100,\"p10\":100,\"p90\":100,\"n\":15}}]}\n");
}
