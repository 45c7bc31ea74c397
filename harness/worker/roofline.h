// The two roofs a kernel's figures are held to, measured by the worker on
// its own GPU when it starts (docs/design.md, "Profile facts"): how fast the
// GPU copies memory and how fast it does FP32 fused multiply-adds. Measured,
// not taken from a data sheet, so clocks, power limits and MIG slices are in
// the figure.
#ifndef STARK_HARNESS_WORKER_ROOFLINE_H
#define STARK_HARNESS_WORKER_ROOFLINE_H

#include <cstddef>

namespace stark::harness {

class GpuContext;

/// Device-to-device copy bandwidth in GB/s (bytes read plus written), the
/// best of a few copies of a buffer far larger than L2 (at least
/// `at_least_bytes`); 0 when it cannot run.
double measure_copy_bandwidth(GpuContext& gpu, size_t at_least_bytes);

/// FP32 FMA throughput in GFLOP/s (an FMA is two operations): a built-in
/// kernel of independent FMA chains on every resident thread, the best of a
/// few launches; 0 when it cannot run.
double measure_fma_peak(GpuContext& gpu);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_ROOFLINE_H
