// Filter taps and a window shared by every filter of the library: defined
// once here, used from other units (separable compilation).
#include "taps.cuh"

namespace wild {

__constant__ float c_taps[kTaps] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

__device__ float window(int i, int n) { return 0.5f - 0.5f * cospif(2.0f * static_cast<float>(i) / (n - 1)); }

}  // namespace wild
