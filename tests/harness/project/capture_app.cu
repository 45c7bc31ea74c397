// A CUDA program launching the test project's kernels in every way the
// capture library must handle: chevron and API launches, several shapes,
// a second launch on the same buffers, template instantiations, __constant__
// data, managed memory, a non-default stream, and the cases it must refuse
// (host-mapped memory, a launch captured into a graph, a pointer inside a
// struct), and a device reset with launches after it. Run by
// tests/harness/capture_test.cpp under stark capture.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels.h"

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e = (x);                                                                  \
    if (e != cudaSuccess) {                                                               \
      std::fprintf(stderr, "capture_app: %s: %s\n", #x, cudaGetErrorString(e));          \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

static float* device_random(int n, unsigned seed) {
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>((seed * 2654435761u + i * 40503u) % 2000) / 1000.0f - 1.0f;
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

int main() {
  const int n = 1 << 20;
  float* x = device_random(n, 1);
  float* y = device_random(n, 2);
  float a = 2.5f;

  // scale: the same shape twice on the same buffers (one capture), then another shape.
  scale<<<(n + 2047) / 2048, 256>>>(n, a, x, y);
  scale<<<(n + 2047) / 2048, 256>>>(n, a, x, y);
  const int m = 1 << 18;
  scale<<<(m + 2047) / 2048, 256>>>(m, 1.5f, x, y);

  // saxpy through the runtime API rather than <<<>>>.
  void* args[] = {(void*)&n, (void*)&a, (void*)&x, (void*)&y};
  CHECK(cudaLaunchKernel((const void*)saxpy, dim3((n + 255) / 256), dim3(256), args, 0, 0));

  // add_bias reads __constant__ data set by the host.
  const float bias[4] = {0.5f, -1.0f, 2.0f, 0.25f};
  set_bias(bias);
  add_bias<<<(n + 255) / 256, 256>>>(n, x, y);

  // Template instantiations, on a stream of their own.
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  launch_negate(n, x, y, dim3((n + 255) / 256), dim3(256), stream);
  double *dx = nullptr, *dy = nullptr;
  CHECK(cudaMalloc(&dx, 4096 * sizeof(double)));
  CHECK(cudaMalloc(&dy, 4096 * sizeof(double)));
  CHECK(cudaMemsetAsync(dx, 0x3f, 4096 * sizeof(double), stream));
  launch_negate(4096, dx, dy, dim3(16), dim3(256), stream);
  CHECK(cudaStreamSynchronize(stream));

  // Managed memory is recorded (as "managed").
  float *mx = nullptr, *my = nullptr;
  CHECK(cudaMallocManaged(&mx, 8192 * sizeof(float)));
  CHECK(cudaMallocManaged(&my, 8192 * sizeof(float)));
  for (int i = 0; i < 8192; ++i) mx[i] = static_cast<float>(i % 17);
  launch_negate(8192, mx, my, dim3(32), dim3(256), 0);
  CHECK(cudaDeviceSynchronize());

  // block_sum and matmul, plainly.
  float* partial = nullptr;
  CHECK(cudaMalloc(&partial, (n / 256) * sizeof(float)));
  block_sum<<<n / 256, 256>>>(n, x, partial);
  const int mm = 128;
  float* A = device_random(mm * mm, 3);
  float* B = device_random(mm * mm, 4);
  float* C = device_random(mm * mm, 5);
  matmul<<<dim3(mm / 16, mm / 16), dim3(16, 16)>>>(mm, A, B, C);

  // Refused: host memory mapped for the GPU.
  float* host = nullptr;
  CHECK(cudaHostAlloc(&host, 1234 * sizeof(float), cudaHostAllocMapped));
  float* host_dev = nullptr;
  CHECK(cudaHostGetDevicePointer(&host_dev, host, 0));
  saxpy<<<5, 256>>>(1234, a, x, host_dev);

  // Refused: a launch captured into a graph (the graph's launch is noted).
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  block_sum<<<m / 256, 256, 0, stream>>>(m, x, partial);
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));

  // Refused: a device pointer inside a struct argument.
  fill_span<<<(n + 255) / 256, 256>>>(Span{y, n}, 1.0f);

  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // The program resets its device while the library's writers may still be
  // storing snapshots copied into page-locked memory; recording goes on in
  // the new context (scale's third shape, into recycled snapshot memory).
  CHECK(cudaDeviceReset());
  float* x2 = device_random(n, 6);
  float* y2 = device_random(n, 7);
  const int r = 1 << 19;
  scale<<<(r + 2047) / 2048, 256>>>(r, 0.5f, x2, y2);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("capture_app: ok\n");
  return 0;
}
