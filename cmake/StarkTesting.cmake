# stark_test(<name> SOURCES ... LIBS ... [LABELS ...] [FIXTURES ...]): one
# GoogleTest binary beside its source, registered case by case so that
# `ctest -R` picks single cases. FIXTURES names ctest fixtures every case needs.
function(stark_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS;FIXTURES" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    STARK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    STARK_BINARY_DIR="${PROJECT_BINARY_DIR}")
  stark_warnings(${name})
  set(props)
  if(T_LABELS)
    list(APPEND props LABELS "${T_LABELS}")
  endif()
  if(T_FIXTURES)
    list(APPEND props FIXTURES_REQUIRED "${T_FIXTURES}")
  endif()
  if(props)
    gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST PROPERTIES ${props})
  else()
    gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST)
  endif()
endfunction()

# stark_test_project(<fixture> <source dir>): configures a test CMake project
# once per ctest run (fixture <fixture>) into tests/projects/<fixture>-build.
function(stark_test_project fixture source_dir)
  set(build_dir ${PROJECT_BINARY_DIR}/tests/projects/${fixture}-build)
  add_test(NAME configure_${fixture}
    COMMAND ${CMAKE_COMMAND} -S ${source_dir} -B ${build_dir} -G Ninja
            -DCMAKE_CUDA_COMPILER=${STARK_NVCC} -DSTARK_INCLUDE_DIR=${PROJECT_SOURCE_DIR}/include
            -DCMAKE_BUILD_TYPE=Release ${ARGN})
  set_tests_properties(configure_${fixture} PROPERTIES FIXTURES_SETUP ${fixture})
endfunction()
