# cmake -DPARAMS=<file> -DCONFIG=<config> -P STARKRun.cmake
# What <target>_stark_optimize runs: stark optimize on the target with the
# project's tests, then stark apply. PARAMS is the file stark_optimize_target()
# wrote at configure time (STARK_EXE, TARGET, BUILD, SOURCE, OUT, GENERATOR,
# MULTI_CONFIG, MODE, OPTIMIZE_ARGS, TEST_COMMAND, TEST_ARGS, CTEST,
# INIT_CACHE); CONFIG is the configuration being built.
#
# While <target> compiles the optimized variants, its tests run the variants,
# and their captured launches are the variants' (a variant may launch another
# grid): the originals are optimized in a build of their own instead,
# OUT/originals-build, configured from the same sources with the same cache
# and STARK_USE_VARIANTS=OFF. Both builds share one result cache.
include("${PARAMS}")

function(_stark_run)
  list(JOIN ARGN " " shown)
  message(STATUS "STARK: $ ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "STARK: ${TARGET}: this step failed (${rc}): ${shown}")
  endif()
endfunction()

set(build "${BUILD}")
set(config_args "")
if(MULTI_CONFIG AND NOT "${CONFIG}" STREQUAL "")
  set(config_args --config "${CONFIG}")
endif()
if(EXISTS "${OUT}/variants-in-use.txt")
  if(NOT "${TEST_COMMAND}" STREQUAL "")
    file(READ "${OUT}/variants-in-use.txt" tree)
    string(STRIP "${tree}" tree)
    message(FATAL_ERROR
      "STARK: ${TARGET} is compiled from the optimized variants in ${tree}, and its TEST_COMMAND runs this build.\n"
      "To optimize it again from your sources, build the originals first:\n"
      "  cmake -DSTARK_USE_VARIANTS=OFF ${BUILD}\n"
      "  cmake --build ${BUILD} --target ${TARGET}_stark_optimize\n"
      "  cmake -DSTARK_USE_VARIANTS=ON ${BUILD}")
  endif()
  set(build "${OUT}/originals-build")
  message(STATUS "STARK: ${TARGET} compiles the optimized variants; optimizing the originals in ${build}")
  _stark_run("${CMAKE_COMMAND}" -S "${SOURCE}" -B "${build}" -G "${GENERATOR}" -C "${INIT_CACHE}"
             -DSTARK_USE_VARIANTS=OFF)
  _stark_run("${CMAKE_COMMAND}" --build "${build}" ${config_args})
endif()

if(NOT "${TEST_COMMAND}" STREQUAL "")
  set(tests ${TEST_COMMAND})
else()
  set(tests "${CTEST}" --test-dir "${build}" --output-on-failure)
  if(MULTI_CONFIG AND NOT "${CONFIG}" STREQUAL "")
    list(APPEND tests -C "${CONFIG}")
  endif()
  list(APPEND tests ${TEST_ARGS})
endif()
_stark_run("${STARK_EXE}" optimize -p "${build}" --target "${TARGET}" --out "${OUT}" ${config_args}
           --cache-dir "${BUILD}/.stark/cache" ${OPTIMIZE_ARGS} -- ${tests})
if(MODE STREQUAL "variants")
  _stark_run("${STARK_EXE}" apply --result "${OUT}" --mode variants)
  message(STATUS "STARK: ${TARGET}: result in ${OUT}; the next build compiles the kernels stark apply listed as applied")
else()
  _stark_run("${STARK_EXE}" apply --result "${OUT}" --mode patch -o "${OUT}/stark.patch")
  message(STATUS "STARK: ${TARGET}: result in ${OUT}; review ${OUT}/stark.patch, then git apply it")
endif()
