// convolve_rows against a CPU reference: both element types, both edge
// rules, a narrow and a wide image (the two block widths), padded rows.
#include "check.cuh"

namespace {

template <typename T>
bool check(int width, int height, bool clamp, const std::vector<float>& taps, int radius) {
  const imgproc::Shape shape{width, height, width + 64};
  const size_t count = static_cast<size_t>(shape.pitch) * height;
  std::vector<T> in = random_values<T>(count, 7u + width);
  DeviceBuffer<T> d_in(in), d_out(count);
  CHECK_CUDA(cudaMemset(d_out.get(), 0, count * sizeof(T)));
  CHECK_CUDA(imgproc::convolve_rows(d_in.get(), d_out.get(), shape, radius, clamp));
  std::vector<T> got = d_out.to_host(), want(count, T(0));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double acc = 0.0;
      for (int t = -radius; t <= radius; ++t) {
        int source = x + t;
        if (clamp) source = source < 0 ? 0 : source >= width ? width - 1 : source;
        else if (source < 0 || source >= width) continue;
        acc += static_cast<double>(static_cast<T>(taps[t + radius])) * in[static_cast<size_t>(y) * shape.pitch + source];
      }
      want[static_cast<size_t>(y) * shape.pitch + x] = static_cast<T>(acc);
    }
  char what[96];
  std::snprintf(what, sizeof what, "convolve_rows<%s> %dx%d %s", sizeof(T) == 4 ? "float" : "double", width, height,
                clamp ? "clamped" : "zero edges");
  const double rtol = sizeof(T) == 4 ? 1e-5 : 1e-12;
  return close(what, got, want, rtol, rtol, [&](size_t i) { return static_cast<int>(i % shape.pitch) < width; });
}

}  // namespace

int main() {
  const int radius = 7;
  std::vector<float> taps(2 * radius + 1);
  float total = 0.0f;
  for (int t = -radius; t <= radius; ++t) total += taps[t + radius] = std::exp(-0.5f * t * t / 9.0f);
  for (auto& t : taps) t /= total;
  CHECK_CUDA(imgproc::set_taps(taps.data(), radius));
  bool ok = true;
  for (int width : {1920, 4096})
    for (bool clamp : {false, true}) {
      ok = check<float>(width, 1080, clamp, taps, radius) && ok;
      ok = check<double>(width, 1080, clamp, taps, radius) && ok;
    }
  std::puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
