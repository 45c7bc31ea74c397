#include <edge/scale.cuh>

void scale_float(int n, const float* x, float* y) {
  edge::scale_default<float>(n, 2.0f, x, y, 0);
  edge::detail::scale<float, 4><<<dim3((n + 511) / 512), dim3(512)>>>(n, 3.0f, x, y);
}
