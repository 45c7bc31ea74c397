# Third-party dependencies of STARK, as imported targets:
#   nlohmann_json::nlohmann_json  fmt::fmt  stark::xxhash  stark::zstd  stark::cli11
#
# On a development machine they come from Debian packages
# (scripts/install-deps.sh). On a GPU machine that has only the CUDA toolkit
# and a compiler, the header-only ones can be carried in one folder, named by
# STARK_CARRIED_INCLUDE_DIR (scripts/gpu-run.sh --prepare fills it), with one
# subfolder per dependency so that one never brings another's headers along
# (a machine may have some packages itself, in other versions):
#   json/nlohmann/json.hpp  fmt/fmt/format.h (used header-only)
#   xxhash/xxhash.h (used with XXH_INLINE_ALL)  zstd/zstd.h (libzstd.so.1 must
#   be installed)  cli11/CLI/CLI.hpp  dtl/dtl/dtl.hpp (core's diffs; core finds it
#   itself)
# A dependency the machine has is always taken from the machine.

set(STARK_CARRIED_INCLUDE_DIR "" CACHE PATH
    "Folder of carried header-only dependencies (json/, fmt/, xxhash/, zstd/, cli11/, dtl/) for machines without their packages")

# _stark_carried(<subfolder> <header> <out>): the carried subfolder holding header, or "".
function(_stark_carried sub header out)
  if(STARK_CARRIED_INCLUDE_DIR AND EXISTS "${STARK_CARRIED_INCLUDE_DIR}/${sub}/${header}")
    set(${out} "${STARK_CARRIED_INCLUDE_DIR}/${sub}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
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
  _stark_carried(json nlohmann/json.hpp dir)
  if(NOT dir)
    _stark_missing("nlohmann/json 3.10+" nlohmann-json3-dev)
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${dir}")
  message(STATUS "STARK: nlohmann/json from ${dir}")
endif()

# The relocatable bundle (STARK_STATIC_CLANG) must not need libfmt or
# libxxhash on the target machine: use both header-only there.
set(_stark_header_only ${STARK_STATIC_CLANG})

# fmt: the packaged library, or header-only from the carried folder.
if(_stark_header_only)
  find_path(STARK_FMT_INCLUDE fmt/format.h PATHS ${STARK_CARRIED_INCLUDE_DIR}/fmt)
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
  _stark_carried(fmt fmt/format.h dir)
  if(NOT dir)
    _stark_missing("the fmt library" libfmt-dev)
  endif()
  add_library(fmt::fmt INTERFACE IMPORTED GLOBAL)
  set_target_properties(fmt::fmt PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${dir}"
    INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
  message(STATUS "STARK: fmt (header-only) from ${dir}")
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
  _stark_carried(xxhash xxhash.h dir)
  if(NOT dir)
    _stark_missing("xxHash" libxxhash-dev)
  endif()
  set_target_properties(stark::xxhash PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${dir}"
    INTERFACE_COMPILE_DEFINITIONS XXH_INLINE_ALL=1)
endif()

# zstd: header from the package or the carried folder; the library may be
# only the runtime (libzstd.so.1) on the GPU machine.
add_library(stark::zstd INTERFACE IMPORTED GLOBAL)
find_path(STARK_ZSTD_INCLUDE zstd.h PATHS ${STARK_CARRIED_INCLUDE_DIR}/zstd)  # the machine's first
find_library(STARK_ZSTD_LIBRARY NAMES zstd libzstd.so.1)
if(NOT STARK_ZSTD_INCLUDE OR NOT STARK_ZSTD_LIBRARY)
  _stark_missing("zstd (header and library)" libzstd-dev)
endif()
set_target_properties(stark::zstd PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${STARK_ZSTD_INCLUDE}"
  INTERFACE_LINK_LIBRARIES "${STARK_ZSTD_LIBRARY}")

# CLI11 (header-only): the stark command and the harness's GPU-machine tool.
add_library(stark::cli11 INTERFACE IMPORTED GLOBAL)
find_path(STARK_CLI11_INCLUDE CLI/CLI.hpp PATHS ${STARK_CARRIED_INCLUDE_DIR}/cli11)
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
