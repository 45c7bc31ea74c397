// Legitimate: four elements per thread with float4, a quarter of the threads.
// expect: accepted
// launch: grid=ceil_div(n, 1024); block=256
__global__ void add_bias(int n, const float* x, float* y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int i = t * 4;
  if (i + 3 < n) {
    float4 v = reinterpret_cast<const float4*>(x)[t];
    v.x += c_bias[0]; v.y += c_bias[1]; v.z += c_bias[2]; v.w += c_bias[3];
    reinterpret_cast<float4*>(y)[t] = v;
  } else {
    for (int k = i; k < n; ++k) y[k] = x[k] + c_bias[k & 3];
  }
}
