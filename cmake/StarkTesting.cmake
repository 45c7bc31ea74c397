# stark_test(<name> SOURCES ... LIBS ... [LABELS ...]): one GoogleTest binary
# beside its source, registered test by test so ctest -R picks single cases.
function(stark_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    STARK_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    STARK_BINARY_DIR="${PROJECT_BINARY_DIR}")
  stark_warnings(${name})
  set(props)
  if(T_LABELS)
    set(props PROPERTIES LABELS "${T_LABELS}")
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST ${props})
endfunction()
