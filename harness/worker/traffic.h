// The memory traffic a launch cannot avoid, measured on its capture: what a
// kernel's time is held against to say how close it runs to the memory roof.
#ifndef STARK_HARNESS_WORKER_TRAFFIC_H
#define STARK_HARNESS_WORKER_TRAFFIC_H

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "harness/store/capture.h"

namespace stark::harness {

/// Bytes the launch must move through DRAM at least once: each buffer whose
/// contents it reads (all but `unread`, found by poisoning), from the lowest
/// pointer argument into it to its end, plus, for each buffer it changes,
/// the span from the first to the last byte that differs between `before`
/// and `after`. An estimate: a kernel that reads only part of a buffer is
/// charged the rest too, and bytes written with their old value are not
/// counted.
uint64_t compulsory_bytes(const Capture& capture, const std::set<int>& unread, const std::vector<std::string>& before,
                          const std::vector<std::string>& after);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_TRAFFIC_H
