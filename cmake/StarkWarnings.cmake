# stark_warnings(<target>): the project's warning level for its own C++ code;
# with STARK_WERROR (CI turns it on) a warning fails the build.
# -Wno-missing-field-initializers: the code initialises aggregates by their
# leading fields and gives every member a default, on purpose.
function(stark_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
  if(STARK_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
