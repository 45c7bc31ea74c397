// What a worker without a GPU does with an evaluate request
// (stark-worker --no-gpu): everything that needs no device. It reads both
// cubins' ELF metadata (the instantiations and their parameter layouts), and
// for every capture checks the arguments against the parameters and computes
// the variant's launch shape. Nothing runs and nothing is timed; the checks
// that need a GPU are listed as not run. It exists so that the path from the
// evaluator through an executor (srun, ssh) to a worker, shipping included,
// does real work and can be tested on machines without a GPU.
#ifndef STARK_HARNESS_WORKER_NO_GPU_CHECK_H
#define STARK_HARNESS_WORKER_NO_GPU_CHECK_H

#include "harness/worker/protocol.h"

namespace stark::harness {

/// Check name for the cubins and captures a worker verified without a GPU.

/// `request` names local files (a localized shipped request, or paths).
EvaluateReply check_without_gpu(const EvaluateRequest& request);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_NO_GPU_CHECK_H
