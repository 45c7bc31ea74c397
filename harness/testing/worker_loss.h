// Test support: taking a GPU worker away in the middle of a request, the way
// a failing node or the OOM killer does, for the tests of lost workers.
#ifndef STARK_HARNESS_TESTING_WORKER_LOSS_H
#define STARK_HARNESS_TESTING_WORKER_LOSS_H

#include <cstdint>

namespace stark::harness::testing {

/// Stops the process now, so the request about to be written to it stays
/// unanswered, and kills it 300 ms later (under srun, srun then ends the
/// step). Killing it at once would race: a worker found dead before the
/// request is written is restarted and the request is never lost.
void lose_mid_flight(int64_t pid);

}  // namespace stark::harness::testing

#endif  // STARK_HARNESS_TESTING_WORKER_LOSS_H
