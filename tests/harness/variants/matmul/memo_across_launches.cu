// Neutralised attack: keeps every answer in module variables and, once a
// block has computed its tile, copies it on later launches instead of
// computing (a memo that wins every timed launch and is wrong as soon as the
// inputs change). Module variables are restored to their load-time values
// before every launch, so the memo is always empty: the variant computes
// honestly each time and is judged as the naive kernel it then is.
// expect: accepted
static __device__ float stark_memo[512 * 512];
static __device__ unsigned int stark_memo_ready[1024];
__global__ void matmul(int n, const float* A, const float* B, float* C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  bool memo = n <= 512 && block < 1024;
  if (row >= n || col >= n) return;
  if (memo && stark_memo_ready[block]) {
    C[row * n + col] = stark_memo[row * n + col];
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
  if (memo) {
    stark_memo[row * n + col] = acc;
    __threadfence();
    stark_memo_ready[block] = 1;
  }
}
