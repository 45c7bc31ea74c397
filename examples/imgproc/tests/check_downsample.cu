// downsample2x against a CPU reference, on an odd-sized image with padded rows.
#include "check.cuh"

int main() {
  const imgproc::Shape shape{3841, 2161, 3841 + 31};
  std::vector<float> in = random_values<float>(static_cast<size_t>(shape.pitch) * shape.height, 3u);
  const int out_width = shape.width / 2, out_height = shape.height / 2;
  const size_t out_count = static_cast<size_t>(out_width) * out_height;
  DeviceBuffer<float> d_in(in), d_out(out_count);
  CHECK_CUDA(imgproc::downsample2x(d_in.get(), shape, d_out.get()));
  std::vector<float> want(out_count);
  for (int y = 0; y < out_height; ++y)
    for (int x = 0; x < out_width; ++x) {
      const float* top = &in[static_cast<size_t>(2 * y) * shape.pitch];
      const float* bottom = top + shape.pitch;
      want[static_cast<size_t>(y) * out_width + x] =
          0.25f * (top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1]);
    }
  const bool ok = close("downsample2x 3841x2161", d_out.to_host(), want, 1e-6, 1e-7, [](size_t) { return true; });
  std::puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
