// Legitimate: coalesced float4 accesses, a quarter of the threads per element
// count, and the launch shape to match.
// expect: accepted faster
// launch: grid=ceil_div(n, 1024); block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = t * 4;
  if (i + 3 < n && (reinterpret_cast<unsigned long long>(x) % 16) == 0 && (reinterpret_cast<unsigned long long>(y) % 16) == 0) {
    float4 v = reinterpret_cast<const float4*>(x)[t];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    reinterpret_cast<float4*>(y)[t] = v;
  } else {
    for (int k = i; k < n && k < i + 4; ++k) y[k] = a * x[k];
  }
}
