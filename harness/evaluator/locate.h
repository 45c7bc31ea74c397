// Where the harness's own programs are: the GPU worker and the capture
// library, looked up next to the running executable (installed layout and
// build tree), or named by STARK_WORKER / STARK_CAPTURE_LIBRARY.
#ifndef STARK_HARNESS_EVALUATOR_LOCATE_H
#define STARK_HARNESS_EVALUATOR_LOCATE_H

#include <filesystem>

#include "core/expected.h"

namespace stark::harness {

Expected<std::filesystem::path> find_worker();
Expected<std::filesystem::path> find_capture_library();

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_LOCATE_H
