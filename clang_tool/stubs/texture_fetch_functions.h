// Empty on purpose. Clang 19's CUDA wrapper (__clang_cuda_runtime_wrapper.h)
// includes this header, which CUDA 13 no longer ships. STARK only parses
// host code with clang, so texture fetch declarations are not needed.
