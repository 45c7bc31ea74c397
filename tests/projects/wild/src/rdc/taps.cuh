#pragma once

namespace wild {

constexpr int kTaps = 5;
extern __constant__ float c_taps[kTaps];
__device__ float window(int i, int n);

}  // namespace wild
