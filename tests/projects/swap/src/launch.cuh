// Next to ops.cu and included as "launch.cuh": must resolve from the tree too.
#pragma once
inline int blocks_for(int n, int block) { return (n + block - 1) / block; }
