# stark_warnings(<target>): the project's warning level for its own C++ code.
function(stark_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()
