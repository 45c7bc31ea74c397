# stark_optimize_target(<target> [BACKEND b] [MODEL m] [BUDGET n] [MODE variants|patch]
#                       [TEST_ARGS <ctest args>...] [TEST_COMMAND <cmd>...] [OUTPUT_DIR dir])
#
# Adds <target>_stark_optimize (and the umbrella stark_optimize) that runs STARK
# over the [[stark::optimize]] kernels of <target>.
#
# STARK_SILENCE_ATTRIBUTE_WARNING (default ON): adds nvcc's -diag-suppress=2803
# to <target>, because nvcc warns "attribute namespace "stark" is unrecognized"
# for the raw [[stark::optimize]] spelling. It hides that warning for every
# unknown attribute namespace, not only ours; the STARK_OPTIMIZE(...) macro
# needs no silencing, so turn this OFF if you use only the macro.
include_guard(GLOBAL)

option(STARK_SILENCE_ATTRIBUTE_WARNING
  "Silence nvcc warning 2803 (unknown attribute namespace) on optimized targets" ON)

# The File API query is written at configure time so that `stark scan` finds a
# codemodel reply for this build tree without re-running CMake.
function(_stark_write_file_api_query)
  set(query_dir "${CMAKE_BINARY_DIR}/.cmake/api/v1/query/client-stark")
  if(NOT EXISTS "${query_dir}/codemodel-v2")
    file(MAKE_DIRECTORY "${query_dir}")
    file(TOUCH "${query_dir}/codemodel-v2")
  endif()
endfunction()

function(stark_optimize_target target)
  cmake_parse_arguments(S "" "BACKEND;MODEL;BUDGET;MODE;OUTPUT_DIR" "TEST_ARGS;TEST_COMMAND" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "stark_optimize_target: no target named '${target}'")
  endif()
  if(S_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stark_optimize_target(${target}): unknown arguments: ${S_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT S_OUTPUT_DIR)
    set(S_OUTPUT_DIR "${CMAKE_BINARY_DIR}/stark/${target}")
  endif()
  _stark_write_file_api_query()
  target_link_libraries(${target} PUBLIC STARK::headers)
  if(STARK_SILENCE_ATTRIBUTE_WARNING)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-diag-suppress=2803>)
  endif()

  add_custom_target(${target}_stark_optimize
    COMMAND "$<TARGET_FILE:STARK::stark>" scan -p "${CMAKE_BINARY_DIR}" --target ${target}
            -o "${S_OUTPUT_DIR}/manifest.json"
    WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
    COMMENT "STARK: optimizing the kernels of ${target}"
    USES_TERMINAL VERBATIM)
  add_dependencies(${target}_stark_optimize ${target})
  if(NOT TARGET stark_optimize)
    add_custom_target(stark_optimize)
  endif()
  add_dependencies(stark_optimize ${target}_stark_optimize)
endfunction()
