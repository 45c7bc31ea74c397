// image_moments against a CPU reference on a 4K image with padded rows.
#include "check.cuh"

int main() {
  const imgproc::Shape shape{3840, 2160, 3840 + 128};
  const size_t count = static_cast<size_t>(shape.pitch) * shape.height;
  std::vector<float> in = random_values<float>(count, 11u, -1.0, 3.0);
  DeviceBuffer<float> d_in(in);
  imgproc::Moments got{};
  CHECK_CUDA(imgproc::image_moments(d_in.get(), shape, &got));
  double s = 0.0, q = 0.0;
  for (int y = 0; y < shape.height; ++y)
    for (int x = 0; x < shape.width; ++x) {
      const double v = in[static_cast<size_t>(y) * shape.pitch + x];
      s += v;
      q += v * v;
    }
  const double n = static_cast<double>(shape.width) * shape.height;
  const std::vector<double> want = {s / n, q / n - (s / n) * (s / n)}, have = {got.mean, got.variance};
  const bool ok = close("image_moments 3840x2160", have, want, 1e-9, 1e-12, [](size_t) { return true; });
  std::puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
