// Page-locked host memory for snapshots. Device-to-host copies into pageable
// memory are staged by the driver (about 2 GB/s on the H200 machine); into
// page-locked memory they run at the bus's speed.
//
// The pages are the library's own (page-aligned heap memory) registered with
// the driver as portable, not cuMemAllocHost memory: a program may destroy its
// context (cudaDeviceReset) while a background writer still reads a snapshot,
// and memory the context allocated would be unmapped under it. Registered
// pages only stop being page-locked; the pool may hand them out again as
// ordinary memory.
#ifndef STARK_HARNESS_CAPTURE_PINNED_MEMORY_H
#define STARK_HARNESS_CAPTURE_PINNED_MEMORY_H

#include <cstdint>

#include "harness/capture/host_buffers.h"

namespace stark::harness {

/// An allocator for HostBufferPool: buffers registered with the driver, at
/// most `max_bytes` of them in all; past that, or when there is no driver or
/// it refuses, an empty HostCopy (the pool falls back to the heap). Call it
/// where a CUDA context is current (a launch callback).
HostBufferPool::Allocator pinned_allocator(uint64_t max_bytes);

/// How much page-locked memory one process of a capture may hold: at most
/// 4 GiB and a sixteenth of the machine's memory, since `ctest -j` runs
/// several processes under capture at once.
uint64_t pinned_budget(uint64_t machine_memory);

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_PINNED_MEMORY_H
