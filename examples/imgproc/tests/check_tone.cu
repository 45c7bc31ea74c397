// tone_map against the same curve on the CPU, over 8 million pixels.
#include "check.cuh"

namespace {

float to_linear(float v) { return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f); }
float to_srgb(float v) {
  v = std::fmin(std::fmax(v, 0.0f), 1.0f);
  return v <= 0.0031308f ? 12.92f * v : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
}

}  // namespace

int main() {
  const size_t count = size_t{1} << 23;
  const float exposure = 1.6f;
  std::vector<float> in = random_values<float>(count, 5u);
  DeviceBuffer<float> d_in(in), d_out(count);
  CHECK_CUDA(imgproc::tone_map(d_in.get(), d_out.get(), count, exposure));
  std::vector<float> want(count);
  for (size_t i = 0; i < count; ++i) want[i] = to_srgb(exposure * to_linear(in[i]));
  const bool ok = close("tone_map 8M pixels", d_out.to_host(), want, 1e-5, 1e-6, [](size_t) { return true; });
  std::puts(ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
