# cmake -P STARKGuard.cmake -DSTAMP=<file> -DTARGET=<target> -DBUILD=<dir>
# First step of <target>_stark_optimize: refuses to run while <target> is
# compiled from a variant tree. A scan of that build would read the rewritten
# copies instead of your sources, and the next result would be about them.
if(EXISTS "${STAMP}")
  file(READ "${STAMP}" tree)
  string(STRIP "${tree}" tree)
  message(FATAL_ERROR
    "STARK: ${TARGET} is compiled from the optimized variants in ${tree}.\n"
    "To optimize it again from your sources, build the originals first:\n"
    "  cmake -DSTARK_USE_VARIANTS=OFF ${BUILD}\n"
    "  cmake --build ${BUILD} --target ${TARGET}_stark_optimize\n"
    "  cmake -DSTARK_USE_VARIANTS=ON ${BUILD}")
endif()
