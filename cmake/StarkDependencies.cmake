# Third-party dependencies of STARK, as imported targets:
#   nlohmann_json::nlohmann_json  fmt::fmt  stark::xxhash  stark::zstd
#
# On a development machine they come from Debian packages
# (scripts/install-deps.sh). On a GPU machine that has only the CUDA toolkit
# and a compiler, the header-only ones can be carried in one folder, named by
# STARK_CARRIED_INCLUDE_DIR (scripts/gpu-run.sh prepares it): nlohmann/,
# fmt/ (used header-only), xxhash.h (used with XXH_INLINE_ALL), zstd.h (the
# libzstd.so.1 runtime must be installed there), CLI/ and gtest sources.

set(STARK_CARRIED_INCLUDE_DIR "" CACHE PATH
    "Folder of carried header-only dependencies (nlohmann/, fmt/, xxhash.h, zstd.h, CLI/) for machines without their packages")

function(_stark_carried_header header out)
  if(STARK_CARRIED_INCLUDE_DIR AND EXISTS "${STARK_CARRIED_INCLUDE_DIR}/${header}")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(_stark_missing what package)
  message(FATAL_ERROR
    "STARK needs ${what}: install the Debian package ${package} (scripts/install-deps.sh), "
    "or point STARK_CARRIED_INCLUDE_DIR at a folder holding its headers.")
endfunction()

# nlohmann/json (header-only either way).
find_package(nlohmann_json 3.10 QUIET)
if(NOT nlohmann_json_FOUND)
  _stark_carried_header(nlohmann/json.hpp have)
  if(NOT have)
    _stark_missing("nlohmann/json 3.10+" nlohmann-json3-dev)
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${STARK_CARRIED_INCLUDE_DIR}")
  message(STATUS "STARK: nlohmann/json from ${STARK_CARRIED_INCLUDE_DIR}")
endif()

# The relocatable bundle (STARK_STATIC_CLANG) must not need libfmt or
# libxxhash on the target machine: use both header-only there.
set(_stark_header_only ${STARK_STATIC_CLANG})

# fmt: the packaged library, or header-only from the carried folder.
if(_stark_header_only)
  find_path(STARK_FMT_INCLUDE fmt/format.h HINTS ${STARK_CARRIED_INCLUDE_DIR})
  if(NOT STARK_FMT_INCLUDE)
    _stark_missing("the fmt headers" libfmt-dev)
  endif()
  add_library(fmt::fmt INTERFACE IMPORTED GLOBAL)
  set_target_properties(fmt::fmt PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${STARK_FMT_INCLUDE}"
    INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
  set(fmt_FOUND TRUE)
else()
  find_package(fmt QUIET)
endif()
if(NOT fmt_FOUND)
  _stark_carried_header(fmt/format.h have)
  if(NOT have)
    _stark_missing("the fmt library" libfmt-dev)
  endif()
  add_library(fmt::fmt INTERFACE IMPORTED GLOBAL)
  set_target_properties(fmt::fmt PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${STARK_CARRIED_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
  message(STATUS "STARK: fmt (header-only) from ${STARK_CARRIED_INCLUDE_DIR}")
endif()

# xxHash: libxxhash, or inlined from the carried header.
add_library(stark::xxhash INTERFACE IMPORTED GLOBAL)
find_path(STARK_XXHASH_INCLUDE xxhash.h)
find_library(STARK_XXHASH_LIBRARY xxhash)
if(STARK_XXHASH_INCLUDE AND _stark_header_only)
  set_target_properties(stark::xxhash PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${STARK_XXHASH_INCLUDE}"
    INTERFACE_COMPILE_DEFINITIONS XXH_INLINE_ALL=1)
elseif(STARK_XXHASH_INCLUDE AND STARK_XXHASH_LIBRARY)
  set_target_properties(stark::xxhash PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${STARK_XXHASH_INCLUDE}"
    INTERFACE_LINK_LIBRARIES "${STARK_XXHASH_LIBRARY}")
else()
  _stark_carried_header(xxhash.h have)
  if(NOT have)
    _stark_missing("xxHash" libxxhash-dev)
  endif()
  set_target_properties(stark::xxhash PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${STARK_CARRIED_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS XXH_INLINE_ALL=1)
endif()

# zstd: header from the package or the carried folder; the library may be
# only the runtime (libzstd.so.1) on the GPU machine.
add_library(stark::zstd INTERFACE IMPORTED GLOBAL)
find_path(STARK_ZSTD_INCLUDE zstd.h HINTS ${STARK_CARRIED_INCLUDE_DIR})
find_library(STARK_ZSTD_LIBRARY NAMES zstd libzstd.so.1)
if(NOT STARK_ZSTD_INCLUDE OR NOT STARK_ZSTD_LIBRARY)
  _stark_missing("zstd (header and library)" libzstd-dev)
endif()
set_target_properties(stark::zstd PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${STARK_ZSTD_INCLUDE}"
  INTERFACE_LINK_LIBRARIES "${STARK_ZSTD_LIBRARY}")

# CLI11 (header-only): the stark command and the harness's GPU-machine tool.
add_library(stark::cli11 INTERFACE IMPORTED GLOBAL)
find_path(STARK_CLI11_INCLUDE CLI/CLI.hpp HINTS ${STARK_CARRIED_INCLUDE_DIR})
if(STARK_CLI11_INCLUDE)
  set_target_properties(stark::cli11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${STARK_CLI11_INCLUDE}")
endif()

# GoogleTest: the package, or its sources carried to STARK_GTEST_SOURCE_DIR.
set(STARK_GTEST_SOURCE_DIR "" CACHE PATH "GoogleTest sources to build when the package is missing")
macro(stark_find_gtest)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    if(NOT STARK_GTEST_SOURCE_DIR OR NOT EXISTS "${STARK_GTEST_SOURCE_DIR}/CMakeLists.txt")
      _stark_missing("GoogleTest" "libgtest-dev libgmock-dev")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    add_subdirectory(${STARK_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/_gtest EXCLUDE_FROM_ALL)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
    add_library(GTest::gmock ALIAS gmock)
  endif()
endmacro()
