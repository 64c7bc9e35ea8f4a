# libunwind's file name as the dynamic loader knows it (its SONAME, e.g.
# libunwind.so.8): benchprof loads it with dlopen at run time instead of
# linking it (harness/src/collect/stack_capture.cc says why), so the build
# needs its header and this name, not its library on the link line.
# Sets BENCHPROF_LIBUNWIND_SONAME.
include(${CMAKE_CURRENT_LIST_DIR}/BenchprofSoname.cmake)
find_library(BENCHPROF_LIBUNWIND_LIBRARY NAMES unwind HINTS ${LIBUNWIND_LIBRARY_DIRS} REQUIRED)
benchprof_read_soname("${BENCHPROF_LIBUNWIND_LIBRARY}" BENCHPROF_LIBUNWIND_SONAME)
message(STATUS "libunwind, loaded at run time: ${BENCHPROF_LIBUNWIND_SONAME}")
