# stark_optimize_target(<target> [BACKEND b] [MODEL m] [BUDGET n] [MODE variants|patch]
#                       [TEST_ARGS <ctest args>...] [TEST_COMMAND <cmd>...] [OUTPUT_DIR dir])
#
# Adds <target>_stark_optimize (and the umbrella stark_optimize), which runs
# (STARKRun.cmake)
#   stark optimize -p <build> --target <target> --out <OUTPUT_DIR> [...] -- <tests>
#   stark apply --result <OUTPUT_DIR> --mode variants     (MODE patch: -o <OUTPUT_DIR>/stark.patch)
# <tests> is TEST_COMMAND, or `ctest --test-dir <build> <TEST_ARGS>`. OUTPUT_DIR
# defaults to <build>/stark/<target>. Run again while <target> compiles the
# variants, it optimizes the originals in <OUTPUT_DIR>/originals-build, a
# build of the same sources with the same cache and STARK_USE_VARIANTS=OFF.
#
# With MODE variants (the default) and STARK_USE_VARIANTS ON (the default),
# the configure step compiles the result's rewritten sources instead of the
# originals (STARKVariants.cmake); the result is a configure dependency, so
# the build after an optimize run reconfigures and uses the faster kernels.
# A rewritten source whose original changed since is dropped with a warning.
#
# STARK_SILENCE_ATTRIBUTE_WARNING (default ON): adds nvcc's -diag-suppress=2803
# to <target>, because nvcc warns "attribute namespace "stark" is unrecognized"
# for the raw [[stark::optimize]] spelling. It hides that warning for every
# unknown attribute namespace, not only ours; the STARK_OPTIMIZE(...) macro
# needs no silencing, so turn this OFF if you use only the macro.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/STARKVariants.cmake")
set(_STARK_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

option(STARK_SILENCE_ATTRIBUTE_WARNING
  "Silence nvcc warning 2803 (unknown attribute namespace) on optimized targets" ON)
option(STARK_USE_VARIANTS
  "Compile the optimized kernels of a STARK result instead of the originals" ON)

# The File API query is written at configure time so that `stark scan` finds a
# codemodel reply for this build tree without re-running CMake.
function(_stark_write_file_api_query)
  set(query_dir "${CMAKE_BINARY_DIR}/.cmake/api/v1/query/client-stark")
  foreach(kind codemodel-v2 toolchains-v1)
    if(NOT EXISTS "${query_dir}/${kind}")
      file(MAKE_DIRECTORY "${query_dir}")
      file(TOUCH "${query_dir}/${kind}")
    endif()
  endforeach()
endfunction()

# Whether this STARK has `stark optimize` (asked once per stark binary).
function(_stark_has_optimize exe out)
  file(TIMESTAMP "${exe}" stamp "%s")
  set(key "${exe}@${stamp}")
  if(NOT "${_STARK_OPTIMIZE_PROBE}" STREQUAL "${key}")
    execute_process(COMMAND "${exe}" optimize --help RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(have TRUE)
    else()
      set(have FALSE)
    endif()
    set(_STARK_OPTIMIZE_PROBE "${key}" CACHE INTERNAL "")
    set(_STARK_HAS_OPTIMIZE ${have} CACHE INTERNAL "")
  endif()
  set(${out} ${_STARK_HAS_OPTIMIZE} PARENT_SCOPE)
endfunction()

# Every executable of the directory `dir` and below that `all` builds.
function(_stark_collect_programs dir out)
  set(found "")
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    get_target_property(excluded ${t} EXCLUDE_FROM_ALL)
    if(type STREQUAL "EXECUTABLE" AND NOT excluded)
      list(APPEND found ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(d IN LISTS subdirs)
    _stark_collect_programs("${d}" below)
    list(APPEND found ${below})
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# The cache of this build as an initial-cache script (cmake -C): a second
# build of the same sources configured with it is the same build, but for
# what the command line then sets.
function(_stark_write_initial_cache file)
  get_cmake_property(names CACHE_VARIABLES)
  set(text "# The cache of ${CMAKE_BINARY_DIR}, written by stark_optimize_target().\n")
  foreach(name IN LISTS names)
    get_property(type CACHE "${name}" PROPERTY TYPE)
    if(type MATCHES "^(INTERNAL|STATIC)$" OR name STREQUAL "STARK_USE_VARIANTS")
      continue()
    endif()
    if(type STREQUAL "UNINITIALIZED")
      set(type STRING)
    endif()
    get_property(value CACHE "${name}" PROPERTY VALUE)
    set(eq "==")
    while(value MATCHES "]${eq}]")
      string(APPEND eq "=")
    endwhile()
    string(APPEND text "set([${eq}[${name}]${eq}] [${eq}[${value}]${eq}] CACHE ${type} \"\")\n")
  endforeach()
  file(WRITE "${file}" "${text}")
endfunction()

function(_stark_depend_on_programs optimize_target)
  _stark_collect_programs("${CMAKE_SOURCE_DIR}" programs)
  if(NOT programs STREQUAL "")
    add_dependencies(${optimize_target} ${programs})
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
  if(NOT S_MODE)
    set(S_MODE variants)
  endif()
  if(NOT S_MODE MATCHES "^(variants|patch)$")
    message(FATAL_ERROR "stark_optimize_target(${target}): MODE must be variants or patch, not '${S_MODE}'")
  endif()
  if(S_TEST_ARGS AND S_TEST_COMMAND)
    message(FATAL_ERROR "stark_optimize_target(${target}): give TEST_ARGS (for ctest) or TEST_COMMAND, not both")
  endif()
  if(NOT S_OUTPUT_DIR)
    set(S_OUTPUT_DIR "${CMAKE_BINARY_DIR}/stark/${target}")
  endif()
  cmake_path(ABSOLUTE_PATH S_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE)

  _stark_write_file_api_query()
  target_link_libraries(${target} PUBLIC STARK::headers)
  if(STARK_SILENCE_ATTRIBUTE_WARNING)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-diag-suppress=2803>)
  endif()

  if(NOT TARGET STARK::stark)
    message(WARNING "STARK: this STARK installation has no stark command (built without clang); "
                    "${target}_stark_optimize is not available")
  else()
    get_target_property(exe STARK::stark LOCATION)
    _stark_has_optimize("${exe}" have_optimize)
    set(stark "$<TARGET_FILE:STARK::stark>")
    # The scan-only target never reads a build that compiles the variants (STARKGuard.cmake).
    set(guard "${CMAKE_COMMAND}" -DSTAMP=${S_OUTPUT_DIR}/variants-in-use.txt -DTARGET=${target}
              -DBUILD=${CMAKE_BINARY_DIR} -P "${_STARK_MODULE_DIR}/STARKGuard.cmake")
    if(have_optimize)
      set(optimize_args "")
      foreach(opt BACKEND MODEL BUDGET)
        if(S_${opt})
          string(TOLOWER ${opt} flag)
          list(APPEND optimize_args --${flag} "${S_${opt}}")
        endif()
      endforeach()
      # What STARKRun.cmake needs, written now; the configuration comes at build time.
      get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
      set(params "${S_OUTPUT_DIR}/stark-run.cmake")
      set(text "# Written by stark_optimize_target(${target}); read by STARKRun.cmake.\n")
      foreach(pair "STARK_EXE;${exe}" "TARGET;${target}" "BUILD;${CMAKE_BINARY_DIR}" "SOURCE;${CMAKE_SOURCE_DIR}"
                   "OUT;${S_OUTPUT_DIR}" "GENERATOR;${CMAKE_GENERATOR}" "MULTI_CONFIG;${multi_config}"
                   "MODE;${S_MODE}" "CTEST;${CMAKE_CTEST_COMMAND}" "INIT_CACHE;${S_OUTPUT_DIR}/originals-cache.cmake")
        list(GET pair 0 name)
        list(SUBLIST pair 1 -1 value)
        string(APPEND text "set(${name} [==[${value}]==])\n")
      endforeach()
      foreach(name OPTIMIZE_ARGS TEST_COMMAND TEST_ARGS)
        if(name STREQUAL "OPTIMIZE_ARGS")
          set(values ${optimize_args})
        else()
          set(values ${S_${name}})
        endif()
        set(quoted "\"\"")  # set(X) would unset X, and if() would then read its name
        if(NOT "${values}" STREQUAL "")
          set(quoted "")
          foreach(v IN LISTS values)
            string(APPEND quoted " [==[${v}]==]")
          endforeach()
        endif()
        string(APPEND text "set(${name} ${quoted})\n")
      endforeach()
      file(WRITE "${params}" "${text}")
      cmake_language(EVAL CODE
        "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL _stark_write_initial_cache [[${S_OUTPUT_DIR}/originals-cache.cmake]])")
      add_custom_target(${target}_stark_optimize
        COMMAND "${CMAKE_COMMAND}" -DPARAMS=${params} -DCONFIG=$<CONFIG> -P "${_STARK_MODULE_DIR}/STARKRun.cmake"
        WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
        COMMENT "STARK: optimizing the kernels of ${target}"
        USES_TERMINAL VERBATIM)
    else()
      # This STARK has no optimizer yet: list the kernels (the first stage)
      # and say so, rather than fail.
      add_custom_target(${target}_stark_optimize
        COMMAND ${guard}
        COMMAND "${stark}" scan -p "${CMAKE_BINARY_DIR}" --target ${target} -o "${S_OUTPUT_DIR}/manifest.json"
        COMMAND "${CMAKE_COMMAND}" -E echo
                "STARK: this stark (${exe}) has no 'optimize' command yet: only scanned ${target} -> ${S_OUTPUT_DIR}/manifest.json"
        WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
        COMMENT "STARK: scanning the kernels of ${target}"
        USES_TERMINAL VERBATIM)
    endif()
    add_dependencies(${target}_stark_optimize ${target})
    # The tests it runs are the project's programs: built first, including
    # those added after this call (the deferred call sees the whole project).
    cmake_language(EVAL CODE
      "cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]] CALL _stark_depend_on_programs [[${target}_stark_optimize]])")
    if(NOT TARGET stark_optimize)
      add_custom_target(stark_optimize)
    endif()
    add_dependencies(stark_optimize ${target}_stark_optimize)
  endif()

  # The swap runs once the directory is fully processed, so sources and
  # include directories added after this call are seen too.
  if(S_MODE STREQUAL "variants")
    cmake_language(EVAL CODE
      "cmake_language(DEFER DIRECTORY [[${CMAKE_CURRENT_SOURCE_DIR}]] CALL _stark_use_variants [[${target}]] [[${S_OUTPUT_DIR}]])")
  endif()
endfunction()
