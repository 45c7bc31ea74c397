# The configure-time half of `--mode variants`: compiles a target from the
# variant tree that `stark apply --mode variants` wrote, so its optimized
# kernels are built instead of the originals, without touching the sources.
#
# _stark_use_variants(<target> <result dir>) is called (deferred) by
# stark_optimize_target(). With a result (<result dir>/result.json) and
# STARK_USE_VARIANTS ON it:
#   1. runs `stark apply --mode variants -p <this build>` when the fragment
#      (<result dir>/variants/stark-variants.cmake) is missing, was made from
#      another result.json, or is not the one this build's apply wrote (a
#      fragment is CMake code: one that came with a result is never included);
#   2. compares each rewritten file's original with the SHA-256 the fragment
#      recorded: a group of kernels with a changed original is stale, is
#      dropped with a warning, and its files are built from the original;
#   3. points every source of <target> inside the source root at its place
#      in the tree (real folders, links to the originals, rewritten copies),
#      and puts the tree's include folders first, so every include of a
#      rewritten file, relative or through -I, finds the rewritten copy.
# result.json, the fragment and every rewritten file's original are
# configure dependencies: a new result, or an edit of an original, makes the
# next build configure again.
include_guard(GLOBAL)

# Writes `from`'s content to `to` when it differs, with a fresh time stamp.
function(_stark_sync_copy from to)
  if(IS_SYMLINK "${to}")
    file(REMOVE "${to}")  # never write through a link into a user's file
  endif()
  if(EXISTS "${to}")
    file(SHA256 "${from}" a)
    file(SHA256 "${to}" b)
    if(a STREQUAL b)
      return()
    endif()
  endif()
  get_filename_component(dir "${to}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  file(COPY_FILE "${from}" "${to}")
  file(TOUCH_NOCREATE "${to}")
endfunction()

# Links entries added to the source tree since the apply into the tree's
# real folders (links to folders follow new files by themselves).
function(_stark_refresh_tree tree source_root)
  file(GLOB_RECURSE entries LIST_DIRECTORIES true RELATIVE "${tree}" "${tree}/*")
  set(real "")
  foreach(e IN LISTS entries)
    if(IS_DIRECTORY "${tree}/${e}" AND NOT IS_SYMLINK "${tree}/${e}")
      list(APPEND real "${e}")
    endif()
  endforeach()
  foreach(dir "" ${real})
    file(GLOB children LIST_DIRECTORIES true RELATIVE "${source_root}/${dir}" "${source_root}/${dir}/*")
    foreach(child IN LISTS children)
      set(original "${source_root}/${dir}/${child}")
      set(mirror "${tree}/${dir}/${child}")
      cmake_path(NORMAL_PATH original)
      cmake_path(NORMAL_PATH mirror)
      if(EXISTS "${mirror}" OR IS_SYMLINK "${mirror}" OR child STREQUAL ".git")
        continue()
      endif()
      cmake_path(IS_PREFIX original "${tree}" holds_tree)
      cmake_path(IS_PREFIX original "${CMAKE_BINARY_DIR}" holds_build)
      if(holds_tree OR original STREQUAL CMAKE_BINARY_DIR OR holds_build)
        continue()
      endif()
      file(CREATE_LINK "${original}" "${mirror}" SYMBOLIC)
    endforeach()
  endforeach()
endfunction()

# Runs `stark apply --mode variants` (its compile check with this build's
# compile database and CUDA compiler); TRUE in `ok` when a fragment exists
# after. The fragment's SHA-256 goes into the cache: only a fragment this
# build's own apply wrote is ever included (a result folder is not trusted,
# and a fragment is CMake code).
function(_stark_run_apply target result_dir fragment ok)
  get_target_property(exe STARK::stark LOCATION)
  message(STATUS "STARK: ${target}: applying ${result_dir}/result.json (stark apply --mode variants)")
  file(REMOVE "${fragment}")  # whatever is there after the run, the run wrote
  # Echoed as it runs: the compile check runs nvcc for every unit and arch,
  # which takes a while, and a silent configure looks hung.
  execute_process(COMMAND "${exe}" apply --result "${result_dir}" --mode variants -p "${CMAKE_BINARY_DIR}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
                  ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE)
  if(NOT rc EQUAL 0)
    message(WARNING "STARK: ${target}: stark apply --mode variants reported problems (its output is above); "
                    "the kernels it names are built from the originals")
  endif()
  if(EXISTS "${fragment}" AND NOT IS_SYMLINK "${fragment}")
    file(SHA256 "${fragment}" written)
    set(_STARK_VARIANTS_FRAGMENT_${target} "${written}" CACHE INTERNAL "SHA-256 of the fragment stark apply wrote")
    set(${ok} TRUE PARENT_SCOPE)
  else()
    set(${ok} FALSE PARENT_SCOPE)
  endif()
endfunction()

# TRUE in `out` when `fragment` is the one this build's apply wrote last.
function(_stark_own_fragment target fragment out)
  set(${out} FALSE PARENT_SCOPE)
  if(EXISTS "${fragment}" AND NOT IS_SYMLINK "${fragment}" AND _STARK_VARIANTS_FRAGMENT_${target})
    file(SHA256 "${fragment}" now)
    if(now STREQUAL _STARK_VARIANTS_FRAGMENT_${target})
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

# <target>_stark_originals: an object library nothing builds, of the sources
# the variants replace, with <target>'s flags as they are before the swap.
# It keeps the files people edit in compile_commands.json (clangd,
# clang-tidy, IDEs), and `stark scan --target <target>` reads them instead
# of the tree's copies.
function(_stark_add_originals_library target originals)
  if(originals STREQUAL "" OR TARGET ${target}_stark_originals)
    return()
  endif()
  add_library(${target}_stark_originals OBJECT EXCLUDE_FROM_ALL ${originals})
  foreach(p INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS COMPILE_FEATURES LINK_LIBRARIES
            CUDA_ARCHITECTURES CUDA_STANDARD CUDA_STANDARD_REQUIRED CUDA_EXTENSIONS CUDA_SEPARABLE_COMPILATION
            CUDA_RUNTIME_LIBRARY CXX_STANDARD CXX_STANDARD_REQUIRED CXX_EXTENSIONS POSITION_INDEPENDENT_CODE)
    get_target_property(v ${target} ${p})
    if(NOT v STREQUAL "v-NOTFOUND")
      set_property(TARGET ${target}_stark_originals PROPERTY ${p} "${v}")
    endif()
  endforeach()
endfunction()

function(_stark_use_variants target result_dir)
  # Says "this target compiles the variants" to <target>_stark_optimize; only
  # a swap that happens below writes it again.
  set(in_use "${result_dir}/variants-in-use.txt")
  file(REMOVE "${in_use}")
  set(result "${result_dir}/result.json")
  set(fragment "${result_dir}/variants/stark-variants.cmake")
  if(NOT EXISTS "${result}")
    # No result yet: depend on the folder, whose time stamp changes when
    # stark optimize writes result.json into it.
    file(MAKE_DIRECTORY "${result_dir}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${result_dir}")
    return()
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${result}")
  if(NOT STARK_USE_VARIANTS)
    message(STATUS "STARK: ${target}: STARK_USE_VARIANTS is OFF; building the original kernels")
    return()
  endif()
  if(NOT TARGET STARK::stark)
    return()
  endif()

  file(SHA256 "${result}" result_sha256)
  set(STARK_VARIANTS_RESULT_SHA256 "")
  set(STARK_VARIANTS_TREE "")
  _stark_own_fragment(${target} "${fragment}" own)
  if(own)
    include("${fragment}")
  endif()
  if(NOT STARK_VARIANTS_RESULT_SHA256 STREQUAL result_sha256 OR NOT IS_DIRECTORY "${STARK_VARIANTS_TREE}")
    _stark_run_apply(${target} "${result_dir}" "${fragment}" have_fragment)
    if(NOT have_fragment)
      message(WARNING "STARK: ${target}: no variants were written; building the original kernels")
      return()
    endif()
    include("${fragment}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${fragment}")
  if(NOT STARK_VARIANTS_VERSION EQUAL 1)
    message(WARNING "STARK: ${target}: ${fragment} has format ${STARK_VARIANTS_VERSION}, this STARK reads 1; "
                    "building the original kernels (run stark apply --mode variants again)")
    return()
  endif()
  # Lists are tested by length: a one-element list such as "0" is false in if().
  list(LENGTH STARK_VARIANTS_TARGETS result_targets)
  list(LENGTH STARK_VARIANTS_FILES result_files)
  if(result_targets GREATER 0 AND NOT target IN_LIST STARK_VARIANTS_TARGETS)
    message(STATUS "STARK: ${target}: the result holds kernels of ${STARK_VARIANTS_TARGETS} only; nothing to swap")
    return()
  endif()
  if(result_files EQUAL 0)
    message(STATUS "STARK: ${target}: the result has no improved kernel to use; building the originals")
    return()
  endif()
  set(root "${STARK_VARIANTS_SOURCE_ROOT}")
  set(tree "${STARK_VARIANTS_TREE}")

  # Stale originals drop their whole group.
  set(stale_groups "")
  foreach(i IN LISTS STARK_VARIANTS_FILES)
    set(path "${STARK_VARIANTS_FILE_${i}_PATH}")
    set(original "${root}/${path}")
    set(group ${STARK_VARIANTS_FILE_${i}_GROUP})
    if(EXISTS "${original}")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${original}")
      file(SHA256 "${original}" now)
    else()
      set(now "missing")
    endif()
    set(why "")
    if(NOT now STREQUAL STARK_VARIANTS_FILE_${i}_SHA256)
      set(why "${path} changed since it was optimized")
    elseif(NOT EXISTS "${STARK_VARIANTS_FILE_${i}_REWRITTEN}")
      set(why "its rewritten copy ${STARK_VARIANTS_FILE_${i}_REWRITTEN} is missing")
    endif()
    if(why AND NOT group IN_LIST stale_groups)
      list(APPEND stale_groups ${group})
      string(REPLACE ";" ", " kernels "${STARK_VARIANTS_GROUP_${group}_KERNELS}")
      message(WARNING "STARK: ${target}: ${why}; building the original of ${kernels} "
                      "(stale variant dropped). Run `cmake --build ${CMAKE_BINARY_DIR} --target ${target}_stark_optimize` "
                      "to optimize the current source.")
    endif()
  endforeach()
  list(LENGTH STARK_VARIANTS_GROUPS groups)
  list(LENGTH stale_groups stale)
  if(stale EQUAL groups)
    return()
  endif()

  # The tree's copies: rewritten for usable groups, the original for stale ones.
  set(kernels 0)
  foreach(g IN LISTS STARK_VARIANTS_GROUPS)
    if(NOT g IN_LIST stale_groups)
      list(LENGTH STARK_VARIANTS_GROUP_${g}_KERNELS n)
      math(EXPR kernels "${kernels} + ${n}")
    endif()
  endforeach()
  foreach(i IN LISTS STARK_VARIANTS_FILES)
    if(STARK_VARIANTS_FILE_${i}_GROUP IN_LIST stale_groups)
      if(EXISTS "${root}/${STARK_VARIANTS_FILE_${i}_PATH}")
        _stark_sync_copy("${root}/${STARK_VARIANTS_FILE_${i}_PATH}" "${tree}/${STARK_VARIANTS_FILE_${i}_PATH}")
      endif()
    else()
      _stark_sync_copy("${STARK_VARIANTS_FILE_${i}_REWRITTEN}" "${tree}/${STARK_VARIANTS_FILE_${i}_PATH}")
    endif()
  endforeach()
  _stark_refresh_tree("${tree}" "${root}")

  # Sources of the target inside the source root compile from the tree.
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(swapped "")
  set(originals "")
  set(quote_dirs "")
  set(copy_properties COMPILE_DEFINITIONS COMPILE_OPTIONS COMPILE_FLAGS INCLUDE_DIRECTORIES LANGUAGE
      OBJECT_DEPENDS SKIP_PRECOMPILE_HEADERS SKIP_UNITY_BUILD_INCLUSION HEADER_FILE_ONLY)
  foreach(s IN LISTS sources)
    if(s MATCHES "^\\$<")
      list(APPEND swapped "${s}")
      continue()
    endif()
    cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY "${source_dir}" NORMALIZE OUTPUT_VARIABLE abs)
    cmake_path(IS_PREFIX root "${abs}" NORMALIZE inside)
    cmake_path(IS_PREFIX CMAKE_BINARY_DIR "${abs}" NORMALIZE generated)
    cmake_path(RELATIVE_PATH abs BASE_DIRECTORY "${root}" OUTPUT_VARIABLE rel)
    if(NOT inside OR generated OR NOT EXISTS "${tree}/${rel}")
      list(APPEND swapped "${s}")
      continue()
    endif()
    list(APPEND swapped "${tree}/${rel}")
    list(APPEND originals "${abs}")
    foreach(p IN LISTS copy_properties)
      get_source_file_property(v "${abs}" TARGET_DIRECTORY ${target} ${p})
      if(NOT v STREQUAL "NOTFOUND")
        set_source_files_properties("${tree}/${rel}" TARGET_DIRECTORY ${target} PROPERTIES ${p} "${v}")
      endif()
    endforeach()
    get_filename_component(dir "${abs}" DIRECTORY)
    list(APPEND quote_dirs "${dir}")
  endforeach()
  _stark_add_originals_library(${target} "${originals}")
  set_property(TARGET ${target} PROPERTY SOURCES "${swapped}")

  # Include folders inside the source root: their tree twins first.
  get_target_property(includes ${target} INCLUDE_DIRECTORIES)
  if(NOT includes)
    set(includes "")
  endif()
  set(mapped "")
  foreach(d IN LISTS includes STARK_VARIANTS_INCLUDE_DIRS)
    string(FIND "${d}" "${root}/" at)
    string(FIND "${d}" "${CMAKE_BINARY_DIR}" in_build)
    if((d STREQUAL root OR at GREATER_EQUAL 0) AND in_build EQUAL -1)
      string(REPLACE "${root}" "${tree}" m "${d}")
      if(NOT m IN_LIST mapped)
        list(APPEND mapped "${m}")
      endif()
    endif()
  endforeach()
  if(mapped)
    target_include_directories(${target} BEFORE PRIVATE ${mapped})
  endif()
  # Headers created after the apply are not in the tree's real folders until
  # the next configure: let "x.h" fall back to the original folder.
  list(REMOVE_DUPLICATES quote_dirs)
  foreach(d IN LISTS quote_dirs)
    if(NOT d MATCHES "[, ]")
      target_compile_options(${target} PRIVATE
        "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-iquote,${d}>" "$<$<COMPILE_LANGUAGE:CXX>:-iquote${d}>")
    endif()
  endforeach()
  file(WRITE "${in_use}" "${tree}\n")
  message(STATUS "STARK: ${target}: compiling ${kernels} optimized kernel(s) from ${tree} "
                 "(STARK_USE_VARIANTS=OFF builds the originals)")
endfunction()
